// Tests of container/sorter.hpp with threads: parallel run formation and merges, exceptions from threads,
// double buffering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "container/sorter_checks.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;
using flashxxl_test::br;
using flashxxl_test::bw;
using flashxxl_test::check_sorter;
using flashxxl_test::item;
using flashxxl_test::mem;
using flashxxl_test::shape;
using flashxxl_test::small;
using flashxxl_test::small_blocks;

// Run formation sorts the first half of the run buffer on the sorter's threads as soon as it is filled, the
// rest when full, and merges the chunks while writing: exercise that with big runs, the machine's threads and
// 8 (even on 2 cores).
TEST(sorter, parallel_run_formation_chunks) {
    check_sorter<item<8>, std::less<item<8>>>(shape::random, 1000003, std::less<item<8>>(), 4 * 1024 * 1024);
    check_sorter<item<16>, std::less<item<16>>>(shape::few_distinct, 700001, std::less<item<16>>(),
                                                8 * 1024 * 1024, nullptr, small, 8);
}

// A comparator that throws while chunk_sort_pool threads sort chunks: the exception reaches
// the caller (push or sort), the sorter stays destructible, and every extent is given back.
TEST(sorter, throwing_comparator_reaches_the_caller_and_leaks_nothing) {
    struct fragile_less {
        std::shared_ptr<std::atomic<int>> budget;
        bool operator()(std::uint64_t a, std::uint64_t b) const {
            if (budget->fetch_sub(1) <= 0) throw std::runtime_error("comparator gave up");
            return a < b;
        }
    };
    machine m = flashxxl_test::tiny_machine();
    auto budget = std::make_shared<std::atomic<int>>(200000);
    {
        sorter<std::uint64_t, fragile_less> s(m, mem, small, fragile_less{budget});
        EXPECT_THROW(
            {
                for (std::uint64_t i = 0; i < 100000; ++i)
                    s.push((i * 7919) % 100003);
                s.sort();
                for (; !s.empty(); ++s) {
                }
            },
            std::runtime_error);
        // clear() after the failure makes it usable again.
        budget->store(1 << 30);
        s.clear();
        for (std::uint64_t i = 0; i < 30000; ++i)
            s.push(30000 - i);
        s.sort();
        std::uint64_t expect = 1;
        for (; !s.empty(); ++s)
            ASSERT_EQ(*s, expect++);
        EXPECT_EQ(expect, 30001u);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// With the input size known (expect), run formation is double-buffered when half-size runs still
// need one merge pass: same order, memory and I/O checks, exactly one pass. Without the hint,
// or when half-size runs would need another pass, it stays single-buffered.
TEST(sorter, expect_double_buffers_run_formation_without_extra_passes) {
    using S = sorter<item<8>>;
    machine m = flashxxl_test::tiny_machine();
    S probe(m, 1024 * 1024, small);
    std::uint64_t full = probe.run_capacity();
    std::size_t n = std::size_t(full * 5 / 2); // 3 full runs or 5 half runs, fan-in is larger
    ASSERT_GE(probe.final_fan_in(), 5u);
    bool switched = false;
    check_sorter<item<8>, std::less<item<8>>>(shape::random, n, std::less<item<8>>(), 1024 * 1024, &switched);
    EXPECT_TRUE(switched);
    switched = false;
    check_sorter<item<8>, std::less<item<8>>>(shape::few_distinct, n + 77, std::less<item<8>>(), 1024 * 1024,
                                              &switched);
    EXPECT_TRUE(switched);
    // Fits in memory: stays single (no I/O at all).
    EXPECT_FALSE(probe.expect(full));
    // So many items that half runs would exceed the final fan-in: stays single.
    S other(m, 1024 * 1024, small);
    EXPECT_FALSE(other.expect(full / 2 * (other.final_fan_in() + 1)));
    other.push(item<8>(1, 1));
    EXPECT_THROW(other.expect(10), invalid_request);
}

namespace {

//! Sorts `input` on `threads` threads with budget `memory`, draining by turns with *s / ++s and
//! pop_into; returns the output and the device counters.
template <class T>
std::vector<T> sort_with_threads(const std::vector<T>& input, std::size_t threads, std::uint64_t memory,
                                 io_counters* io) {
    machine m = flashxxl_test::tiny_machine();
    std::vector<T> out;
    {
        sorter<T> s(m, memory, small);
        s.set_threads(threads);
        s.push(input.data(), input.size());
        s.sort();
        std::vector<T> buf(1000, T(0));
        for (std::size_t turn = 0; !s.empty(); ++turn) {
            if (turn % 2 == 0) {
                for (int i = 0; i < 777 && !s.empty(); ++i, ++s)
                    out.push_back(*s);
            } else {
                std::uint64_t n = s.pop_into(buf.data(), buf.size());
                out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(n));
            }
        }
        EXPECT_LE(s.account().peak(), memory);
    }
    *io = flashxxl_test::total_stats(m).of(role::scratch);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    return out;
}

} // namespace

// The merges run on 1..8 threads (run formation's chunk merge, intermediate and final merges,
// and the in-memory case): the keys come out in exactly the order one thread gives, the items
// are the same, and the I/O is the same (same runs, same reads), for several item sizes,
// equal keys, tiny and empty inputs.
TEST(sorter_threads, output_and_io_do_not_depend_on_the_thread_count) {
    auto run = [](auto tag, shape sh, std::size_t n, std::uint64_t memory) {
        using T = decltype(tag);
        std::vector<T> input;
        std::uint32_t i = 0;
        for (std::uint32_t k : flashxxl_test::keys(sh, n, std::uint32_t(n + int(sh))))
            input.push_back(T(k, i++));
        io_counters io1;
        const std::vector<T> one = sort_with_threads(input, 1, memory, &io1);
        ASSERT_EQ(one.size(), n);
        ASSERT_TRUE(std::is_sorted(one.begin(), one.end()));
        for (std::size_t threads = 2; threads <= 8; ++threads) {
            io_counters io;
            std::vector<T> got = sort_with_threads(input, threads, memory, &io);
            ASSERT_EQ(got.size(), n) << threads << " threads";
            for (std::size_t j = 0; j < n; ++j)
                ASSERT_EQ(got[j].key, one[j].key) << threads << " threads, item " << j;
            // Ties may leave in another order (the sorter is not stable): the same items.
            auto by_all = [](const T& a, const T& b) {
                return a.key != b.key ? a.key < b.key : std::memcmp(&a, &b, sizeof(T)) < 0;
            };
            std::vector<T> a = one;
            std::sort(a.begin(), a.end(), by_all);
            std::sort(got.begin(), got.end(), by_all);
            for (std::size_t j = 0; j < n; ++j)
                ASSERT_TRUE(a[j] == got[j]) << threads << " threads, item " << j;
            EXPECT_EQ(io.read_ops, io1.read_ops) << threads << " threads";
            EXPECT_EQ(io.write_ops, io1.write_ops) << threads << " threads";
            EXPECT_EQ(io.write_bytes, io1.write_bytes) << threads << " threads";
        }
    };
    run(item<8>(0), shape::random, 150001, mem);             // two merge levels
    run(item<16>(0), shape::few_distinct, 60017, mem);       // equal keys
    run(item<40>(0), shape::all_equal, 20011, mem);          // all keys equal, padded blocks
    run(item<4>(0), shape::random, 300007, 2 * 1024 * 1024); // big runs: parallel chunk merges
    run(item<8>(0), shape::random, 20000, 2 * 1024 * 1024);  // in memory: chunks merged at output
    run(item<8>(0), shape::random, 1, mem);
    run(item<8>(0), shape::random, 0, mem);
}

// The thread count: the machine's by default, set before the first push, 0 meaning the default.
TEST(sorter_threads, set_threads_before_the_first_push) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> s(m, mem, small);
    EXPECT_EQ(s.threads(), default_threads());
    EXPECT_GE(s.threads(), 1u);
    s.set_threads(3);
    EXPECT_EQ(s.threads(), 3u);
    s.set_threads(0);
    EXPECT_EQ(s.threads(), default_threads());
    s.push(1);
    EXPECT_THROW(s.set_threads(2), invalid_request);
    s.clear();
    s.set_threads(2);
    EXPECT_EQ(s.threads(), 2u);
    EXPECT_THROW(*s, invalid_request); // before sort()
    s.sort();
    EXPECT_THROW(++s, invalid_request); // empty
}

// A thread count above max_threads is refused with config_error, before any thread starts and
// without changing the count in use; max_threads itself is accepted, 0 is the machine's.
TEST(sorter_threads, a_thread_count_above_the_maximum_is_refused) {
    EXPECT_EQ(resolve_threads(0), default_threads());
    EXPECT_EQ(resolve_threads(max_threads), max_threads);
    EXPECT_THROW(resolve_threads(max_threads + 1), config_error);
    try {
        resolve_threads(100000);
        FAIL() << "100000 threads accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("thread count 100000 is above the 1024"), std::string::npos)
            << e.what();
    }
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> s(m, mem, small);
    s.set_threads(2);
    EXPECT_THROW(s.set_threads(max_threads + 1), config_error);
    EXPECT_EQ(s.threads(), 2u);
    priority_queue<std::uint64_t> pq(m, priority_queue<std::uint64_t>::min_memory(small), small);
    pq.set_threads(2);
    EXPECT_THROW(pq.set_threads(max_threads + 1), config_error);
    EXPECT_EQ(pq.threads(), 2u);
    vector<std::uint64_t> v(m, 64 * 1024, small, role::stream);
    {
        vector<std::uint64_t>::stream_writer w(v);
        for (std::uint64_t x = 1000; x > 0; --x)
            w.push(x);
    }
    EXPECT_THROW(sort(v, std::less<std::uint64_t>(), 192 * 1024, role::scratch, max_threads + 1),
                 config_error);
    EXPECT_EQ(v.size(), 1000u); // refused before it touched the input
}

// sort(vector&) passes its thread count on: the same sorted vector on 1 and 3 threads.
TEST(sorter_threads, sort_vector_with_threads) {
    for (std::size_t threads : {1, 3}) {
        machine m = flashxxl_test::tiny_machine();
        vector<item<16>> v(m, 64 * 1024, small, role::stream);
        auto k = flashxxl_test::keys(shape::random, 100003, 5);
        {
            vector<item<16>>::stream_writer w(v);
            for (auto x : k)
                w.push(item<16>(x, x));
        }
        sort_report rep = sort(v, std::less<item<16>>(), 192 * 1024, role::scratch, threads);
        EXPECT_LE(rep.peak_memory, 192u * 1024);
        std::sort(k.begin(), k.end());
        std::size_t i = 0;
        for (vector<item<16>>::stream_reader r(v); !r.empty(); ++r, ++i)
            ASSERT_TRUE(*r == item<16>(k[i], k[i])) << i;
        EXPECT_EQ(i, k.size());
    }
}

// Modelled time is a function of the program, not of thread timing: a sort whose merge runs on
// two threads while its prefetched reads complete at arbitrary wall-clock moments gives the same
// modelled elapsed time and the same device counts in every run. (The merge asks the virtual
// clock whether a read is in, not STXXL's poll; with poll, how far a merge step reached, and so
// when the next reads were issued, depended on the I/O threads' timing.)
TEST(sorter, modelled_figures_are_identical_across_runs_with_parallel_merges) {
    auto once = [] {
        machine m = machine::from_config_text("name=hama\nflash=memory,128MiB,memory name=ssd "
                                              "model=hama-ssd-2009\nplacement=single device=ssd\n",
                                              "determinism-test");
        sorter<std::uint64_t> s(m, 2 * MiB, block_sizes(16 * KiB, 64 * KiB));
        s.set_threads(2);
        std::uint64_t x = 12345;
        for (std::uint64_t i = 0; i < 1000000; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            s.push(x >> 11);
        }
        s.sort();
        std::uint64_t count = 0;
        for (; !s.empty(); ++s)
            ++count;
        const io_counters c = m.stats()[0].total;
        return std::vector<double>{m.modelled().elapsed_s, m.modelled().io_wait_s,         double(c.read_ops),
                                   double(c.write_ops),    double(c.sequential_write_ops), double(count)};
    };
    const std::vector<double> first = once();
    EXPECT_EQ(first[5], 1000000.0);
    EXPECT_GT(first[0], 0.0);
    for (int k = 0; k < 3; ++k)
        EXPECT_EQ(once(), first) << "run " << k + 2 << " differs from the first";
}

// Double-buffered run formation (sorter::expect, which flashxxl::sort calls) on a modelled
// machine without a host model: the runs are written on the caller's thread, so their writes and
// the input's reads reach the one disk in one order and the modelled figures repeat to the last
// bit. (Written by a background task until 2026-11-28, a 48 MiB sort on the HDD model with
// M = 40 MiB gave 0.37616 and 0.37677 us per item in two runs.)
TEST(sorter, double_buffered_run_formation_is_deterministic_without_a_host_model) {
    const std::uint64_t n = 48 * MiB / sizeof(std::uint64_t);
    auto once = [n] {
        machine m = machine::from_config_text("name=disk\ndisk=memory,160MiB,memory name=hdd "
                                              "model=barracuda-7200.11\nplacement=single device=hdd\n",
                                              "determinism-test");
        EXPECT_FALSE(m.host().charges());
        EXPECT_TRUE(m.has_modelled_device());
        const block_sizes b(64 * KiB, 1 * MiB);
        vector<std::uint64_t> v(m, 4 * b.bw, b, role::stream);
        {
            vector<std::uint64_t>::stream_writer w(v);
            std::uint64_t x = 987654321;
            for (std::uint64_t i = 0; i < n; ++i) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                w.push(x >> 11);
            }
        }
        const double before = m.modelled().elapsed_s;
        sort_report rep = sort(v, std::less<std::uint64_t>(), 40 * MiB, role::scratch, 2);
        EXPECT_EQ(rep.passes, 2u); // the input read once, then the final merge
        EXPECT_EQ(rep.runs, 3u);   // runs of half the buffer (two when single-buffered)
        std::uint64_t last = 0, count = 0;
        bool sorted = true;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++count) {
            sorted = sorted && *r >= last;
            last = *r;
        }
        EXPECT_TRUE(sorted);
        const io_counters c = m.stats()[0].total;
        return std::vector<double>{
            m.modelled().elapsed_s - before, double(rep.runs), double(c.read_ops), double(c.write_ops),
            double(c.sequential_write_ops),  double(count)};
    };
    const std::vector<double> first = once();
    EXPECT_EQ(first[5], double(n));
    EXPECT_GT(first[0], 0.0);
    for (int k = 0; k < 3; ++k)
        EXPECT_EQ(once(), first) << "run " << k + 2 << " differs from the first";
}
