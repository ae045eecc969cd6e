// A seeded random bijection of node ids [0, n) (Feistel network + cycle walking) and an edge-source adaptor.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/splitmix64.hpp"

namespace flashxxl {

//! A pseudo-random permutation of [0, n), computed per id in O(1) memory: a 4-round Feistel
//! network on the smallest even number of bits b with 2^b >= n, applied again while the
//! result is >= n ("cycle walking", fewer than 4 rounds of it on average since 2^b < 4n).
//! Both are bijections, so every id maps to a distinct id below n. Deterministic from the seed
//! on every machine. Used to give generated graphs a random node layout (MR_BFS is sensitive
//! to numbering: shared/BFS.md, "Pitfalls").
class node_permutation {
public:
    //! A permutation of [0, n) chosen by `seed`.
    node_permutation(std::uint64_t n, std::uint64_t seed) : n_(n) {
        unsigned bits = 2;
        while (bits < 64 && (std::uint64_t(1) << bits) < n)
            ++bits;
        if (bits % 2) ++bits;
        half_ = bits / 2;
        mask_ = half_ == 32 ? 0xffffffffULL : (std::uint64_t(1) << half_) - 1;
        splitmix64 rng(seed);
        for (std::uint64_t& k : keys_)
            k = rng();
    }

    //! The image of `v` < n.
    node_id operator()(node_id v) const {
        if (v >= n_)
            throw invalid_request("node_permutation: id " + std::to_string(v) + " >= node count " +
                                  std::to_string(n_));
        do
            v = feistel(v);
        while (v >= n_);
        return v;
    }

    //! n.
    std::uint64_t size() const { return n_; }

private:
    std::uint64_t feistel(std::uint64_t x) const {
        std::uint64_t left = (x >> half_) & mask_, right = x & mask_;
        for (std::uint64_t k : keys_) {
            std::uint64_t next = left ^ (mix64(right ^ k) & mask_);
            left = right;
            right = next;
        }
        return (left << half_) | right;
    }

    std::uint64_t n_;
    unsigned half_ = 1;
    std::uint64_t mask_ = 1;
    std::uint64_t keys_[4] = {};
};

//! An edge source yielding `Source`'s edges with both endpoints mapped through a
//! node_permutation of [0, source.node_count()).
template <class Source> class relabeled_source {
public:
    //! Wraps `source` (moved in); the permutation is chosen by `seed`.
    relabeled_source(Source source, std::uint64_t seed)
        : source_(std::move(source)), perm_(source_.node_count(), seed) {}

    //! Yields the next edge, relabeled.
    bool next(edge& e) {
        if (!source_.next(e)) return false;
        e = {perm_(e.u), perm_(e.v)};
        return true;
    }
    //! The wrapped source's node count.
    node_id node_count() const { return source_.node_count(); }
    //! The wrapped source's edge count.
    std::uint64_t edge_count() const { return source_.edge_count(); }
    //! The permutation applied.
    const node_permutation& permutation() const { return perm_; }

    static constexpr bool may_have_self_loops = Source::may_have_self_loops;
    static constexpr bool may_have_duplicates = Source::may_have_duplicates;

private:
    Source source_;
    node_permutation perm_;
};

} // namespace flashxxl
