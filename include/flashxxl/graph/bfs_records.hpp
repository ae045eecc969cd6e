// Fixed-size records of the external BFS algorithms (32-bit node and cluster ids) and their orders.
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>

namespace flashxxl {

//! A node id inside the BFS algorithms: 32 bits while |V| < 2^32 - 1 (shared/BFS.md), so a
//! record of the cluster file is 12 bytes instead of 24.
using bfs_node = std::uint32_t;

//! "No node / no cluster" in 32-bit records.
constexpr bfs_node no_bfs_node = std::numeric_limits<bfs_node>::max();

//! One arc (v, w) of the symmetric adjacency, sorted by (v, w) in the CSR.
struct bfs_arc {
    bfs_node v = 0; //!< tail
    bfs_node w = 0; //!< head
};

//! A node of a BFS level with its cluster (MM_BFS; 0 in MR_BFS) and its BFS parent. Also the
//! neighbour record (w, c(w), parent) that a level scan emits.
struct level_record {
    bfs_node v = 0;      //!< node
    bfs_node c = 0;      //!< cluster of v (MM_BFS) or 0
    bfs_node parent = 0; //!< BFS parent (v itself for the source)
};

//! An adjacency entry of the cluster file and the hot pool: (v, w, c(w)) (shared/BFS.md).
struct adjacency_record {
    bfs_node v = 0;  //!< owner of the list
    bfs_node w = 0;  //!< neighbour
    bfs_node cw = 0; //!< cluster of the neighbour
};

//! A node and the cluster it belongs to (cluster growth in MM_BFS preprocessing).
struct node_cluster {
    bfs_node v = 0; //!< node
    bfs_node c = 0; //!< cluster
};

//! Orders level records by (v, parent): the first of each v carries the smallest parent.
struct level_by_node {
    bool operator()(const level_record& a, const level_record& b) const {
        return std::tie(a.v, a.parent) < std::tie(b.v, b.parent);
    }
};

//! Orders adjacency records by (v, w).
struct adjacency_by_owner {
    bool operator()(const adjacency_record& a, const adjacency_record& b) const {
        return std::tie(a.v, a.w) < std::tie(b.v, b.w);
    }
};

//! Orders (node, cluster) pairs by (v, c): the first of each v carries the smallest cluster.
struct cluster_by_node {
    bool operator()(const node_cluster& a, const node_cluster& b) const {
        return std::tie(a.v, a.c) < std::tie(b.v, b.c);
    }
};

//! Orders arcs by (v, w).
struct arc_by_tail {
    bool operator()(const bfs_arc& a, const bfs_arc& b) const {
        return std::tie(a.v, a.w) < std::tie(b.v, b.w);
    }
};

} // namespace flashxxl
