// The DFS bound of cost/predict_graph.hpp against measured volumes: measured <= bound on grids and random
// graphs, both mark layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/predict_graph.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

machine memory_machine() {
    return machine::from_config_text(
        "name=cost\nflash=memory,256MiB,memory name=ssd\nplacement=single device=ssd\n", "graph-bound-test");
}

//! Runs dfs and returns the "dfs" phase's host I/O beside the bound; checks measured <= bound.
template <class Source>
void check_dfs(Source&& source, const block_sizes& b, std::uint64_t memory, dfs_marks marks,
               const std::string& what) {
    machine m = memory_machine();
    auto g = build_csr(m, std::max<std::uint64_t>(256 * KiB, csr_build_min_memory(b)), b, source, 64 * KiB);
    dfs_options o;
    o.marks = marks;
    if (marks == dfs_marks::with_nodes)
        o.cache_share = 0.5; // seeds/001's second run: half the records cached
    dfs_result r = dfs(m, *g, memory, b, 0, o);
    ASSERT_EQ(r.visited, g->node_count());
    ASSERT_EQ(r.phases.size(), 1u);
    const io_counters c = cost_model::host_total(r.phases[0].devices);
    const io_prediction bound =
        predict::dfs_bound(g->node_count(), g->arc_count(), marks == dfs_marks::with_nodes, b, g->blocks());
    EXPECT_TRUE(bound.bound);
    EXPECT_LE(double(c.read_bytes), bound.read_bytes) << what;
    EXPECT_LE(double(c.write_bytes), bound.write_bytes) << what;
    EXPECT_GT(c.read_bytes + c.write_bytes, 0u) << what << ": the graph should not fit in the caches";
}

} // namespace

TEST(GraphBounds, DfsStaysBelowItsBoundOnGridsAndRandomGraphs) {
    for (const block_sizes b : {block_sizes(4 * KiB, 16 * KiB), block_sizes(8 * KiB, 64 * KiB)})
        for (dfs_marks marks : {dfs_marks::separate, dfs_marks::with_nodes}) {
            const std::string layout = to_string(marks);
            check_dfs(grid_generator(160), b, dfs_min_memory(b) + 64 * KiB, marks, "grid 160^2 " + layout);
            check_dfs(random_graph_generator(25000, 50000, 7), b, dfs_min_memory(b) + 64 * KiB, marks,
                      "random 25000 nodes " + layout);
        }
}
