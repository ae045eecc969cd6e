// Kruskal's forest written with STXXL 1.4.1's stream::sort, as an STXXL user writes it: the bench's baseline.
#pragma once

#include <cstdint>
#include <limits>

#include <stxxl/sort>
#include <stxxl/stream>
#include <stxxl/vector>

#include "kruskal_edges.hpp" // examples/

namespace bench_examples {

using flashxxl_examples::weighted_edge;

//! The edges as an STXXL stream (operator*, operator++, empty: STXXL's stream concept).
struct stxxl_edge_stream {
    typedef weighted_edge value_type;
    std::uint64_t i = 0, n = 0;
    std::uint32_t nodes = 1;
    std::uint64_t seed = 0;
    weighted_edge current;
    stxxl_edge_stream(std::uint64_t edges, std::uint32_t nodes_, std::uint64_t seed_)
        : n(edges), nodes(nodes_), seed(seed_) {
        if (n > 0) current = flashxxl_examples::random_edge(0, nodes, seed);
    }
    const weighted_edge& operator*() const { return current; }
    stxxl_edge_stream& operator++() {
        if (++i < n) current = flashxxl_examples::random_edge(i, nodes, seed);
        return *this;
    }
    bool empty() const { return i >= n; }
};

//! Kruskal's order with the sentinels STXXL's sorters require.
struct stxxl_by_weight : flashxxl_examples::by_weight {
    weighted_edge min_value() const { return {0, 0, 0}; }
    weighted_edge max_value() const {
        return {std::numeric_limits<std::uint32_t>::max(), std::numeric_limits<std::uint32_t>::max(),
                std::numeric_limits<std::uint64_t>::max()};
    }
};

constexpr unsigned stxxl_block_bytes = 2 * 1024 * 1024;
typedef stxxl::VECTOR_GENERATOR<weighted_edge, 4, 8, stxxl_block_bytes>::result stxxl_edge_vector;

//! The forest into `forest` (appended by a bufwriter); the sort uses `sort_memory` bytes for its
//! run formation and its merge (stxxl::stream::sort's one-budget constructor). Returns its edges.
inline std::uint64_t kruskal_forest_stxxl(std::uint32_t nodes, std::uint64_t edges, std::uint64_t seed,
                                          std::uint64_t sort_memory, stxxl_edge_vector& forest) {
    stxxl_edge_stream input(edges, nodes, seed);
    stxxl::stream::sort<stxxl_edge_stream, stxxl_by_weight, stxxl_block_bytes> sorted(
        input, stxxl_by_weight(), sort_memory);
    flashxxl_examples::union_find trees(nodes);
    stxxl_edge_vector::bufwriter_type out(forest);
    std::uint64_t kept = 0;
    for (; !sorted.empty(); ++sorted)
        if (trees.unite(sorted->u, sorted->v)) {
            out << *sorted;
            ++kept;
        }
    out.finish();
    return kept;
}

} // namespace bench_examples
