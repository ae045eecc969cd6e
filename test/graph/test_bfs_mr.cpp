// Tests of MR_BFS (Munagala-Ranade): levels and parents equal Boost.Graph's on every graph class, whichever
// way a level's lists are read.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "graph/test_bfs_support.hpp"

namespace flashxxl {
//! GoogleTest prints an mr_adjacency parameter by its name.
inline void PrintTo(mr_adjacency a, std::ostream* os) { *os << to_string(a); }
} // namespace flashxxl

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
            for (std::uint64_t s : r.level_sizes)
                reached += s;
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
    for (std::string p :
         {"random_striping", "flash_aware", "single device=hdd", "per_role static_data=ssd hot=hdd"}) {
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

//! The shapes the adjacency choice matters for, besides test_graphs(): a star (one frontier
//! of n - 1 nodes), a line (n levels of one node), a ladder (a 4 x 400 grid: thin frontiers
//! over many levels) and pieces (a star, a line and a grid side by side, isolated nodes).
std::vector<test_graph> adjacency_graphs() {
    std::vector<test_graph> v = flashxxl::testing::test_graphs();
    test_graph star{"star", 5000, {}}, line{"line", 1200, {}}, ladder{"ladder", 4 * 400, {}};
    for (node_id u = 1; u < star.n; ++u)
        star.edges.push_back({0, u});
    for (node_id u = 1; u < line.n; ++u)
        line.edges.push_back({u - 1, u});
    for (node_id r = 0; r < 400; ++r) {
        for (node_id c = 0; c < 4; ++c) {
            if (c + 1 < 4) ladder.edges.push_back({4 * r + c, 4 * r + c + 1});
            if (r + 1 < 400) ladder.edges.push_back({4 * r + c, 4 * (r + 1) + c});
        }
    }
    test_graph pieces{"pieces", 0, {}};
    for (const test_graph* part : {&star, &line, &v[1]}) {
        for (const edge& e : part->edges)
            pieces.edges.push_back({e.u + node_id(pieces.n), e.v + node_id(pieces.n)});
        pieces.n += part->n;
    }
    pieces.n += 30;
    for (test_graph* g : {&star, &line, &ladder, &pieces})
        v.push_back(flashxxl::testing::with_noise(*g));
    return v;
}

//! MR_BFS with each adjacency choice: levels and parents equal Boost's from two sources on
//! every shape, the result says per level how the lists were read (forced: always that way),
//! on a flash machine without a model (automatic: random fetches, the unit-cost rule) and a
//! disk without one (automatic: by the I/O rule, both ways). M near the minimum and larger.
class mr_bfs_adjacency : public ::testing::TestWithParam<mr_adjacency> {};

TEST_P(mr_bfs_adjacency, levels_equal_boost_on_every_shape) {
    const mr_adjacency adjacency = GetParam();
    const block_sizes b(4096, 16384);
    std::uint64_t scanned = 0, fetched = 0;
    for (const std::string device :
         {"flash=memory,1GiB,memory name=ssd", "disk=memory,1GiB,memory name=hdd"}) {
        machine m = machine::from_config_text("name=one\n" + device + "\nplacement=single device=" +
                                                  device.substr(device.find("name=") + 5) + "\n",
                                              "one-device");
        const bool disk = device.find("hdd") != std::string::npos;
        for (const test_graph& tg : adjacency_graphs()) {
            SCOPED_TRACE(tg.name + " on " + device + ", " + to_string(adjacency));
            flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
            auto g = build_csr(m, 512 * 1024, b, src, csr_graph::offset_vector::min_memory(b));
            for (std::uint64_t source : {std::uint64_t(0), tg.n / 3}) {
                for (std::uint64_t memory : {mr_bfs_min_memory(b), std::uint64_t(512 * 1024)}) {
                    mr_bfs_options o;
                    o.adjacency = adjacency;
                    bfs_level_recorder rec(tg.n);
                    bfs_result r = mr_bfs(m, *g, memory, b, source, rec, o);
                    flashxxl::testing::expect_levels_match_boost(tg, source, rec);
                    EXPECT_EQ(rec.level_sizes, r.level_sizes);
                    ASSERT_EQ(r.scanned_levels.size(), r.levels());
                    const auto s =
                        std::uint64_t(std::count(r.scanned_levels.begin(), r.scanned_levels.end(), true));
                    if (adjacency == mr_adjacency::scan) {
                        EXPECT_EQ(s, r.levels());
                    }
                    if (adjacency == mr_adjacency::random ||
                        (adjacency == mr_adjacency::automatic && !disk)) {
                        EXPECT_EQ(s, 0u);
                    }
                    if (disk) {
                        scanned += s;
                        fetched += r.levels() - s;
                    }
                }
            }
        }
    }
    // On the disk, automatic took both ways (the star's wide level is scanned, the line's
    // levels are fetched).
    if (adjacency == mr_adjacency::automatic) {
        EXPECT_GT(scanned, 0u);
        EXPECT_GT(fetched, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(choices, mr_bfs_adjacency,
                         ::testing::Values(mr_adjacency::random, mr_adjacency::scan, mr_adjacency::automatic),
                         [](const ::testing::TestParamInfo<mr_adjacency>& i) {
                             return std::string(to_string(i.param));
                         });

TEST(mr_bfs, adjacency_names_parse_and_bad_ones_are_rejected) {
    for (mr_adjacency a : {mr_adjacency::random, mr_adjacency::scan, mr_adjacency::automatic})
        EXPECT_EQ(parse_mr_adjacency(to_string(a)), a);
    try {
        parse_mr_adjacency("sequential", "--mr-adjacency");
        ADD_FAILURE() << "accepted";
    } catch (const config_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("--mr-adjacency 'sequential'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("automatic, random or scan"), std::string::npos) << msg;
    }
    EXPECT_THROW(parse_mr_adjacency("Random"), config_error);
}

//! A graph with a larger Br than mr_bfs's: the minimum covers one graph page per vector for
//! the scan, and below it every choice is refused (the message names both block pairs).
TEST(mr_bfs, graph_blocks_larger_than_the_streams_raise_the_minimum) {
    machine m = flashxxl::testing::plain_machine();
    const block_sizes b(4096, 16384), gb(32768, 65536);
    test_graph tg = flashxxl::testing::test_graphs()[1];
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, csr_build_min_memory(gb), gb, src);
    const std::uint64_t min = mr_bfs_min_memory(b, gb);
    EXPECT_EQ(min, mr_bfs_min_memory(b) + 2 * gb.br - next_level_stream_memory(b));
    EXPECT_EQ(mr_bfs_min_memory(b, b), mr_bfs_min_memory(b));
    mr_bfs_options o;
    o.adjacency = mr_adjacency::scan;
    try {
        mr_bfs(m, *g, min - 1, b, 0, o);
        ADD_FAILURE() << "accepted";
    } catch (const config_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("32KiB"), std::string::npos) << msg;
        EXPECT_NE(msg.find("16KiB"), std::string::npos) << msg;
    }
    bfs_level_recorder rec(tg.n);
    mr_bfs(m, *g, min, b, 0, rec, o);
    flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
}

INSTANTIATE_TEST_SUITE_P(runtime, mr_bfs_pairs, ::testing::ValuesIn(flashxxl::testing::runtime_block_pairs()),
                         [](const ::testing::TestParamInfo<block_sizes>& i) {
                             return flashxxl::testing::pair_name(i.param);
                         });

} // namespace
