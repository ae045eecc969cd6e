// BFS level lists on a machine, and the memory of the streams that subtract L(t-1) and L(t-2) from a level.
#pragma once

#include <cstdint>
#include <memory>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
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

} // namespace flashxxl
