// The Kruskal example's input: weighted edges made from their index, their order, and a union-find.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace flashxxl_examples {

//! An undirected edge {u, v} of weight w: 16 bytes.
struct weighted_edge {
    std::uint32_t u = 0, v = 0;
    std::uint64_t w = 0;
    friend bool operator==(const weighted_edge& a, const weighted_edge& b) {
        return a.u == b.u && a.v == b.v && a.w == b.w;
    }
};

//! A 64-bit mix of x (splitmix64's finalizer): the generator's source of randomness.
inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

//! Edge i of a random multigraph on `nodes` nodes: endpoints and weight from mix64 of (seed, i),
//! so both libraries' programs read the same input without a file.
inline weighted_edge random_edge(std::uint64_t i, std::uint32_t nodes, std::uint64_t seed) {
    const std::uint64_t a = mix64(seed ^ (2 * i)), b = mix64(seed ^ (2 * i + 1));
    return {std::uint32_t(a % nodes), std::uint32_t((a >> 32) % nodes), b};
}

//! Kruskal's order: by weight, ties by endpoints (a strict total order, so every sort agrees).
struct by_weight {
    bool operator()(const weighted_edge& a, const weighted_edge& b) const {
        if (a.w != b.w) return a.w < b.w;
        if (a.u != b.u) return a.u < b.u;
        return a.v < b.v;
    }
};

//! Disjoint sets of nodes in memory (4 bytes per node): union by size would need 4 more, path
//! halving alone keeps the finds short on random graphs.
class union_find {
public:
    explicit union_find(std::uint32_t nodes) : parent_(nodes) {
        std::iota(parent_.begin(), parent_.end(), 0u);
    }
    std::uint32_t find(std::uint32_t x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];
            x = parent_[x];
        }
        return x;
    }
    //! Joins the sets of a and b; false when they were one already.
    bool unite(std::uint32_t a, std::uint32_t b) {
        a = find(a);
        b = find(b);
        if (a == b) return false;
        if (a < b)
            parent_[b] = a;
        else
            parent_[a] = b;
        return true;
    }
    std::uint64_t memory_bytes() const { return parent_.size() * sizeof(std::uint32_t); }

private:
    std::vector<std::uint32_t> parent_;
};

//! The forest in memory, as an oracle for small inputs: every edge sorted, then Kruskal.
inline std::vector<weighted_edge> kruskal_in_memory(std::uint32_t nodes, std::uint64_t edges,
                                                    std::uint64_t seed) {
    std::vector<weighted_edge> all(edges);
    for (std::uint64_t i = 0; i < edges; ++i)
        all[i] = random_edge(i, nodes, seed);
    std::sort(all.begin(), all.end(), by_weight());
    union_find sets(nodes);
    std::vector<weighted_edge> forest;
    for (const weighted_edge& e : all)
        if (sets.unite(e.u, e.v)) forest.push_back(e);
    return forest;
}

} // namespace flashxxl_examples
