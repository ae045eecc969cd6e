// One BFS experiment: build the CSR graph from an edge source, run mm_bfs or mr_bfs, keep every phase's
// stats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/io/usable_memory.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! What of the machine's translation layers an experiment charges to M.
enum class tl_charge {
    buffers_and_maps, //!< translation_layer_memory(m), as dfs charges (the default)
    buffers,          //!< translation_layer_buffer_memory(m): the segment buffers only
};

//! What to run.
struct bfs_experiment_options {
    std::string algo = "mm";  //!< "mm" (mm_bfs) or "mr" (mr_bfs)
    std::uint64_t memory = 0; //!< M of every phase, the translation layers' memory included
    std::uint64_t source = 0; //!< BFS source node
    mm_bfs_options mm;        //!< mu and seed of mm_bfs
    mr_bfs_options mr;        //!< how mr_bfs reads each level's adjacency lists
    tl_charge charge = tl_charge::buffers_and_maps; //!< see run_bfs_experiment
    //! Called with the CSR graph once it is built, before the BFS (e.g. to size a progress bar
    //! by |V|, which a graph file only tells once it has been read).
    std::function<void(const csr_graph&)> on_graph;
};

//! What an experiment measured.
struct bfs_experiment_result {
    std::string graph; //!< the source's description
    csr_build_stats csr;
    bfs_result bfs;               //!< its phases are preceded by "csr" here
    std::uint64_t br = 0, bw = 0; //!< the block sizes it ran with
    std::uint64_t tl_memory = 0;  //!< the translation layers' memory charged to M
    std::uint64_t memory = 0;     //!< what every phase got: M less tl_memory
};

//! The translation layers' memory an experiment with options `o` charges on machine `m`.
inline std::uint64_t bfs_experiment_tl_memory(const machine& m, const bfs_experiment_options& o) {
    return o.charge == tl_charge::buffers ? translation_layer_buffer_memory(m) : translation_layer_memory(m);
}

//! Memory an experiment needs at least with block sizes `b` and, for mm, a cluster file with
//! `cluster_blocks` (mm_bfs_options::cluster_blocks; unset: `b`).
inline std::uint64_t
bfs_experiment_min_memory(const block_sizes& b,
                          const std::optional<block_sizes>& cluster_blocks = std::nullopt) {
    return std::max({csr_build_min_memory(b), mm_bfs_min_memory(b, cluster_blocks), mr_bfs_min_memory(b)});
}

//! Builds the CSR graph of `source` on `m` (phase "csr": role stream, then static_data), then
//! runs the chosen BFS with `vis`, everything with block sizes `b` (config_error for an invalid
//! pair). The result's phases: "csr", then the algorithm's own.
//!
//! M covers the machine's translation layers (bfs_experiment_tl_memory: their segment buffers
//! and maps, or the buffers only), which are held for the whole run: every phase gets M less
//! that. The open segment buffer answers reads of the pages it holds, so uncharged it would be
//! a read cache outside M. config_error when nothing would be left.
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
    r.tl_memory = bfs_experiment_tl_memory(m, o);
    if (o.memory <= r.tl_memory)
        throw config_error("bfs: memory budget " + format_bytes(double(o.memory)) +
                           " does not cover the translation layers' " + format_bytes(double(r.tl_memory)) +
                           " (segment buffers" + (o.charge == tl_charge::buffers ? "" : " and maps") +
                           ", charged to M), let alone the " +
                           format_bytes(double(bfs_experiment_min_memory(b, o.mm.cluster_blocks))) +
                           " that " + b.describe() + describe_cluster_blocks(b, o.mm.cluster_blocks) +
                           " need");
    // Taken off once here; mm_bfs and mr_bfs see a budget net of it and do not take it again.
    const memory_budget usable = usable_memory(o.memory, r.tl_memory, "the translation layers");
    r.memory = usable.bytes();
    phase_meter meter(m, "csr");
    auto g = build_csr(m, r.memory, b, source, r.memory / 8);
    phase_stats csr_phase = meter.finish();
    r.csr = g->build_stats();
    if (o.on_graph) o.on_graph(*g);
    if (o.algo == "mm")
        r.bfs = mm_bfs(m, *g, usable, b, o.source, vis, o.mm);
    else
        r.bfs = mr_bfs(m, *g, usable, b, o.source, vis, o.mr);
    r.bfs.phases.insert(r.bfs.phases.begin(), csr_phase);
    return r;
}

} // namespace flashxxl
