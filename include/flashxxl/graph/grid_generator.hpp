// Generator of the square grid graph (side x side, 4-neighbour), the hard class of seeds/001 Table 2.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge.hpp"

namespace flashxxl {

//! The side x side grid: node (r, c) has id r * side + c and is joined to (r, c + 1) and
//! (r + 1, c). 2 x side x (side - 1) edges, each once, no self-loops, no duplicates; diameter
//! 2 (side - 1). Grids are the hard case for external BFS in seeds/001 (Table 2, sqrt(n)
//! levels of sqrt(n) nodes each). Deterministic (no seed). An edge source (edge_source.hpp),
//! edges in row-major order of their first endpoint.
class grid_generator {
public:
    //! May the output contain self-loops / repeated edges?
    static constexpr bool may_have_self_loops = false;
    static constexpr bool may_have_duplicates = false;

    //! A grid of side x side nodes; side must be >= 1 and its 2 side (side - 1) edges must
    //! fit 64 bits (side <= max_side).
    explicit grid_generator(std::uint64_t side) : side_(side) {
        if (side == 0 || side > max_side)
            throw config_error("grid side " + std::to_string(side) +
                               " is out of range (expected 1 <= side <= " + std::to_string(max_side) +
                               ", so that its 2 side (side - 1) edges count in 64 bits)");
    }

    //! Yields the next edge; false after the last.
    bool next(edge& e) {
        while (r_ < side_) {
            node_id id = r_ * side_ + c_;
            if (phase_ == 0) {
                phase_ = 1;
                if (c_ + 1 < side_) {
                    e = {id, id + 1};
                    return true;
                }
            }
            // phase 1: the down edge of (r_, c_), then move to the next node
            const bool down = r_ + 1 < side_;
            phase_ = 0;
            if (++c_ == side_) {
                c_ = 0;
                ++r_;
            }
            if (down) {
                e = {id, id + side_};
                return true;
            }
        }
        return false;
    }

    //! The largest side whose edge count, 2 side (side - 1), fits 64 bits.
    static constexpr std::uint64_t max_side = 3037000500u;
    //! side^2.
    node_id node_count() const { return side_ * side_; }
    //! 2 x side x (side - 1).
    std::uint64_t edge_count() const { return 2 * side_ * (side_ - 1); }
    //! The side length.
    std::uint64_t side() const { return side_; }

private:
    std::uint64_t side_;
    std::uint64_t r_ = 0, c_ = 0;
    int phase_ = 0; // 0: right edge of (r_, c_) next; 1: down edge next
};

} // namespace flashxxl
