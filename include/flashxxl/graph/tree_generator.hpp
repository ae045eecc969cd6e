// Generator of the worst-case tree for Mehlhorn-Meyer BFS (seeds/000 Figure 4.1): a source and chains.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge.hpp"

namespace flashxxl {

//! The tree of seeds/000 Section 4, Figure 4.1: "Level 0 contains only the source node which has
//! an edge to all nodes in level 1. Levels 1 ... sqrt(B) have n / sqrt(B) nodes each and the
//! i-th node in level j has an edge to the i-th node in levels j - 1 and j + 1": the source
//! (node 0) joined to the heads of k chains of about L nodes each. It has L + 1 BFS levels and
//! forces MM_BFS into its worst case (every cluster stays in the hot pool for about L levels).
//!
//! Parameters: n nodes (exactly) and at most L levels below the source. The n - 1 non-source
//! nodes form k = ceil((n - 1) / L) chains whose lengths differ by at most one (all exactly L
//! when L divides n - 1). Numbering is level by level, like a BFS order: the i-th node of level
//! j (1-based) is 1 + (j - 1) k + i, so level j holds ids 1 + (j - 1) k ... Edges come level by
//! level: first (0, head of chain i), then (i-th node of level j - 1, i-th node of level j).
//! n - 1 edges, no self-loops, no duplicates. Deterministic (no seed). An edge source.
class tree_generator {
public:
    static constexpr bool may_have_self_loops = false;
    static constexpr bool may_have_duplicates = false;

    //! A tree of `nodes` >= 1 nodes with at most `levels` >= 1 levels below the source.
    tree_generator(std::uint64_t nodes, std::uint64_t levels) : n_(nodes), max_levels_(levels) {
        if (nodes == 0) throw config_error("tree: node count must be at least 1");
        if (levels == 0) throw config_error("tree: levels must be at least 1");
        const std::uint64_t rest = n_ - 1;
        if (rest > 0) {
            chains_ = rest / levels + (rest % levels != 0 ? 1 : 0);
            base_ = rest / chains_;
            rem_ = rest % chains_;
        }
    }

    //! The default number of levels, round(sqrt(B)) for a block of B = block_bytes / item_bytes
    //! items (seeds/000: sqrt(B) levels). E.g. 128 KiB blocks of 8-byte items: B = 16384, L = 128.
    static std::uint64_t default_levels(std::uint64_t block_bytes, std::uint64_t item_bytes) {
        if (item_bytes == 0 || block_bytes < item_bytes)
            throw config_error("tree: block of " + std::to_string(block_bytes) + " bytes holds no " +
                               std::to_string(item_bytes) + "-byte item");
        auto l = static_cast<std::uint64_t>(std::llround(std::sqrt(double(block_bytes / item_bytes))));
        return l == 0 ? 1 : l;
    }

    //! Yields the next edge; false after the last.
    bool next(edge& e) {
        if (chains_ == 0 || level_ > levels()) return false;
        if (level_ == 1)
            e = {0, 1 + i_};
        else
            e = {id(level_ - 1, i_), id(level_, i_)};
        if (++i_ == width(level_)) {
            i_ = 0;
            ++level_;
        }
        return true;
    }

    //! n.
    node_id node_count() const { return n_; }
    //! n - 1.
    std::uint64_t edge_count() const { return n_ - 1; }
    //! Number of chains k (the width of level 1).
    std::uint64_t chains() const { return chains_; }
    //! Levels below the source actually used (<= the limit given); BFS from 0 has levels() + 1 levels.
    std::uint64_t levels() const { return chains_ == 0 ? 0 : base_ + (rem_ != 0 ? 1 : 0); }
    //! The level limit L given at construction.
    std::uint64_t max_levels() const { return max_levels_; }
    //! BFS distance of node `v` from the source 0.
    std::uint64_t level_of(node_id v) const { return v == 0 ? 0 : (v - 1) / chains_ + 1; }

private:
    // Nodes on level j (1-based).
    std::uint64_t width(std::uint64_t j) const { return j <= base_ ? chains_ : rem_; }
    node_id id(std::uint64_t j, std::uint64_t i) const { return 1 + (j - 1) * chains_ + i; }

    std::uint64_t n_;
    std::uint64_t max_levels_;
    std::uint64_t chains_ = 0, base_ = 0, rem_ = 0;
    std::uint64_t level_ = 1, i_ = 0;
};

} // namespace flashxxl
