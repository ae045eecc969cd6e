// List ranking by independent-set contraction, the independent set found by time-forward processing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace flashxxl_examples {

//! No node: the successor of the tail, the predecessor of the head.
constexpr std::uint64_t no_node = std::numeric_limits<std::uint64_t>::max();

//! A node of a doubly linked list with a weight: rank(v) = weight(v) + rank(succ(v)).
struct list_node {
    std::uint64_t id, succ, pred, weight;
};
//! A node's rank.
struct node_rank {
    std::uint64_t id, rank;
    friend bool operator==(const node_rank& a, const node_rank& b) {
        return a.id == b.id && a.rank == b.rank;
    }
};
//! What removing a node changes at a neighbour: its new successor (and the weight it takes
//! over) or its new predecessor; `keep` where nothing changes.
struct splice {
    static constexpr std::uint64_t keep = no_node - 1;
    std::uint64_t target, succ, pred, weight;
};

// The orders, with the sentinels STXXL's sorters need (flashxxl ignores them).
struct splice_by_target {
    bool operator()(const splice& a, const splice& b) const { return a.target < b.target; }
    splice min_value() const { return {0, 0, 0, 0}; }
    splice max_value() const { return {no_node, 0, 0, 0}; }
};
struct rank_by_id {
    bool operator()(const node_rank& a, const node_rank& b) const { return a.id < b.id; }
    node_rank min_value() const { return {0, 0}; }
    node_rank max_value() const { return {no_node, 0}; }
};
struct node_by_id {
    bool operator()(const list_node& a, const list_node& b) const { return a.id < b.id; }
    list_node min_value() const { return {0, 0, 0, 0}; }
    list_node max_value() const { return {no_node, 0, 0, 0}; }
};
//! By successor, then id (the tail's successor no_node is a real value, so the maximum also
//! needs the largest id).
struct node_by_succ {
    bool operator()(const list_node& a, const list_node& b) const {
        return a.succ != b.succ ? a.succ < b.succ : a.id < b.id;
    }
    list_node min_value() const { return {0, 0, 0, 0}; }
    list_node max_value() const { return {no_node, no_node, 0, 0}; }
};

//! A pseudo-random bijection of [0, n): the list's order of node ids (both programs build the same
//! list from it). Odd multiplications and xor-shifts are bijections mod 2^bits; values >= n walk on.
class list_order {
public:
    explicit list_order(std::uint64_t n, std::uint64_t seed = 1) : n_(n), seed_(seed) {
        while ((std::uint64_t(1) << bits_) < n_)
            ++bits_;
        mask_ = bits_ >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits_) - 1;
    }
    //! The id of the node at position k of the list.
    std::uint64_t id_at(std::uint64_t k) const {
        std::uint64_t x = step(k);
        while (x >= n_)
            x = step(x);
        return x;
    }
    //! Node k of the list (weight 1): its rank is n - k.
    list_node node_at(std::uint64_t k) const {
        return {id_at(k), k + 1 < n_ ? id_at(k + 1) : no_node, k > 0 ? id_at(k - 1) : no_node, 1};
    }

private:
    std::uint64_t step(std::uint64_t x) const {
        for (int round = 0; round < 3; ++round) {
            x = (x * 0x9e3779b97f4a7c15ull + (seed_ | 1)) & mask_;
            x ^= x >> (bits_ / 2 + 1);
        }
        return x;
    }
    std::uint64_t n_, seed_;
    int bits_ = 1;
    std::uint64_t mask_ = 1;
};

//! Ranks a list held in a vector sorted by id, written once for two libraries: Lib says how to
//! make vectors (with writers and readers), sorters and a priority queue (flashxxl's in
//! list_ranking_flashxxl.hpp, STXXL's in bench/examples/list_ranking_stxxl.hpp).
//!
//! One level: time-forward processing over the nodes in id order (list edges point from the
//! smaller id to the larger, a DAG) finds a maximal independent set greedily: a node joins when
//! no smaller neighbour joined, told by messages in a priority queue keyed by the receiver's id
//! (Chiang et al., SODA 1995). Greedy on a path keeps at least a third of the nodes. Each node
//! of the set is spliced out (its neighbours' new links and weight, sorted by receiver and
//! merged with the rest), the rest is ranked recursively, and the removed nodes get
//! rank = weight + rank(succ) by sorting them by successor and merging with the ranks. A level
//! that fits in base_items() is ranked in memory. Every level's I/O is a few scans and sorts
//! of the level, which shrinks by a third or more each time: O(sort(N)) in all.
template <class Lib> class list_ranker {
public:
    template <class T> using vec = typename Lib::template vector_type<T>;

    explicit list_ranker(Lib& lib) : lib_(lib) {}
    //! Appends the rank of every node of `nodes` (sorted by id) to `ranks`, sorted by id.
    void rank(vec<list_node>& nodes, vec<node_rank>& ranks) {
        if (nodes.size() <= lib_.base_items()) return rank_in_memory(nodes, ranks);
        auto rest = lib_.template new_vector<list_node>();
        auto removed = lib_.template new_vector<list_node>();
        auto splices = independent_set(nodes, *rest, *removed);
        auto next = lib_.template new_vector<list_node>();
        apply_splices(*rest, *splices, *next);
        splices.reset();
        rest.reset();
        auto next_ranks = lib_.template new_vector<node_rank>();
        rank(*next, *next_ranks);
        next.reset();
        reintegrate(*removed, *next_ranks, ranks);
    }
    //! Levels contracted so far (the deepest recursion).
    std::size_t levels() const { return levels_; }

private:
    //! Time-forward processing: sends the set's nodes to `removed`, the others to `rest`, and
    //! returns the splices (sorted by receiver).
    auto independent_set(vec<list_node>& nodes, vec<list_node>& rest, vec<list_node>& removed) {
        ++levels_;
        auto splices = lib_.template new_sorter<splice>(splice_by_target());
        auto joined_below = lib_.new_queue(); // receivers' ids, smallest first
        auto in = lib_.template reader<list_node>(nodes);
        auto kept = lib_.template writer<list_node>(rest);
        auto gone = lib_.template writer<list_node>(removed);
        for (; !in->empty(); ++*in) {
            const list_node v = **in;
            bool blocked = false;
            while (!joined_below->empty() && joined_below->top() <= v.id) {
                if (joined_below->top() < v.id)
                    throw std::logic_error("list_ranker: a message passed its receiver");
                joined_below->pop();
                blocked = true;
            }
            if (blocked) {
                kept->push(v);
                continue;
            }
            if (v.pred != no_node && v.pred > v.id) joined_below->push(v.pred);
            if (v.succ != no_node && v.succ > v.id) joined_below->push(v.succ);
            if (v.pred != no_node) splices->push(splice{v.pred, v.succ, splice::keep, v.weight});
            if (v.succ != no_node) splices->push(splice{v.succ, splice::keep, v.pred, 0});
            gone->push(v);
        }
        kept->finish();
        gone->finish();
        splices->sort();
        return splices;
    }

    //! The rest with the splices applied: the next level's list, sorted by id.
    template <class Sorted> void apply_splices(vec<list_node>& rest, Sorted& splices, vec<list_node>& next) {
        auto in = lib_.template reader<list_node>(rest);
        auto out = lib_.template writer<list_node>(next);
        for (; !in->empty(); ++*in) {
            list_node v = **in;
            for (; !splices.empty() && splices->target == v.id; ++splices) {
                const splice& s = *splices;
                if (s.succ != splice::keep) {
                    v.succ = s.succ;
                    v.weight += s.weight;
                }
                if (s.pred != splice::keep) v.pred = s.pred;
            }
            out->push(v);
        }
        out->finish();
        if (!splices.empty()) throw std::logic_error("list_ranker: a splice for a removed node");
    }

    //! ranks = next_ranks merged with the removed nodes' ranks (weight + rank of the successor).
    void reintegrate(vec<list_node>& removed, vec<node_rank>& next_ranks, vec<node_rank>& ranks) {
        auto by_succ = lib_.template new_sorter<list_node>(node_by_succ());
        for (auto in = lib_.template reader<list_node>(removed); !in->empty(); ++*in)
            by_succ->push(**in);
        by_succ->sort();
        auto found = lib_.template new_sorter<node_rank>(rank_by_id());
        {
            auto known = lib_.template reader<node_rank>(next_ranks);
            for (; !by_succ->empty(); ++*by_succ) {
                const list_node& v = **by_succ;
                if (v.succ == no_node) {
                    found->push(node_rank{v.id, v.weight});
                    continue;
                }
                while (!known->empty() && (**known).id < v.succ)
                    ++*known;
                if (known->empty() || (**known).id != v.succ)
                    throw std::logic_error("list_ranker: a successor without a rank");
                found->push(node_rank{v.id, v.weight + (**known).rank});
            }
        }
        by_succ.reset();
        found->sort();
        auto known = lib_.template reader<node_rank>(next_ranks);
        auto out = lib_.template writer<node_rank>(ranks);
        while (!known->empty() || !found->empty()) {
            if (found->empty() || (!known->empty() && (**known).id < (**found).id)) {
                out->push(**known);
                ++*known;
            } else {
                out->push(**found);
                ++*found;
            }
        }
        out->finish();
    }

    //! A level that fits: walked from its head in memory.
    void rank_in_memory(vec<list_node>& nodes, vec<node_rank>& ranks) {
        std::vector<list_node> all;
        all.reserve(nodes.size());
        for (auto in = lib_.template reader<list_node>(nodes); !in->empty(); ++*in)
            all.push_back(**in);
        auto index_of = [&all](std::uint64_t id) {
            return std::size_t(
                std::lower_bound(all.begin(), all.end(), id,
                                 [](const list_node& a, std::uint64_t x) { return a.id < x; }) -
                all.begin());
        };
        std::vector<std::uint64_t> rank(all.size(), 0);
        std::vector<std::size_t> order;
        order.reserve(all.size());
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].pred == no_node)
                for (std::size_t j = i; order.size() < all.size(); j = index_of(all[j].succ)) {
                    order.push_back(j);
                    if (all[j].succ == no_node) break;
                }
        if (order.size() != all.size()) throw std::logic_error("list_ranker: the list is not one chain");
        std::uint64_t after = 0;
        for (std::size_t k = order.size(); k-- > 0;)
            rank[order[k]] = after += all[order[k]].weight;
        auto out = lib_.template writer<node_rank>(ranks);
        for (std::size_t i = 0; i < all.size(); ++i)
            out->push(node_rank{all[i].id, rank[i]});
        out->finish();
    }

    Lib& lib_;
    std::size_t levels_ = 0;
};

} // namespace flashxxl_examples
