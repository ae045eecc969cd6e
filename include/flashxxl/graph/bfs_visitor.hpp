// Boost.Graph-style visitors for the external BFS algorithms (mr_bfs, mm_bfs).
#pragma once

#include <cstdint>
#include <vector>

#include "flashxxl/graph/edge.hpp"

namespace flashxxl {

//! The visitor protocol of mr_bfs and mm_bfs, modelled on Boost.Graph's BFSVisitor but with
//! what an external, level-synchronous BFS can report cheaply. Derive from it and hide the
//! events you want (calls are static, no virtual functions):
//! - discover_vertex(v, level, parent): v reached at BFS distance `level` from the source via
//!   the tree edge (parent, v); the source comes first with parent == source. Within a level
//!   nodes come in increasing id order; the parent is the smallest-id neighbour on the level
//!   above.
//! - tree_edge(parent, v): after discover_vertex, for every node but the source.
//! - finish_level(level, nodes): after the last node of a level.
struct bfs_visitor {
    void discover_vertex(node_id /*v*/, std::uint64_t /*level*/, node_id /*parent*/) {}
    void tree_edge(node_id /*parent*/, node_id /*v*/) {}
    void finish_level(std::uint64_t /*level*/, std::uint64_t /*nodes*/) {}
};

//! A visitor that records every node's level and parent in memory (n x 16 bytes: for tests and
//! small graphs). Unreached nodes keep `no_node`.
struct bfs_level_recorder : bfs_visitor {
    std::vector<std::uint64_t> level; //!< level[v], or no_node
    std::vector<node_id> parent;      //!< parent[v], or no_node
    std::vector<std::uint64_t> level_sizes;

    explicit bfs_level_recorder(std::uint64_t n) : level(n, no_node), parent(n, no_node) {}
    void discover_vertex(node_id v, std::uint64_t lvl, node_id p) {
        level.at(v) = lvl;
        parent.at(v) = p;
    }
    void finish_level(std::uint64_t, std::uint64_t nodes) { level_sizes.push_back(nodes); }
};

} // namespace flashxxl
