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

template <class Blocks>
void check_all_graphs(machine& m, std::uint64_t memory) {
    for (const test_graph& tg : flashxxl::testing::test_graphs()) {
        SCOPED_TRACE(tg.name);
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        // A small build budget: the arc sort runs external too.
        auto g = build_csr<Blocks>(m, csr_build_min_memory<Blocks>() + 32 * 1024, src);
        EXPECT_GT(g->build_stats().passes, 0u);
        for (std::uint64_t source : {std::uint64_t(0), tg.n / 3}) {
            bfs_level_recorder rec(tg.n);
            bfs_result r = mr_bfs(m, *g, memory, source, rec);
            flashxxl::testing::expect_levels_match_boost(tg, source, rec);
            std::uint64_t reached = 0;
            for (std::uint64_t s : r.level_sizes) reached += s;
            EXPECT_EQ(r.reached, reached);
            EXPECT_EQ(rec.level_sizes, r.level_sizes);
            ASSERT_EQ(r.phases.size(), 1u);
            EXPECT_GT(r.phases[0].of(role::scratch).write_bytes, 0u);
        }
    }
}

TEST(mr_bfs, levels_equal_boost_small_blocks) {
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs<blocks<4096, 16384>>(m, 256 * 1024);
}

TEST(mr_bfs, levels_equal_boost_larger_write_blocks) {
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs<blocks<4096, 65536>>(m, 640 * 1024);
}

TEST(mr_bfs, levels_equal_boost_under_every_placement) {
    for (std::string p : {"random_striping", "flash_aware", "single device=hdd", "per_role static_data=ssd hot=hdd"}) {
        SCOPED_TRACE(p);
        machine m = flashxxl::testing::two_device_machine(p);
        test_graph tg = flashxxl::testing::test_graphs()[0];
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        auto g = build_csr<blocks<4096, 16384>>(m, 256 * 1024, src);
        bfs_level_recorder rec(tg.n);
        mr_bfs(m, *g, 256 * 1024, 1, rec);
        flashxxl::testing::expect_levels_match_boost(tg, 1, rec);
    }
}

TEST(mr_bfs, isolated_source_and_bad_arguments) {
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 2}};
    flashxxl::testing::vector_edge_source src(5, edges);
    auto g = build_csr<blocks<4096, 16384>>(m, 256 * 1024, src);
    bfs_level_recorder rec(5);
    bfs_result r = mr_bfs(m, *g, 256 * 1024, 4, rec);
    EXPECT_EQ(r.reached, 1u);
    EXPECT_EQ(rec.level[4], 0u);
    EXPECT_EQ(rec.level[0], no_node);
    EXPECT_THROW(mr_bfs(m, *g, 256 * 1024, 5), config_error);
    EXPECT_THROW(mr_bfs(m, *g, 4096, 0), config_error);
}

} // namespace
