// The edge-source protocol shared by readers and generators, and the summary they report.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "flashxxl/graph/edge.hpp"

namespace flashxxl {

//! What a pass over an edge list saw.
//!
//! An *edge source* is any object with `bool next(edge&)` (false at the end; each call yields
//! one edge, in file or generation order) and `node_id node_count() const` (every id yielded is
//! below it; for a text file without a bound it is max id + 1 of what was read so far).
//! Readers (text_edge_reader, binary_edge_reader) and generators (grid_generator,
//! tree_generator, random_graph_generator, rmat_generator) are edge sources.
struct edge_list_summary {
    std::uint64_t nodes = 0;      //!< node count: declared, or max id + 1
    std::uint64_t edges = 0;      //!< edges yielded (self-loops and repeats included)
    std::uint64_t self_loops = 0; //!< edges with u == v among them
    node_id max_id = no_node;     //!< largest id seen, no_node when there were no edges
};

namespace detail {
template <class Source> auto edge_position(const Source& s, int) -> decltype(std::string(s.position())) {
    return s.position();
}
template <class Source> std::string edge_position(const Source&, long) { return {}; }
template <class Source>
auto node_count_origin(const Source& s, int) -> decltype(std::string(s.node_count_origin())) {
    return s.node_count_origin();
}
template <class Source> std::string node_count_origin(const Source&, long) { return {}; }
} // namespace detail

//! Where the edge `source` yielded last comes from ("g.txt:7", "g.bin: byte offset 40 (edge 1)"),
//! when the source says (a `position()` member); empty for generators.
template <class Source> std::string edge_position(const Source& source) {
    return detail::edge_position(source, 0);
}

//! Where the node count of `source` comes from, when the source says (a `node_count_origin()`
//! member: "g.txt:1: the '# Nodes: 9' comment declares 9 nodes", "g.txt: no edges: the file is
//! empty"); empty for generators.
template <class Source> std::string node_count_origin(const Source& source) {
    return detail::node_count_origin(source, 0);
}

//! Pulls every remaining edge of `source` into `sink(const edge&)`; returns the summary.
template <class Source, class Sink> edge_list_summary copy_edges(Source& source, Sink&& sink) {
    edge_list_summary s;
    edge e;
    while (source.next(e)) {
        ++s.edges;
        if (e.u == e.v) ++s.self_loops;
        node_id hi = e.max_endpoint();
        if (s.max_id == no_node || hi > s.max_id) s.max_id = hi;
        sink(static_cast<const edge&>(e));
    }
    s.nodes = source.node_count();
    return s;
}

} // namespace flashxxl
