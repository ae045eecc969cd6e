// Test-only in-memory reference algorithms on Boost.Graph, to check flashxxl's external BFS / DFS.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

#include "flashxxl/graph/edge.hpp"

namespace flashxxl::testing {

//! "Not reached" in boost_bfs_levels' result.
constexpr std::uint64_t unreached = std::numeric_limits<std::uint64_t>::max();

//! BFS levels (hop distance from `source`) of the undirected graph on nodes [0, n) with
//! `edges` (self-loops and repeated edges allowed, each edge usable both ways), computed by
//! boost::breadth_first_search on an adjacency_list; unreached nodes get `unreached`.
inline std::vector<std::uint64_t> boost_bfs_levels(std::uint64_t n, const std::vector<edge>& edges,
                                                   std::uint64_t source) {
    using graph_t = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    if (source >= n)
        throw std::invalid_argument("boost_bfs_levels: source " + std::to_string(source) +
                                    " >= node count " + std::to_string(n));
    graph_t g(n);
    for (const edge& e : edges) {
        if (e.u >= n || e.v >= n)
            throw std::invalid_argument("boost_bfs_levels: edge (" + std::to_string(e.u) + ", " +
                                        std::to_string(e.v) + ") has an id >= " + std::to_string(n));
        boost::add_edge(e.u, e.v, g);
    }
    std::vector<std::uint64_t> level(n, unreached);
    level[source] = 0;
    boost::breadth_first_search(
        g, boost::vertex(source, g),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(level.data(), boost::on_tree_edge()))));
    return level;
}

} // namespace flashxxl::testing
