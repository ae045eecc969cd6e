// BFS output to an external vector: one (node, level, parent) record per reached node, in discovery order.
#pragma once

#include <cstdint>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/edge.hpp"

namespace flashxxl {

//! One reached node of a BFS.
struct bfs_level_entry {
    node_id v = 0;
    std::uint64_t level = 0;
    node_id parent = 0;
};

//! A visitor that appends a bfs_level_entry per discovered node to an external vector with Bw
//! writes (role of the vector; memory: the vector's stream_writer, 2 x Bw). The vector must be
//! used by nothing else until finish() (or destruction). Entries come level by level, by node
//! id within a level; sort them by node (flashxxl::sort) for a node-indexed view. The writes
//! have the vector's block sizes (its blocks()).
class bfs_vector_output : public bfs_visitor {
public:
    explicit bfs_vector_output(vector<bfs_level_entry>& out) : writer_(out) {}
    void discover_vertex(node_id v, std::uint64_t level, node_id parent) {
        writer_.push(bfs_level_entry{v, level, parent});
    }
    //! Writes what is buffered.
    void finish() { writer_.finish(); }

private:
    vector<bfs_level_entry>::stream_writer writer_;
};

} // namespace flashxxl
