// The edge record shared by graph readers, writers and generators: a pair of 64-bit node ids.
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>

namespace flashxxl {

//! A node id. 64-bit everywhere in the input layer; later stages may narrow it.
using node_id = std::uint64_t;

//! "No node": unreached levels, absent parents, an empty max-id.
constexpr node_id no_node = std::numeric_limits<node_id>::max();

//! One edge {u, v} of an (undirected) edge list, as read or generated: not yet symmetrized,
//! so it may be a self-loop (u == v) or repeat an earlier edge.
struct edge {
    node_id u = 0; //!< first endpoint
    node_id v = 0; //!< second endpoint

    //! True when both endpoints are the same node.
    bool is_self_loop() const { return u == v; }
    //! The larger endpoint.
    node_id max_endpoint() const { return u < v ? v : u; }
};

inline bool operator==(const edge& a, const edge& b) { return a.u == b.u && a.v == b.v; }
inline bool operator!=(const edge& a, const edge& b) { return !(a == b); }
//! Lexicographic by (u, v).
inline bool operator<(const edge& a, const edge& b) { return std::tie(a.u, a.v) < std::tie(b.u, b.v); }

} // namespace flashxxl
