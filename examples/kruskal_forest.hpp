// Kruskal's minimum spanning forest through a flashxxl pipeline: generate -> sort -> filter -> materialize.
#pragma once

#include <cstddef>
#include <cstdint>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/stream/pipeline.hpp"
#include "kruskal_edges.hpp"

namespace flashxxl_examples {

//! What one Kruskal run did.
struct kruskal_report {
    std::uint64_t forest_edges = 0;
    std::uint64_t sort_passes = 0; //!< the sort stage's merge passes (1: runs merged once)
    std::uint64_t peak_memory = 0; //!< the pipeline's buffers at most (<= M)
};

//! The minimum spanning forest of `edges` random edges on `nodes` nodes (random_edge(i, nodes,
//! seed)), appended to `forest`: the edges stream from a generator into a sort stage (runs
//! written with Bw, merged with Br reads), a filter keeps the edges that join two trees
//! (union_find in memory, 4 bytes per node, outside M) and materialize writes them. M is split
//! among the stages by their needs (stream::split_among_stages): the writer's 2 Bw, the rest
//! to the sort. The input is never written as such: the I/O is the runs (written once, read
//! once) and the forest.
inline kruskal_report kruskal_forest(flashxxl::machine& m, const flashxxl::memory_budget& memory,
                                     const flashxxl::block_sizes& b, std::uint32_t nodes, std::uint64_t edges,
                                     std::uint64_t seed, flashxxl::vector<weighted_edge>& forest,
                                     std::size_t threads = 0) {
    using namespace flashxxl;
    memory_account pipeline(memory.account());
    const memory_budget M(memory.bytes(), pipeline);
    auto make = [nodes, seed](std::uint64_t i) { return random_edge(i, nodes, seed); };
    using edge_source = stream::generator<decltype(make)>;
    using edge_sort = stream::sort<edge_source, by_weight>;
    const auto parts = stream::split_among_stages(M, {edge_source::memory_need(), edge_sort::memory_need(b),
                                                      stream::materialize_need<weighted_edge>(b)});

    edge_source input(edges, make);
    edge_sort sorted(input, m, parts[1], b, by_weight(), role::scratch, threads, edges);
    union_find trees(nodes);
    stream::filter joins(sorted, [&trees](const weighted_edge& e) { return trees.unite(e.u, e.v); });
    kruskal_report report;
    report.forest_edges = stream::materialize(joins, forest, parts[2]);
    report.sort_passes = sorted.sorter_stage().passes();
    report.peak_memory = pipeline.peak();
    return report;
}

} // namespace flashxxl_examples
