// BFS level lists on a machine and the step L(t) = sort(N) minus L(t-1) minus L(t-2) of both BFS algorithms.
#pragma once

#include <cstdint>
#include <memory>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/graph/sorted_subtraction.hpp"

namespace flashxxl {

//! One BFS level: its records sorted by node, on role `scratch`, streamed only.
using level_list = vector<level_record>;

//! An empty level list with block sizes `b` (streamed only, so the vector never allocates its
//! page cache).
inline std::unique_ptr<level_list> make_level_list(machine& m, const block_sizes& b) {
    return std::make_unique<level_list>(m, level_list::min_memory(b), b, role::scratch);
}

//! Memory of the merge step besides the sorter: two level readers and one writer.
inline std::uint64_t next_level_stream_memory(const block_sizes& b) {
    return 2 * level_list::stream_reader::memory_usage(b, 1) + level_list::stream_writer::memory_usage(b);
}

//! The subtraction step of shared/BFS.md: `neighbours` (sorted by (v, parent), already
//! sort()ed) without repeats, minus the nodes of `prev` (L(t-1)) and `prev2` (L(t-2)), written
//! into `out` (L(t)) and reported to the visitor as level `t`. Undirected graphs only. Returns
//! |L(t)|.
template <class Sorter, class Visitor>
std::uint64_t subtract_levels(Sorter& neighbours, level_list& prev, level_list& prev2, level_list& out, std::uint64_t t,
                              Visitor& vis) {
    level_list::stream_reader r1(prev), r2(prev2);
    level_list::stream_writer w(out);
    std::uint64_t count = subtract_sorted(neighbours, r1, r2, [&](const level_record& rec) {
        w.push(rec);
        vis.discover_vertex(rec.v, t, rec.parent);
        vis.tree_edge(rec.parent, rec.v);
    });
    w.finish();
    return count;
}

} // namespace flashxxl
