// Tests of MR_BFS (Munagala-Ranade): levels and parents equal Boost.Graph's on every graph class.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;

//! `any_external`: the arc sort must go external only for graphs larger than the build budget
//! (with larger blocks the sorter's minimum holds the smallest graph); else for every graph.
void check_all_graphs(machine& m, const block_sizes& b, std::uint64_t memory, bool any_external = false) {
    for (const test_graph& tg : flashxxl::testing::test_graphs()) {
        SCOPED_TRACE(tg.name);
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        // A small build budget: the arc sort runs external too.
        const std::uint64_t build_memory = csr_build_min_memory(b) + 32 * 1024;
        auto g = build_csr(m, build_memory, b, src);
        if (!any_external || 2 * tg.edges.size() * sizeof(bfs_arc) > build_memory) {
            EXPECT_GT(g->build_stats().passes, 0u);
        }
        for (std::uint64_t source : {std::uint64_t(0), tg.n / 3}) {
            bfs_level_recorder rec(tg.n);
            bfs_result r = mr_bfs(m, *g, memory, b, source, rec);
            flashxxl::testing::expect_levels_match_boost(tg, source, rec);
            std::uint64_t reached = 0;
            for (std::uint64_t s : r.level_sizes) reached += s;
            EXPECT_EQ(r.reached, reached);
            EXPECT_EQ(rec.level_sizes, r.level_sizes);
            ASSERT_EQ(r.phases.size(), 1u);
            EXPECT_GT(r.phases[0].of(role::scratch).write_bytes, 0u);
            flashxxl::testing::expect_block_shapes(r.phases[0].total(), b, "bfs");
        }
    }
}

TEST(mr_bfs, levels_equal_boost_small_blocks) {
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs(m, block_sizes(4096, 16384), 256 * 1024);
}

TEST(mr_bfs, levels_equal_boost_larger_write_blocks) {
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs(m, block_sizes(4096, 65536), 640 * 1024);
}

TEST(mr_bfs, levels_equal_boost_under_every_placement) {
    for (std::string p : {"random_striping", "flash_aware", "single device=hdd", "per_role static_data=ssd hot=hdd"}) {
        SCOPED_TRACE(p);
        machine m = flashxxl::testing::two_device_machine(p);
        test_graph tg = flashxxl::testing::test_graphs()[0];
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        const block_sizes b(4096, 16384);
        auto g = build_csr(m, 256 * 1024, b, src);
        bfs_level_recorder rec(tg.n);
        mr_bfs(m, *g, 256 * 1024, b, 1, rec);
        flashxxl::testing::expect_levels_match_boost(tg, 1, rec);
    }
}

TEST(mr_bfs, isolated_source_and_bad_arguments) {
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 2}};
    flashxxl::testing::vector_edge_source src(5, edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 256 * 1024, b, src);
    bfs_level_recorder rec(5);
    bfs_result r = mr_bfs(m, *g, 256 * 1024, b, 4, rec);
    EXPECT_EQ(r.reached, 1u);
    EXPECT_EQ(rec.level[4], 0u);
    EXPECT_EQ(rec.level[0], no_node);
    EXPECT_THROW(mr_bfs(m, *g, 256 * 1024, b, 5), config_error);
    EXPECT_THROW(mr_bfs(m, *g, 4096, b, 0), config_error);
    flashxxl::testing::expect_invalid_pair_rejected(
        [&] { mr_bfs(m, *g, 256 * 1024, flashxxl::testing::invalid_pair(), 0); });
}

//! MR_BFS at run-time block sizes (non-powers of two among them): the same oracle, the model's
//! I/O shapes, and the memory minimum follows the sizes.
class mr_bfs_pairs : public ::testing::TestWithParam<block_sizes> {};

TEST_P(mr_bfs_pairs, levels_equal_boost) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs(m, b, mr_bfs_min_memory(b) + 128 * 1024, true);
}

TEST_P(mr_bfs_pairs, budget_below_the_minimum_is_rejected) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 2}};
    flashxxl::testing::vector_edge_source src(3, edges);
    auto g = build_csr(m, csr_build_min_memory(b), b, src);
    EXPECT_EQ(g->blocks(), b);
    EXPECT_THROW(mr_bfs(m, *g, mr_bfs_min_memory(b) - 1, b, 0), config_error);
    EXPECT_EQ(mr_bfs(m, *g, mr_bfs_min_memory(b), b, 0).reached, 3u);
}

INSTANTIATE_TEST_SUITE_P(runtime, mr_bfs_pairs, ::testing::ValuesIn(flashxxl::testing::runtime_block_pairs()),
                         [](const ::testing::TestParamInfo<block_sizes>& i) {
                             return flashxxl::testing::pair_name(i.param);
                         });

} // namespace
