// One BFS experiment: build the CSR graph from an edge source, run mm_bfs or mr_bfs, keep every phase's stats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! What to run.
struct bfs_experiment_options {
    std::string algo = "mm";      //!< "mm" (mm_bfs) or "mr" (mr_bfs)
    std::uint64_t memory = 0;     //!< M of every phase
    std::uint64_t source = 0;     //!< BFS source node
    mm_bfs_options mm;            //!< mu and seed of mm_bfs
};

//! What an experiment measured.
struct bfs_experiment_result {
    std::string graph;            //!< the source's description
    csr_build_stats csr;
    bfs_result bfs;               //!< its phases are preceded by "csr" here
    std::uint64_t br = 0, bw = 0;  //!< the block sizes it ran with
};

//! Memory an experiment needs at least with block sizes `b`.
inline std::uint64_t bfs_experiment_min_memory(const block_sizes& b) {
    return std::max({csr_build_min_memory(b), mm_bfs_min_memory(b), mr_bfs_min_memory(b)});
}

//! Builds the CSR graph of `source` on `m` (phase "csr": role stream, then static_data), then
//! runs the chosen BFS with `vis`, everything with block sizes `b` (config_error for an invalid
//! pair). The result's phases: "csr", then the algorithm's own.
template <class Visitor>
bfs_experiment_result run_bfs_experiment(machine& m, any_edge_source& source, const block_sizes& b,
                                         const bfs_experiment_options& o, Visitor& vis) {
    if (o.algo != "mm" && o.algo != "mr")
        throw config_error("bfs: algorithm '" + o.algo + "' is unknown (expected mm or mr)");
    b.validate();
    bfs_experiment_result r;
    r.graph = source.describe();
    r.br = b.br;
    r.bw = b.bw;
    phase_meter meter(m, "csr");
    auto g = build_csr(m, o.memory, b, source, o.memory / 8);
    phase_stats csr_phase = meter.finish();
    r.csr = g->build_stats();
    if (o.algo == "mm") r.bfs = mm_bfs(m, *g, o.memory, b, o.source, vis, o.mm);
    else r.bfs = mr_bfs(m, *g, o.memory, b, o.source, vis);
    r.bfs.phases.insert(r.bfs.phases.begin(), csr_phase);
    return r;
}

} // namespace flashxxl
