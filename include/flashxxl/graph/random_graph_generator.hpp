// Generator of uniform random sparse graphs, G(n, m) style with replacement, deterministic from a seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/splitmix64.hpp"

namespace flashxxl {

//! m edges, each with two endpoints drawn uniformly and independently from [0, n) (the second
//! redrawn while it equals the first): no self-loops, but an edge may repeat (about m^2 / n^2
//! repeats expected, negligible for sparse graphs; the CSR builder drops them). Small average
//! degree leaves isolated nodes and several components. splitmix64 from the seed: the same seed
//! gives the same edges on every machine. An edge source.
class random_graph_generator {
public:
    static constexpr bool may_have_self_loops = false;
    static constexpr bool may_have_duplicates = true;

    //! `nodes` >= 2 (>= 1 when `edges` is 0), `edges` to draw, `seed`.
    random_graph_generator(std::uint64_t nodes, std::uint64_t edges, std::uint64_t seed)
        : n_(nodes), m_(edges), rng_(seed) {
        if (nodes == 0) throw config_error("random graph: node count must be at least 1");
        if (nodes == 1 && edges > 0)
            throw config_error("random graph: one node admits no edge without self-loops; "
                               "expected at least 2 nodes");
    }

    //! The edge count for average degree `degree` (each edge adds 2 to the degree sum):
    //! round(n x degree / 2).
    static std::uint64_t edges_for_degree(std::uint64_t nodes, double degree) {
        if (!(degree >= 0) || !std::isfinite(degree))
            throw config_error("random graph: average degree " + std::to_string(degree) +
                               " is not a non-negative number");
        double m = std::round(double(nodes) * degree / 2.0);
        if (m >= 18446744073709551615.0) throw config_error("random graph: n x degree / 2 overflows 64 bits");
        return static_cast<std::uint64_t>(m);
    }

    //! Yields the next edge; false after m.
    bool next(edge& e) {
        if (done_ == m_) return false;
        e.u = rng_.below(n_);
        do
            e.v = rng_.below(n_);
        while (e.v == e.u);
        ++done_;
        return true;
    }

    //! n.
    node_id node_count() const { return n_; }
    //! m.
    std::uint64_t edge_count() const { return m_; }

private:
    std::uint64_t n_, m_;
    splitmix64 rng_;
    std::uint64_t done_ = 0;
};

} // namespace flashxxl
