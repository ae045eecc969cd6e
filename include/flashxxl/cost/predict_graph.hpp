// Upper bounds on the I/O of the graph traversals in the unit-cost flash model (seeds/001 Sections 3.3-4):
// DFS.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/cost/prediction.hpp"

namespace flashxxl::predict {

//! An upper bound on the "dfs" phase of flashxxl::dfs (whole graph) on |V| = `nodes` nodes and
//! `arcs` adjacency entries (2 |E|), marks with block sizes `b`, the graph's vectors with
//! `graph` (its own block sizes). seeds/001 Section 4 gives O(|E| Br + |V| Bw); the constants
//! count every access as a miss:
//!  - each arc: the target id (one Br page of the graph) and the target's mark (one Br page);
//!  - each node: its list range (the offsets v and v + 1, at most two Br pages of the graph; with
//!    marks kept with the nodes, the node record instead: one read and one write), its mark
//!    set (at most one Br page), and the scan of the roots over all marks (one Br page each);
//!  - each mark set may dirty a page whose write-back writes its Bw group after reading the
//!    group's other Bw / Br - 1 pages: at most |V| Bw written and |V| (Bw - Br) read;
//!  - the stack: 2 |V| pushes and pops of 24-byte frames, each Bw of its I/O paid for by Bw / 24
//!    of them: at most 2 |V| x 24 bytes written and as many read.
//! The caches serve most of these on graphs with locality (grids): the measured volume is then a
//! small fraction of the bound (docs/cost-model.md states the factor seen).
inline io_prediction dfs_bound(std::uint64_t nodes, std::uint64_t arcs, bool marks_with_nodes,
                               const block_sizes& b, const block_sizes& graph) {
    const double v = double(nodes), a = double(arcs), br = double(b.br), bw = double(b.bw);
    const double gbr = double(graph.br);
    const double frame = 24;
    io_prediction p;
    p.bound = true;
    const double range_reads = marks_with_nodes ? v * br : 2 * v * gbr;
    p.read_bytes = a * (gbr + br) + range_reads + v * br /* mark set */ + v * br /* root scan */ +
                   v * (bw - br) /* write-backs' group reads */ + 2 * v * frame;
    p.write_bytes = v * bw + 2 * v * frame;
    p.basis = "dfs bound: every access a miss, every mark set a Bw write-back (O(|E| Br + |V| Bw))";
    return p;
}

} // namespace flashxxl::predict
