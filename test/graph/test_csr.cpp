// Tests of the CSR graph built by external sorting: symmetric, sorted, no loops or repeats, counts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/text_edge_reader.hpp"
#include "graph/test_bfs_support.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;
const block_sizes small_blocks(4096, 16384);

// An id that 32-bit BFS records cannot hold names the file and the line it is on: 2^32 - 1
// (their "no node"), and 2^32 - 2, which makes |V| = 2^32 - 1, one more than they hold (it was
// refused only once the whole list had been read).
TEST(csr, id_beyond_32_bits_names_file_and_line) {
    machine m = flashxxl::testing::plain_machine();
    flashxxl::testing::temp_dir dir;
    const std::string path = dir / "big.txt";
    auto expect_refused = [&](const char* text, const std::string& where) {
        std::FILE* f = std::fopen(path.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs(text, f);
        std::fclose(f);
        text_edge_reader reader(path);
        try {
            build_csr(m, 160 * 1024, small_blocks, reader);
            ADD_FAILURE() << "accepted: " << text;
        } catch (const input_error& e) {
            EXPECT_NE(std::string(e.what()).find(path + where + " has an id >= 2^32 - 2"), std::string::npos)
                << e.what();
        }
    };
    expect_refused("# comment\n0 1\n1 4294967295\n", ":3: edge 2 (1, 4294967295)");
    expect_refused("0 4294967294\n", ":1: edge 1 (0, 4294967294)");
}

// A sparse id range whose offset array cannot be held is refused at the edge that shows it,
// before the sort writes anything: one edge to node 10^6 needs 8 MB of offsets, and a node count
// of 10^6 as much, under a 1 MiB memory-backing budget.
TEST(csr, an_offset_array_beyond_the_machine_is_refused_before_writing) {
    machine_spec spec = parse_machine_config(
        "name=small\nflash=memory,1GiB,memory name=ssd\nplacement=single device=ssd\n", "csr-test");
    spec.memory_backing_limit = 1 * MiB;
    machine m(spec);
    const std::string beyond =
        "needs a CSR offset array of at least 7.63 MiB, more than the 1 MiB that machine "
        "'small' can hold for role static_data (single: everything -> ssd); node ids are "
        "array indices, so renumber the nodes densely";
    const std::vector<edge> sparse_edges = {{0, 1}, {1, 1000000}, {2, 3}};
    flashxxl::testing::vector_edge_source sparse(1000001, sparse_edges);
    try {
        build_csr(m, 160 * 1024, small_blocks, sparse);
        FAIL() << "an 8 MB offset array was accepted under a 1 MiB memory-backing budget";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("build_csr: edge 2 (1, 1000000) " + beyond), std::string::npos)
            << e.what();
    }
    const std::vector<edge> dense_edges = {{0, 1}, {1, 2}};
    flashxxl::testing::vector_edge_source declared(1000000, dense_edges);
    try {
        build_csr(m, 160 * 1024, small_blocks, declared);
        FAIL() << "a declared node count of 10^6 was accepted under a 1 MiB memory-backing budget";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("build_csr: a node count of 1000000 " + beyond),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u) << "a refusal left blocks allocated";
    flashxxl::testing::vector_edge_source dense(3, dense_edges);
    EXPECT_EQ(build_csr(m, 160 * 1024, small_blocks, dense)->node_count(), 3u);
}

TEST(csr, matches_the_symmetrized_edge_set_and_counts_what_it_dropped) {
    machine m = flashxxl::testing::plain_machine();
    for (const test_graph& tg : flashxxl::testing::test_graphs()) {
        SCOPED_TRACE(tg.name);
        std::set<std::pair<node_id, node_id>> want;
        std::uint64_t loops = 0;
        for (const edge& e : tg.edges) {
            if (e.u == e.v) {
                ++loops;
                continue;
            }
            want.insert({e.u, e.v});
            want.insert({e.v, e.u});
        }
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        auto g = build_csr(m, 160 * 1024, small_blocks, src);
        const csr_build_stats& st = g->build_stats();
        EXPECT_EQ(st.nodes, tg.n);
        EXPECT_EQ(g->node_count(), tg.n);
        EXPECT_EQ(st.input_edges, tg.edges.size());
        EXPECT_EQ(st.self_loops, loops);
        EXPECT_EQ(st.arcs, want.size());
        EXPECT_EQ(st.duplicate_arcs, 2 * (tg.edges.size() - loops) - want.size());
        EXPECT_GT(st.passes, 0u) << "the arc sort should have gone external";
        // Sequential scan: exactly the wanted arcs, in order.
        std::vector<std::pair<node_id, node_id>> got;
        csr_graph::arc_stream s(*g);
        for (; !s.empty(); ++s)
            got.push_back({(*s).v, (*s).w});
        EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end()));
        // Random access: a few lists.
        for (node_id v : {node_id(0), tg.n / 2, tg.n - 1}) {
            std::vector<node_id> nb;
            g->for_each_neighbour(v, [&](bfs_node w) { nb.push_back(w); });
            std::vector<node_id> exp;
            for (auto it = want.lower_bound({v, 0}); it != want.end() && it->first == v; ++it)
                exp.push_back(it->second);
            EXPECT_EQ(nb, exp) << "node " << v;
        }
    }
}

TEST(csr, roles_stream_while_loading_and_static_data_when_built) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(50));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, 160 * 1024, small_blocks, src);
    device_stats s = m.stats()[0];
    EXPECT_GT(s.of(role::stream).write_bytes, 0u);
    EXPECT_GE(s.of(role::static_data).write_bytes, g->bytes());
    EXPECT_EQ(s.of(role::hot).bytes(), 0u);
    EXPECT_EQ(s.of(role::scratch).bytes(), 0u);
}

TEST(csr, rejects_ids_beyond_the_node_count_and_small_budgets) {
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 5}};
    flashxxl::testing::vector_edge_source bad(3, edges);
    EXPECT_THROW(build_csr(m, 256 * 1024, small_blocks, bad), input_error);
    flashxxl::testing::vector_edge_source ok(6, edges);
    EXPECT_THROW(build_csr(m, 1024, small_blocks, ok), config_error);
    flashxxl::testing::expect_invalid_pair_rejected(
        [&] { build_csr(m, 256 * 1024, flashxxl::testing::invalid_pair(), ok); });
}

//! The same graph at run-time block sizes: identical arcs and lists, vectors with the pair,
//! every I/O a whole number of Br blocks.
class csr_pairs : public ::testing::TestWithParam<block_sizes> {};

TEST_P(csr_pairs, same_graph_at_every_pair) {
    const block_sizes b = GetParam();
    const test_graph& tg = flashxxl::testing::test_graphs()[0];
    std::vector<std::pair<node_id, node_id>> want;
    {
        machine m = flashxxl::testing::plain_machine();
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        auto g = build_csr(m, 160 * 1024, small_blocks, src);
        for (csr_graph::arc_stream s(*g); !s.empty(); ++s)
            want.push_back({(*s).v, (*s).w});
    }
    machine m = flashxxl::testing::plain_machine();
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, csr_build_min_memory(b) + 32 * 1024, b, src);
    EXPECT_EQ(g->blocks(), b);
    EXPECT_EQ(g->offsets().blocks(), b);
    EXPECT_EQ(g->targets().blocks(), b);
    EXPECT_GT(g->build_stats().passes, 0u);
    std::vector<std::pair<node_id, node_id>> got;
    for (csr_graph::arc_stream s(*g); !s.empty(); ++s)
        got.push_back({(*s).v, (*s).w});
    EXPECT_EQ(got, want);
    std::uint64_t degrees = 0;
    for (std::uint64_t v = 0; v < tg.n; v += 97) {
        std::vector<node_id> nb;
        g->for_each_neighbour(v, [&](bfs_node w) { nb.push_back(w); });
        degrees += nb.size();
        EXPECT_EQ(nb.size(), g->degree(v));
    }
    EXPECT_GT(degrees, 0u);
    for (role r : {role::stream, role::static_data})
        flashxxl::testing::expect_block_shapes(m.stats()[0].of(r), b, to_string(r));
    EXPECT_THROW(build_csr(m, csr_build_min_memory(b) - 1, b, src), config_error);
}

INSTANTIATE_TEST_SUITE_P(runtime, csr_pairs, ::testing::ValuesIn(flashxxl::testing::runtime_block_pairs()),
                         [](const ::testing::TestParamInfo<block_sizes>& i) {
                             return flashxxl::testing::pair_name(i.param);
                         });

} // namespace
