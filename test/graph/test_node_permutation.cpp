// Tests of the seeded node permutation and the relabeling edge-source adaptor.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/node_permutation.hpp"
#include "flashxxl/graph/tree_generator.hpp"
#include "graph/reference_graph.hpp"

namespace {

using flashxxl::edge;

TEST(node_permutation, is_a_bijection_of_0_to_n) {
    for (std::uint64_t n : {1ull, 2ull, 3ull, 4ull, 5ull, 17ull, 1000ull, 65536ull, 65537ull, 100000ull}) {
        flashxxl::node_permutation p(n, 11);
        std::vector<bool> hit(n, false);
        std::uint64_t fixed = 0;
        for (std::uint64_t v = 0; v < n; ++v) {
            std::uint64_t w = p(v);
            ASSERT_LT(w, n);
            ASSERT_FALSE(hit[w]) << "n " << n << ": " << w << " hit twice";
            hit[w] = true;
            fixed += w == v;
        }
        if (n >= 1000) {
            EXPECT_LT(fixed, 20u) << "hardly a random permutation for n " << n;
        }
    }
    EXPECT_THROW(flashxxl::node_permutation(10, 1)(10), flashxxl::invalid_request);
}

TEST(node_permutation, depends_on_the_seed_only_and_handles_64_bit_ranges) {
    flashxxl::node_permutation a(1000000, 5), b(1000000, 5), c(1000000, 6);
    std::uint64_t same = 0, differ = 0;
    for (std::uint64_t v = 0; v < 1000; ++v) {
        same += a(v) == b(v);
        differ += a(v) != c(v);
    }
    EXPECT_EQ(same, 1000u);
    EXPECT_GT(differ, 990u);
    EXPECT_EQ(a(0), flashxxl::node_permutation(1000000, 5)(0));
    const std::uint64_t huge = ~std::uint64_t(0) - 5;
    flashxxl::node_permutation h(huge, 3);
    EXPECT_LT(h(huge - 1), huge);
    EXPECT_NE(h(0), h(1));
}

TEST(relabeled_source, keeps_the_graph_up_to_renaming) {
    const std::uint64_t side = 30;
    flashxxl::relabeled_source<flashxxl::grid_generator> gen(flashxxl::grid_generator(side), 99);
    EXPECT_EQ(gen.node_count(), side * side);
    EXPECT_EQ(gen.edge_count(), 2 * side * (side - 1));
    std::vector<edge> edges;
    edge e;
    while (gen.next(e))
        edges.push_back(e);
    ASSERT_EQ(edges.size(), 2 * side * (side - 1));
    const auto& p = gen.permutation();
    auto level = flashxxl::testing::boost_bfs_levels(side * side, edges, p(0));
    for (std::uint64_t v = 0; v < side * side; ++v)
        ASSERT_EQ(level[p(v)], v / side + v % side) << v;
    // The layout changed: most edges no longer join ids that differ by 1 or side.
    std::uint64_t local = 0;
    for (const edge& x : edges) {
        std::uint64_t d = x.u > x.v ? x.u - x.v : x.v - x.u;
        local += d == 1 || d == side;
    }
    EXPECT_LT(local, edges.size() / 10);
}

} // namespace
