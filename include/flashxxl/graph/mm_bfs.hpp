// Mehlhorn-Meyer external BFS: cluster preprocessing, then a BFS phase with a hot pool of loaded clusters.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/small_sorter.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/graph/sorted_subtraction.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_level_store.hpp"
#include "flashxxl/graph/bfs_levels.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/cluster_cache.hpp"
#include "flashxxl/graph/cluster_file.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/graph/mm_cluster_loader.hpp"
#include "flashxxl/graph/mm_cluster_requests.hpp"
#include "flashxxl/graph/mm_clustering.hpp"
#include "flashxxl/graph/mm_frontier_ranks.hpp"
#include "flashxxl/graph/mm_hot_pool.hpp"
#include "flashxxl/graph/mm_level_writer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_charge.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/usable_memory.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Parameters of mm_bfs.
struct mm_bfs_options {
    std::uint64_t mu = 0;   //!< target cluster size in nodes; 0: default_mu(Br of the cluster file, |V|)
    std::uint64_t seed = 1; //!< seed of the master choice
    //! Block sizes of the cluster file, the static structure that is read at random, one
    //! cluster per read (Br-granular): on a hybrid machine it lives on flash, whose small
    //! random reads are cheap, while the streams (hot pool, level lists, sorters) use `b`,
    //! sized for the HDD. Unset: `b` for everything.
    std::optional<block_sizes> cluster_blocks;
    //! Bytes of M for the in-memory hot pool; unset: what the split of M leaves (mm_bfs_split),
    //! the pool growing into the cache's 7/8 of the kept share when it needs them, and the cache
    //! of neighbouring clusters may fill whatever of M is idle. Set, it caps the pool to 1/8 of
    //! the kept share and the cache to 7/8. 0 keeps all but a few records of the pool on the
    //! device (the pre-2006 design; tests use it to exercise the overflow, experiments that
    //! scale a graph down to keep the paper's ratio of pool to M).
    std::optional<std::uint64_t> pool_memory;
    //! Bytes of M for each in-memory level list; unset: the split's share (0: every level on
    //! the device).
    std::optional<std::uint64_t> level_memory;
    //! Keep the unloaded clusters that lie wholly in the Br blocks read for requested ones (no
    //! extra I/O) in a cluster_cache while it has room: 7/8 of the pool's kept share at least,
    //! and with pool_memory unset whatever else of M the other structures leave idle (given
    //! back, newest entries first, when they need it).
    bool load_block_neighbours = true;
    //! Rank the cache's entries by how soon the frontier is expected to reach them: a cluster
    //! next to a loaded one (some loaded record's c(w)) has rank 0, a cluster next to a held one
    //! of rank k (the held copy's records say so) rank k + 1, up to frontier_ranks - 1; the rest
    //! is far. A cluster of lower rank is admitted in place of higher-ranked entries when the
    //! cache is full and given back after them (false: first come, kept first).
    bool prefer_frontier_clusters = true;
    //! How many ranks prefer_frontier_clusters tells apart (1 to 254; 1: near or far). On the
    //! Table 2 grids 32 read 1.7 to 8 times fewer blocks than 1 (docs/bfs.md); one byte per
    //! cluster either way.
    unsigned frontier_ranks = 32;
    //! Serve a level's requested clusters whose Br blocks overlap with one read of those blocks
    //! (false: one read per cluster, as the 2008 implementation of seeds/000 did).
    bool merge_block_requests = true;
    //! With load_block_neighbours: a cluster that begins in the last block of a read and ends
    //! past it (or ends in the first block and begins before it), loaded nowhere yet, makes the
    //! read take the blocks that complete it, one request more, and comes along into the cache.
    //! Otherwise such a cluster never comes along, since a read keeps only whole clusters, and
    //! costs a read of both its blocks when it is requested: on the 362^2 grid of Table 2 at
    //! scale 8, Br read its 384-block cluster file 2.8 times over (docs/bfs.md).
    bool complete_straddling_clusters = true;
    //! When set, every buffer of both phases (the sorters, streams and lists of preprocessing;
    //! everything of the BFS phase) is charged here (a test compares its peak with M).
    memory_account* account = nullptr;
};

//! config_error unless frontier_ranks is 1 to 254 (when prefer_frontier_clusters is on).
inline void check_frontier_ranks(const mm_bfs_options& o) {
    if (o.prefer_frontier_clusters && (o.frontier_ranks == 0 || o.frontier_ranks > 254))
        throw config_error(
            "mm_bfs: frontier_ranks " + std::to_string(o.frontier_ranks) +
            " is out of range; expected 1 to 254 (prefer_frontier_clusters = false turns ranking off)");
}

//! Memory the BFS phase of mm_bfs needs at least with block sizes `b` for its streams and a
//! cluster file with block sizes `file_blocks` (unset: `b`), besides 2 bits and 5 bytes per
//! cluster (mm_bfs_split): the cluster file's read buffer (its own Bw; counted as the larger of
//! it and b's Bw, so that a smaller one leaves the split as it was), the streams of a spilled
//! level or pool (two readers and a writer at a time), the neighbour sorter's minimum and
//! 64 KiB for the in-memory pool and levels.
inline std::uint64_t mm_bfs_phase_min_memory(const block_sizes& b,
                                             const std::optional<block_sizes>& file_blocks = std::nullopt) {
    return std::max(b.bw, file_blocks ? file_blocks->bw : b.bw) + 2 * bfs_level_store::cursor_memory(b) +
           bfs_level_store::writer_memory(b) + sorter<level_record, level_by_node>::min_memory(b) + 64 * KiB;
}
//! Memory mm_bfs needs at least with block sizes `b` and a cluster file with `file_blocks`
//! (unset: `b`; mm_bfs_options::cluster_blocks): the larger of its two phases.
inline std::uint64_t mm_bfs_min_memory(const block_sizes& b,
                                       const std::optional<block_sizes>& file_blocks = std::nullopt) {
    return std::max(mm_bfs_phase_min_memory(b, file_blocks), clustering_min_memory(b, file_blocks));
}
//! " (cluster file: Br = .., Bw = ..)" when the cluster file's block sizes are not `b`, for
//! error messages.
inline std::string describe_cluster_blocks(const block_sizes& b,
                                           const std::optional<block_sizes>& file_blocks) {
    return file_blocks && !(*file_blocks == b) ? " (cluster file: " + file_blocks->describe() + ")"
                                               : std::string();
}

//! How the BFS phase splits M (bytes): what the fixed part (mm_bfs_phase_min_memory less its
//! 64 KiB, with the cluster file's read buffer of `file_blocks`' Bw (unset: o.cluster_blocks',
//! else b's), plus the cluster bitsets, ranks and request list) leaves is `free`; the
//! neighbour sorter gets a quarter (at least its minimum), each of the three level lists a
//! 24th, the hot pool the rest: half of it for the records kept in memory from level to
//! level, a quarter to stage a level's loaded clusters and a quarter for the copy that merges
//! them in.
struct mm_bfs_split {
    std::uint64_t fixed = 0;
    std::uint64_t neighbours = 0; //!< the neighbour sorter S_N
    std::uint64_t level = 0;      //!< per level list (L(t-2), L(t-1), L(t))
    std::uint64_t pool = 0;       //!< in-memory hot pool: kept records, staging and its merge copy
    std::uint64_t keep = 0;       //!< bytes of pool records kept in memory between levels
    std::uint64_t cache =
        0; //!< bytes sure to be free for the cache of unrequested neighbouring clusters (cluster_cache)
    std::uint64_t stage = 0; //!< bytes of the staging area (and of its merge copy)
    mm_bfs_split(std::uint64_t memory, const block_sizes& b, std::uint64_t clusters, const mm_bfs_options& o,
                 std::optional<block_sizes> file_blocks = std::nullopt) {
        if (!file_blocks) file_blocks = o.cluster_blocks;
        const std::uint64_t sorter_min = sorter<level_record, level_by_node>::min_memory(b);
        // (at the minimum, `free` is the sorter's minimum plus 64 KiB)
        fixed = mm_bfs_phase_min_memory(b, file_blocks) - 64 * KiB - sorter_min + 2 * (clusters / 8 + 8) +
                5 * clusters;
        if (memory < fixed + sorter_min + 64 * KiB)
            throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) + " is below the " +
                               format_bytes(double(fixed + sorter_min + 64 * KiB)) + " that " + b.describe() +
                               describe_cluster_blocks(b, file_blocks) + " and " + std::to_string(clusters) +
                               " clusters need");
        const std::uint64_t free = memory - fixed;
        neighbours = std::max(sorter_min, free / 4);
        const std::uint64_t rest = free - neighbours;
        level = std::min(o.level_memory ? *o.level_memory : free / 24, rest / 6);
        pool = rest - 3 * level;
        stage = std::max<std::uint64_t>(pool / 4, 512 * sizeof(adjacency_record));
        keep = pool / 2;
        if (o.pool_memory) keep = std::min(keep, *o.pool_memory);
        // Seven eighths of it hold the clusters a read brings along unasked (cluster_cache: not
        // admitted, rather than spilled, when room is short; they are clean copies of the file).
        // The pool proper then holds only requested clusters' unvisited lists, about a frontier
        // times a cluster's diameter: on the scaled Table 2 grids up to 2^21 nodes the eighth
        // left. With pool_memory unset, mm_bfs_phase lets a larger pool take the cache's part
        // too (the 2^22 grid: 650 KiB, where the eighth is 480 KiB), the cache giving it back.
        cache = o.load_block_neighbours ? keep / 8 * 7 : 0;
        keep -= cache;
        pool = keep + cache + 2 * stage;
    }
};

//! The BFS phase of MM_BFS (shared/BFS.md) on a cluster file built by build_clusters, engineered
//! as Ajwani, Meyer and Osipov describe (SODA 2006, ALENEX 2007). The hot pool H (adjacency
//! records (v, w, c(w)) of loaded clusters' unvisited nodes) is a sorted array in memory as far
//! as its share of M allows; only the overflow is an external sorted pool (role `hot`: on HDDs
//! under flash_aware) that is merge-scanned. Level lists are in memory while they fit their
//! share (bfs_level_store), the cluster requests are a list deduplicated by a bitset, the
//! neighbour sorter S_N sorts in memory unless it outgrows its share: a level that stays
//! small creates no file. Per level t:
//! 1. L(t-1) against H: lists found (in memory: binary search; on the device: one merge-scan
//!    that rewrites the overflow) go to S_N; nodes without a list ask for their cluster;
//! 2. the requested clusters are read in ascending order (role static_data), those whose Br
//!    blocks overlap with one read; the unrequested clusters wholly in the blocks read go to a
//!    cluster_cache (clean copies, kept while M has room, never spilled; ranked by hops from
//!    the loaded clusters, the nearest kept longest), which serves later requests without a
//!    read; the requested records go to a staging area;
//! 3. the staged records are sorted, the lists of L(t-1)'s nodes go to S_N, the rest is merged
//!    into the in-memory pool (or, if the staging area filled, merged into the overflow);
//! 4. S_N sorted, repeats dropped, L(t-1) and L(t-2) subtracted: that is L(t).
//! `memory` bounds everything the phase allocates, the file's read buffer included
//! (mm_bfs_split says how; config_error below the minimum); every buffer is charged to
//! `account` (when given), so a test can compare its peak with M. Streams use block sizes
//! `b`; the file keeps its own. res.level_details gets one entry per level.
//!
//! The parts, each with its own state: mm_hot_pool (H: steps 1 and 3), mm_cluster_requests
//! (which clusters are loaded and requested), mm_cluster_loader (step 2, with cluster_cache and
//! mm_frontier_ranks), mm_level_writer (L(t-2), L(t-1) and step 4). The level loop is a cycle
//! of four states, each one call: extract (H against L(t-1): S_N filled, requests listed) ->
//! load (only when something was requested: staged into H) -> settle (H merged) -> write (L(t)
//! from S_N; empty: done) -> back to extract with t + 1.
template <class Visitor>
void mm_bfs_phase(machine& m, cluster_file& file, std::uint64_t memory, const block_sizes& b,
                  std::uint64_t source, Visitor& vis, bfs_result& res, const mm_bfs_options& opts = {},
                  memory_account* account = nullptr) {
    using n_sorter = small_sorter<level_record, level_by_node>;
    b.validate();
    memory_account own_account;
    memory_account& acc = account ? *account : own_account;
    const std::uint64_t limit = acc.current() + memory; // what the phase may hold at once
    const block_sizes file_blocks = file.blocks();
    if (memory < mm_bfs_phase_min_memory(b, file_blocks))
        throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) +
                           " is below the minimum " +
                           format_bytes(double(mm_bfs_phase_min_memory(b, file_blocks))) + " for " +
                           b.describe() + describe_cluster_blocks(b, file_blocks));
    const std::uint64_t clusters = file.clusters();
    const mm_bfs_split split(memory, b, clusters, opts, file_blocks);
    res.pool_memory_bytes = split.pool;
    check_frontier_ranks(opts);
    // The cluster file's read buffer (allocated in its own account) is part of M.
    memory_charge file_buffer(&acc, file_blocks.bw);
    mm_cluster_requests requests(clusters, acc);
    // The cache admits while the account has room under M and gives back its newest entries
    // whenever another structure needs the memory: its share of the split is the least it has
    // (and the most, when pool_memory caps the pool).
    cluster_cache cache(opts.pool_memory ? split.cache : memory, &acc, limit);
    const unsigned ranks_told_apart = opts.prefer_frontier_clusters ? opts.frontier_ranks : 0;
    mm_frontier_ranks ranks(clusters, ranks_told_apart, requests, cache, acc);
    // The pool's array starts at the split's kept share plus the staging area (at least 512
    // records); with pool_memory unset, the records to keep are the pool's before the cache's
    // (its clusters are clean copies, the pool's are not), so `keep` takes the cache's floor too
    // and the array grows into it while M has room, the cache giving memory back (otherwise the
    // pool overflows).
    mm_hot_pool::sizes sizes;
    sizes.stage = split.stage / sizeof(adjacency_record);
    sizes.keep = (split.keep + (opts.pool_memory ? 0 : split.cache)) / sizeof(adjacency_record);
    sizes.initial = split.keep / sizeof(adjacency_record) + sizes.stage;
    mm_hot_pool hot(m, b, sizes, acc, limit, cache);
    const reclaimer_scope reclaim(acc, limit, [&cache](std::uint64_t excess) { cache.evict(excess); });
    mm_cluster_loader loader(file, cache, requests, ranks,
                             mm_load_policy{opts.merge_block_requests, opts.load_block_neighbours,
                                            opts.complete_straddling_clusters});
    mm_level_writer levels(m, b, split.level, acc, source);
    vis.discover_vertex(source, 0, source);
    vis.finish_level(0, 1);
    res.level_sizes.push_back(1);
    res.level_details.push_back(bfs_level_detail{1, 0, 0, 0, 0, 0});

    for (std::uint64_t t = 1;; ++t) {
        // Level t-1's entry: the clusters its nodes needed, the pool after loading them.
        bfs_level_detail& detail = res.level_details.back();
        m.charge_host(1, m.host().bfs_level_s); // the level's fixed host cost (host_model)
        n_sorter neighbours(m, split.neighbours, b, level_by_node(), role::scratch, &acc);
        auto found = [&neighbours](const level_record& r) { neighbours.push(r); };
        res.pool_records_scanned += hot.records();
        res.max_pool_records = std::max<std::uint64_t>(res.max_pool_records, hot.records());
        hot.extract(levels.previous(), found, [&requests](const level_record& l) { requests.request(l.c); });
        if (!requests.empty()) {
            const mm_load_counts loaded =
                loader.load([&](const adjacency_record& r) { hot.stage(r, levels.previous(), found); });
            detail.clusters_loaded += loaded.clusters_loaded;
            detail.cluster_reads += loaded.reads;
            hot.settle(levels.previous(), found);
        }
        res.clusters_loaded += detail.clusters_loaded;
        res.cluster_reads += detail.cluster_reads;
        detail.pool_memory_records = hot.memory_records();
        detail.pool_device_records = hot.device_records();
        detail.cache_records = cache.records();
        res.neighbour_records += neighbours.size();
        neighbours.sort();
        const std::uint64_t count = levels.write(neighbours, t, vis);
        if (count == 0) break;
        vis.finish_level(t, count);
        res.level_sizes.push_back(count);
        res.level_details.push_back(bfs_level_detail{count, 0, 0, 0, 0, 0});
        levels.advance();
    }
    for (std::uint64_t s : res.level_sizes)
        res.reached += s;
    res.cache_peak_bytes = cache.peak_bytes();
    res.clusters_evicted = cache.evicted();
}

//! MM_BFS (Mehlhorn and Meyer, ESA 2002; seeds/000 Section 4, seeds/001 Section 3.3) on a CSR
//! graph: build_clusters (phase "preprocessing": masters with probability 1/mu, clusters by a
//! parallel BFS, the cluster file on role static_data), then mm_bfs_phase (phase "bfs": one
//! random read per cluster, hot pool on role hot). Each phase's device statistics are in the
//! result. mu defaults to default_mu(Br, |V|). `budget` less the machine's translation layers'
//! memory (usable_memory(m, budget), unless the caller took it off already) bounds the buffers
//! of each phase, charged to the budget's account when opts.account names none, which
//! use block sizes `b` (config_error for an invalid pair; the graph's page caches keep the
//! graph's own), the cluster file's write and read buffers (of opts.cluster_blocks' Bw)
//! included: config_error below mm_bfs_min_memory(b, opts.cluster_blocks). The cluster index
//! (8 bytes per cluster) is held in memory besides it.
//!
//! Failures: a structure that finds no room throws out_of_space naming the device, the role
//! and the structure ("... in flashxxl::mm_bfs (preprocessing)" or "(bfs phase)"); that, and any
//! other failure, ends the search: no result comes back, the visitor has seen the levels before
//! the failing one (and perhaps part of it, without its finish_level), and every extent mm_bfs
//! took, the cluster file's included, is given back.
template <class Visitor,
          class = std::enable_if_t<!std::is_same<std::remove_cv_t<Visitor>, mm_bfs_options>::value>>
bfs_result mm_bfs(machine& m, csr_graph& g, const memory_budget& budget, const block_sizes& b,
                  std::uint64_t source, Visitor& vis, const mm_bfs_options& given = {}) {
    b.validate();
    const std::uint64_t memory = usable_memory(m, budget).bytes();
    mm_bfs_options opts = given;
    memory_account rolled_up(budget.account()); // both phases' holdings, into the budget's account
    if (!opts.account && budget.account()) opts.account = &rolled_up;
    if (&g.get_machine() != &m) throw config_error("mm_bfs: the graph lives on another machine");
    if (source >= g.node_count())
        throw config_error("mm_bfs: source " + std::to_string(source) +
                           " is not a node (|V| = " + std::to_string(g.node_count()) + ")");
    const block_sizes file_blocks = opts.cluster_blocks ? *opts.cluster_blocks : b;
    file_blocks.validate();
    if (memory < mm_bfs_min_memory(b, file_blocks))
        throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) +
                           " is below the minimum " +
                           format_bytes(double(mm_bfs_min_memory(b, file_blocks))) + " for " + b.describe() +
                           describe_cluster_blocks(b, file_blocks));
    check_frontier_ranks(opts);
    bfs_result res;
    res.source = source;
    res.mu = opts.mu ? opts.mu : default_mu(file_blocks.br, g.node_count());
    std::unique_ptr<cluster_file> file;
    {
        phase_meter meter(m, "preprocessing");
        clustering_stats cs;
        file = rethrow_out_of_space_in("flashxxl::mm_bfs (preprocessing)", [&] {
            return build_clusters(m, g, memory, b, source, res.mu, opts.seed, cs, file_blocks, opts.account);
        });
        res.clusters = cs.clusters;
        res.growth_rounds = cs.rounds;
        res.cluster_file_bytes = file->bytes();
        res.phases.push_back(meter.finish());
    }
    {
        phase_meter meter(m, "bfs");
        rethrow_out_of_space_in("flashxxl::mm_bfs (bfs phase)", [&] {
            mm_bfs_phase(m, *file, memory, b, source, vis, res, opts, opts.account);
        });
        res.phases.push_back(meter.finish());
    }
    return res;
}

//! mm_bfs without a visitor.
inline bfs_result mm_bfs(machine& m, csr_graph& g, const memory_budget& memory, const block_sizes& b,
                         std::uint64_t source, const mm_bfs_options& opts = {}) {
    bfs_visitor vis;
    return mm_bfs(m, g, memory, b, source, vis, opts);
}

} // namespace flashxxl
