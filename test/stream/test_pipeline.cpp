// Tests of include/flashxxl/stream/: sources, stages and the sort stage against std:: oracles, the
// pipeline's I/O against hand-written sorter code, its memory peak against M, out_of_space.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/stream/pipeline.hpp"

using namespace flashxxl;

namespace {
const block_sizes small(4 * KiB, 16 * KiB);

std::uint64_t key_of(std::uint64_t i) { return (i * 0x9e3779b97f4a7c15ull) >> 40; }

machine machine_of(std::uint64_t bytes) { return flashxxl_test::tiny_machine(std::to_string(bytes) + "B"); }

std::vector<std::uint64_t> read_all(vector<std::uint64_t>& v) {
    std::vector<std::uint64_t> out;
    for (typename vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r)
        out.push_back(*r);
    return out;
}

TEST(stream, concept_detects_streams) {
    std::vector<int> xs{1, 2};
    auto src = stream::from_range(xs);
    static_assert(stream::is_stream_v<decltype(src)>);
    static_assert(!stream::is_stream_v<int>);
    static_assert(!stream::is_stream_v<std::vector<int>>);
    static_assert(stream::has_runs<stream::vector_source<int>>::value);
    static_assert(!stream::has_runs<decltype(src)>::value);
}

TEST(stream, stages_match_std_algorithms) {
    const std::uint64_t n = 20000;
    machine m = flashxxl_test::tiny_machine();
    stream::generator gen(n, [](std::uint64_t i) { return key_of(i) % 5000; });
    stream::transform doubled(gen, [](std::uint64_t x) { return 2 * x + 1; });
    stream::filter not_div3(doubled, [](std::uint64_t x) { return x % 3 != 0; });
    stream::sort sorted(not_div3, m, 96 * KiB, small);
    stream::unique distinct(sorted);
    std::vector<std::uint64_t> got;
    stream::materialize(distinct, std::back_inserter(got));

    std::vector<std::uint64_t> want;
    for (std::uint64_t i = 0; i < n; ++i)
        if ((2 * (key_of(i) % 5000) + 1) % 3 != 0) want.push_back(2 * (key_of(i) % 5000) + 1);
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    EXPECT_EQ(got, want);
    EXPECT_GE(sorted.sorter_stage().passes(), 1u); // it went through the device
}

TEST(stream, empty_input_gives_empty_output) {
    machine m = flashxxl_test::tiny_machine();
    stream::generator gen(0, [](std::uint64_t i) { return i; });
    stream::sort sorted(gen, m, 96 * KiB, small);
    EXPECT_TRUE(sorted.empty());
    vector<std::uint64_t> v(m, 64 * KiB, small);
    EXPECT_EQ(stream::materialize(sorted, v, 64 * KiB), 0u);
    EXPECT_EQ(v.size(), 0u);
}

TEST(stream, vector_source_reads_a_sub_range) {
    machine m = flashxxl_test::tiny_machine();
    vector<std::uint64_t> v(m, 64 * KiB, small);
    stream::generator gen(10000, [](std::uint64_t i) { return i; });
    stream::materialize(gen, v, 64 * KiB);
    ASSERT_EQ(v.size(), 10000u);
    stream::vector_source<std::uint64_t> src(v, 64 * KiB, 1234, 5678);
    EXPECT_EQ(src.size(), 5678u - 1234u);
    std::uint64_t want = 1234;
    for (; !src.empty(); ++src)
        ASSERT_EQ(*src, want++);
    EXPECT_EQ(want, 5678u);
    EXPECT_THROW((stream::vector_source<std::uint64_t>(v, 1024)), config_error);
}

//! Source -> sort -> materialize moves what hand-written sorter code with the same budget moves.
TEST(stream, pipeline_io_equals_hand_written_sorter) {
    const std::uint64_t n = 200000;
    const std::uint64_t sort_memory = 96 * KiB;
    auto make = [](std::uint64_t i) { return key_of(i); };
    device_stats piped, by_hand;
    std::vector<std::uint64_t> piped_items, hand_items;
    {
        machine m = flashxxl_test::tiny_machine();
        vector<std::uint64_t> out(m, 64 * KiB, small);
        stream::generator gen(n, make);
        stream::sort sorted(gen, m, sort_memory, small, std::less<>(), role::scratch, 1);
        EXPECT_GE(sorted.sorter_stage().passes(), 2u); // an intermediate merge too
        stream::materialize(sorted, out, stream::materialize_memory<std::uint64_t>(small));
        piped = flashxxl_test::total_stats(m);
        piped_items = read_all(out);
    }
    {
        machine m = flashxxl_test::tiny_machine();
        vector<std::uint64_t> out(m, 64 * KiB, small);
        sorter<std::uint64_t, std::less<>> s(m, sort_memory, small);
        s.set_threads(1);
        for (std::uint64_t i = 0; i < n; ++i)
            s.push(make(i));
        s.sort();
        vector<std::uint64_t>::stream_writer w(out);
        for (; !s.empty(); ++s)
            w.push(*s);
        w.finish();
        by_hand = flashxxl_test::total_stats(m);
        hand_items = read_all(out);
    }
    EXPECT_EQ(piped.total.read_bytes, by_hand.total.read_bytes);
    EXPECT_EQ(piped.total.write_bytes, by_hand.total.write_bytes);
    EXPECT_EQ(piped.total.read_ops, by_hand.total.read_ops);
    EXPECT_EQ(piped.total.write_ops, by_hand.total.write_ops);
    EXPECT_EQ(piped_items, hand_items);
    EXPECT_TRUE(std::is_sorted(piped_items.begin(), piped_items.end()));
}

//! A vector -> sort -> unique -> materialize pipeline under one M split among its stages: the
//! program's peak stays within M.
TEST(stream, split_budget_keeps_the_peak_within_m) {
    const std::uint64_t n = 100000;
    machine m = flashxxl_test::tiny_machine();
    vector<std::uint64_t> in(m, 64 * KiB, small), out(m, 64 * KiB, small);
    {
        stream::generator gen(n, [](std::uint64_t i) { return key_of(i) % 30000; });
        stream::materialize(gen, in, 64 * KiB);
    }
    memory_account program;
    memory_budget M(256 * KiB, program);
    auto parts =
        stream::split_among_stages(M, {stream::vector_source<std::uint64_t>::memory_need(small),
                                       stream::sort<stream::vector_source<std::uint64_t>>::memory_need(small),
                                       stream::materialize_need<std::uint64_t>(small)});
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0].bytes(), 2 * small.br);
    EXPECT_EQ(parts[2].bytes(), 2 * small.bw);
    EXPECT_EQ(parts[0].bytes() + parts[1].bytes() + parts[2].bytes(), M.bytes());
    std::vector<std::uint64_t> want = read_all(in);
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    {
        stream::vector_source<std::uint64_t> src(in, parts[0]);
        stream::sort sorted(src, m, parts[1], small);
        stream::unique distinct(sorted);
        stream::materialize(distinct, out, parts[2]);
    }
    EXPECT_GT(program.peak(), parts[1].bytes() / 2);
    EXPECT_LE(program.peak(), M.bytes());
    EXPECT_EQ(program.current(), 0u);
    EXPECT_EQ(read_all(out), want);
}

TEST(stream, split_among_stages_names_the_stages_when_m_is_short) {
    try {
        stream::split_among_stages(32 * KiB, {stream::vector_source<std::uint64_t>::memory_need(small),
                                              stream::materialize_need<std::uint64_t>(small)});
        FAIL() << "expected config_error";
    } catch (const config_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("vector source"), std::string::npos) << what;
        EXPECT_NE(what.find("materialize"), std::string::npos) << what;
    }
    auto parts = stream::split_among_stages(100, {{"a", 10, 1}, {"b", 20, 3}, {"c", 0, 0}});
    EXPECT_EQ(parts[0].bytes(), 10u + 17u);
    EXPECT_EQ(parts[1].bytes(), 20u + 52u);
    EXPECT_EQ(parts[2].bytes(), 0u);
    EXPECT_THROW(stream::split_among_stages(100, {{"bad", 1, -1}}), config_error);
}

//! The sort stage on a device without room: out_of_space names the stage, and every extent
//! its runs took goes back.
TEST(stream, sort_stage_out_of_space_gives_everything_back) {
    machine m = machine_of(4 * small.bw);
    stream::generator gen(100000, [](std::uint64_t i) { return key_of(i); });
    try {
        stream::sort sorted(gen, m, 96 * KiB, small);
        FAIL() << "expected out_of_space";
    } catch (const out_of_space& e) {
        EXPECT_NE(std::string(e.what()).find("flashxxl::stream::sort"), std::string::npos) << e.what();
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

//! materialize on a device without room: the vector keeps the whole groups written before.
TEST(stream, materialize_out_of_space_keeps_the_groups_written) {
    machine m = machine_of(3 * small.bw);
    vector<std::uint64_t> v(m, 64 * KiB, small);
    stream::generator gen(100000, [](std::uint64_t i) { return i; });
    try {
        stream::materialize(gen, v, 64 * KiB);
        FAIL() << "expected out_of_space";
    } catch (const out_of_space& e) {
        EXPECT_NE(std::string(e.what()).find("flashxxl::stream::materialize"), std::string::npos) << e.what();
    }
    ASSERT_FALSE(v.failed());
    EXPECT_EQ(v.size() % v.items_per_group(), 0u);
    EXPECT_GT(v.size(), 0u);
    std::vector<std::uint64_t> kept = read_all(v);
    for (std::uint64_t i = 0; i < kept.size(); ++i)
        ASSERT_EQ(kept[i], i);
}
} // namespace
