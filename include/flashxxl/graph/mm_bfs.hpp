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
#include "flashxxl/graph/mm_clustering.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_charge.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Parameters of mm_bfs.
struct mm_bfs_options {
    std::uint64_t mu = 0;    //!< target cluster size in nodes; 0: default_mu(Br of the cluster file, |V|)
    std::uint64_t seed = 1;  //!< seed of the master choice
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
        throw config_error("mm_bfs: frontier_ranks " + std::to_string(o.frontier_ranks) +
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
inline std::string describe_cluster_blocks(const block_sizes& b, const std::optional<block_sizes>& file_blocks) {
    return file_blocks && !(*file_blocks == b) ? " (cluster file: " + file_blocks->describe() + ")" : std::string();
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
    std::uint64_t neighbours = 0;  //!< the neighbour sorter S_N
    std::uint64_t level = 0;  //!< per level list (L(t-2), L(t-1), L(t))
    std::uint64_t pool = 0;   //!< in-memory hot pool: kept records, staging and its merge copy
    std::uint64_t keep = 0;   //!< bytes of pool records kept in memory between levels
    std::uint64_t cache = 0;  //!< bytes sure to be free for the cache of unrequested neighbouring clusters (cluster_cache)
    std::uint64_t stage = 0;  //!< bytes of the staging area (and of its merge copy)
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
//!    the loaded clusters, the nearest kept longest), which serves later requests without a read; the requested records go
//!    to a staging area;
//! 3. the staged records are sorted, the lists of L(t-1)'s nodes go to S_N, the rest is merged
//!    into the in-memory pool (or, if the staging area filled, merged into the overflow);
//! 4. S_N sorted, repeats dropped, L(t-1) and L(t-2) subtracted: that is L(t).
//! `memory` bounds everything the phase allocates, the file's read buffer included
//! (mm_bfs_split says how; config_error below the minimum); every buffer is charged to
//! `account` (when given), so a test can compare its peak with M. Streams use block sizes
//! `b`; the file keeps its own. res.level_details gets one entry per level.
template <class Visitor>
void mm_bfs_phase(machine& m, cluster_file& file, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
                  Visitor& vis, bfs_result& res, const mm_bfs_options& opts = {},
                  memory_account* account = nullptr) {
    using pool = vector<adjacency_record>;
    using n_sorter = small_sorter<level_record, level_by_node>;
    b.validate();
    memory_account own_account;
    memory_account& acc = account ? *account : own_account;
    const std::uint64_t limit = acc.current() + memory;  // what the phase may hold at once
    const block_sizes file_blocks = file.blocks();
    if (memory < mm_bfs_phase_min_memory(b, file_blocks))
        throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
                           format_bytes(double(mm_bfs_phase_min_memory(b, file_blocks))) + " for " + b.describe() +
                           describe_cluster_blocks(b, file_blocks));
    const std::uint64_t clusters = file.clusters();
    const mm_bfs_split split(memory, b, clusters, opts, file_blocks);
    res.pool_memory_bytes = split.pool;
    // The cluster file's read buffer (allocated in its own account) is part of M.
    memory_charge file_buffer(&acc, file_blocks.bw);
    memory_charge bitsets(&acc, 2 * (clusters / 8 + 8) + clusters);
    std::vector<bool> loaded(clusters, false), requested(clusters, false);
    // How soon the frontier is expected to need each cluster (cluster_cache::rank_type).
    std::vector<cluster_cache::rank_type> rank(clusters, cluster_cache::far);
    check_frontier_ranks(opts);
    const unsigned ranks = opts.prefer_frontier_clusters ? opts.frontier_ranks : 0;
    // The request list: each cluster is requested at most once at a time (the `requested`
    // bitset), so `clusters` entries always suffice; reserved once, as the split counts it (4
    // bytes per cluster), it never grows (a doubling would take up to 8 bytes per cluster, the
    // old and new arrays side by side while it moves).
    std::vector<bfs_node> requests;
    requests.reserve(clusters);
    memory_charge requests_charge(&acc, requests.capacity() * sizeof(bfs_node));

    // The in-memory pool: hot[0, prefix) sorted by (v, w); records of visited nodes are
    // tombstoned (w = no_bfs_node) until the compaction after the scan. Loaded records are
    // staged in hot[prefix, end) (at most `stage`) and merged in through a copy of them.
    // hot[0, keep) survives from level to level; the excess is merged into the overflow by
    // the next level's merge-scan (one rewrite per level). Staging at least 512 records. The
    // array starts at the split's kept share plus the staging area; with pool_memory unset,
    // the records to keep are the pool's before the cache's (its clusters are clean copies,
    // the pool's are not), so `keep` takes the cache's floor too and the array grows into it
    // while M has room, the cache giving memory back (otherwise the pool overflows).
    const std::uint64_t keep = (split.keep + (opts.pool_memory ? 0 : split.cache)) / sizeof(adjacency_record);
    const std::uint64_t stage = split.stage / sizeof(adjacency_record);
    const std::uint64_t max_capacity = keep + stage;
    std::vector<adjacency_record> hot;
    hot.reserve(split.keep / sizeof(adjacency_record) + stage);
    memory_charge hot_charge(&acc, hot.capacity() * sizeof(adjacency_record));
    // The cache admits while the account has room under M and gives back its newest entries
    // whenever another structure needs the memory: its share of the split is the least it has
    // (and the most, when pool_memory caps the pool).
    cluster_cache cache(opts.pool_memory ? split.cache : memory, &acc, limit);
    const reclaimer_scope reclaim(acc, limit, [&cache](std::uint64_t excess) { cache.evict(excess); });
    // Lowers cluster c's rank to k and, through its held copy's records, its neighbours' to
    // k + 1 (recursion at most `ranks` deep).
    auto lower_rank = [&](auto& self, bfs_node c, unsigned k) -> void {
        if (k >= ranks || loaded[c] || rank[c] <= k) return;
        rank[c] = cluster_cache::rank_type(k);
        cache.rerank(c, rank[c]);
        if (k + 1 < ranks) cache.visit(c, [&](const adjacency_record& r) { self(self, r.cw, k + 1); });
    };
    // Grows the pool's array towards max_capacity when M has room for the new array beside the
    // old one once the cache has given back what it holds; false when it cannot grow.
    auto grow_hot = [&] {
        const std::uint64_t cap = hot.capacity();
        if (cap >= max_capacity) return false;
        const std::uint64_t want = std::min(max_capacity, std::max(2 * cap, cap + stage));
        if (acc.current() - cache.bytes() + want * sizeof(adjacency_record) > limit) return false;
        hot_charge.set(want * sizeof(adjacency_record));  // both arrays while it moves (the cache makes room)
        hot.reserve(want);
        return true;
    };
    // A cluster just copied into the cache: its rank from its neighbours', then theirs from it.
    auto rank_cached = [&](bfs_node x) {
        if (ranks < 2) return;
        unsigned best = cluster_cache::far;
        cache.visit(x, [&](const adjacency_record& r) { best = std::min<unsigned>(best, rank[r.cw]); });
        if (best + 1 < rank[x]) lower_rank(lower_rank, x, best + 1);
        if (rank[x] + 1u < ranks) cache.visit(x, [&](const adjacency_record& r) { lower_rank(lower_rank, r.cw, rank[x] + 1u); });
    };
    std::uint64_t prefix = 0, dead = 0;
    std::unique_ptr<pool> overflow;  // the external sorted pool (null when empty)
    const adjacency_by_owner by_owner;

    auto prev2 = std::make_unique<bfs_level_store>(m, b, split.level, acc);
    auto prev = std::make_unique<bfs_level_store>(m, b, split.level, acc);
    prev2->finish();
    prev->push(level_record{bfs_node(source), 0, bfs_node(source)});
    prev->finish();
    vis.discover_vertex(source, 0, source);
    vis.finish_level(0, 1);
    res.level_sizes.push_back(1);
    res.level_details.push_back(bfs_level_detail{1, 0, 0, 0, 0, 0});

    // Merges the sorted records [first, last) into the overflow pool (one rewrite).
    auto spill = [&](const adjacency_record* first, const adjacency_record* last) {
        if (first == last) return;
        auto merged = std::make_unique<pool>(m, pool::min_memory(b), b, role::hot);
        {
            pool::stream_writer out(*merged, &acc);
            if (overflow) {
                pool::stream_reader h(*overflow, 0, std::uint64_t(-1), 1, &acc);
                for (; first != last; ++first) {
                    while (!h.empty() && by_owner(*h, *first)) {
                        out.push(*h);
                        ++h;
                    }
                    out.push(*first);
                }
                for (; !h.empty(); ++h) out.push(*h);
            } else {
                for (; first != last; ++first) out.push(*first);
            }
            out.finish();
        }
        overflow = std::move(merged);
    };

    for (std::uint64_t t = 1;; ++t) {
        // Level t-1's entry: the clusters its nodes needed, the pool after loading them.
        bfs_level_detail& detail = res.level_details.back();
        n_sorter neighbours(m, split.neighbours, b, level_by_node(), role::scratch, &acc);
        const std::uint64_t overflow_records = overflow ? overflow->size() : 0;
        res.pool_records_scanned += prefix - dead + overflow_records;
        res.max_pool_records = std::max<std::uint64_t>(res.max_pool_records, prefix - dead + overflow_records);
        // 1. L(t-1) against H: the kept records by binary search; the overflow and the records
        // beyond what stays in memory (the excess) by one merge-scan that writes the new
        // overflow. What stays leaves a staging area's room in the array, grown first if M lets.
        {
            while (prefix + stage > hot.capacity() && grow_hot()) {
            }
            const std::uint64_t kept = std::min({prefix, keep, std::uint64_t(hot.capacity()) - stage});
            std::unique_ptr<pool> rest;
            std::unique_ptr<pool::stream_reader> h;
            std::unique_ptr<pool::stream_writer> out;
            if (overflow || prefix > kept) {
                rest = std::make_unique<pool>(m, pool::min_memory(b), b, role::hot);
                if (overflow) h = std::make_unique<pool::stream_reader>(*overflow, 0, std::uint64_t(-1), 1, &acc);
                out = std::make_unique<pool::stream_writer>(*rest, &acc);
            }
            auto e = hot.begin() + kept;
            const auto e_end = hot.begin() + prefix;
            // Writes the overflow's and the excess's records before node v (all with v = no_bfs_node).
            auto emit_before = [&](bfs_node v) {
                for (;;) {
                    const bool he = h && !h->empty() && (*h)->v < v;
                    const bool ee = e != e_end && e->v < v;
                    if (!he && !ee) return;
                    if (he && (!ee || by_owner(**h, *e))) {
                        out->push(**h);
                        ++*h;
                    } else {
                        out->push(*e);
                        ++e;
                    }
                }
            };
            auto pos = hot.begin();
            const auto end = hot.begin() + kept;
            for (auto l = prev->read(); !l.empty(); ++l) {
                const bfs_node v = l->v;
                bool found = false;
                pos = std::lower_bound(pos, end, v, [](const adjacency_record& r, bfs_node x) { return r.v < x; });
                for (; pos != end && pos->v == v; ++pos) {
                    neighbours.push(level_record{pos->w, pos->cw, v});
                    pos->w = no_bfs_node;
                    ++dead;
                    found = true;
                }
                if (out) {
                    emit_before(v);
                    for (; h && !h->empty() && (*h)->v == v; ++*h) {
                        neighbours.push(level_record{(*h)->w, (*h)->cw, v});
                        found = true;
                    }
                    for (; e != e_end && e->v == v; ++e) {
                        neighbours.push(level_record{e->w, e->cw, v});
                        found = true;
                    }
                }
                if (!found && !loaded[l->c] && !requested[l->c]) {
                    requested[l->c] = true;
                    requests.push_back(l->c);
                }
            }
            if (out) {
                emit_before(no_bfs_node);
                for (; h && !h->empty(); ++*h) out->push(**h);  // records of node no_bfs_node: none
                out->finish();
                out.reset();
                h.reset();
                overflow = rest->empty() ? nullptr : std::move(rest);
                hot.resize(kept);
                prefix = kept;
            }
        }
        if (dead > 0) {  // compact the tombstones
            auto kept = std::remove_if(hot.begin(), hot.begin() + prefix,
                                       [](const adjacency_record& r) { return r.w == no_bfs_node; });
            hot.erase(kept, hot.begin() + prefix);
            prefix = hot.size();
            dead = 0;
        }
        // 2./3. Load the requested clusters into the staging area hot[prefix, end).
        if (!requests.empty()) {
            std::sort(requests.begin(), requests.end());
            auto stage_capacity = [&] { return std::min<std::uint64_t>(hot.capacity() - prefix, stage); };
            // Sorts the staged records, moves the lists of L(t-1)'s nodes to S_N, and merges the
            // rest into the in-memory pool when it fits (always at the end, `last`: the staging
            // area is within the array), else into the overflow.
            auto settle = [&](bool last) {
                auto first = hot.begin() + prefix;
                std::sort(first, hot.end(), by_owner);
                auto out = first;
                auto l = prev->read();
                for (auto it = first; it != hot.end(); ++it) {
                    while (!l.empty() && l->v < it->v) ++l;
                    if (!l.empty() && l->v == it->v)
                        neighbours.push(level_record{it->w, it->cw, it->v});
                    else
                        *out++ = *it;
                }
                hot.erase(out, hot.end());
                // too little room left to stage and none to grow: overflow
                if (!last && hot.size() + stage / 2 > hot.capacity() && !grow_hot()) {
                    spill(hot.data() + prefix, hot.data() + hot.size());
                    hot.resize(prefix);
                    return;
                }
                const std::uint64_t staged = hot.size() - prefix;
                if (staged == 0) return;
                std::vector<adjacency_record> copy;
                memory_charge copy_charge(&acc, staged * sizeof(adjacency_record));
                copy.assign(hot.begin() + prefix, hot.end());
                // Merge from the back: hot[0, prefix) and copy into hot[0, prefix + staged).
                std::uint64_t i = prefix, j = staged, k = prefix + staged;
                while (j > 0) {
                    if (i > 0 && by_owner(copy[j - 1], hot[i - 1]))
                        hot[--k] = hot[--i];
                    else
                        hot[--k] = copy[--j];
                }
                prefix = hot.size();
            };
            auto stage_record = [&](const adjacency_record& r) {
                if (rank[r.cw] != 0) lower_rank(lower_rank, r.cw, 0);  // next to a loaded one
                if (hot.size() - prefix == stage_capacity()) settle(false);
                hot.push_back(r);
            };
            // Requested clusters the cache holds cost no read; so do empty ones.
            for (bfs_node c : requests) {
                if (cache.contains(c)) {
                    cache.take(c, stage_record);
                } else if (file.cluster_records(c) != 0) {
                    continue;
                }
                loaded[c] = true;
                ++detail.clusters_loaded;
            }
            // The others in groups whose Br blocks overlap: one read of the group's blocks serves
            // them all (requests are sorted, so a group is a run of them). The read takes the
            // unrequested clusters that lie wholly in those blocks along, into the cache.
            // Straddling clusters are completed only while the cache could still take the whole
            // file: where it cannot, the clusters the extra blocks bring push out others before
            // they are needed (on the largest Table 2 grid Br read 30 % more).
            const std::uint64_t whole_file = file.records() * sizeof(adjacency_record) +
                                             file.clusters() * cluster_cache::entry_overhead;
            const bool complete_straddlers =
                opts.load_block_neighbours && opts.complete_straddling_clusters &&
                cache.has_room(whole_file > cache.bytes() ? whole_file - cache.bytes() : 0);
            const std::uint64_t reads_before = file.read_requests();
            for (std::size_t i = 0; i < requests.size();) {
                const bfs_node c = requests[i];
                if (loaded[c]) {
                    ++i;
                    continue;
                }
                auto span = file.block_span(c);
                bfs_node last_requested = c;
                std::size_t j = i + 1;
                for (; j < requests.size(); ++j) {
                    const bfs_node d = requests[j];
                    if (loaded[d]) continue;
                    const auto sd = file.block_span(d);
                    if (!opts.merge_block_requests || sd.first >= span.second) break;
                    span.second = std::max(span.second, sd.second);
                    last_requested = d;
                }
                std::uint64_t first = c, last = last_requested + 1;
                if (opts.load_block_neighbours) {
                    std::tie(first, last) = file.clusters_in_blocks(span.first, span.second);
                    if (complete_straddlers) {
                        // The clusters cut by the span's ends, unless loaded or held already.
                        auto wanted = [&](std::uint64_t x) { return !loaded[x] && !cache.contains(bfs_node(x)); };
                        const auto before = span;
                        if (first > 0 && wanted(first - 1) && file.block_span(first - 1).second > span.first)
                            span.first = file.block_span(first - 1).first;
                        if (last < file.clusters() && wanted(last) && file.block_span(last).first < span.second)
                            span.second = std::max(span.second, file.block_span(last).second);
                        if (span != before) std::tie(first, last) = file.clusters_in_blocks(span.first, span.second);
                    }
                }
                std::uint64_t current = no_bfs_node;
                bool to_stage = false, to_cache = false;
                file.read_cluster_range(first, last, [&](std::uint64_t x, const adjacency_record& r) {
                    if (x != current) {
                        if (to_cache) rank_cached(bfs_node(current));
                        current = x;
                        // (with merge_block_requests off, a later request in these blocks still
                        // gets a read of its own)
                        to_stage = requested[x] && !loaded[x] && x >= c && x <= last_requested;
                        to_cache = !requested[x] && !loaded[x] && opts.load_block_neighbours &&
                                   cache.open(bfs_node(x), file.cluster_records(x), rank[x]);
                    }
                    if (to_stage)
                        stage_record(r);
                    else if (to_cache)
                        cache.append(r);
                });
                if (to_cache) rank_cached(bfs_node(current));
                for (std::size_t k = i; k < j; ++k) {
                    if (loaded[requests[k]]) continue;
                    loaded[requests[k]] = true;
                    ++detail.clusters_loaded;
                }
                i = j;
            }
            detail.cluster_reads += file.read_requests() - reads_before;
            for (bfs_node c : requests) requested[c] = false;
            requests.clear();
            settle(true);
        }
        res.clusters_loaded += detail.clusters_loaded;
        res.cluster_reads += detail.cluster_reads;
        detail.pool_memory_records = prefix;
        detail.pool_device_records = overflow ? overflow->size() : 0;
        detail.cache_records = cache.records();
        // 4. L(t) = S_N minus L(t-1) minus L(t-2).
        res.neighbour_records += neighbours.size();
        neighbours.sort();
        auto next = std::make_unique<bfs_level_store>(m, b, split.level, acc);
        std::uint64_t count = 0;
        {
            auto r1 = prev->read();
            auto r2 = prev2->read();
            count = subtract_sorted(neighbours, r1, r2, [&](const level_record& rec) {
                next->push(rec);
                vis.discover_vertex(rec.v, t, rec.parent);
                vis.tree_edge(rec.parent, rec.v);
            });
            next->finish();
        }
        if (count == 0) break;
        vis.finish_level(t, count);
        res.level_sizes.push_back(count);
        res.level_details.push_back(bfs_level_detail{count, 0, 0, 0, 0, 0});
        prev2 = std::move(prev);
        prev = std::move(next);
    }
    for (std::uint64_t s : res.level_sizes) res.reached += s;
    res.cache_peak_bytes = cache.peak_bytes();
    res.clusters_evicted = cache.evicted();
}

//! MM_BFS (Mehlhorn and Meyer, ESA 2002; seeds/000 Section 4, seeds/001 Section 3.3) on a CSR
//! graph: build_clusters (phase "preprocessing": masters with probability 1/mu, clusters by a
//! parallel BFS, the cluster file on role static_data), then mm_bfs_phase (phase "bfs": one
//! random read per cluster, hot pool on role hot). Each phase's device statistics are in the
//! result. mu defaults to default_mu(Br, |V|). `memory` bounds the buffers of each phase, which
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
bfs_result mm_bfs(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
                  Visitor& vis, const mm_bfs_options& opts = {}) {
    b.validate();
    if (&g.get_machine() != &m) throw config_error("mm_bfs: the graph lives on another machine");
    if (source >= g.node_count())
        throw config_error("mm_bfs: source " + std::to_string(source) + " is not a node (|V| = " +
                           std::to_string(g.node_count()) + ")");
    const block_sizes file_blocks = opts.cluster_blocks ? *opts.cluster_blocks : b;
    file_blocks.validate();
    if (memory < mm_bfs_min_memory(b, file_blocks))
        throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
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
        rethrow_out_of_space_in("flashxxl::mm_bfs (bfs phase)",
                                [&] { mm_bfs_phase(m, *file, memory, b, source, vis, res, opts, opts.account); });
        res.phases.push_back(meter.finish());
    }
    return res;
}

//! mm_bfs without a visitor.
inline bfs_result mm_bfs(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
                         const mm_bfs_options& opts = {}) {
    bfs_visitor vis;
    return mm_bfs(m, g, memory, b, source, vis, opts);
}

} // namespace flashxxl
