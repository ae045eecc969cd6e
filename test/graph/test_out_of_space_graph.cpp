// MR_BFS, MM_BFS and DFS on a device smaller than one Bw and on one that fills up half-way.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;

const block_sizes small{4 * KiB, 16 * KiB};

//! The graph on 'ssd' (static_data, and stream for its build); what the algorithms write for
//! themselves (hot, scratch) on 'hdd' of `hdd_bytes`.
machine split_machine(std::uint64_t hdd_bytes) {
    return machine::from_config_text(
        "name=split\nflash=memory,64MiB,memory name=ssd\n"
        "disk=memory," +
            std::to_string(hdd_bytes) +
            "B,memory name=hdd\n"
            "placement=per_role static_data=ssd stream=ssd hot=hdd scratch=hdd\n",
        "split-machine");
}

//! A width x width grid (many short levels) and a path of n nodes (a deep DFS stack).
test_graph grid(std::uint64_t width) { return flashxxl::testing::collect("grid", grid_generator(width)); }
test_graph path(std::uint64_t n) {
    test_graph g;
    g.name = "path";
    g.n = n;
    for (std::uint64_t v = 0; v + 1 < n; ++v)
        g.edges.push_back({v, v + 1});
    return g;
}

//! BFS levels from `source` in memory (the oracle for what a visitor saw).
std::vector<std::uint64_t> reference_levels(const test_graph& tg, std::uint64_t source) {
    std::vector<std::vector<std::uint64_t>> adj(tg.n);
    for (const edge& e : tg.edges) {
        adj[e.u].push_back(e.v);
        adj[e.v].push_back(e.u);
    }
    std::vector<std::uint64_t> level(tg.n, no_node);
    std::deque<std::uint64_t> q{source};
    level[source] = 0;
    while (!q.empty()) {
        const std::uint64_t v = q.front();
        q.pop_front();
        for (std::uint64_t w : adj[v])
            if (level[w] == no_node) {
                level[w] = level[v] + 1;
                q.push_back(w);
            }
    }
    return level;
}

//! out_of_space on 'hdd' for a block of `role`, with `algorithm` as the outermost structure.
void expect_names(const out_of_space& e, const std::string& role, const std::string& algorithm) {
    const std::string what = e.what();
    EXPECT_EQ(e.device(), "hdd") << what;
    EXPECT_EQ(e.role(), role) << what;
    const std::string& s = e.structure();
    const std::string tail = " in " + algorithm;
    EXPECT_TRUE(s == algorithm ||
                (s.size() > tail.size() && s.compare(s.size() - tail.size(), std::string::npos, tail) == 0))
        << what;
    EXPECT_NE(what.find("out of space on device 'hdd' (role " + role + ", structure " + s + "): requested "),
              std::string::npos)
        << what;
}

//! What a BFS visitor saw before a failure agrees with the reference: every level it finished
//! is complete and right, every node it discovered has its true level, and the search did not
//! finish (not all levels were finished).
void expect_bfs_prefix(const test_graph& tg, const bfs_level_recorder& rec, std::uint64_t min_levels) {
    const std::vector<std::uint64_t> ref = reference_levels(tg, 0);
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t v = 0; v < tg.n; ++v) {
        if (ref[v] != no_node && ref[v] >= sizes.size()) sizes.resize(ref[v] + 1);
        if (ref[v] != no_node) ++sizes[ref[v]];
        if (rec.level[v] != no_node) ASSERT_EQ(rec.level[v], ref[v]) << "node " << v;
    }
    ASSERT_GE(rec.level_sizes.size(), min_levels) << "the device did not fill up half-way";
    ASSERT_LT(rec.level_sizes.size(), sizes.size()) << "a failed search finished every level";
    for (std::size_t t = 0; t < rec.level_sizes.size(); ++t)
        EXPECT_EQ(rec.level_sizes[t], sizes[t]) << "level " << t;
}

//! Builds tg on m, runs `search` (which must throw out_of_space), checks the names and that
//! 'hdd' is empty again and 'ssd' holds only the graph.
template <class Search>
void expect_out_of_space(machine& m, const test_graph& tg, const std::string& role,
                         const std::string& algorithm, Search search) {
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, 512 * KiB, small, src);
    const std::uint64_t graph_bytes = m.dev(0).allocator().used_bytes();
    try {
        search(*g);
        ADD_FAILURE() << algorithm << " on " << tg.name << ": no out_of_space";
    } catch (const out_of_space& e) {
        expect_names(e, role, algorithm);
    }
    EXPECT_EQ(m.dev(1).allocator().used_bytes(), 0u) << "extents left on hdd";
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), graph_bytes) << "extents left on ssd";
}

} // namespace

TEST(out_of_space_graph, mr_bfs_device_smaller_than_bw) {
    machine m = split_machine(small.bw / 2);
    const test_graph tg = grid(20);
    bfs_level_recorder rec(tg.n);
    expect_out_of_space(m, tg, "scratch", "flashxxl::mr_bfs",
                        [&](csr_graph& g) { mr_bfs(m, g, mr_bfs_min_memory(small), small, 0, rec); });
    EXPECT_LE(rec.level_sizes.size(), 1u);
}

TEST(out_of_space_graph, mr_bfs_device_full_half_way) {
    machine m = split_machine(2 * small.bw);
    const test_graph tg = grid(20);
    bfs_level_recorder rec(tg.n);
    expect_out_of_space(m, tg, "scratch", "flashxxl::mr_bfs",
                        [&](csr_graph& g) { mr_bfs(m, g, mr_bfs_min_memory(small), small, 0, rec); });
    expect_bfs_prefix(tg, rec, 2);
}

//! MM_BFS with its hot pool and level lists on the device (none kept in memory).
mm_bfs_options on_device() {
    mm_bfs_options o;
    o.pool_memory = 0;
    o.level_memory = 0;
    return o;
}

// At its minimum memory MM_BFS's preprocessing already spills (its lists, role scratch).
TEST(out_of_space_graph, mm_bfs_device_smaller_than_bw) {
    machine m = split_machine(small.bw / 2);
    const test_graph tg = grid(20);
    bfs_level_recorder rec(tg.n);
    expect_out_of_space(m, tg, "scratch", "flashxxl::mm_bfs (preprocessing)", [&](csr_graph& g) {
        mm_bfs(m, g, mm_bfs_min_memory(small), small, 0, rec, on_device());
    });
    EXPECT_LE(rec.level_sizes.size(), 1u);
}

// With 2 MiB the preprocessing stays in memory; the BFS phase's levels (role scratch) do not.
TEST(out_of_space_graph, mm_bfs_device_full_half_way) {
    machine m = split_machine(3 * small.bw);
    const test_graph tg = grid(20);
    bfs_level_recorder rec(tg.n);
    expect_out_of_space(m, tg, "scratch", "flashxxl::mm_bfs (bfs phase)",
                        [&](csr_graph& g) { mm_bfs(m, g, 2 * MiB, small, 0, rec, on_device()); });
    expect_bfs_prefix(tg, rec, 2);
}

//! Records the order of discoveries of a DFS.
struct discovery_recorder : dfs_visitor {
    std::vector<node_id> order;
    std::uint64_t finished = 0;
    void discover_vertex(node_id v, std::uint64_t) { order.push_back(v); }
    void finish_vertex(node_id, std::uint64_t) { ++finished; }
};

TEST(out_of_space_graph, dfs_device_smaller_than_bw) {
    machine m = split_machine(small.bw / 2);
    const test_graph tg = path(2000);
    discovery_recorder rec;
    expect_out_of_space(m, tg, "hot", "flashxxl::dfs",
                        [&](csr_graph& g) { dfs(m, g, dfs_min_memory(small), small, 0, rec); });
    EXPECT_TRUE(rec.order.empty()) << "the marks did not fit: nothing was visited";
}

// A path: the stack holds one frame per node discovered, so it spills until the device is full.
TEST(out_of_space_graph, dfs_device_full_half_way) {
    machine m = split_machine(4 * small.bw);
    const test_graph tg = path(12000);
    discovery_recorder rec;
    expect_out_of_space(m, tg, "hot", "flashxxl::dfs",
                        [&](csr_graph& g) { dfs(m, g, dfs_min_memory(small), small, 0, rec); });
    ASSERT_GT(rec.order.size(), 2 * small.bw / sizeof(detail::dfs_frame)) << "the device filled up at once";
    ASSERT_LT(rec.order.size(), tg.n);
    for (std::size_t i = 0; i < rec.order.size(); ++i)
        ASSERT_EQ(rec.order[i], i) << "discovery " << i;
    EXPECT_EQ(rec.finished, 0u) << "on a path no node finishes before the deepest one";
}
