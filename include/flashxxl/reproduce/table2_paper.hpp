// seeds/001 Table 2's published figures (MM_BFS on square grids, Br / Bw / TL), one row per grid.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace flashxxl::reproduce {

//! One row of seeds/001 Table 2 (seconds, GB as the paper prints them), read from the garbled
//! seed text and checked against the ratios they give (Bw / Br preprocessing 1.29 / 0.76 / 2.75 / 2.70,
//! BFS phase 0.50 / 0.66 / 2.01 / 2.75). The paper ran Br = 128 KiB, Bw = 16 MiB, M = 512 MiB.
struct table2_paper_figures {
    int log2_nodes; //!< |V| = 2^log2_nodes (inferred: the text puts Bw's loss at |V| >= 2^24, volumes grow 4x
                    //!< a row)
    double br_pp_s, br_bfs_s, bw_pp_s, bw_bfs_s, tl_total_s;
    double br_pp_write, br_bfs_write, br_bfs_read, bw_bfs_read;
    double br_pp_read;
    std::optional<double> tl_read; //!< TL's total read volume; lost in the seed's text for 2^20
    double tl_write;               //!< TL's total write volume

    //! The grid's side: sqrt(|V|).
    std::uint64_t side() const { return std::uint64_t(std::llround(std::sqrt(std::ldexp(1.0, log2_nodes)))); }
    double br_total_s() const { return br_pp_s + br_bfs_s; }
    double br_read() const { return br_pp_read + br_bfs_read; }
    double br_write() const { return br_pp_write + br_bfs_write; }
};

//! The four rows, smallest grid first.
inline const std::vector<table2_paper_figures>& table2_paper() {
    static const std::vector<table2_paper_figures> rows = {
        {20, 31.5, 768.4, 40.5, 381.4, 766.0, 0.560, 0.009, 1.924, 0.094, 0.670, std::nullopt, 0.594},
        {22, 100.0, 1697.0, 76.2, 1126.0, 1763.4, 2.271, 0.104, 8.080, 0.188, 2.709, 8.391, 2.375},
        {24, 632.9, 4570.4, 1738.2, 9184.6, 5191.0, 9.251, 1.654, 61.660, 457.750, 27.187, 87.350, 11.000},
        {26, 2524.2, 15778.9, 6824.8, 43329.1, 18182.2, 36.783, 5.531, 320.881, 2621.047, 109.726, 425.294,
         42.281},
    };
    return rows;
}

//! Levels of a BFS from a corner of a side x side grid (the farthest node is 2 (side - 1) steps away).
inline std::uint64_t grid_corner_bfs_levels(std::uint64_t side) { return side == 0 ? 0 : 2 * side - 1; }

} // namespace flashxxl::reproduce
