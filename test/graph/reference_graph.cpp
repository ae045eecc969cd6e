// The Boost.Graph BFS oracle of the graph tests, compiled once (see reference_graph.hpp).
#include "graph/reference_graph.hpp"

#include <stdexcept>
#include <string>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

namespace flashxxl::testing {

std::vector<std::uint64_t> boost_bfs_levels(std::uint64_t n, const std::vector<edge>& edges,
                                            std::uint64_t source) {
    using graph_t = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    if (source >= n)
        throw std::invalid_argument("boost_bfs_levels: source " + std::to_string(source) + " >= node count " +
                                    std::to_string(n));
    graph_t g(n);
    for (const edge& e : edges) {
        if (e.u >= n || e.v >= n)
            throw std::invalid_argument("boost_bfs_levels: edge (" + std::to_string(e.u) + ", " +
                                        std::to_string(e.v) + ") has an id >= " + std::to_string(n));
        boost::add_edge(e.u, e.v, g);
    }
    std::vector<std::uint64_t> level(n, unreached);
    level[source] = 0;
    boost::breadth_first_search(g, boost::vertex(source, g),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(level.data(), boost::on_tree_edge()))));
    return level;
}

} // namespace flashxxl::testing
