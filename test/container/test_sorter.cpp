// Tests of container/sorter.hpp and sort.hpp: results vs std::sort, memory, I/O volume and shapes, over run-time block sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;
using flashxxl_test::item;
using flashxxl_test::shape;

namespace {

constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>;  // the compile-time spelling, for the compatibility tests
const block_sizes small{br, bw};
constexpr std::uint64_t mem = 128 * 1024;

//! Sorts n items and checks order, memory and I/O; with `hint` tells the sorter n first
//! (expect()) and stores in *switched whether it chose double-buffered run formation; sorts
//! and merges on `threads` threads (0: the machine's).
template <class T, class Cmp>
void check_sorter(shape sh, std::size_t n, Cmp cmp, std::uint64_t memory = mem, bool* switched = nullptr,
                  const block_sizes& b = small, std::size_t threads = 0) {
    bool hint = switched != nullptr;
    const block_layout<T> layout(b.br);
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
        sorter<T, Cmp> s(m, memory, b, cmp);
        s.set_threads(threads);
        EXPECT_EQ(s.threads(), threads == 0 ? default_threads() : threads);
        EXPECT_EQ(s.blocks(), b);
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
    EXPECT_EQ(c.read_bytes, c.read_ops * b.br);
    EXPECT_LE(c.write_ops * b.bw - c.write_bytes, runs_written * b.bw);
    EXPECT_GE(c.write_ops, (c.write_bytes + b.bw - 1) / b.bw);
    std::uint64_t volume = layout.bytes_for(n);
    EXPECT_GE(c.write_bytes + passes * b.br * runs_written, passes * volume);
    EXPECT_LE(c.write_bytes, passes * volume + runs_written * b.br);
    EXPECT_EQ(c.read_bytes, c.write_bytes);
    // Shapes: writes are whole Br blocks, at most one write per run is shorter than Bw (all
    // others are Bw exactly), and every written Br block is read back once.
    EXPECT_EQ(c.write_bytes % b.br, 0u);
    EXPECT_LE(c.write_bytes, c.write_ops * b.bw);
    EXPECT_GE(c.write_bytes, (c.write_ops - std::min(c.write_ops, runs_written)) * b.bw);
    EXPECT_EQ(c.read_ops, c.write_bytes / b.br);
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
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 150001, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, duplicates) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::few_distinct, 60017, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, all_equal) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::all_equal, 40003, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, sorted_and_reversed) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::sorted, 30011, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>>(shape::reversed, 30011, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, empty_and_tiny) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 0, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 1, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 777, std::less<TypeParam>());
}

TEST(sorter, lambda_comparator_descending) {
    auto desc = [](const item<8>& a, const item<8>& b) { return b.key < a.key; };
    check_sorter<item<8>, decltype(desc)>(shape::random, 100003, desc);
}

TEST(sorter, exact_run_boundaries) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> probe(m, mem, small);
    std::size_t cap = probe.run_capacity();
    check_sorter<item<8>, std::less<item<8>>>(shape::random, cap, std::less<item<8>>());
    check_sorter<item<8>, std::less<item<8>>>(shape::random, cap + 1, std::less<item<8>>());
    check_sorter<item<8>, std::less<item<8>>>(shape::random, 3 * cap, std::less<item<8>>());
}

TEST(sorter, in_memory_does_no_io) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> s(m, mem, small);
    for (std::uint64_t i = 0; i < 1000; ++i) s.push(1000 - i);
    s.sort();
    EXPECT_EQ(s.passes(), 0u);
    for (std::uint64_t i = 1; i <= 1000; ++i, ++s) ASSERT_EQ(*s, i);
    EXPECT_EQ(flashxxl_test::total_stats(m).total.ops(), 0u);
}

TEST(sorter, clear_and_reuse) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> s(m, mem, small);
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
    using S = sorter<std::uint64_t>;
    EXPECT_THROW(S(m, 40 * 1024, small), config_error);
    EXPECT_NO_THROW(S(m, S::min_memory(small), small));
    EXPECT_THROW(S(m, S::min_memory(small) / 2, small), config_error);
    // The message names both block sizes.
    try {
        S(m, 40 * 1024, block_sizes(12 * 1024, 36 * 1024));
        ADD_FAILURE() << "no config_error";
    } catch (const config_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("Br = 12 KiB"), std::string::npos) << what;
        EXPECT_NE(what.find("Bw = 36 KiB"), std::string::npos) << what;
    }
}

// seeds/001 Table 1, qualitatively: with M / Bw small, a configuration whose single block size is
// Bw needs more passes (and so more volume) than one that reads Br blocks.
TEST(sorter, block_size_bw_needs_more_passes_than_br) {
    auto run = [](const block_sizes& b) {
        machine m = flashxxl_test::tiny_machine();
        sorter<std::uint64_t> s(m, mem, b);
        for (std::uint64_t i = 0; i < 200000; ++i) s.push((i * 2654435761u) % 1000003);
        s.sort();
        std::uint64_t prev = 0;
        for (; !s.empty(); ++s) {
            EXPECT_LE(prev, *s);
            prev = *s;
        }
        return std::make_pair(s.passes(), flashxxl_test::total_stats(m).total.read_bytes);
    };
    auto br_br = run(block_sizes(br, br));
    auto br_bw = run(block_sizes(br, bw));
    auto bw_bw = run(block_sizes(bw, bw));
    EXPECT_LT(br_bw.first, bw_bw.first);
    EXPECT_LT(br_br.first, bw_bw.first);
    EXPECT_LT(br_bw.second, bw_bw.second);
}

// Merges read through the forecast prefetch pool: with distinct keys every block after a
// run's first is prefetched before the merge asks for it, also for runs written by an
// intermediate merge (their block keys are recorded too).
TEST(sorter, forecast_prefetches_every_block_of_distinct_keys) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> s(m, mem, block_sizes(bw, bw));
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
        block_writer<std::uint64_t> w(m, role::stream, small, counter);
        for (std::uint64_t i = 0; i < 20000; ++i) w.push(i * 3);
        keep = w.finish();
    }
    std::uint64_t used_before = m.dev(0).allocator().used_bytes();
    {
        sorter<std::uint64_t> s(m, mem, small);
        EXPECT_THROW(
            {
                for (std::uint64_t i = 0; i < 400000; ++i) s.push(i ^ 0x5555);
                s.sort();
            },
            out_of_space);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), used_before);
    block_reader<std::uint64_t> r(m, role::stream, small);
    r.add_all(keep);
    for (std::uint64_t i = 0; i < 20000; ++i, r.pop()) ASSERT_EQ(r.front(), i * 3);
}

// flashxxl::sort(vector&, cmp, M): the sorter takes the vector's block sizes.
template <class T>
void check_vector_sort(shape sh, std::size_t n, const block_sizes& b = small, std::uint64_t vector_memory = 64 * 1024,
                       std::uint64_t sort_memory = 192 * 1024) {
    machine m = flashxxl_test::tiny_machine();
    auto k = flashxxl_test::keys(sh, n, 99);
    vector<T> v(m, vector_memory, b, role::stream);
    ASSERT_EQ(v.blocks(), b);
    {
        typename vector<T>::stream_writer w(v);
        for (auto x : k) w.push(T(x, x));
    }
    ASSERT_EQ(v.size(), n);
    device_stats before = flashxxl_test::total_stats(m);
    sort_report rep = sort(v, std::less<T>(), sort_memory);
    device_stats d = flashxxl_test::total_stats(m) - before;
    EXPECT_LE(rep.peak_memory, sort_memory);
    std::vector<T> want;
    for (auto x : k) want.push_back(T(x, x));
    std::sort(want.begin(), want.end());
    ASSERT_EQ(v.size(), n);
    std::size_t i = 0;
    for (typename vector<T>::stream_reader r(v); !r.empty(); ++r, ++i)
        ASSERT_TRUE(*r == want[i]) << i;
    EXPECT_EQ(i, n);
    // Reads and writes: N x passes each (whole Br blocks, up to one block per run).
    std::uint64_t volume = block_layout<T>(b.br).bytes_for(n);
    EXPECT_GE(d.total.read_bytes, rep.passes * n * sizeof(T));
    EXPECT_LE(d.total.read_bytes, rep.passes * (volume + (rep.runs + 2) * b.br));
    EXPECT_GE(d.total.write_bytes, rep.passes * n * sizeof(T));
    EXPECT_LE(d.total.write_bytes, rep.passes * (volume + (rep.runs + 2) * b.br));
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
    EXPECT_EQ(d.total.write_bytes % b.br, 0u);
    EXPECT_LE(d.total.write_bytes, d.total.write_ops * b.bw);
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
// merges the chunks while writing: exercise that with big runs, the machine's threads and 8
// (even on 2 cores).
TEST(sorter, parallel_run_formation_chunks) {
    check_sorter<item<8>, std::less<item<8>>>(shape::random, 1000003, std::less<item<8>>(),
                                                            4 * 1024 * 1024);
    check_sorter<item<16>, std::less<item<16>>>(shape::few_distinct, 700001, std::less<item<16>>(),
                                                8 * 1024 * 1024, nullptr, small, 8);
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
        sorter<std::uint64_t, fragile_less> s(m, mem, small, fragile_less{budget});
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
    using S = sorter<item<8>>;
    machine m = flashxxl_test::tiny_machine();
    S probe(m, 1024 * 1024, small);
    std::uint64_t full = probe.run_capacity();
    std::size_t n = std::size_t(full * 5 / 2);  // 3 full runs or 5 half runs, fan-in is larger
    ASSERT_GE(probe.final_fan_in(), 5u);
    bool switched = false;
    check_sorter<item<8>, std::less<item<8>>>(shape::random, n, std::less<item<8>>(), 1024 * 1024,
                                                            &switched);
    EXPECT_TRUE(switched);
    switched = false;
    check_sorter<item<8>, std::less<item<8>>>(shape::few_distinct, n + 77, std::less<item<8>>(),
                                                            1024 * 1024, &switched);
    EXPECT_TRUE(switched);
    // Fits in memory: stays single (no I/O at all).
    EXPECT_FALSE(probe.expect(full));
    // So many items that half runs would exceed the final fan-in: stays single.
    S other(m, 1024 * 1024, small);
    EXPECT_FALSE(other.expect(full / 2 * (other.final_fan_in() + 1)));
    other.push(item<8>(1, 1));
    EXPECT_THROW(other.expect(10), invalid_request);
}

// ---- run-time block sizes --------------------------------------------------------------------

namespace {

//! One run-time block-size pair with a budget M scaled to it (a few times min_memory) and an
//! input of several M, so that every pair sorts externally within a second or so.
struct pair_case {
    block_sizes blocks;
    std::uint64_t memory;      //!< sorter budget
    std::size_t n;             //!< 8-byte items sorted (others scaled from it)
    std::uint64_t vector_mem;  //!< the vector's cache in sort(vector&)
    std::uint64_t sort_mem;    //!< sort(vector&)'s budget
};

std::string pair_name(const ::testing::TestParamInfo<pair_case>& info) {
    return "Br" + format_size(info.param.blocks.br) + "_Bw" + format_size(info.param.blocks.bw);
}

// The brief's pairs: powers of two (4 KiB / 4 KiB, 4 KiB / 64 KiB), non-powers of two
// (12 KiB / 36 KiB), and the measured pair 192 KiB / 3 MiB, both as it is (M = 12 MiB) and
// scaled down by 16 (12 KiB / 192 KiB).
const pair_case pair_cases[] = {
    {block_sizes(4 * KiB, 4 * KiB), 128 * KiB, 150001, 64 * KiB, 192 * KiB},
    {block_sizes(4 * KiB, 16 * KiB), 128 * KiB, 150001, 64 * KiB, 192 * KiB},
    {block_sizes(4 * KiB, 64 * KiB), 256 * KiB, 150001, 128 * KiB, 512 * KiB},
    {block_sizes(12 * KiB, 36 * KiB), 192 * KiB, 150001, 128 * KiB, 512 * KiB},
    {block_sizes(12 * KiB, 192 * KiB), 768 * KiB, 400001, 512 * KiB, 1536 * KiB},
    {block_sizes(192 * KiB, 3 * MiB), 12 * MiB, 3000017, 4 * MiB, 20 * MiB},
};

class sorter_pairs : public ::testing::TestWithParam<pair_case> {};

} // namespace

INSTANTIATE_TEST_SUITE_P(run_time, sorter_pairs, ::testing::ValuesIn(pair_cases), pair_name);

// The oracles of the typed tests (order, memory, I/O volume and shapes) for every pair, with
// padded (40-byte) and unpadded items, duplicates, and double-buffered run formation.
TEST_P(sorter_pairs, same_oracles_as_the_default_pair) {
    const pair_case& p = GetParam();
    check_sorter<item<8>>(shape::random, p.n, std::less<item<8>>(), p.memory, nullptr, p.blocks);
    check_sorter<item<40>>(shape::few_distinct, p.n / 5, std::less<item<40>>(), p.memory, nullptr, p.blocks);
    check_sorter<item<4>>(shape::reversed, p.n / 2, std::less<item<4>>(), p.memory, nullptr, p.blocks);
    check_sorter<item<16>>(shape::random, 777, std::less<item<16>>(), p.memory, nullptr, p.blocks);
    bool switched = false;
    check_sorter<item<8>>(shape::random, p.n / 2, std::less<item<8>>(), p.memory, &switched, p.blocks);
}

TEST_P(sorter_pairs, sort_vector_uses_the_vectors_block_sizes) {
    const pair_case& p = GetParam();
    check_vector_sort<item<8>>(shape::random, p.n, p.blocks, p.vector_mem, p.sort_mem);
    check_vector_sort<item<40>>(shape::few_distinct, p.n / 5, p.blocks, p.vector_mem, p.sort_mem);
}

// A pair that breaks a rule of block_sizes is rejected by the constructor (block_sizes'
// own constructor rejects it first), with both values in the message.
TEST(sorter, invalid_block_sizes_are_a_config_error_naming_both) {
    machine m = flashxxl_test::tiny_machine();
    auto expect_rejected = [&](std::uint64_t r, std::uint64_t w, const std::string& rs, const std::string& ws) {
        block_sizes b;  // set the fields by hand: the two-argument constructor would throw already
        b.br = r;
        b.bw = w;
        try {
            sorter<std::uint64_t> s(m, 64 * MiB, b);
            ADD_FAILURE() << "accepted " << b.describe();
        } catch (const config_error& e) {
            std::string what = e.what();
            EXPECT_NE(what.find("Br = " + rs), std::string::npos) << what;
            EXPECT_NE(what.find("Bw = " + ws), std::string::npos) << what;
        }
        EXPECT_THROW(block_sizes(r, w), config_error);
    };
    expect_rejected(12 * KiB, 20 * KiB, "12KiB", "20KiB");  // Bw not a multiple of Br
    expect_rejected(6000, 12000, "6000", "12000");          // not multiples of 4 KiB
    expect_rejected(64 * KiB, 16 * KiB, "64KiB", "16KiB");  // Br > Bw
    expect_rejected(0, 16 * KiB, "0", "16KiB");
    // An item larger than Br is a config_error too.
    struct big {
        std::uint8_t bytes[8192];
        bool operator<(const big& o) const { return bytes[0] < o.bytes[0]; }
    };
    EXPECT_THROW((sorter<big>(m, 64 * MiB, block_sizes(4 * KiB, 16 * KiB))), config_error);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// I/O shapes at a pair that is no power of two: with one merge pass the writes and reads follow
// from the run sizes exactly. Every run of k items is written as k / per_segment writes of Bw
// and one of bytes_for(k % per_segment); every read is one Br block, each written block read
// once. 40-byte items leave padding at the end of each 12 KiB block.
template <class T>
void check_exact_shapes(const block_sizes& b, std::uint64_t memory, std::uint64_t runs_wanted, std::uint64_t extra) {
    machine m = flashxxl_test::tiny_machine();
    const block_layout<T> layout(b.br);
    const std::uint64_t per_segment = block_writer<T>::items_per_segment(b);
    sorter<T> s(m, memory, b);
    const std::uint64_t cap = s.run_capacity();
    const std::uint64_t n = (runs_wanted - 1) * cap + extra;
    ASSERT_LE(runs_wanted, s.final_fan_in());
    for (std::uint64_t i = 0; i < n; ++i) s.push(T(std::uint32_t((i * 2654435761u) % 1000003), std::uint32_t(i)));
    s.sort();
    std::uint64_t got = 0;
    for (; !s.empty(); ++s) ++got;
    EXPECT_EQ(got, n);
    EXPECT_EQ(s.passes(), 1u);
    EXPECT_EQ(s.runs_formed(), runs_wanted);
    std::uint64_t writes = 0, write_bytes = 0, reads = 0;
    for (std::uint64_t r = 0; r < runs_wanted; ++r) {
        std::uint64_t k = r + 1 < runs_wanted ? cap : extra;
        std::uint64_t full = k / per_segment, rest = k % per_segment;
        writes += full + (rest ? 1 : 0);
        write_bytes += full * b.bw + layout.bytes_for(rest);
        reads += full * b.reads_per_write() + layout.blocks_for(rest);
    }
    const io_counters c = flashxxl_test::total_stats(m).of(role::scratch);
    EXPECT_EQ(c.write_ops, writes);
    EXPECT_EQ(c.write_bytes, write_bytes);
    EXPECT_EQ(c.read_ops, reads);
    EXPECT_EQ(c.read_bytes, reads * b.br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(sorter, exact_io_shapes_at_12KiB_36KiB) {
    const block_sizes b(12 * KiB, 36 * KiB);
    check_exact_shapes<item<8>>(b, 192 * KiB, 5, 777);
    check_exact_shapes<item<40>>(b, 192 * KiB, 4, 1234);
    check_exact_shapes<item<16>>(b, 512 * KiB, 3, 1);
}

// Code written against blocks<Br, Bw> keeps compiling and means the same; the default
// (device_blocks) takes the sizes of the device the role is placed on.
TEST(sorter, compile_time_blocks_and_device_block_sizes) {
    machine m = flashxxl_test::tiny_machine();
    {
        sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks> s(m, mem);
        EXPECT_EQ(s.blocks(), small);
        EXPECT_EQ((sorter<std::uint64_t, std::less<std::uint64_t>, small_blocks>::min_memory()),
                  sorter<std::uint64_t>::min_memory(small));
        for (std::uint64_t i = 0; i < 50000; ++i) s.push(50000 - i);
        s.sort();
        for (std::uint64_t i = 1; i <= 50000; ++i, ++s) ASSERT_EQ(*s, i);
        EXPECT_GE(s.passes(), 1u);
    }
    EXPECT_EQ(sorter<std::uint64_t>::min_memory(), sorter<std::uint64_t>::min_memory(block_sizes()));
    {
        sorter<std::uint64_t> s(m, 64 * MiB);  // tiny_machine states no br= / bw=: seeds/001's pair
        EXPECT_EQ(s.blocks(), block_sizes());
    }
    machine odd = machine::from_config_text("name=odd\n"
                                            "flash=memory,256MiB,memory name=ssd br=12KiB bw=36KiB\n"
                                            "placement=single device=ssd\n",
                                            "odd-machine");
    sorter<item<8>> s(odd, 192 * KiB);
    EXPECT_EQ(s.blocks(), block_sizes(12 * KiB, 36 * KiB));
    for (std::uint32_t i = 0; i < 100000; ++i) s.push(item<8>(std::uint32_t((i * 2654435761u) % 1000003), i));
    s.sort();
    std::uint32_t prev = 0;
    for (; !s.empty(); ++s) {
        ASSERT_LE(prev, s->key);
        prev = s->key;
    }
    const io_counters c = flashxxl_test::total_stats(odd).of(role::scratch);
    EXPECT_GT(c.read_ops, 0u);
    EXPECT_EQ(c.read_bytes, c.read_ops * 12 * KiB);
    EXPECT_LE(c.write_bytes, c.write_ops * 36 * KiB);
}
