// Closed-form I/O predictors of flashxxl::map (seeds/001 Section 3.2's two-level B-tree): bulk load and
// random finds.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/btree_block_cache.hpp"
#include "flashxxl/container/btree_node_layout.hpp"
#include "flashxxl/cost/prediction.hpp"

namespace flashxxl::predict {

//! One primary level of a bulk-loaded map: its node count and, per node, how many distinct Br
//! sub-blocks each step of a search reads from (sub-block 0, then one per in-node level below
//! the top; docs/map.md, "Inside a node").
struct map_level {
    std::uint64_t nodes = 0;
    std::uint64_t entries_per_node = 0;
    std::vector<std::uint64_t> step_sub_blocks;
};

namespace detail {
template <class Key, class T> struct map_leaf_entry {
    Key key;
    T value;
};
template <class Key> struct map_inner_entry {
    Key key;
    std::uint64_t child;
};
template <class Key, class Entry>
std::vector<std::uint64_t> search_steps(const flashxxl::detail::btree_node_layout<Key, Entry>& layout,
                                        std::uint64_t n) {
    std::array<std::uint64_t, flashxxl::detail::btree_max_levels> counts;
    const unsigned top = layout.levels(n, counts);
    std::vector<std::uint64_t> steps{1}; // sub-block 0 holds the header and the top level
    for (unsigned l = top; l-- > 0;) {
        const std::uint64_t per = l == 0 ? layout.entries_per_block() : layout.keys_per_block();
        steps.push_back((counts[l] + per - 1) / per);
    }
    return steps;
}
} // namespace detail

//! The levels (leaves first) that map<Key, T>::bulk_load of n items builds: ceil(n / C) leaves
//! sharing the items evenly, then ceil(children / IC) internal nodes per level up to the root.
template <class Key, class T> std::vector<map_level> map_levels(std::uint64_t n, const block_sizes& b) {
    const flashxxl::detail::btree_node_layout<Key, detail::map_leaf_entry<Key, T>> leaf(b, "leaf");
    const flashxxl::detail::btree_node_layout<Key, detail::map_inner_entry<Key>> inner(b, "inner");
    std::vector<map_level> levels;
    if (n == 0) return levels;
    std::uint64_t nodes = (n + leaf.capacity() - 1) / leaf.capacity();
    std::uint64_t per = (n + nodes - 1) / nodes;
    levels.push_back({nodes, per, detail::search_steps(leaf, per)});
    while (nodes > 1) {
        const std::uint64_t children = nodes;
        nodes = (children + inner.capacity() - 1) / inner.capacity();
        per = (children + nodes - 1) / nodes;
        levels.push_back({nodes, per, detail::search_steps(inner, per)});
    }
    return levels;
}

//! bulk_load of n sorted items: every node written once with one Bw write, nothing read.
template <class Key, class T> io_prediction map_bulk_load(std::uint64_t n, const block_sizes& b) {
    std::uint64_t nodes = 0;
    for (const map_level& l : map_levels<Key, T>(n, b))
        nodes += l.nodes;
    io_prediction r;
    r.basis = "map bulk load: " + std::to_string(nodes) + " nodes, one Bw each";
    return r.add(io_op::write, double(nodes) * double(b.bw), 0); // nodes written in order
}

//! Br sub-blocks the map's search cache holds with budget M (map.hpp's plan_frames / plan_slots:
//! about half of M - Bw in node frames, the rest in Br slots).
inline std::uint64_t map_cache_slots(std::uint64_t memory, const block_sizes& b) {
    const std::uint64_t reserve = 64 * 1024 + memory / 64;
    const std::uint64_t usable = memory - reserve;
    const std::uint64_t slot = b.br + flashxxl::detail::btree_block_cache::bookkeeping_per_slot;
    const std::uint64_t frames = std::max<std::uint64_t>(
        3, std::min<std::uint64_t>((usable - b.bw) / 2 / b.bw, (usable - b.bw - 4 * slot) / b.bw));
    return (usable - (frames + 1) * b.bw) / slot;
}

//! `finds` finds of uniformly random keys in a bulk-loaded map of n items, caches cold at the
//! start: each search reads one Br sub-block per step per primary level (top + 1 per node,
//! O(Br log_Br N) items; seeds/001 Section 3.2), unless the LRU sub-block cache holds it. The
//! cache is modelled by Che's approximation for LRU under independent references: a step with D
//! distinct sub-blocks uses each with rate 1 / D per search; the cache's characteristic time T
//! solves sum over steps of D (1 - exp(-T / D)) = slots, and a sub-block of that step is cached
//! with probability 1 - exp(-T / D). A step misses finds x (1 - that), and at least its first
//! touches, D (1 - exp(-finds / D)).
template <class Key, class T>
io_prediction map_finds(std::uint64_t n, std::uint64_t finds, std::uint64_t memory, const block_sizes& b) {
    std::vector<double> distinct; // sub-blocks each search step reads from
    for (const map_level& l : map_levels<Key, T>(n, b))
        for (std::uint64_t s : l.step_sub_blocks)
            distinct.push_back(double(l.nodes * s));
    const double slots = double(map_cache_slots(memory, b));
    auto held = [&](double t) {
        double sum = 0;
        for (double d : distinct)
            sum += d * (1 - std::exp(-t / d));
        return sum;
    };
    double total = 0;
    for (double d : distinct)
        total += d;
    double t = 1e300; // everything fits: every sub-block stays once read
    if (total > slots) {
        double lo = 0, hi = 1;
        while (held(hi) < slots)
            hi *= 2;
        for (int i = 0; i < 200; ++i) {
            const double mid = (lo + hi) / 2;
            (held(mid) < slots ? lo : hi) = mid;
        }
        t = lo;
    }
    const double f = double(finds);
    double misses = 0;
    for (double d : distinct) {
        const double hit = 1 - std::exp(-t / d);
        misses += std::max(f * (1 - hit), d * (1 - std::exp(-f / d)));
    }
    double nodes = 0;
    for (const map_level& l : map_levels<Key, T>(n, b))
        nodes += double(l.nodes);
    io_prediction r;
    r.basis = "map finds: one Br per search step the LRU cache misses (Che)";
    // A miss lands anywhere in the tree's nodes: a third of their span from the previous one.
    return r.add_spread(io_op::read, misses * double(b.br), nodes * double(b.bw));
}

//! An upper bound on `inserts` single inserts into a map of about n items, cold caches: each
//! loads its path's nodes whole (at most one Bw of Br reads per level) and dirties at most two
//! nodes per level and a new root (a split at every level), each written back once (one Bw).
//! Batches in key order and cached paths stay far below it.
template <class Key, class T>
io_prediction map_inserts_bound(std::uint64_t n, std::uint64_t inserts, const block_sizes& b) {
    const std::vector<map_level> tree = map_levels<Key, T>(n + inserts, b);
    const double levels = double(tree.size());
    double nodes = 0;
    for (const map_level& l : tree)
        nodes += double(l.nodes);
    io_prediction r;
    r.bound = true;
    r.basis = "map inserts: at most a path of whole nodes read and 2 nodes per level + a root written each";
    r.add_spread(io_op::read, double(inserts) * levels * double(b.bw), nodes * double(b.bw));
    return r.add(io_op::write, double(inserts) * (2 * levels + 1) * double(b.bw), 0);
}

//! An upper bound on `scans` range scans of `length` items each, from random keys, in a map of
//! about n items (leaves at least half full after splits), cold caches: the search's sub-blocks
//! (one per step, as a find), then per leaf entered its sub-block 0 and one sub-block more than
//! the entries it gives take, in Br reads.
template <class Key, class T>
io_prediction map_range_scans_bound(std::uint64_t n, std::uint64_t scans, std::uint64_t length,
                                    const block_sizes& b) {
    const std::vector<map_level> levels = map_levels<Key, T>(n, b);
    double search = 0;
    for (const map_level& l : levels)
        search += double(l.step_sub_blocks.size());
    const double per_leaf = double(std::max<std::uint64_t>(levels.front().entries_per_node / 2, 1));
    const double per_block =
        double(std::max<std::uint64_t>(b.br / sizeof(detail::map_leaf_entry<Key, T>), 1));
    const double leaves = std::ceil(double(length) / per_leaf) + 1;
    const double blocks = search + 2 * leaves + std::ceil(double(length) / per_block);
    io_prediction r;
    r.bound = true;
    r.basis = "map range scans: a search, then per leaf a header and its entries' sub-blocks";
    return r.add_spread(io_op::read, double(scans) * blocks * double(b.br),
                        double(levels.front().nodes) * double(b.bw));
}

} // namespace flashxxl::predict
