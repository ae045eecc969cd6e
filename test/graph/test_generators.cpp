// Tests of the graph generators: exact counts, structure, determinism from the seed, R-MAT skew.
#include <algorithm>
#include <ostream>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge_source.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/graph/rmat_generator.hpp"
#include "flashxxl/graph/splitmix64.hpp"
#include "flashxxl/graph/tree_generator.hpp"
#include "graph/reference_graph.hpp"

namespace flashxxl {
// Lets GoogleTest print edges in failure messages.
inline void PrintTo(const edge& e, std::ostream* os) { *os << "{" << e.u << ", " << e.v << "}"; }
} // namespace flashxxl

namespace {

using flashxxl::edge;

template <class Gen> std::vector<edge> all_edges(Gen gen) {
    std::vector<edge> out;
    edge e;
    while (gen.next(e))
        out.push_back(e);
    return out;
}

std::set<std::pair<std::uint64_t, std::uint64_t>> undirected_set(const std::vector<edge>& edges) {
    std::set<std::pair<std::uint64_t, std::uint64_t>> s;
    for (const edge& e : edges)
        s.insert({std::min(e.u, e.v), std::max(e.u, e.v)});
    return s;
}

TEST(splitmix64, matches_the_reference_sequence_and_below_stays_in_range) {
    // Vigna's splitmix64.c with seed 0 (the first outputs are well known).
    flashxxl::splitmix64 r(0);
    EXPECT_EQ(r(), 0xe220a8397b1dcdafULL);
    EXPECT_EQ(r(), 0x6e789e6aa1b965f4ULL);
    EXPECT_EQ(r(), 0x06c45d188009454fULL);
    flashxxl::splitmix64 g(42);
    std::vector<int> hits(7, 0);
    for (int i = 0; i < 7000; ++i)
        ++hits[g.below(7)];
    for (int h : hits) {
        EXPECT_GT(h, 850);
        EXPECT_LT(h, 1150);
    }
    EXPECT_EQ(g.below(1), 0u);
}

TEST(grid_generator, has_exact_counts_and_only_4_neighbour_edges) {
    for (std::uint64_t side : {1u, 2u, 3u, 17u, 64u}) {
        flashxxl::grid_generator gen(side);
        EXPECT_EQ(gen.node_count(), side * side);
        EXPECT_EQ(gen.edge_count(), 2 * side * (side - 1));
        auto edges = all_edges(gen);
        ASSERT_EQ(edges.size(), 2 * side * (side - 1)) << "side " << side;
        EXPECT_EQ(undirected_set(edges).size(), edges.size()) << "duplicates for side " << side;
        for (const edge& e : edges) {
            ASSERT_LT(e.u, e.v);
            ASSERT_LT(e.v, side * side);
            const bool right = e.v == e.u + 1 && e.u % side != side - 1;
            const bool down = e.v == e.u + side;
            ASSERT_TRUE(right || down) << e.u << " " << e.v;
        }
    }
    EXPECT_THROW(flashxxl::grid_generator(0), flashxxl::config_error);
}

TEST(grid_generator, bfs_levels_are_manhattan_distances) {
    const std::uint64_t side = 20;
    auto edges = all_edges(flashxxl::grid_generator(side));
    auto level = flashxxl::testing::boost_bfs_levels(side * side, edges, 0);
    for (std::uint64_t v = 0; v < side * side; ++v)
        ASSERT_EQ(level[v], v / side + v % side);
}

TEST(tree_generator, is_a_tree_with_n_minus_1_edges_and_the_promised_levels) {
    struct shape {
        std::uint64_t n, levels, chains, used_levels;
    };
    for (shape s : {shape{1 + 10 * 8, 8, 10, 8}, shape{1, 5, 0, 0}, shape{2, 5, 1, 1},
                    shape{1000, 31, 33, 31}, shape{6, 10, 1, 5}, shape{100, 7, 15, 7}}) {
        flashxxl::tree_generator gen(s.n, s.levels);
        EXPECT_EQ(gen.chains(), s.chains) << s.n;
        EXPECT_EQ(gen.levels(), s.used_levels) << s.n;
        auto edges = all_edges(gen);
        ASSERT_EQ(edges.size(), s.n - 1);
        EXPECT_EQ(gen.edge_count(), s.n - 1);
        auto level = flashxxl::testing::boost_bfs_levels(s.n, edges, 0);
        std::vector<std::uint64_t> per_level(s.used_levels + 1, 0);
        for (std::uint64_t v = 0; v < s.n; ++v) {
            ASSERT_NE(level[v], flashxxl::testing::unreached) << "tree not connected, node " << v;
            ASSERT_EQ(level[v], gen.level_of(v)) << v;
            ++per_level[level[v]];
        }
        // Connected with n - 1 edges: a tree. Level 0 is the source; the widths never grow.
        EXPECT_EQ(per_level[0], 1u);
        for (std::uint64_t j = 2; j <= s.used_levels; ++j)
            EXPECT_LE(per_level[j], per_level[j - 1]);
        if (s.used_levels) {
            EXPECT_EQ(per_level[1], s.chains);
        }
    }
}

TEST(tree_generator, default_levels_is_about_sqrt_of_block_items) {
    EXPECT_EQ(flashxxl::tree_generator::default_levels(128 * 1024, 8), 128u);
    EXPECT_EQ(flashxxl::tree_generator::default_levels(2 * 1024 * 1024, 8), 512u);
    EXPECT_EQ(flashxxl::tree_generator::default_levels(4096, 4), 32u);
    EXPECT_THROW(flashxxl::tree_generator::default_levels(4, 8), flashxxl::config_error);
}

TEST(random_graph_generator, exact_counts_no_self_loops_and_ids_in_range) {
    flashxxl::random_graph_generator gen(1000, 5000, 7);
    auto edges = all_edges(gen);
    ASSERT_EQ(edges.size(), 5000u);
    std::vector<std::uint64_t> degree(1000, 0);
    for (const edge& e : edges) {
        ASSERT_NE(e.u, e.v);
        ASSERT_LT(e.u, 1000u);
        ASSERT_LT(e.v, 1000u);
        ++degree[e.u];
        ++degree[e.v];
    }
    // Average degree 10: no node should be far above it in a uniform graph.
    EXPECT_LT(*std::max_element(degree.begin(), degree.end()), 40u);
    EXPECT_EQ(flashxxl::random_graph_generator::edges_for_degree(1000, 10), 5000u);
    EXPECT_EQ(flashxxl::random_graph_generator::edges_for_degree(3, 1), 2u); // round(1.5)
    EXPECT_THROW(flashxxl::random_graph_generator(1, 1, 0), flashxxl::config_error);
}

TEST(generators, same_seed_gives_the_same_edges_and_another_seed_different_ones) {
    auto r1 = all_edges(flashxxl::random_graph_generator(5000, 20000, 123));
    auto r2 = all_edges(flashxxl::random_graph_generator(5000, 20000, 123));
    auto r3 = all_edges(flashxxl::random_graph_generator(5000, 20000, 124));
    EXPECT_EQ(r1, r2);
    EXPECT_NE(r1, r3);
    flashxxl::rmat_params p;
    p.scale = 12;
    p.edge_factor = 8;
    auto m1 = all_edges(flashxxl::rmat_generator(p, 5));
    auto m2 = all_edges(flashxxl::rmat_generator(p, 5));
    auto m3 = all_edges(flashxxl::rmat_generator(p, 6));
    EXPECT_EQ(m1, m2);
    EXPECT_NE(m1, m3);
}

TEST(generators, outputs_are_the_same_on_every_machine) {
    // Pinned values: a change here means generated graphs no longer match earlier runs.
    auto r = all_edges(flashxxl::random_graph_generator(1000000, 3, 1));
    const std::vector<edge> want = {{822465, 428519}, {890590, 780235}, {968761, 530048}};
    EXPECT_EQ(r, want);
    flashxxl::rmat_params p;
    p.scale = 16;
    p.edge_factor = 2;
    flashxxl::rmat_generator m(p, 99);
    std::uint64_t checksum = 0;
    edge e;
    while (m.next(e))
        checksum = checksum * 1000003 + e.u * 3 + e.v;
    EXPECT_EQ(checksum, 3877860938257361196ULL);
}

TEST(rmat_generator, counts_range_and_skew) {
    flashxxl::rmat_params p;
    p.scale = 14;
    p.edge_factor = 16;
    flashxxl::rmat_generator gen(p, 2024);
    EXPECT_EQ(gen.node_count(), 16384u);
    EXPECT_EQ(gen.edge_count(), 16u * 16384u);
    std::vector<std::uint64_t> degree(gen.node_count(), 0);
    std::uint64_t m = 0, loops = 0;
    edge e;
    while (gen.next(e)) {
        ASSERT_LT(e.u, gen.node_count());
        ASSERT_LT(e.v, gen.node_count());
        ++degree[e.u];
        ++degree[e.v];
        loops += e.u == e.v;
        ++m;
    }
    EXPECT_EQ(m, gen.edge_count());
    const double average = 2.0 * double(m) / double(gen.node_count());
    // P(an endpoint is node 0) = (a + b)^scale for u, (a + c)^scale for v: 0.76^14 = 2.1%,
    // so node 0 has about 0.042 x 262144 = 11000 edge ends against an average of 32.
    EXPECT_GT(double(degree[0]), 100 * average);
    EXPECT_GT(loops, 0u); // R-MAT does produce self-loops
    // Uniform probabilities (a = b = c = d = 0.25) give no such skew.
    p.a = p.b = p.c = 0.25;
    flashxxl::rmat_generator flat(p, 2024);
    std::vector<std::uint64_t> d2(flat.node_count(), 0);
    while (flat.next(e)) {
        ++d2[e.u];
        ++d2[e.v];
    }
    EXPECT_LT(double(d2[0]), 4 * average);
}

TEST(rmat_generator, rejects_bad_parameters) {
    flashxxl::rmat_params p;
    p.scale = 0;
    EXPECT_THROW(flashxxl::rmat_generator(p, 1), flashxxl::config_error);
    p.scale = 63;
    EXPECT_THROW(flashxxl::rmat_generator(p, 1), flashxxl::config_error);
    p.scale = 10;
    p.a = 0.9;
    EXPECT_THROW(flashxxl::rmat_generator(p, 1), flashxxl::config_error); // d < 0
    p.a = -0.1;
    EXPECT_THROW(flashxxl::rmat_generator(p, 1), flashxxl::config_error);
    p.a = 0.57;
    p.scale = 62;
    p.edge_factor = 8;
    EXPECT_THROW(flashxxl::rmat_generator(p, 1), flashxxl::config_error); // m overflows
}

} // namespace
