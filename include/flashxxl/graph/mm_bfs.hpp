// Mehlhorn-Meyer external BFS: cluster preprocessing, then a BFS phase with a hot pool of loaded clusters.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_levels.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/cluster_file.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/graph/mm_clustering.hpp"
#include "flashxxl/io/blocks.hpp"
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
};

//! Memory the BFS phase of mm_bfs needs at least with block sizes `b`.
inline std::uint64_t mm_bfs_phase_min_memory(const block_sizes& b) {
    return 2 * sorter<level_record, level_by_node>::min_memory(b) +
           2 * sorter<adjacency_record, adjacency_by_owner>::min_memory(b) + 8 * b.br + 5 * b.bw;
}
//! Memory mm_bfs needs at least with block sizes `b` (the larger of its two phases).
inline std::uint64_t mm_bfs_min_memory(const block_sizes& b) {
    return std::max(mm_bfs_phase_min_memory(b), clustering_min_memory(b));
}

//! The BFS phase of MM_BFS (shared/BFS.md) on a cluster file built by build_clusters. The hot
//! pool H (adjacency records sorted by node, role `hot`: on HDDs under flash_aware) holds the
//! lists of loaded clusters' unvisited nodes. Per level t:
//! 1. merge-scan L(t-1) with H: lists found go to the neighbour sorter S_N, the rest of H is
//!    rewritten; nodes without a list in H ask for their cluster (sorter S_C);
//! 2. the requested clusters are read in ascending order, one random read each (role
//!    static_data), and sorted by node;
//! 3. the lists of the asking nodes go to S_N, the rest is merged into H;
//! 4. S_N sorted, repeats dropped, L(t-1) and L(t-2) subtracted: that is L(t).
//! Level lists and sorters have role scratch and block sizes `b` (config_error for an invalid
//! pair; the file keeps its own). `memory` bounds the buffers.
template <class Visitor>
void mm_bfs_phase(machine& m, cluster_file& file, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
                  Visitor& vis, bfs_result& res) {
    using pool = vector<adjacency_record>;
    using id_list = vector<bfs_node>;
    using n_sorter = sorter<level_record, level_by_node>;
    using c_sorter = sorter<bfs_node, std::less<bfs_node>>;
    using a_sorter = sorter<adjacency_record, adjacency_by_owner>;
    b.validate();
    // Two level / pool readers (2 Br each) and two writers (2 Bw each) at a time, the cluster
    // file's Bw read buffer, slack for the third reader of the subtraction step.
    const std::uint64_t streams = 8 * b.br + 5 * b.bw;
    if (memory < mm_bfs_phase_min_memory(b))
        throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
                           format_bytes(double(mm_bfs_phase_min_memory(b))) + " for " + b.describe());
    const std::uint64_t s_n_memory = (memory - streams) / 2;
    const std::uint64_t s_c_memory = std::max(c_sorter::min_memory(b), (memory - streams) / 8);
    const std::uint64_t loaded_memory = (memory - streams) / 2 - s_c_memory;

    auto prev2 = make_level_list(m, b);
    auto prev = make_level_list(m, b);
    {
        level_list::stream_writer w(*prev);
        w.push(level_record{bfs_node(source), 0, bfs_node(source)});
    }
    vis.discover_vertex(source, 0, source);
    vis.finish_level(0, 1);
    res.level_sizes.push_back(1);
    auto hot = std::make_unique<pool>(m, pool::min_memory(b), b, role::hot);

    for (std::uint64_t t = 1;; ++t) {
        n_sorter neighbours(m, s_n_memory, b, level_by_node(), role::scratch);
        res.pool_records_scanned += hot->size();
        res.max_pool_records = std::max<std::uint64_t>(res.max_pool_records, hot->size());
        // 1. L(t-1) against H.
        auto rest = std::make_unique<pool>(m, pool::min_memory(b), b, role::hot);
        id_list missing(m, id_list::min_memory(b), b, role::scratch);
        c_sorter requests(m, s_c_memory, b, std::less<bfs_node>(), role::scratch);
        {
            level_list::stream_reader l(*prev);
            pool::stream_reader h(*hot);
            pool::stream_writer out(*rest);
            id_list::stream_writer miss(missing);
            bool matched = false;
            while (!l.empty() || !h.empty()) {
                if (h.empty() || (!l.empty() && l->v < h->v)) {
                    if (!matched) {
                        miss.push(l->v);
                        requests.push(l->c);
                    }
                    matched = false;
                    ++l;
                } else if (l.empty() || h->v < l->v) {
                    out.push(*h);
                    ++h;
                } else {
                    neighbours.push(level_record{h->w, h->cw, h->v});
                    matched = true;
                    ++h;
                }
            }
            out.finish();
            miss.finish();
        }
        hot = std::move(rest);
        // 2. Load the requested clusters.
        if (!requests.empty()) {
            requests.sort();
            a_sorter loaded(m, loaded_memory, b, adjacency_by_owner(), role::scratch);
            bool have_last = false;
            bfs_node last = 0;
            for (; !requests.empty(); ++requests) {
                const bfs_node c = *requests;
                if (have_last && c == last) continue;
                have_last = true;
                last = c;
                file.read(c, [&](const adjacency_record& r) { loaded.push(r); });
                ++res.clusters_loaded;
            }
            requests.clear();
            // 3. Lists of the asking nodes to S_N, the rest merged into H.
            loaded.sort();
            auto merged = std::make_unique<pool>(m, pool::min_memory(b), b, role::hot);
            {
                pool::stream_reader h(*hot);
                id_list::stream_reader miss(missing);
                pool::stream_writer out(*merged);
                for (; !loaded.empty(); ++loaded) {
                    const adjacency_record r = *loaded;
                    while (!miss.empty() && *miss < r.v) ++miss;
                    if (!miss.empty() && *miss == r.v) {
                        neighbours.push(level_record{r.w, r.cw, r.v});
                        continue;
                    }
                    while (!h.empty() && h->v < r.v) {
                        out.push(*h);
                        ++h;
                    }
                    out.push(r);
                }
                for (; !h.empty(); ++h) out.push(*h);
                out.finish();
            }
            hot = std::move(merged);
        }
        missing.clear();
        // 4. L(t) = S_N minus L(t-1) minus L(t-2).
        res.neighbour_records += neighbours.size();
        neighbours.sort();
        auto next = make_level_list(m, b);
        std::uint64_t count = subtract_levels(neighbours, *prev, *prev2, *next, t, vis);
        if (count == 0) break;
        vis.finish_level(t, count);
        res.level_sizes.push_back(count);
        prev2 = std::move(prev);
        prev = std::move(next);
    }
    for (std::uint64_t s : res.level_sizes) res.reached += s;
}

//! MM_BFS (Mehlhorn and Meyer, ESA 2002; seeds/000 Section 4, seeds/001 Section 3.3) on a CSR
//! graph: build_clusters (phase "preprocessing": masters with probability 1/mu, clusters by a
//! parallel BFS, the cluster file on role static_data), then mm_bfs_phase (phase "bfs": one
//! random read per cluster, hot pool on role hot). Each phase's device statistics are in the
//! result. mu defaults to default_mu(Br, |V|). `memory` bounds the buffers of each phase, which
//! use block sizes `b` (config_error for an invalid pair; the graph's page caches keep the
//! graph's own); the cluster index (8 bytes per cluster) is held in memory besides it.
template <class Visitor,
          class = std::enable_if_t<!std::is_same<std::remove_cv_t<Visitor>, mm_bfs_options>::value>>
bfs_result mm_bfs(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
                  Visitor& vis, const mm_bfs_options& opts = {}) {
    b.validate();
    if (&g.get_machine() != &m) throw config_error("mm_bfs: the graph lives on another machine");
    if (source >= g.node_count())
        throw config_error("mm_bfs: source " + std::to_string(source) + " is not a node (|V| = " +
                           std::to_string(g.node_count()) + ")");
    if (memory < mm_bfs_min_memory(b))
        throw config_error("mm_bfs: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
                           format_bytes(double(mm_bfs_min_memory(b))) + " for " + b.describe());
    bfs_result res;
    res.source = source;
    const block_sizes file_blocks = opts.cluster_blocks ? *opts.cluster_blocks : b;
    file_blocks.validate();
    res.mu = opts.mu ? opts.mu : default_mu(file_blocks.br, g.node_count());
    std::unique_ptr<cluster_file> file;
    {
        phase_meter meter(m, "preprocessing");
        clustering_stats cs;
        file = build_clusters(m, g, memory, b, source, res.mu, opts.seed, cs, file_blocks);
        res.clusters = cs.clusters;
        res.growth_rounds = cs.rounds;
        res.cluster_file_bytes = file->bytes();
        res.phases.push_back(meter.finish());
    }
    {
        phase_meter meter(m, "bfs");
        mm_bfs_phase(m, *file, memory, b, source, vis, res);
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
