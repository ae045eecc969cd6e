// MM_BFS preprocessing: random masters, clusters grown by a parallel BFS (sort + scan), cluster file layout.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/spillable_list.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/cluster_file.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "flashxxl/graph/sorted_subtraction.hpp"

namespace flashxxl {

//! The unit-cost optimum cluster size of seeds/001 Section 3.3 (mu = Theta(sqrt(Br / log |V|))
//! in items; here in nodes): round(sqrt(Br / (record_bytes x log2 |V|))), at least 1. E.g.
//! Br = 128 KiB, 12-byte records, |V| = 2^20: 23 nodes.
inline std::uint64_t default_mu(std::uint64_t br, std::uint64_t nodes,
                                std::uint64_t record_bytes = sizeof(adjacency_record)) {
    double lg = std::log2(double(std::max<std::uint64_t>(nodes, 4)));
    auto mu = static_cast<std::uint64_t>(std::llround(std::sqrt(double(br) / (double(record_bytes) * lg))));
    return mu == 0 ? 1 : mu;
}

//! Is v a master? Independently with probability 1/mu, from a hash of (seed, v), so runs repeat.
inline bool is_master(std::uint64_t v, std::uint64_t seed, std::uint64_t mu) {
    std::uint64_t x = v * 0x9e3779b97f4a7c15ull + seed * 0xd1b54a32d192ed03ull + 0x632be59bd9b4e019ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return mu <= 1 || x % mu == 0;
}

//! What the preprocessing built.
struct clustering_stats {
    std::uint64_t clusters = 0; //!< K (masters, the source's cluster is 0)
    std::uint64_t clustered_nodes =
        0;                     //!< nodes that got a cluster (the others have no master in their component)
    std::uint64_t rounds = 0;  //!< rounds of the parallel BFS from the masters
    std::uint64_t records = 0; //!< adjacency records in the cluster file
};

namespace detail {

//! (c(v), v, w, c(w)): an adjacency entry on its way into the cluster file.
struct layout_record {
    bfs_node cv, v, w, cw;
};
struct layout_by_target {
    bool operator()(const layout_record& a, const layout_record& b) const {
        return std::tie(a.w, a.v) < std::tie(b.w, b.v);
    }
};
struct layout_by_cluster {
    bool operator()(const layout_record& a, const layout_record& b) const {
        return std::tie(a.cv, a.v, a.w) < std::tie(b.cv, b.v, b.w);
    }
};

} // namespace detail

//! Bytes build_clusters reserves for buffers of streams with block sizes `b`: 8 Br + 6 Bw for
//! the streams and lists that spill, and at least the cluster file's 2 x Bw write buffers (of
//! `file_blocks`, unset: `b`), which are in use only while the file is written, when no stream
//! or list is (the last layout sort's buffers are within its own share).
inline std::uint64_t clustering_stream_memory(const block_sizes& b,
                                              const std::optional<block_sizes>& file_blocks = std::nullopt) {
    return std::max(8 * b.br + 6 * b.bw, cluster_file::writer_memory(file_blocks ? *file_blocks : b));
}

//! Memory build_clusters needs at least with block sizes `b` and a cluster file with
//! `file_blocks` (unset: `b`).
inline std::uint64_t clustering_min_memory(const block_sizes& b,
                                           const std::optional<block_sizes>& file_blocks = std::nullopt) {
    return 2 * sorter<detail::layout_record, detail::layout_by_cluster>::min_memory(b) +
           clustering_stream_memory(b, file_blocks);
}

//! How build_clusters divides its budget M (bytes) for a graph of `nodes` nodes and `arcs` arcs:
//! - `streams`, 8 Br + 6 Bw, for the buffers of streams and of lists that spill, and later for
//!   the cluster file's 2 x Bw write buffers (its own Bw, `file_blocks`; more when they need
//!   more: clustering_stream_memory);
//! - of the rest S, each of the three frontier lists gets S / 48 (less if the sorters' minimums
//!   need it); R (the remaining arcs) gets room for all arcs if they fit in S / 4, else none;
//!   the two sorters of the rounds (the assignment and the reached nodes) share what is left;
//! - after the rounds, the list of every node's cluster gets room for all nodes if they fit
//!   in S / 4, else none, and the two layout sorters share what is left.
//! A share is never taken from a sorter below its minimum (clustering_min_memory holds two).
struct clustering_memory_split {
    std::uint64_t streams = 0;
    std::uint64_t frontier = 0, remaining = 0, round_sorter = 0; //!< during the rounds (each)
    std::uint64_t clusters = 0, layout_sorter = 0;               //!< during the layout (each)
    clustering_memory_split(std::uint64_t memory, const block_sizes& b, std::uint64_t nodes,
                            std::uint64_t arcs,
                            const std::optional<block_sizes>& file_blocks = std::nullopt) {
        streams = clustering_stream_memory(b, file_blocks);
        const std::uint64_t rest = memory > streams ? memory - streams : 0;
        const std::uint64_t least = sorter<detail::layout_record, detail::layout_by_cluster>::min_memory(b);
        const std::uint64_t spare = rest > 2 * least ? rest - 2 * least : 0; // what the sorters can give
        frontier = std::min(rest / 48, spare / 3);
        const std::uint64_t arc_bytes = arcs * sizeof(bfs_arc);
        if (arc_bytes <= rest / 4 && arc_bytes <= spare - 3 * frontier) remaining = arc_bytes;
        round_sorter = (rest - 3 * frontier - remaining) / 2;
        const std::uint64_t node_bytes = nodes * sizeof(node_cluster);
        if (node_bytes <= rest / 4 && node_bytes <= spare) clusters = node_bytes;
        layout_sorter = (rest - clusters) / 2;
    }
};

//! MM_BFS's randomized preprocessing (shared/BFS.md; seeds/001 Section 3.3): every node is a
//! master with probability 1/mu (is_master), the source always; clusters are grown by a BFS
//! from all masters at once, round by round: the frontier F_r (sorted by node, with cluster
//! ids) is merge-scanned against the remaining arcs R (extracted lists leave R, which shrinks:
//! in place in memory, rewritten on the device), the targets are sorted with their cluster
//! (the smallest cluster wins a tie), and F_r, F_(r-1) are subtracted. Nodes never reached
//! have no master in their component and get no cluster. Then every arc gets c(v) and c(w)
//! (two sorts), and the file F is written sorted by (c(v), v, w) (role static_data). Cluster
//! ids are dense from the start: the source's cluster is 0, other masters get 1, 2, ... in id
//! order.
//!
//! Temporaries have role scratch. R, the frontier lists and the node-to-cluster list stay in
//! memory while they fit their shares of `memory` (clustering_memory_split; spillable_list),
//! so for a graph whose arcs fit in a quarter of what M leaves beside the streams no temporary
//! reaches the device unless a sorter outgrows its share. Sorters, lists and the cluster file's
//! write buffers charge `account` when one is given (a test compares its peak with M). All with
//! block sizes `b` (config_error for an invalid pair), as has the cluster file unless
//! `file_blocks` says otherwise (its write buffers are then 2 x its Bw: clustering_min_memory).
inline std::unique_ptr<cluster_file>
build_clusters(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
               std::uint64_t mu, std::uint64_t seed, clustering_stats& st,
               std::optional<block_sizes> file_blocks = std::nullopt, memory_account* account = nullptr) {
    using arc_list = spillable_list<bfs_arc>;
    using nc_list = spillable_list<node_cluster>;
    using nc_sorter = sorter<node_cluster, cluster_by_node>;
    b.validate();
    const block_sizes fb = file_blocks ? *file_blocks : b;
    fb.validate();
    if (memory < clustering_min_memory(b, fb))
        throw config_error("mm_bfs preprocessing: memory budget " + format_bytes(double(memory)) +
                           " is below the minimum " + format_bytes(double(clustering_min_memory(b, fb))) +
                           " for " + b.describe() +
                           (fb == b ? std::string() : " (cluster file: " + fb.describe() + ")"));
    if (mu == 0) throw config_error("mm_bfs: mu must be at least 1");
    memory_account own_account;
    memory_account& acc = account ? *account : own_account;
    const std::uint64_t n = g.node_count();
    const clustering_memory_split split(memory, b, n, g.arc_count(), fb);
    st = clustering_stats{};

    // Masters: F_0, sorted by node. The assignment sorter A collects every F_r.
    nc_sorter assignment(m, split.round_sorter, b, cluster_by_node(), role::scratch, &acc);
    auto frontier = std::make_unique<nc_list>(m, b, split.frontier, acc);
    {
        bfs_node next_id = 1;
        for (std::uint64_t v = 0; v < n; ++v) {
            if (v != source && !is_master(v, seed, mu)) continue;
            node_cluster rec{bfs_node(v), v == source ? 0 : next_id++};
            frontier->push(rec);
            assignment.push(rec);
        }
        frontier->finish();
        st.clusters = next_id;
    }
    auto previous = std::make_unique<nc_list>(m, b, split.frontier, acc);
    previous->finish();
    std::unique_ptr<arc_list> remaining; // R; null: still the whole graph
    while (!frontier->empty()) {
        ++st.rounds;
        nc_sorter reached(m, split.round_sorter, b, cluster_by_node(), role::scratch, &acc);
        {
            auto f = frontier->read();
            auto extract = [&](const bfs_arc& a) {
                while (!f.empty() && f->v < a.v)
                    ++f;
                if (!f.empty() && f->v == a.v) {
                    reached.push(node_cluster{a.w, f->c});
                    return false;
                }
                return true;
            };
            if (remaining) {
                remaining->filter(extract);
            } else {
                remaining = std::make_unique<arc_list>(m, b, split.remaining, acc);
                remaining->reserve(g.arc_count());
                for (csr_graph::arc_stream arcs(g); !arcs.empty(); ++arcs)
                    if (extract(*arcs)) remaining->push(*arcs);
                remaining->finish();
            }
        }
        reached.sort();
        auto next = std::make_unique<nc_list>(m, b, split.frontier, acc);
        {
            auto r1 = frontier->read();
            auto r2 = previous->read();
            subtract_sorted(reached, r1, r2, [&](const node_cluster& rec) {
                next->push(rec);
                assignment.push(rec);
            });
            next->finish();
        }
        previous = std::move(frontier);
        frontier = std::move(next);
    }
    remaining.reset();
    previous.reset();
    frontier.reset();

    // C: the cluster of every clustered node, sorted by node.
    nc_list clusters(m, b, split.clusters, acc);
    clusters.reserve(n);
    assignment.sort();
    for (; !assignment.empty(); ++assignment)
        clusters.push(*assignment);
    clusters.finish();
    assignment.clear();
    st.clustered_nodes = clusters.size();

    // (v, w) + C by v -> (c(v), v, w), sorted by w.
    using layout_sorter_w = sorter<detail::layout_record, detail::layout_by_target>;
    using layout_sorter_c = sorter<detail::layout_record, detail::layout_by_cluster>;
    layout_sorter_w by_target(m, split.layout_sorter, b, detail::layout_by_target(), role::scratch, &acc);
    {
        auto c = clusters.read();
        csr_graph::arc_stream arcs(g);
        for (; !arcs.empty(); ++arcs) {
            const bfs_arc a = *arcs;
            while (!c.empty() && c->v < a.v)
                ++c;
            if (!c.empty() && c->v == a.v) by_target.push(detail::layout_record{c->c, a.v, a.w, 0});
        }
    }
    by_target.sort();
    // + C by w -> (c(v), v, w, c(w)), sorted by (c(v), v, w).
    layout_sorter_c by_cluster(m, split.layout_sorter, b, detail::layout_by_cluster(), role::scratch, &acc);
    {
        auto c = clusters.read();
        for (; !by_target.empty(); ++by_target) {
            detail::layout_record r = *by_target;
            while (!c.empty() && c->v < r.w)
                ++c;
            if (c.empty() || c->v != r.w)
                throw invalid_request("mm_bfs preprocessing: node " + std::to_string(r.w) +
                                      " has no cluster but its "
                                      "neighbour " +
                                      std::to_string(r.v) + " has (is the graph symmetric?)");
            r.cw = c->c;
            by_cluster.push(r);
        }
    }
    by_target.clear();
    by_cluster.sort();
    // Its write buffers (2 x its Bw) take the streams' share, idle now, and are charged to `acc`.
    auto file = std::make_unique<cluster_file>(m, st.clusters, fb, role::static_data, &acc);
    for (; !by_cluster.empty(); ++by_cluster) {
        const detail::layout_record& r = *by_cluster;
        file->push(r.cv, adjacency_record{r.v, r.w, r.cw});
    }
    file->finish();
    st.records = file->records();
    return file;
}

} // namespace flashxxl
