// Test-only in-memory reference algorithms on Boost.Graph, to check flashxxl's external BFS / DFS.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "flashxxl/graph/edge.hpp"

namespace flashxxl::testing {

//! "Not reached" in boost_bfs_levels' result.
constexpr std::uint64_t unreached = std::numeric_limits<std::uint64_t>::max();

//! BFS levels (hop distance from `source`) of the undirected graph on nodes [0, n) with
//! `edges` (self-loops and repeated edges allowed, each edge usable both ways), computed by
//! boost::breadth_first_search on an adjacency_list; unreached nodes get `unreached`. Compiled
//! once in reference_graph.cpp (Boost.Graph is heavy; every graph test uses it).
std::vector<std::uint64_t> boost_bfs_levels(std::uint64_t n, const std::vector<edge>& edges,
                                            std::uint64_t source);

} // namespace flashxxl::testing
