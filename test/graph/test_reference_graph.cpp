// Tests of the Boost.Graph reference BFS that later external BFS tests compare against.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "graph/reference_graph.hpp"

namespace {

using flashxxl::edge;
using flashxxl::testing::boost_bfs_levels;
using flashxxl::testing::unreached;

TEST(reference_graph, bfs_levels_on_a_hand_made_graph) {
    // 0 - 1 - 2 - 3, 0 - 4 - 3 (a cycle of 5 with a shortcut), 5 - 6 apart, 7 isolated;
    // a self-loop and a repeated edge that must change nothing; edges given in both directions.
    const std::vector<edge> edges = {{0, 1}, {2, 1}, {2, 3}, {4, 0}, {3, 4}, {5, 6}, {2, 2}, {1, 0}, {0, 1}};
    const std::vector<std::uint64_t> want = {0, 1, 2, 2, 1, unreached, unreached, unreached};
    EXPECT_EQ(boost_bfs_levels(8, edges, 0), want);
    const std::vector<std::uint64_t> from3 = {2, 2, 1, 0, 1, unreached, unreached, unreached};
    EXPECT_EQ(boost_bfs_levels(8, edges, 3), from3);
    const std::vector<std::uint64_t> from6 = {unreached, unreached, unreached, unreached,
                                              unreached, 1,         0,         unreached};
    EXPECT_EQ(boost_bfs_levels(8, edges, 6), from6);
}

TEST(reference_graph, rejects_ids_outside_the_node_range) {
    EXPECT_THROW(boost_bfs_levels(3, {{0, 3}}, 0), std::invalid_argument);
    EXPECT_THROW(boost_bfs_levels(3, {{0, 1}}, 3), std::invalid_argument);
}

} // namespace
