// Generator of R-MAT graphs (Chakrabarti, Zhan, Faloutsos 2004): skewed degrees, deterministic from a seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/splitmix64.hpp"

namespace flashxxl {

//! R-MAT parameters: 2^scale nodes, edge_factor x 2^scale edges, quadrant probabilities
//! a, b, c, d = 1 - a - b - c (defaults 0.57, 0.19, 0.19, 0.05: the Graph 500 values).
struct rmat_params {
    unsigned scale = 10;            //!< log2 of the node count, 1 ... 62
    std::uint64_t edge_factor = 16; //!< edges per node
    double a = 0.57;                //!< top-left quadrant (u bit 0, v bit 0)
    double b = 0.19;                //!< top-right (u bit 0, v bit 1)
    double c = 0.19;                //!< bottom-left (u bit 1, v bit 0)
    //! 1 - a - b - c.
    double d() const { return 1.0 - a - b - c; }
};

//! Each edge picks, bit by bit from the most significant, one quadrant of the adjacency matrix
//! with probabilities a, b, c, d. No noise and no id permutation, so low ids (node 0 most) get
//! the highest degrees. Produces self-loops and repeated edges (many for small scales).
//! Probabilities are turned into 53-bit integer thresholds once, so the same seed gives the
//! same edges on every machine. An edge source.
class rmat_generator {
public:
    static constexpr bool may_have_self_loops = true;
    static constexpr bool may_have_duplicates = true;

    //! Checks `p` (scale 1 ... 62, a, b, c, d >= 0 summing to 1, edge count in 64 bits).
    rmat_generator(const rmat_params& p, std::uint64_t seed) : p_(p), rng_(seed) {
        if (p.scale < 1 || p.scale > 62)
            throw config_error("rmat: scale " + std::to_string(p.scale) +
                               " out of range (expected 1 ... 62)");
        const double d = p.d();
        if (!(p.a >= 0 && p.b >= 0 && p.c >= 0 && d >= -1e-12) || !std::isfinite(d))
            throw config_error("rmat: probabilities a=" + std::to_string(p.a) + " b=" + std::to_string(p.b) +
                               " c=" + std::to_string(p.c) + " d=1-a-b-c=" + std::to_string(d) +
                               " (expected each >= 0, a + b + c <= 1)");
        n_ = std::uint64_t(1) << p.scale;
        if (p.edge_factor > (~std::uint64_t(0)) / n_)
            throw config_error("rmat: edge factor " + std::to_string(p.edge_factor) + " x 2^" +
                               std::to_string(p.scale) + " overflows 64 bits");
        m_ = p.edge_factor * n_;
        constexpr double two53 = 9007199254740992.0;
        t_a_ = to_threshold(p.a * two53);
        t_ab_ = to_threshold((p.a + p.b) * two53);
        t_abc_ = to_threshold((p.a + p.b + p.c) * two53);
    }

    //! Yields the next edge; false after m.
    bool next(edge& e) {
        if (done_ == m_) return false;
        node_id u = 0, v = 0;
        for (unsigned bit = 0; bit < p_.scale; ++bit) {
            std::uint64_t r = rng_() >> 11; // 53 uniform bits
            unsigned bu = 0, bv = 0;
            if (r < t_a_) {
            } else if (r < t_ab_) {
                bv = 1;
            } else if (r < t_abc_) {
                bu = 1;
            } else {
                bu = 1;
                bv = 1;
            }
            u = (u << 1) | bu;
            v = (v << 1) | bv;
        }
        e = {u, v};
        ++done_;
        return true;
    }

    //! 2^scale.
    node_id node_count() const { return n_; }
    //! edge_factor x 2^scale.
    std::uint64_t edge_count() const { return m_; }
    //! The parameters.
    const rmat_params& params() const { return p_; }

private:
    static std::uint64_t to_threshold(double x) {
        if (x <= 0) return 0;
        if (x >= 9007199254740992.0) return std::uint64_t(1) << 53;
        return static_cast<std::uint64_t>(x);
    }

    rmat_params p_;
    splitmix64 rng_;
    std::uint64_t n_ = 0, m_ = 0;
    std::uint64_t t_a_ = 0, t_ab_ = 0, t_abc_ = 0;
    std::uint64_t done_ = 0;
};

} // namespace flashxxl
