// Tests of container/sorter.hpp and sort.hpp: results vs std::sort, memory, I/O volume and shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <cstdint>
#include <functional>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"

#include <tbb/task_arena.h>

using namespace flashxxl;
using flashxxl_test::item;
using flashxxl_test::shape;

namespace {

constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>;
constexpr std::uint64_t mem = 128 * 1024;

//! Sorts n items and checks order, memory and I/O; with `hint` tells the sorter n first
//! (expect()) and stores in *switched whether it chose double-buffered run formation.
template <class T, class Cmp, class Blocks>
void check_sorter(shape sh, std::size_t n, Cmp cmp, std::uint64_t memory = mem, bool* switched = nullptr) {
    bool hint = switched != nullptr;
    using layout = block_layout<T, Blocks::read_block>;
    machine m = flashxxl_test::tiny_machine();
    auto k = flashxxl_test::keys(sh, n, std::uint32_t(n * 13 + int(sh)));
    std::vector<T> want;
    want.reserve(n);
    for (auto x : k) want.push_back(T(x, x));
    std::vector<T> input = want;
    std::stable_sort(want.begin(), want.end(), cmp);

    flashxxl_test::alloc_tracker::start();
    std::int64_t peak_allocated = 0;
    std::uint64_t passes = 0, runs_written = 0, account_peak = 0, directory = 0;
    bool double_buffered = false;
    {
        sorter<T, Cmp, Blocks> s(m, memory, cmp);
        if (hint) double_buffered = s.expect(n);
        for (const T& x : input) s.push(x);
        EXPECT_EQ(s.size(), n);
        s.sort();
        std::size_t i = 0;
        for (; !s.empty(); ++s, ++i) {
            ASSERT_LT(i, n);
            ASSERT_TRUE(*s == want[i]) << "item " << i << " of " << n;
        }
        EXPECT_EQ(i, n);
        passes = s.passes();
        runs_written = s.runs_written();
        account_peak = s.account().peak();
        directory = s.directory_memory(n);
        peak_allocated = flashxxl_test::alloc_tracker::peak();
    }
    flashxxl_test::alloc_tracker::stop();
    // Memory: the buffers stay inside M, and everything the test thread allocated (request
    // objects, merge tree, run directory) inside M + directory_memory(N).
    EXPECT_LE(account_peak, memory);
    EXPECT_LE(peak_allocated, std::int64_t(memory + directory)) << "account peak " << account_peak;

    // I/O: every read is one Br block; all writes are Bw but the last of each run; the volume
    // is N x passes (items packed Br / sizeof(T) per block).
    device_stats st = flashxxl_test::total_stats(m);
    const io_counters& c = st.of(role::scratch);
    EXPECT_EQ(c.read_bytes, c.read_ops * Blocks::read_block);
    EXPECT_LE(c.write_ops * Blocks::write_block - c.write_bytes, runs_written * Blocks::write_block);
    EXPECT_GE(c.write_ops, (c.write_bytes + Blocks::write_block - 1) / Blocks::write_block);
    std::uint64_t volume = layout::bytes_for(n);
    EXPECT_GE(c.write_bytes + passes * Blocks::read_block * runs_written, passes * volume);
    EXPECT_LE(c.write_bytes, passes * volume + runs_written * Blocks::read_block);
    EXPECT_EQ(c.read_bytes, c.write_bytes);
    if (n * sizeof(T) > memory) {
        EXPECT_GE(passes, 1u);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    if (hint) {
        *switched = double_buffered;
        if (double_buffered) {
            EXPECT_EQ(passes, 1u) << "double buffering must not add a merge pass";
        }
    }
}

} // namespace

template <class T>
class sorter_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(sorter_typed, item_types);

TYPED_TEST(sorter_typed, random_multi_level) {
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::random, 150001, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, duplicates) {
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::few_distinct, 60017, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, all_equal) {
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::all_equal, 40003, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, sorted_and_reversed) {
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::sorted, 30011, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::reversed, 30011, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, empty_and_tiny) {
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::random, 0, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::random, 1, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>, small_blocks>(shape::random, 777, std::less<TypeParam>());
}

TEST(sorter, lambda_comparator_descending) {
    auto desc = [](const item<8>& a, const item<8>& b) { return b.key < a.key; };
    check_sorter<item<8>, decltype(desc), small_blocks>(shape::random, 100003, desc);
}

TEST(sorter, exact_run_boundaries) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks> probe(m, mem);
    std::size_t cap = probe.run_capacity();
    check_sorter<item<8>, std::less<item<8>>, small_blocks>(shape::random, cap, std::less<item<8>>());
    check_sorter<item<8>, std::less<item<8>>, small_blocks>(shape::random, cap + 1, std::less<item<8>>());
    check_sorter<item<8>, std::less<item<8>>, small_blocks>(shape::random, 3 * cap, std::less<item<8>>());
}

TEST(sorter, in_memory_does_no_io) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks> s(m, mem);
    for (std::uint64_t i = 0; i < 1000; ++i) s.push(1000 - i);
    s.sort();
    EXPECT_EQ(s.passes(), 0u);
    for (std::uint64_t i = 1; i <= 1000; ++i, ++s) ASSERT_EQ(*s, i);
    EXPECT_EQ(flashxxl_test::total_stats(m).total.ops(), 0u);
}

TEST(sorter, clear_and_reuse) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks> s(m, mem);
    for (std::uint64_t i = 0; i < 100000; ++i) s.push(i * 7919 % 100000);
    s.sort();
    for (int i = 0; i < 10; ++i) ++s;  // abandon the output half-way
    s.clear();
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    for (std::uint64_t i = 0; i < 50000; ++i) s.push(50000 - i);
    s.sort();
    for (std::uint64_t i = 1; i <= 50000; ++i, ++s) ASSERT_EQ(*s, i);
    EXPECT_THROW(s.push(1), invalid_request);
}

TEST(sorter, memory_too_small_is_an_error) {
    machine m = flashxxl_test::tiny_machine();
    using S = sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks>;
    EXPECT_THROW(S(m, 40 * 1024), config_error);
    EXPECT_NO_THROW(S(m, S::min_memory()));
}

// seeds/001 Table 1, qualitatively: with M / Bw small, a configuration whose single block size is
// Bw needs more passes (and so more volume) than one that reads Br blocks.
TEST(sorter, block_size_bw_needs_more_passes_than_br) {
    auto run = [](auto tag) {
        using B = decltype(tag);
        machine m = flashxxl_test::tiny_machine();
        sorter<std::uint64_t, std::less<std::uint64_t>, B> s(m, mem);
        for (std::uint64_t i = 0; i < 200000; ++i) s.push((i * 2654435761u) % 1000003);
        s.sort();
        std::uint64_t prev = 0;
        for (; !s.empty(); ++s) {
            EXPECT_LE(prev, *s);
            prev = *s;
        }
        return std::make_pair(s.passes(), flashxxl_test::total_stats(m).total.read_bytes);
    };
    auto br_br = run(blocks<br, br>());
    auto br_bw = run(blocks<br, bw>());
    auto bw_bw = run(blocks<bw, bw>());
    EXPECT_LT(br_bw.first, bw_bw.first);
    EXPECT_LT(br_br.first, bw_bw.first);
    EXPECT_LT(br_bw.second, bw_bw.second);
}

// Merges read through the forecast prefetch pool: with distinct keys every block after a
// run's first is prefetched before the merge asks for it, also for runs written by an
// intermediate merge (their block keys are recorded too).
TEST(sorter, forecast_prefetches_every_block_of_distinct_keys) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t, std::less<std::uint64_t>, blocks<bw, bw>> s(m, mem);
    for (std::uint64_t i = 0; i < 200000; ++i) s.push((i * 2654435761u) % 1000003);  // distinct
    s.sort();
    std::uint64_t prev = 0, n = 0;
    for (; !s.empty(); ++s, ++n) {
        if (n > 0) {
            ASSERT_LT(prev, *s);
        }
        prev = *s;
    }
    EXPECT_EQ(n, 200000u);
    EXPECT_GE(s.passes(), 2u);  // an intermediate merge level ran
    EXPECT_EQ(s.fan_in(), 3u);  // 4 buffers of Bw beside the writer; a read-ahead of one block per run gave 2
    EXPECT_EQ(s.forecast_misses(), 0u);
}

TEST(sorter, out_of_space_is_clean) {
    machine m = flashxxl_test::tiny_machine("1MiB");
    // Data that must survive: one stream written before the sorter fails.
    std::uint64_t counter = 0;
    std::vector<segment> keep;
    {
        block_writer<std::uint64_t, br, bw> w(m, role::stream, counter);
        for (std::uint64_t i = 0; i < 20000; ++i) w.push(i * 3);
        keep = w.finish();
    }
    std::uint64_t used_before = m.dev(0).allocator().used_bytes();
    {
        sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks> s(m, mem);
        EXPECT_THROW(
            {
                for (std::uint64_t i = 0; i < 400000; ++i) s.push(i ^ 0x5555);
                s.sort();
            },
            out_of_space);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), used_before);
    block_reader<std::uint64_t, br> r(m, role::stream, true);
    r.add_all(keep);
    for (std::uint64_t i = 0; i < 20000; ++i, r.pop()) ASSERT_EQ(r.front(), i * 3);
}

// flashxxl::sort(vector&, cmp, M)
template <class T>
void check_vector_sort(shape sh, std::size_t n) {
    machine m = flashxxl_test::tiny_machine();
    auto k = flashxxl_test::keys(sh, n, 99);
    vector<T, small_blocks> v(m, 64 * 1024);
    {
        typename vector<T, small_blocks>::stream_writer w(v);
        for (auto x : k) w.push(T(x, x));
    }
    ASSERT_EQ(v.size(), n);
    device_stats before = flashxxl_test::total_stats(m);
    sort_report rep = sort(v, std::less<T>(), 192 * 1024);
    device_stats d = flashxxl_test::total_stats(m) - before;
    EXPECT_LE(rep.peak_memory, 192u * 1024);
    std::vector<T> want;
    for (auto x : k) want.push_back(T(x, x));
    std::sort(want.begin(), want.end());
    ASSERT_EQ(v.size(), n);
    std::size_t i = 0;
    for (typename vector<T, small_blocks>::stream_reader r(v); !r.empty(); ++r, ++i)
        ASSERT_TRUE(*r == want[i]) << i;
    EXPECT_EQ(i, n);
    // Reads and writes: N x passes each (whole Br blocks, up to one block per run).
    using layout = block_layout<T, br>;
    std::uint64_t volume = layout::bytes_for(n);
    EXPECT_GE(d.total.read_bytes, rep.passes * n * sizeof(T));
    EXPECT_LE(d.total.read_bytes, rep.passes * (volume + (rep.runs + 2) * br));
    EXPECT_GE(d.total.write_bytes, rep.passes * n * sizeof(T));
    EXPECT_LE(d.total.write_bytes, rep.passes * (volume + (rep.runs + 2) * br));
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * br);
    if (n > 0) {
        EXPECT_GE(rep.passes, 1u);
    }
}

TEST(sort_vector, random_8) { check_vector_sort<item<8>>(shape::random, 123457); }
TEST(sort_vector, duplicates_40) { check_vector_sort<item<40>>(shape::few_distinct, 23457); }
TEST(sort_vector, reversed_16) { check_vector_sort<item<16>>(shape::reversed, 33333); }
TEST(sort_vector, small_4) { check_vector_sort<item<4>>(shape::random, 100); }
TEST(sort_vector, empty) { check_vector_sort<item<8>>(shape::random, 0); }

// Run formation sorts the first half of the run buffer on the sorter's threads as soon as it is filled, the rest when full, and
// merges the chunks while writing: exercise that with big runs, 2 and 8 workers (an arena of 8
// even on 2 cores).
TEST(sorter, parallel_run_formation_chunks) {
    check_sorter<item<8>, std::less<item<8>>, small_blocks>(shape::random, 1000003, std::less<item<8>>(),
                                                            4 * 1024 * 1024);
    tbb::task_arena arena(8);
    arena.execute([] {
        check_sorter<item<16>, std::less<item<16>>, small_blocks>(shape::few_distinct, 700001,
                                                                  std::less<item<16>>(), 8 * 1024 * 1024);
    });
}

// A comparator that throws while chunks are being sorted in TBB tasks: the exception reaches
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
        sorter<std::uint64_t, fragile_less, small_blocks> s(m, mem, fragile_less{budget});
        EXPECT_THROW(
            {
                for (std::uint64_t i = 0; i < 100000; ++i) s.push((i * 7919) % 100003);
                s.sort();
                for (; !s.empty(); ++s) {
                }
            },
            std::runtime_error);
        // clear() after the failure makes it usable again.
        budget->store(1 << 30);
        s.clear();
        for (std::uint64_t i = 0; i < 30000; ++i) s.push(30000 - i);
        s.sort();
        std::uint64_t expect = 1;
        for (; !s.empty(); ++s) ASSERT_EQ(*s, expect++);
        EXPECT_EQ(expect, 30001u);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// With the input size known (expect), run formation is double-buffered when half-size runs still
// need one merge pass: same order, memory and I/O checks, exactly one pass. Without the hint,
// or when half-size runs would need another pass, it stays single-buffered.
TEST(sorter, expect_double_buffers_run_formation_without_extra_passes) {
    using S = sorter<item<8>, std::less<item<8>>, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    S probe(m, 1024 * 1024);
    std::uint64_t full = probe.run_capacity();
    std::size_t n = std::size_t(full * 5 / 2);  // 3 full runs or 5 half runs, fan-in is larger
    ASSERT_GE(probe.final_fan_in(), 5u);
    bool switched = false;
    check_sorter<item<8>, std::less<item<8>>, small_blocks>(shape::random, n, std::less<item<8>>(), 1024 * 1024,
                                                            &switched);
    EXPECT_TRUE(switched);
    switched = false;
    check_sorter<item<8>, std::less<item<8>>, small_blocks>(shape::few_distinct, n + 77, std::less<item<8>>(),
                                                            1024 * 1024, &switched);
    EXPECT_TRUE(switched);
    // Fits in memory: stays single (no I/O at all).
    EXPECT_FALSE(probe.expect(full));
    // So many items that half runs would exceed the final fan-in: stays single.
    S other(m, 1024 * 1024);
    EXPECT_FALSE(other.expect(full / 2 * (other.final_fan_in() + 1)));
    other.push(item<8>(1, 1));
    EXPECT_THROW(other.expect(10), invalid_request);
}
