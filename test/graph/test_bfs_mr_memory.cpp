// Tests of mr_bfs's memory claim: its account's peak and the heap its thread really allocates stay within M,
// for every adjacency choice.
#include "container/alloc_tracker.hpp" // replaces operator new: this executable's one TU including it

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/units.hpp"
#include "graph/test_bfs_support.hpp"

namespace flashxxl {
//! GoogleTest prints an mr_adjacency parameter by its name.
inline void PrintTo(mr_adjacency a, std::ostream* os) { *os << to_string(a); }
} // namespace flashxxl

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;
using tracker = flashxxl_test::alloc_tracker;

//! mr_bfs's block sizes in every case (the graph's too, unless a case says otherwise).
const block_sizes mr_blocks(4096, 16384);

//! The star on n nodes: node 0 joined to every other (a frontier of n - 1 nodes at level 1).
test_graph star(std::uint64_t n) {
    test_graph g;
    g.name = "star";
    g.n = n;
    for (std::uint64_t v = 1; v < n; ++v)
        g.edges.push_back({0, node_id(v)});
    return g;
}

//! The path 0 - 1 - ... - n-1 (n levels of one node from node 0).
test_graph line(std::uint64_t n) {
    test_graph g;
    g.name = "line";
    g.n = n;
    for (std::uint64_t v = 1; v < n; ++v)
        g.edges.push_back({node_id(v - 1), node_id(v)});
    return g;
}

//! The graphs of the memory cases: thin and wide frontiers, few and many levels.
const std::vector<test_graph>& memory_graphs() {
    static const std::vector<test_graph> graphs = {
        flashxxl::testing::collect("grid", grid_generator(60)),
        flashxxl::testing::collect("random", random_graph_generator(6000, 15000, 3)), star(20000),
        line(1500)};
    return graphs;
}

//! One mr_bfs call and what it held.
struct measured {
    bfs_result res;
    std::uint64_t account_peak = 0; //!< the peak of the account mr_bfs charged
    //! The most bytes live at once among the blocks the test thread allocated during the call
    //! (alloc_tracker counts from zero when the call starts).
    std::uint64_t heap_peak = 0;
};

//! Builds `tg` on a fresh machine (one memory-backed disk without a model, so that automatic
//! takes both ways by the I/O rule of mr_read_costs_of; graph blocks `gb`, two-frame page
//! caches), touches both of the graph's vectors so that their page caches hold their buffers
//! before tracking starts (they are the graph's memory, on top of M), then runs mr_bfs from
//! node 0 with M = `memory` while the tracker counts what this thread allocates. A fresh
//! machine per call: no block counted in an earlier call is freed during this one (which would
//! lower the count).
measured run_mr(const test_graph& tg, std::uint64_t memory, mr_adjacency adjacency,
                const block_sizes& gb = mr_blocks) {
    machine m = machine::from_config_text(
        "name=disk\ndisk=memory,1GiB,memory name=hdd\nplacement=single device=hdd\n", "disk-machine");
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, std::max<std::uint64_t>(512 * KiB, csr_build_min_memory(gb)), gb, src,
                       csr_graph::offset_vector::min_memory(gb));
    (void)g->range(0);
    (void)g->targets().get(0);
    memory_account account;
    mr_bfs_options o;
    o.adjacency = adjacency;
    o.account = &account;
    bfs_level_recorder rec(tg.n);
    measured r;
    tracker::start();
    r.res = mr_bfs(m, *g, memory, mr_blocks, 0, rec, o);
    tracker::stop();
    r.heap_peak = std::uint64_t(std::max<std::int64_t>(0, tracker::peak()));
    r.account_peak = account.peak();
    EXPECT_EQ(account.current(), 0u) << "every buffer given back";
    EXPECT_EQ(r.res.levels(), rec.level_sizes.size()) << tg.name;
    return r;
}

//! Bookkeeping mr_bfs may allocate outside M, which the claim leaves out on purpose:
//!  - O(1), 4 KiB: the result's phase and the phase meter's device snapshots (about 0.8 KiB),
//!    the request objects of the I/O in flight and the readers' segment lists (a few hundred
//!    bytes each, a few at a time), and the graph's page-map nodes that random fetches replace
//!    (two frames per vector here);
//!  - 24 bytes per level: the result's level_sizes (8 bytes a level) grows by doubling, so the
//!    old and the new array live side by side while it moves (scanned_levels: a bit a level).
//! The sorter's run directory and merge bookkeeping come out of the share of M it sets aside
//! for them (sorter::reserve). No share of M: a buffer of one Br (4 KiB) outside the account
//! nearly uses the constant up.
std::uint64_t bookkeeping_slack(const bfs_result& r) { return 4 * KiB + 24 * r.levels(); }

//! What every case asserts: the account's peak is within M and sees at least a level writer's
//! two Bw; the heap the call allocated is within M plus bookkeeping and holds at least what the
//! account counted (so the tracker sees the buffers: all are below the 2 MiB from which
//! aligned_buffer maps instead of allocating).
void expect_within(const measured& r, std::uint64_t memory, const std::string& what) {
    SCOPED_TRACE(what + ", M " + std::to_string(memory));
    EXPECT_LE(r.account_peak, memory);
    EXPECT_GE(r.account_peak, 2 * mr_blocks.bw);
    EXPECT_GE(r.heap_peak, r.account_peak) << "the tracker sees the account's buffers";
    const std::uint64_t slack = bookkeeping_slack(r.res);
    EXPECT_LE(r.heap_peak, memory + slack) << "heap peak " << r.heap_peak << " B, account peak "
                                           << r.account_peak << " B, slack " << slack << " B";
}

//! Budgets from the minimum up, every adjacency choice, on every graph shape.
class mr_bfs_memory : public ::testing::TestWithParam<mr_adjacency> {};

TEST_P(mr_bfs_memory, account_and_heap_stay_within_m) {
    const mr_adjacency adjacency = GetParam();
    const std::uint64_t min = mr_bfs_min_memory(mr_blocks);
    std::uint64_t scanned = 0, fetched = 0;
    for (const test_graph& tg : memory_graphs()) {
        for (std::uint64_t memory : {min, min + 4 * KiB, min + 64 * KiB, std::uint64_t(1024 * KiB)}) {
            measured r = run_mr(tg, memory, adjacency);
            expect_within(r, memory, tg.name + " " + to_string(adjacency));
            const auto s =
                std::uint64_t(std::count(r.res.scanned_levels.begin(), r.res.scanned_levels.end(), true));
            scanned += s;
            fetched += r.res.scanned_levels.size() - s;
        }
    }
    // Each choice was exercised: forced ones only their own way, automatic both.
    if (adjacency != mr_adjacency::random) {
        EXPECT_GT(scanned, 0u);
    }
    if (adjacency != mr_adjacency::scan) {
        EXPECT_GT(fetched, 0u);
    }
}

//! A graph whose Br is larger than mr_bfs's: the scan's chunks are of the graph's pages, so the
//! minimum grows by what two of them need beyond the subtraction's streams, and the chunks
//! shrink to what M's stream share holds.
TEST_P(mr_bfs_memory, graph_with_larger_blocks_stays_within_m) {
    const mr_adjacency adjacency = GetParam();
    const block_sizes gb(32768, 65536);
    const std::uint64_t min = mr_bfs_min_memory(mr_blocks, gb);
    EXPECT_EQ(min, mr_bfs_min_memory(mr_blocks) + 2 * gb.br - next_level_stream_memory(mr_blocks));
    for (std::uint64_t memory : {min, min + 64 * KiB}) {
        measured r = run_mr(memory_graphs()[1], memory, adjacency, gb);
        expect_within(r, memory, "random graph, graph blocks " + gb.describe());
    }
}

INSTANTIATE_TEST_SUITE_P(adjacency, mr_bfs_memory,
                         ::testing::Values(mr_adjacency::random, mr_adjacency::scan, mr_adjacency::automatic),
                         [](const ::testing::TestParamInfo<mr_adjacency>& i) {
                             return std::string(to_string(i.param));
                         });

} // namespace
