// Tests of container/sorter.hpp: budgets, run boundaries, reuse, passes, forecast prefetching, running out of
// space.
#include <gtest/gtest.h>

#include <algorithm>
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
    for (std::uint64_t i = 0; i < 1000; ++i)
        s.push(1000 - i);
    s.sort();
    EXPECT_EQ(s.passes(), 0u);
    for (std::uint64_t i = 1; i <= 1000; ++i, ++s)
        ASSERT_EQ(*s, i);
    EXPECT_EQ(flashxxl_test::total_stats(m).total.ops(), 0u);
}

TEST(sorter, clear_and_reuse) {
    machine m = flashxxl_test::tiny_machine();
    sorter<std::uint64_t> s(m, mem, small);
    for (std::uint64_t i = 0; i < 100000; ++i)
        s.push(i * 7919 % 100000);
    s.sort();
    for (int i = 0; i < 10; ++i)
        ++s; // abandon the output half-way
    s.clear();
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    for (std::uint64_t i = 0; i < 50000; ++i)
        s.push(50000 - i);
    s.sort();
    for (std::uint64_t i = 1; i <= 50000; ++i, ++s)
        ASSERT_EQ(*s, i);
    EXPECT_THROW(s.push(1), invalid_request);
}

// The output stage is a 64th of M less the reserve in whole Br, at least 2 Br; the figures are the
// ones docs/containers.md and bench_container_vs_stxxl's in-memory merge quote.
TEST(sorter, output_stage_is_a_64th_of_usable_memory_in_whole_read_blocks) {
    using S = sorter<std::uint64_t>;
    const std::uint64_t MiB = 1024 * 1024, KiB = 1024;
    EXPECT_EQ(S::output_stage_bytes(64 * MiB, 256 * KiB), 768 * KiB);
    EXPECT_EQ(S::output_stage_bytes(64 * MiB, 2 * MiB), 2 * 2 * MiB); // the 2 Br floor
    EXPECT_EQ(S::output_stage_bytes(512 * MiB, 256 * KiB), 7 * MiB + 768 * KiB);
    EXPECT_EQ(S::output_stage_bytes(S::min_memory(small), br), 2 * br);
    EXPECT_EQ(S::output_stage_bytes(0, br), 2 * br);
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
        for (std::uint64_t i = 0; i < 200000; ++i)
            s.push((i * 2654435761u) % 1000003);
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
    for (std::uint64_t i = 0; i < 200000; ++i)
        s.push((i * 2654435761u) % 1000003); // distinct
    s.sort();
    std::uint64_t prev = 0, n = 0;
    for (; !s.empty(); ++s, ++n) {
        if (n > 0) {
            ASSERT_LT(prev, *s);
        }
        prev = *s;
    }
    EXPECT_EQ(n, 200000u);
    EXPECT_GE(s.passes(), 2u); // an intermediate merge level ran
    EXPECT_EQ(s.fan_in(), 3u); // 4 buffers of Bw beside the writer; a read-ahead of one block per run gave 2
    EXPECT_EQ(s.forecast_misses(), 0u);
}

TEST(sorter, out_of_space_is_clean) {
    machine m = flashxxl_test::tiny_machine("1MiB");
    // Data that must survive: one stream written before the sorter fails.
    std::uint64_t counter = 0;
    std::vector<segment> keep;
    {
        block_writer<std::uint64_t> w(m, role::stream, small, counter);
        for (std::uint64_t i = 0; i < 20000; ++i)
            w.push(i * 3);
        keep = w.finish();
    }
    std::uint64_t used_before = m.dev(0).allocator().used_bytes();
    {
        sorter<std::uint64_t> s(m, mem, small);
        EXPECT_THROW(
            {
                for (std::uint64_t i = 0; i < 400000; ++i)
                    s.push(i ^ 0x5555);
                s.sort();
            },
            out_of_space);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), used_before);
    block_reader<std::uint64_t> r(m, role::stream, small);
    r.add_all(keep);
    for (std::uint64_t i = 0; i < 20000; ++i, r.pop())
        ASSERT_EQ(r.front(), i * 3);
}

// After a failure that leaves runs half written or half merged, every later use is refused
// with the first failure named (a second sort() used to stream garbage and then read past the
// stage); clear() starts over and sorts correctly.
TEST(sorter, unusable_after_a_failure_until_clear) {
    machine m = flashxxl_test::tiny_machine("1MiB");
    sorter<std::uint64_t> s(m, mem, small);
    std::string first;
    try {
        for (std::uint64_t i = 0; i < 400000; ++i)
            s.push(i ^ 0x5555);
        s.sort();
        FAIL() << "no out_of_space";
    } catch (const out_of_space& e) {
        first = e.what();
    }
    auto expect_refused = [&](const std::function<void()>& op, const std::string& name) {
        try {
            op();
            ADD_FAILURE() << name << " did not throw";
        } catch (const io_failure& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("flashxxl::sorter::" + name +
                                ": unusable since an earlier failure lost items (" + first),
                      std::string::npos)
                << what;
        }
    };
    expect_refused([&] { s.push(1); }, "push");
    expect_refused([&] { s.sort(); }, "sort");
    expect_refused([&] { (void)*s; }, "operator*");
    expect_refused([&] { ++s; }, "operator++");
    std::uint64_t out[4];
    expect_refused([&] { s.pop_into(out, 4); }, "pop_into");
    s.clear();
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    for (std::uint64_t i = 0; i < 20000; ++i)
        s.push(20000 - i);
    s.sort();
    for (std::uint64_t i = 1; i <= 20000; ++i, ++s)
        ASSERT_EQ(*s, i);
    EXPECT_TRUE(s.empty());
}

// A comparator that throws while the chunks are sorted: sort() passes the exception on, and a
// second sort() or a read is refused (it used to spin forever on half-sorted chunks).
TEST(sorter, a_comparator_exception_in_sort_latches) {
    machine m = flashxxl_test::tiny_machine();
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
    auto cmp = [calls](std::uint64_t a, std::uint64_t b) {
        if (calls->fetch_add(1) == 20000) throw std::runtime_error("comparator failed");
        return a < b;
    };
    sorter<std::uint64_t, decltype(cmp)> s(m, mem, small, cmp);
    for (std::uint64_t i = 0; i < 9000; ++i)
        s.push((i * 7919) % 9000);
    EXPECT_THROW(s.sort(), std::runtime_error);
    EXPECT_THROW(s.sort(), io_failure);
    EXPECT_THROW((void)*s, io_failure);
}
