// Tests of the external DFS: a valid DFS forest (tree edges exist, intervals nest, no cross edges).
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;

struct recorder : dfs_visitor {
    std::vector<std::uint64_t> d, f;
    std::vector<node_id> parent;
    std::uint64_t discoveries = 0, finishes = 0, roots = 0;
    explicit recorder(std::uint64_t n) : d(n, no_node), f(n, no_node), parent(n, no_node) {}
    void start_vertex(node_id) { ++roots; }
    void tree_edge(node_id p, node_id v) { parent.at(v) = p; }
    void discover_vertex(node_id v, std::uint64_t t) {
        ++discoveries;
        EXPECT_EQ(d.at(v), no_node) << "node " << v << " discovered twice";
        d.at(v) = t;
    }
    void finish_vertex(node_id v, std::uint64_t t) {
        ++finishes;
        EXPECT_EQ(f.at(v), no_node) << "node " << v << " finished twice";
        f.at(v) = t;
    }
};

//! A valid DFS forest of an undirected graph: each node discovered and finished once, tree edges
//! are edges, a child's interval lies inside its parent's, and every edge joins an ancestor and
//! a descendant (no cross edges: the DFS property of undirected graphs).
void expect_valid_dfs_forest(const test_graph& tg, std::uint64_t source, const recorder& r,
                             const dfs_result& res) {
    EXPECT_EQ(r.discoveries, tg.n);
    EXPECT_EQ(r.finishes, tg.n);
    EXPECT_EQ(res.visited, tg.n);
    EXPECT_EQ(res.trees, r.roots);
    EXPECT_EQ(r.d[source], 0u);
    std::set<std::pair<node_id, node_id>> arcs;
    for (const edge& e : tg.edges) {
        arcs.insert({e.u, e.v});
        arcs.insert({e.v, e.u});
    }
    std::uint64_t bad = 0, roots = 0;
    for (std::uint64_t v = 0; v < tg.n; ++v) {
        if (r.d[v] == no_node || r.f[v] == no_node || r.d[v] >= r.f[v]) {
            if (++bad < 5)
                ADD_FAILURE() << tg.name << ": node " << v << " has interval " << r.d[v] << ".." << r.f[v];
            continue;
        }
        node_id p = r.parent[v];
        if (p == no_node) {
            ++roots;
            continue;
        }
        if (!arcs.count({p, v}) || !(r.d[p] < r.d[v] && r.f[v] < r.f[p]))
            if (++bad < 5)
                ADD_FAILURE() << tg.name << ": tree edge (" << p << ", " << v
                              << ") is not an edge or does not nest";
    }
    EXPECT_EQ(roots, r.roots);
    auto nested = [&](node_id a, node_id b) { return r.d[a] < r.d[b] && r.f[b] < r.f[a]; };
    for (const auto& [u, v] : arcs) {
        if (u == v) continue;
        if (!nested(u, v) && !nested(v, u))
            if (++bad < 5) ADD_FAILURE() << tg.name << ": cross edge (" << u << ", " << v << ")";
    }
    EXPECT_EQ(bad, 0u) << tg.name;
}

void check_all(machine& m, const block_sizes& b, std::uint64_t memory, dfs_marks marks) {
    for (const test_graph& tg : flashxxl::testing::test_graphs()) {
        SCOPED_TRACE(tg.name + " marks " + to_string(marks));
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        auto g =
            build_csr(m, std::max<std::uint64_t>(256 * 1024, csr_build_min_memory(b)), b, src, 64 * 1024);
        recorder rec(tg.n);
        dfs_options o;
        o.marks = marks;
        std::uint64_t source = tg.n / 3;
        dfs_result res = dfs(m, *g, memory, b, source, rec, o);
        expect_valid_dfs_forest(tg, source, rec, res);
        ASSERT_EQ(res.phases.size(), 1u);
        EXPECT_GT(res.phases[0].of(role::static_data).read_bytes, 0u);
        flashxxl::testing::expect_block_shapes(res.phases[0].total(), b, "dfs");
    }
}

TEST(dfs, valid_forest_marks_separate) {
    machine m = flashxxl::testing::plain_machine();
    check_all(m, block_sizes(4096, 16384), 64 * 1024, dfs_marks::separate);
}

TEST(dfs, valid_forest_marks_with_nodes) {
    machine m = flashxxl::testing::plain_machine();
    check_all(m, block_sizes(4096, 16384), 64 * 1024, dfs_marks::with_nodes);
}

TEST(dfs, valid_forest_larger_write_blocks) {
    machine m = flashxxl::testing::two_device_machine("flash_aware");
    check_all(m, block_sizes(4096, 65536), 256 * 1024, dfs_marks::with_nodes);
}

TEST(dfs, marks_with_nodes_write_more_than_separate_marks) {
    // seeds/001 Section 4: scattering the marks over per-node records costs more write volume.
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(60));
    std::uint64_t written[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        machine m = flashxxl::testing::plain_machine();
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        const block_sizes b(4096, 16384);
        auto g = build_csr(m, 256 * 1024, b, src, 64 * 1024);
        dfs_options o;
        o.marks = i == 0 ? dfs_marks::separate : dfs_marks::with_nodes;
        dfs_result r = dfs(m, *g, 64 * 1024, b, 0, o);
        EXPECT_EQ(r.visited, tg.n);
        written[i] = r.phases[0].of(role::hot).write_bytes;
    }
    EXPECT_GT(written[1], written[0]);
}

TEST(dfs, source_only_and_bad_arguments) {
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 2}, {3, 4}};
    flashxxl::testing::vector_edge_source src(6, edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 256 * 1024, b, src);
    dfs_options o;
    o.whole_graph = false;
    dfs_result r = dfs(m, *g, 64 * 1024, b, 4, o);
    EXPECT_EQ(r.visited, 2u);
    EXPECT_EQ(r.trees, 1u);
    EXPECT_EQ(dfs(m, *g, 64 * 1024, b, 4).visited, 6u);
    EXPECT_THROW(dfs(m, *g, 64 * 1024, b, 6), config_error);
    EXPECT_THROW(dfs(m, *g, 4096, b, 0), config_error);
    flashxxl::testing::expect_invalid_pair_rejected(
        [&] { dfs(m, *g, 64 * 1024, flashxxl::testing::invalid_pair(), 0); });
}

TEST(dfs, translation_layer_memory_counts_against_the_budget) {
    machine m = machine::from_config_text("name=tl\nflash=memory,64MiB,memory name=ssd model=hama-ssd-2009 "
                                          "tl=on tl_page=4KiB tl_segment=64KiB\n"
                                          "placement=single device=ssd\n");
    const std::uint64_t tl = translation_layer_memory(m);
    EXPECT_GE(tl, 2 * 64 * KiB);
    std::vector<edge> edges = {{0, 1}, {1, 2}, {3, 4}};
    flashxxl::testing::vector_edge_source src(6, edges);
    const block_sizes b(4096, 4096);
    auto g = build_csr(m, 256 * 1024, b, src);
    EXPECT_THROW(dfs(m, *g, dfs_min_memory(b) + tl - 1, b, 0), config_error);
    dfs_result r = dfs(m, *g, dfs_min_memory(b) + tl + 8192, b, 0);
    EXPECT_EQ(r.visited, 6u);
    EXPECT_EQ(r.tl_memory, tl);
    EXPECT_EQ(r.marks_cache, dfs_min_memory(b) + 8192 - stack<detail::dfs_frame>::min_memory(b));
}

TEST(dfs, cache_share_caps_the_marks_cache_and_rejects_a_cap_below_the_minimum) {
    machine m = flashxxl::testing::plain_machine();
    grid_generator gen(100);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 256 * 1024, b, gen, 64 * 1024);
    dfs_options o;
    o.marks = dfs_marks::with_nodes;
    o.cache_share = 0.5;
    dfs_result r = dfs(m, *g, 4 * MiB, b, 0, o);
    EXPECT_EQ(r.visited, 10000u);
    EXPECT_EQ(r.marks_cache, 10000u * 24 / 2);
    o.marks = dfs_marks::separate; // 10 000 bytes: half is below one Bw group and two Br pages
    EXPECT_THROW(dfs(m, *g, 4 * MiB, b, 0, o), config_error);
    o.cache_share = 1.5;
    EXPECT_THROW(dfs(m, *g, 4 * MiB, b, 0, o), config_error);
}

//! DFS at run-time block sizes (non-powers of two among them), both mark variants: a valid
//! forest, block-shaped I/O, and the memory minimum follows the sizes.
class dfs_pairs : public ::testing::TestWithParam<block_sizes> {};

TEST_P(dfs_pairs, valid_forest_both_marks) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    for (dfs_marks marks : {dfs_marks::separate, dfs_marks::with_nodes})
        check_all(m, b, dfs_min_memory(b) + 64 * 1024, marks);
}

TEST_P(dfs_pairs, budget_below_the_minimum_is_rejected) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 2}, {3, 4}};
    flashxxl::testing::vector_edge_source src(6, edges);
    auto g = build_csr(m, csr_build_min_memory(b), b, src);
    EXPECT_THROW(dfs(m, *g, dfs_min_memory(b) - 1, b, 0), config_error);
    EXPECT_EQ(dfs(m, *g, dfs_min_memory(b), b, 0).visited, 6u);
}

INSTANTIATE_TEST_SUITE_P(runtime, dfs_pairs, ::testing::ValuesIn(flashxxl::testing::runtime_block_pairs()),
                         [](const ::testing::TestParamInfo<block_sizes>& i) {
                             return flashxxl::testing::pair_name(i.param);
                         });

} // namespace
