// Munagala-Ranade external BFS: one adjacency fetch per frontier node per level (the baseline).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_levels.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Memory mr_bfs needs at least with block sizes `b` (besides the graph's page caches).
inline std::uint64_t mr_bfs_min_memory(const block_sizes& b) {
    return sorter<level_record, level_by_node>::min_memory(b) + next_level_stream_memory(b) +
           level_list::stream_reader::memory_usage(b, 1);
}

//! MR_BFS (Munagala and Ranade 1999; shared/BFS.md): for t = 1, 2, ...: fetch the adjacency
//! list of every node of L(t-1) from the CSR graph (in increasing node order, so the Br pages
//! of the graph's page caches are read in offset order; one random read per node at worst),
//! sort the neighbours (role scratch), drop repeats, subtract L(t-1) and L(t-2). Cost
//! O(n + sort(n + m)) I/Os: the random access per node is what mm_bfs removes.
//!
//! `memory` bounds the buffers of the algorithm (sorter, level readers / writer), which use
//! block sizes `b` (config_error for an invalid pair); the graph's page caches come on top (set
//! when it was built, with the graph's own sizes). The visitor gets discover_vertex /
//! tree_edge / finish_level (bfs_visitor.hpp). The result's only phase is "bfs".
template <class Visitor>
bfs_result mr_bfs(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b, std::uint64_t source,
                  Visitor& vis) {
    using sorter_type = sorter<level_record, level_by_node>;
    b.validate();
    if (&g.get_machine() != &m) throw config_error("mr_bfs: the graph lives on another machine");
    if (source >= g.node_count())
        throw config_error("mr_bfs: source " + std::to_string(source) + " is not a node (|V| = " +
                           std::to_string(g.node_count()) + ")");
    if (memory < mr_bfs_min_memory(b))
        throw config_error("mr_bfs: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
                           format_bytes(double(mr_bfs_min_memory(b))) + " for " + b.describe());
    const std::uint64_t sorter_memory =
        memory - next_level_stream_memory(b) - level_list::stream_reader::memory_usage(b, 1);

    phase_meter meter(m, "bfs");
    bfs_result res;
    res.source = source;
    auto prev2 = make_level_list(m, b);
    auto prev = make_level_list(m, b);
    {
        level_list::stream_writer w(*prev);
        w.push(level_record{bfs_node(source), 0, bfs_node(source)});
    }
    vis.discover_vertex(source, 0, source);
    vis.finish_level(0, 1);
    res.level_sizes.push_back(1);
    for (std::uint64_t t = 1;; ++t) {
        sorter_type neighbours(m, sorter_memory, b, level_by_node(), role::scratch);
        {
            level_list::stream_reader r(*prev);
            for (; !r.empty(); ++r) {
                const bfs_node v = r->v;
                g.for_each_neighbour(v, [&](bfs_node w) { neighbours.push(level_record{w, 0, v}); });
            }
        }
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
    res.phases.push_back(meter.finish());
    return res;
}

//! mr_bfs without a visitor.
inline bfs_result mr_bfs(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b, std::uint64_t source) {
    bfs_visitor vis;
    return mr_bfs(m, g, memory, b, source, vis);
}

} // namespace flashxxl
