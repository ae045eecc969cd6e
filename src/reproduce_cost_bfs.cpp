// The BFS rows of seeds/001's analysis-vs-behaviour table: MR_BFS's bfs phase and MM_BFS's preprocessing
// and bfs phase measured against the bounds of cost/predict_bfs.hpp.
#include "reproduce_cost_bfs.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli_graph_algorithms.hpp"
#include "flashxxl/cost/predict_bfs.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli::reproduce {
namespace {

//! The smallest M every step takes with block sizes b, and a little room.
std::uint64_t bfs_memory(const block_sizes& b) {
    return std::max({mm_bfs_min_memory(b), mr_bfs_min_memory(b), csr_build_min_memory(b)}) + 256 * KiB;
}

io_counters host_io(const phase_stats& p) { return cost_model::host_total(p.devices); }

bound_row row(const std::string& label, const io_prediction& bound, const phase_stats& p,
              const cost_model& c) {
    const io_counters io = host_io(p);
    return {label, bound, double(io.read_bytes + io.write_bytes), p.modelled.elapsed_s, c};
}

//! One algorithm on one graph: builds the CSR graph (not a row: the containers' rows cover a sort),
//! runs it, and adds its bounded phases. The levels and the clustering's rounds, graph and
//! clustering parameters, are read from the result; K follows from |V|, mu and the seed.
void run_one(const std::string& spec, const std::string& graph, const std::string& algo, const block_sizes& b,
             const std::function<void(const bound_row&)>& add) {
    machine m = cost_machine("hama-ssd-2009");
    const std::uint64_t memory = bfs_memory(b);
    auto source = open_graph_source(spec);
    auto g = build_csr(m, memory, b, *source, memory / 8);
    const cost_model pricing = cost_model::for_device(m.dev(0), b);
    cli_bfs_visitor vis;
    const std::string what = graph + ", " + b.describe() + ", M " + format_bytes(double(memory));
    if (algo == "mr") {
        const bfs_result r = mr_bfs(m, *g, memory, b, 0, vis, mr_bfs_options{});
        const predict::bfs_graph shape{g->node_count(), g->arc_count(), r.levels()};
        add(row("MR_BFS bound, " + what,
                predict::mr_bfs_bound(shape, memory, b, b, memory / 8, mr_bfs_options{}.adjacency),
                r.phases.at(0), pricing));
        return;
    }
    const mm_bfs_options o;
    const bfs_result r = mm_bfs(m, *g, memory, b, 0, vis, o);
    const predict::bfs_graph shape{g->node_count(), g->arc_count(), r.levels()};
    const predict::mm_clusters c{predict::count_masters(shape.nodes, 0, r.mu, o.seed), r.growth_rounds};
    add(row("MM_BFS preprocessing bound, " + what, predict::mm_preprocessing_bound(shape, c, memory, b, b, b),
            r.phases.at(0), pricing));
    add(row("MM_BFS bfs-phase bound, " + what, predict::mm_bfs_phase_bound(shape, c, memory, b, b, o),
            r.phases.at(1), pricing));
}

} // namespace

void bfs_bound_rows(bool tiny, const progress_fn& progress,
                    const std::function<void(const bound_row&)>& add) {
    const std::uint64_t side = tiny ? 100 : 256;
    struct graph {
        std::string spec, name;
    };
    std::vector<graph> graphs{{"grid:side=" + std::to_string(side), "grid " + std::to_string(side) + "^2"}};
    if (!tiny)
        graphs.push_back({"random:nodes=60000,edges=120000,seed=7", "random 60000 nodes 120000 edges"});
    for (const block_sizes b : {block_sizes(4 * KiB, 16 * KiB), block_sizes(16 * KiB, 128 * KiB)})
        for (const graph& g : graphs)
            for (const char* algo : {"mr", "mm"}) {
                progress(std::string(algo) + "_bfs bound, " + g.name + ", " + b.describe());
                run_one(g.spec, g.name, algo, b, add);
            }
}

} // namespace flashxxl::cli::reproduce
