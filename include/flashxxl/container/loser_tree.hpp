// A tournament (loser) tree over k sorted sources: the multiway-merge kernel of sorter and PQ.
#pragma once

#include <cstdint>
#include <vector>

namespace flashxxl {

//! Selects the smallest head among k sources with about log2(k) comparisons per item and no
//! sentinel values (exhausted sources are tracked, so any comparator works). `Sources` must
//! provide `bool exhausted(std::size_t i)` and `bool less(std::size_t i, std::size_t j)`
//! (head of i before head of j). On ties the incumbent wins. Memory: k words.
template <class Sources>
class loser_tree {
public:
    explicit loser_tree(Sources& sources) : sources_(&sources) {}

    //! (Re)builds the tree over sources [0, k).
    void build(std::size_t k) {
        k_ = 1;
        while (k_ < k) k_ *= 2;
        n_ = k;
        tree_.assign(k_, 0);
        tree_[0] = static_cast<std::uint32_t>(play(1));
    }
    //! The source with the smallest head (check exhausted(winner()) for "all empty").
    std::size_t winner() const { return tree_[0]; }
    //! True when every source is exhausted.
    bool empty() const { return n_ == 0 || !valid(tree_[0]); }
    //! Call after the head of the winner changed (popped or exhausted).
    void replay() {
        std::size_t w = tree_[0];
        for (std::size_t node = (w + k_) / 2; node >= 1; node /= 2) {
            std::size_t other = tree_[node];
            if (beats(other, w)) {
                tree_[node] = static_cast<std::uint32_t>(w);
                w = other;
            }
        }
        tree_[0] = static_cast<std::uint32_t>(w);
    }

private:
    bool valid(std::size_t i) const { return i < n_ && !sources_->exhausted(i); }
    //! a leaves before b
    bool beats(std::size_t a, std::size_t b) const {
        if (!valid(a)) return false;
        if (!valid(b)) return true;
        return !sources_->less(b, a);
    }
    std::size_t play(std::size_t node) {
        if (node >= k_) return node - k_;
        std::size_t l = play(2 * node), r = play(2 * node + 1);
        if (beats(l, r)) {
            tree_[node] = static_cast<std::uint32_t>(r);
            return l;
        }
        tree_[node] = static_cast<std::uint32_t>(l);
        return r;
    }

    Sources* sources_;
    std::size_t k_ = 1, n_ = 0;
    std::vector<std::uint32_t> tree_;
};

} // namespace flashxxl
