// Upper bounds on the I/O of external BFS (MR_BFS; MM_BFS's preprocessing and BFS phase) and the exact
// volume of building the CSR graph, in the unit-cost flash model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/small_sorter.hpp"
#include "flashxxl/cost/predict_containers.hpp"
#include "flashxxl/cost/prediction.hpp"
#include "flashxxl/graph/bfs_levels.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mm_clustering.hpp"
#include "flashxxl/graph/mr_bfs.hpp"

namespace flashxxl::predict {

//! The graph parameters the BFS analyses need (seeds/001 Section 3.3, shared/BFS.md).
struct bfs_graph {
    std::uint64_t nodes = 0;  //!< |V|
    std::uint64_t arcs = 0;   //!< adjacency entries, 2 |E| once symmetrized
    std::uint64_t levels = 0; //!< BFS levels from the source: its eccentricity + 1
};

//! The clustering's parameters MM_BFS's analysis needs: K = about |V| / mu clusters, grown in
//! `rounds` rounds (its radius + 1, O(mu log |V|) w.h.p.).
struct mm_clusters {
    std::uint64_t clusters = 0; //!< K: the masters, the source's cluster included (count_masters)
    std::uint64_t rounds = 0;   //!< rounds of the parallel BFS from the masters
};

//! K of build_clusters for |V| = `nodes`, source `source`, cluster size `mu` and `seed`: the
//! source and every node is_master picks. A property of (|V|, mu, seed), known before a run.
inline std::uint64_t count_masters(std::uint64_t nodes, std::uint64_t source, std::uint64_t mu,
                                   std::uint64_t seed) {
    std::uint64_t k = 1; // the source's cluster
    for (std::uint64_t v = 0; v < nodes; ++v)
        if (v != source && is_master(v, seed, mu)) ++k;
    return k;
}

//! Pages of a vector of n items of `item` bytes in Br blocks.
inline double pages(std::uint64_t n, std::uint64_t item, const block_sizes& b) {
    return block_bytes(n, item, b) / double(b.br);
}

//! An upper bound on the sum of sorter(N_i) over sorters that together take `total` items of
//! `item` bytes, each with budget `memory` (a sorter per BFS level or growth round): a part that
//! spills holds more than a run (so at most 2 N_i / run_items runs, each rounded up by less than
//! one Br block), and none takes more merge passes than one sorter of all `total` items. Nothing
//! when `total` fits in one run.
inline io_prediction sorter_parts_bound(std::uint64_t total, std::uint64_t item, std::uint64_t memory,
                                        const block_sizes& b) {
    const sorter_plan p = plan_sorter(total, item, memory, b);
    io_prediction r;
    r.bound = true;
    if (p.runs == 0) return r;
    const double runs = 2.0 * double(total) / double(p.run_items);
    const double pass = (double(total) / double(items_per_block(item, b)) + runs) * double(b.br);
    const double passes = double(p.merge_levels + 1);
    r.read_bytes = passes * pass;
    r.write_bytes = passes * pass;
    return r;
}

//! Whether a spillable_list (or small_sorter array) with `memory` bytes surely keeps n items of
//! `item` bytes in memory: its capacity doubles while the old and new arrays fit, so it reaches
//! at least memory / (2 x item) items.
inline bool list_stays_in_memory(std::uint64_t n, std::uint64_t item, std::uint64_t memory) {
    return n * item * 2 <= memory;
}

//! build_csr (the "csr" phase of `flashxxl bfs` and `dfs`): `pushed` arcs (two per input edge
//! that is not a self-loop) through a sorter with budget `memory` less the two writers, then
//! the kept arcs (`arcs`, 4 bytes each) and |V| + 1 offsets (8 bytes) written once. An
//! estimate: the sorter's plan as predict::sorter has it.
inline io_prediction csr_build(std::uint64_t pushed, std::uint64_t nodes, std::uint64_t arcs,
                               std::uint64_t memory, const block_sizes& b) {
    const std::uint64_t writers = 2 * csr_graph::target_vector::stream_writer::memory_usage(b);
    io_prediction r = sorter(pushed, sizeof(bfs_arc), memory - writers, b);
    r += fill(arcs, sizeof(bfs_node), b);
    r += fill(nodes + 1, sizeof(std::uint64_t), b);
    r.basis = "csr: sort " + std::to_string(pushed) + " arcs, write targets and offsets";
    return r;
}

//! An upper bound on mr_bfs's "bfs" phase (Munagala-Ranade; shared/BFS.md, MR_BFS) with budget
//! `memory` (what mr_bfs gets: M less the translation layers), streams in blocks `b`, a graph in
//! blocks `graph` whose vectors each have a page cache of `cache_bytes`, reading each level's
//! lists as `how` says. O(|V| + sort(|V| + |E|)) with the implementation's constants:
//!  - adjacency, random: within a level the frontier is sorted, so each vector's pages are
//!    touched in increasing order and each page is read at most once per level: per vector at
//!    most min(its pages x levels, per node (offsets: pages of v and v + 1 = 2; targets: d / B + 2
//!    pages)), and its pages once in all when the cache holds the whole vector;
//!  - adjacency, scan: at most both vectors once per level; automatic: either per level, so at
//!    most that too, and random fetches only when the caches hold both vectors (the planner then
//!    expects no misses);
//!  - level lists (on the device, 12 bytes a record): each written once (the last block of a
//!    level partly filled: one Br per level) and read three times (as L(t-1) twice, as L(t-2));
//!  - the neighbour sorters: |E| x 2 records of 12 bytes over all levels (sorter_parts_bound).
inline io_prediction mr_bfs_bound(const bfs_graph& g, std::uint64_t memory, const block_sizes& b,
                                  const block_sizes& graph, std::uint64_t cache_bytes, mr_adjacency how) {
    io_prediction r;
    r.bound = true;
    const double gbr = double(graph.br), levels = double(g.levels);
    const double offset_pages = pages(g.nodes + 1, sizeof(std::uint64_t), graph);
    const double target_pages = pages(g.arcs, sizeof(bfs_node), graph);
    const std::uint64_t frames =
        (std::max(cache_bytes, csr_graph::offset_vector::min_memory(graph)) - graph.bw - 4096) /
        (graph.br + csr_graph::offset_vector::frame_overhead);
    auto random_reads = [&](double vector_pages, double per_node_pages) {
        if (double(frames) >= vector_pages) return vector_pages;
        return std::min(vector_pages * levels, per_node_pages);
    };
    const double per_target_page = double(items_per_block(sizeof(bfs_node), graph));
    const double random =
        random_reads(offset_pages, 2.0 * double(g.nodes)) +
        random_reads(target_pages, double(g.arcs) / per_target_page + 2.0 * double(g.nodes));
    const double scan = (offset_pages + target_pages) * levels;
    // automatic prices random fetches at nothing when the caches hold both vectors (no misses
    // expected: mr_adjacency_planner), so it never scans then.
    const bool cached = double(frames) >= offset_pages && double(frames) >= target_pages;
    const bool fetches = how == mr_adjacency::random || (how == mr_adjacency::automatic && cached);
    r.read_bytes = (fetches ? random : scan) * gbr;
    // Level lists: written once, read three times.
    const double level_bytes =
        (double(g.nodes) / double(items_per_block(sizeof(level_record), b)) + levels) * double(b.br);
    r.write_bytes += level_bytes;
    r.read_bytes += 3 * level_bytes;
    const std::uint64_t reader = level_list::stream_reader::memory_usage(b, 1);
    const std::uint64_t streams = std::max(next_level_stream_memory(b), 2 * graph.br);
    r += sorter_parts_bound(g.arcs, sizeof(level_record), memory - streams - reader, b);
    r.basis = std::string("mr_bfs bound: adjacency ") + to_string(how) +
              ", each page once per level; levels written once, read 3x; neighbour sorts";
    return r;
}

//! An upper bound on build_clusters (MM_BFS's "preprocessing" phase) with budget `memory`,
//! streams in blocks `b`, the cluster file in `file_blocks`, on a graph in blocks `graph`
//! (shared/BFS.md, MM_BFS preprocessing; clustering_memory_split says what stays in memory):
//!  - two scans of the graph (the first round, the layout);
//!  - the remaining arcs R (8 bytes each) unless they fit their share: written by every round,
//!    read by every round after the first, at most all arcs each time;
//!  - the frontier lists (8 bytes a node, |V| in all) unless the whole of V would fit a list's
//!    share: each written once and read three times (extract, subtract as F_r and as F_(r-1));
//!  - the round sorters: |E| x 2 records over all rounds (sorter_parts_bound) and the
//!    assignment sorter of |V| records;
//!  - the node-to-cluster list (|V| x 8 bytes) unless it fits its share: written once, read twice;
//!  - the two layout sorts of |E| x 2 records of 16 bytes and the cluster file (12 bytes a
//!    record in its own blocks) written once.
inline io_prediction mm_preprocessing_bound(const bfs_graph& g, const mm_clusters& c, std::uint64_t memory,
                                            const block_sizes& b, const block_sizes& file_blocks,
                                            const block_sizes& graph) {
    const clustering_memory_split split(memory, b, g.nodes, g.arcs, file_blocks);
    io_prediction r;
    r.bound = true;
    const double rounds = double(c.rounds);
    r.read_bytes = 2 * (block_bytes(g.nodes + 1, sizeof(std::uint64_t), graph) +
                        block_bytes(g.arcs, sizeof(bfs_node), graph));
    if (split.remaining < g.arcs * sizeof(bfs_arc)) {
        const double all = block_bytes(g.arcs, sizeof(bfs_arc), b);
        r.write_bytes += rounds * all;
        r.read_bytes += std::max(rounds - 1, 0.0) * all;
    }
    if (!list_stays_in_memory(g.nodes, sizeof(node_cluster), split.frontier)) {
        const double lists =
            (double(g.nodes) / double(items_per_block(sizeof(node_cluster), b)) + rounds + 1) * double(b.br);
        r.write_bytes += lists;
        r.read_bytes += 3 * lists;
    }
    r += sorter_parts_bound(g.arcs, sizeof(node_cluster), split.round_sorter, b);
    r += sorter(g.nodes, sizeof(node_cluster), split.round_sorter, b);
    if (split.clusters < g.nodes * sizeof(node_cluster)) {
        const double list = block_bytes(g.nodes, sizeof(node_cluster), b);
        r.write_bytes += list;
        r.read_bytes += 2 * list;
    }
    r += sorter(g.arcs, sizeof(detail::layout_record), split.layout_sorter, b);
    r += sorter(g.arcs, sizeof(detail::layout_record), split.layout_sorter, b);
    r.write_bytes += block_bytes(g.arcs, sizeof(adjacency_record), file_blocks);
    r.bound = true;
    r.basis = "mm_bfs preprocessing bound: " + std::to_string(c.rounds) +
              " rounds, lists that may spill counted on the device, two graph scans, four sorts";
    return r;
}

//! An upper bound on mm_bfs_phase (MM_BFS's "bfs" phase) with budget `memory`, options `o`,
//! streams in blocks `b` and the cluster file in `file_blocks` (shared/BFS.md, MM_BFS BFS
//! phase; mm_bfs_split says what stays in memory):
//!  - the cluster file: each cluster read once in its own Br blocks (the analysis' one random
//!    read per cluster): the sum over clusters of the blocks each touches is at most K plus the
//!    file's blocks, since clusters are disjoint runs of records and a boundary between two
//!    blocks lies inside at most one of them. Merged reads and the cache of neighbouring
//!    clusters only read fewer, unless the cache gives back a cluster that a widened read
//!    brought along before it is asked for;
//!  - the neighbour sorters: nothing while |E| x 2 records fit the small sorter's array, else
//!    sorter_parts_bound with the budget less that array;
//!  - the level lists unless the whole of V would fit a list's share: each written once and read
//!    by the pool's scan, the subtraction twice and the level's last settle of a staging area;
//!    every earlier settle (one per half staging area of records loaded) reads a level of at
//!    most |V| records;
//!  - the hot pool's overflow unless every record of the file fits the pool's kept share: each
//!    level's scan rewrites it (a record stays in H at most 2 x rounds levels: both ends of a
//!    path in one cluster lie within `rounds` - 1 hops of its master) and every settle that
//!    spills (never the last of a level) reads and writes it once more.
inline io_prediction mm_bfs_phase_bound(const bfs_graph& g, const mm_clusters& c, std::uint64_t memory,
                                        const block_sizes& b, const block_sizes& file_blocks,
                                        const mm_bfs_options& o = {}) {
    const mm_bfs_split split(memory, b, c.clusters, o, file_blocks);
    const std::uint64_t record = sizeof(adjacency_record);
    io_prediction r;
    r.bound = true;
    r.read_bytes = block_bytes(g.arcs, record, file_blocks) + double(c.clusters) * double(file_blocks.br);
    using n_sorter = small_sorter<level_record, level_by_node>;
    const std::uint64_t limit = n_sorter::array_limit(split.neighbours, b);
    if (!list_stays_in_memory(g.arcs, sizeof(level_record), limit))
        r += sorter_parts_bound(g.arcs, sizeof(level_record), split.neighbours - limit, b);
    // A settle before the last of a level takes a full staging area (at least half of `stage`
    // records: the pool keeps that much room), so the loaded records allow few of them.
    const std::uint64_t stage = std::max<std::uint64_t>(split.stage / record, 1);
    const double spills = 2.0 * double(g.arcs) / double(stage);
    if (!list_stays_in_memory(g.nodes, sizeof(level_record), split.level)) {
        const double levels_bytes =
            (double(g.nodes) / double(items_per_block(sizeof(level_record), b)) + double(g.levels)) *
            double(b.br);
        r.write_bytes += levels_bytes;
        r.read_bytes += 4 * levels_bytes + spills * block_bytes(g.nodes, sizeof(level_record), b);
    }
    const std::uint64_t keep = (split.keep + (o.pool_memory ? 0 : split.cache)) / record;
    if (g.arcs > keep) {
        const double rewrites = std::min(double(g.levels), 2.0 * double(c.rounds)) + spills;
        const double pool = rewrites * block_bytes(g.arcs, record, b);
        r.read_bytes += pool;
        r.write_bytes += pool;
    }
    r.bound = true;
    r.basis =
        "mm_bfs bfs-phase bound: " + std::to_string(c.clusters) +
        " clusters read once each; pool, levels and neighbour sorts counted on the device where they may "
        "spill";
    return r;
}

} // namespace flashxxl::predict
