// Tests of MR_BFS's per-level adjacency choice on modelled devices: the read prices, the planner, and
// automatic against both forced ways.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/units.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;

const block_sizes blocks(4096, 16384);

//! One memory-backed disk with the Barracuda model (seeds/000's HDD): everything on it.
const char* disk_config = "name=disk\ndisk=memory,64GiB,memory name=hdd model=barracuda-7200.11\n"
                          "placement=single device=hdd\n";
//! seeds/000's hybrid machine under flash_aware: the graph (static_data) on the Hama SSD, the
//! level lists and sorter runs (scratch) on the disk.
const char* hybrid_config =
    "name=hybrid-2009\nflash=memory,32GiB,memory name=ssd model=hama-ssd-2009\n"
    "disk=memory,64GiB,memory name=hdd model=barracuda-7200.11\nplacement=flash_aware\n";

test_graph star(std::uint64_t n) {
    test_graph g{"star", n, {}};
    for (node_id v = 1; v < n; ++v)
        g.edges.push_back({0, v});
    return g;
}
test_graph line(std::uint64_t n) {
    test_graph g{"line", n, {}};
    for (node_id v = 1; v < n; ++v)
        g.edges.push_back({v - 1, v});
    return g;
}
//! A 4 x rows grid: a long grid whose frontiers hold at most 4 nodes.
test_graph ladder(std::uint64_t rows) {
    test_graph g{"ladder", 4 * rows, {}};
    for (node_id r = 0; r < rows; ++r) {
        for (node_id c = 0; c < 4; ++c) {
            if (c + 1 < 4) g.edges.push_back({4 * r + c, 4 * r + c + 1});
            if (r + 1 < rows) g.edges.push_back({4 * r + c, 4 * (r + 1) + c});
        }
    }
    return g;
}

//! What one run read and how long the model says it took.
struct run_stats {
    double phase_s = 0; //!< the bfs phase's busiest device (modelled)
    io_counters graph;  //!< role static_data: the graph's reads
    std::uint64_t scanned = 0, levels = 0;
    std::uint64_t graph_bytes = 0, graph_pages = 0;
};

//! mr_bfs from `source` on a fresh machine built from `config`, the graph with two-frame page
//! caches (they hold no graph; M = 1 MiB, so every level's neighbours sort in memory and all
//! I/O is submitted by this thread, in program order: the modelled times are deterministic).
run_stats run(const char* config, const test_graph& tg, std::uint64_t source, mr_adjacency adjacency) {
    machine m = machine::from_config_text(config, "adjacency-test");
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, 512 * KiB, blocks, src, csr_graph::offset_vector::min_memory(blocks));
    mr_bfs_options o;
    o.adjacency = adjacency;
    bfs_level_recorder rec(tg.n);
    bfs_result r = mr_bfs(m, *g, 1024 * KiB, blocks, source, rec, o);
    flashxxl::testing::expect_levels_match_boost(tg, source, rec);
    run_stats s;
    const phase_stats& p = *r.phase("bfs");
    s.phase_s = p.busiest_modelled_s();
    s.graph = p.of(role::static_data);
    s.levels = r.levels();
    s.scanned = std::uint64_t(std::count(r.scanned_levels.begin(), r.scanned_levels.end(), true));
    s.graph_bytes = g->bytes();
    s.graph_pages =
        (g->offsets().size() + g->offsets().items_per_page() - 1) / g->offsets().items_per_page() +
        (g->targets().size() + g->targets().items_per_page() - 1) / g->targets().items_per_page();
    std::cout << m.name() << " " << tg.name << " from " << source << ", " << to_string(adjacency) << ": "
              << s.scanned << " of " << s.levels << " levels scanned, graph reads " << s.graph.read_bytes
              << " B in " << s.graph.read_ops << " requests, " << s.graph.modelled_s << " s; bfs phase "
              << s.phase_s << " s\n";
    return s;
}

//! The three choices on one graph.
struct comparison {
    run_stats random, scan, automatic;
};
comparison compare(const char* config, const test_graph& tg, std::uint64_t source) {
    return {run(config, tg, source, mr_adjacency::random), run(config, tg, source, mr_adjacency::scan),
            run(config, tg, source, mr_adjacency::automatic)};
}

//! Automatic is never worse than the better forced choice by more than 2% of the phase's
//! modelled time.
void expect_automatic_near_best(const comparison& c, const std::string& what) {
    const double best = std::min(c.random.phase_s, c.scan.phase_s);
    EXPECT_LE(c.automatic.phase_s, 1.02 * best)
        << what << ": automatic " << c.automatic.phase_s << " s, random " << c.random.phase_s << " s, scan "
        << c.scan.phase_s << " s";
}

TEST(mr_adjacency_costs, priced_by_the_device_models) {
    machine disk = machine::from_config_text(disk_config, "disk");
    const mr_read_costs d = mr_read_costs_of(disk, role::static_data, 4096, 1 * MiB);
    EXPECT_TRUE(d.modelled);
    // A seek and half a rotation against a 4 KiB transfer.
    EXPECT_GT(d.random, 2e-3);
    EXPECT_LT(d.sequential, 0.5e-3);
    machine hybrid = machine::from_config_text(hybrid_config, "hybrid");
    const mr_read_costs f = mr_read_costs_of(hybrid, role::static_data, 4096, 1 * MiB);
    EXPECT_TRUE(f.modelled);
    EXPECT_GT(f.sequential, 0.0);
    EXPECT_LE(f.random, 1.05 * f.sequential) << "flash: a Br read costs the same anywhere";
    // Without models: the unit-cost flash rule and the I/O rule of a disk.
    machine plain = flashxxl::testing::plain_machine();
    const mr_read_costs p = mr_read_costs_of(plain, role::static_data, 4096, 1 * MiB);
    EXPECT_FALSE(p.modelled);
    EXPECT_EQ(p.random, 1.0);
    EXPECT_EQ(p.sequential, 1.0);
    machine bare_disk = machine::from_config_text(
        "name=d\ndisk=memory,1GiB,memory name=hdd\nplacement=single device=hdd\n", "bare-disk");
    const mr_read_costs q = mr_read_costs_of(bare_disk, role::static_data, 4096, 1 * MiB);
    EXPECT_FALSE(q.modelled);
    EXPECT_EQ(q.random, 1.0);
    EXPECT_EQ(q.sequential, 0.0);
}

//! The planner on a star's frontiers: its n - 1 leaves are scanned on a disk (every page of the
//! graph, each a seek when fetched) but fetched on flash; one node is fetched everywhere.
TEST(mr_adjacency_costs, planner_scans_wide_frontiers_on_a_disk_only) {
    for (const char* config : {disk_config, hybrid_config}) {
        machine m = machine::from_config_text(config, "planner");
        test_graph tg = star(20000);
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        auto g = build_csr(m, 512 * KiB, blocks, src, csr_graph::offset_vector::min_memory(blocks));
        const mr_adjacency_planner planner(*g, mr_scan_chunk_pages(blocks, next_level_stream_memory(blocks)),
                                           mr_read_costs_of(m, role::static_data, blocks.br, g->bytes()));
        EXPECT_EQ(planner.chunk_pages(), blocks.reads_per_write());
        frontier_tally leaves(g->offsets().items_per_page()), centre(g->offsets().items_per_page());
        for (std::uint64_t v = 1; v < tg.n; ++v)
            leaves.add(v);
        centre.add(0);
        EXPECT_EQ(leaves.frontier().offset_pages, (tg.n + 1 + 511) / 512);
        EXPECT_EQ(centre.frontier().offset_pages, 1u);
        const bool disk = std::string(config) == disk_config;
        EXPECT_EQ(planner.prefer_scan(leaves.frontier()), disk) << m.name();
        EXPECT_FALSE(planner.prefer_scan(centre.frontier())) << m.name();
        if (disk) {
            EXPECT_LT(3 * planner.scan_cost(leaves.frontier()), planner.random_cost(leaves.frontier()));
        }
    }
}

//! A star from its centre on a disk: level 1 is all of the graph. Fetched, its pages come one
//! seek each (offsets and targets alternate); scanned, a seek per chunk of Bw: scan wins and
//! automatic takes it; both forced ways read every page, the scan sequentially.
TEST(mr_bfs_adjacency_model, star_on_a_disk_scans_its_wide_level) {
    const test_graph tg = star(20000);
    const comparison c = compare(disk_config, tg, 0);
    EXPECT_EQ(c.random.scanned, 0u);
    EXPECT_EQ(c.scan.scanned, c.scan.levels);
    EXPECT_GE(c.automatic.scanned, 1u);
    EXPECT_GE(c.scan.graph.read_bytes, c.scan.graph_bytes) << "the scan reads the whole graph";
    EXPECT_GE(c.random.graph.read_bytes, c.random.graph_bytes) << "so do the fetches of n - 1 lists";
    const double per_scan_read = c.scan.graph.modelled_s / double(c.scan.graph.read_ops);
    const double per_random_read = c.random.graph.modelled_s / double(c.random.graph.read_ops);
    EXPECT_LT(per_scan_read, 0.5 * per_random_read) << "the scan's reads are mostly sequential";
    EXPECT_LT(c.scan.graph.modelled_s, 0.5 * c.random.graph.modelled_s);
    EXPECT_LT(c.scan.phase_s, c.random.phase_s);
    expect_automatic_near_best(c, "star on a disk");
}

//! Thin frontiers on a disk (a line: one node per level; a 4-wide ladder): every level's lists
//! lie in a page or two the caches mostly still hold, while a scan reads a chunk of each vector
//! per level: random wins by far and automatic takes it.
TEST(mr_bfs_adjacency_model, thin_frontiers_on_a_disk_are_fetched) {
    for (const test_graph& tg : {line(2000), ladder(500)}) {
        SCOPED_TRACE(tg.name);
        const comparison c = compare(disk_config, tg, 0);
        EXPECT_EQ(c.automatic.scanned, 0u);
        // Fetched: each page of the graph read about once (the frontier moves forward).
        EXPECT_LE(c.random.graph.read_bytes, 2 * c.random.graph_pages * blocks.br);
        // Scanned: at least a Br page of each vector per level.
        EXPECT_GE(c.scan.graph.read_bytes, 2 * c.scan.levels * blocks.br);
        EXPECT_LT(10 * c.random.graph.modelled_s, c.scan.graph.modelled_s);
        expect_automatic_near_best(c, tg.name + " on a disk");
    }
}

//! On flash (the graph on the SSD of the hybrid machine) a random Br read costs what a
//! sequential one does: fetching reads fewer pages on thin and wide frontiers alike, and
//! automatic never scans.
TEST(mr_bfs_adjacency_model, flash_fetches_at_random) {
    for (const test_graph& tg : {star(20000), line(2000)}) {
        SCOPED_TRACE(tg.name);
        const comparison c = compare(hybrid_config, tg, 0);
        EXPECT_EQ(c.automatic.scanned, 0u);
        EXPECT_LE(c.random.graph.read_bytes, c.scan.graph.read_bytes);
        EXPECT_LE(c.random.graph.modelled_s, c.scan.graph.modelled_s);
        EXPECT_EQ(c.automatic.graph.read_bytes, c.random.graph.read_bytes);
        expect_automatic_near_best(c, tg.name + " on flash");
    }
}

//! Wider frontiers on a disk whose page caches hold no graph (a 60 x 60 grid: frontiers up to
//! 60 nodes spread over the whole id range; a random graph: a few levels of thousands): most
//! levels are scanned, the first few fetched, and automatic is at least as fast as either
//! forced way.
TEST(mr_bfs_adjacency_model, wide_frontiers_on_a_disk_mix_both_ways) {
    for (const test_graph& tg :
         {flashxxl::testing::collect("grid", grid_generator(60)),
          flashxxl::testing::collect("random", random_graph_generator(6000, 15000, 3))}) {
        SCOPED_TRACE(tg.name);
        const comparison c = compare(disk_config, tg, 0);
        EXPECT_GT(c.automatic.scanned, 0u);
        EXPECT_LT(c.automatic.scanned, c.automatic.levels);
        EXPECT_LE(c.automatic.graph.modelled_s,
                  1.02 * std::min(c.random.graph.modelled_s, c.scan.graph.modelled_s));
        expect_automatic_near_best(c, tg.name + " on a disk");
    }
}

} // namespace
