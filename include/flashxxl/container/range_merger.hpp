// k-way merge of sorted sources read as contiguous in-memory ranges: the merge kernel of sorter and PQ.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace flashxxl {

//! Merges k sorted sources, each of which hands out its next items as a contiguous range
//! [cur, end) in memory (a Br block of a block_reader, a sorted chunk, an internal run). A
//! loser tree over cached range pointers picks the next item with about log2(k) comparisons
//! and no indirection through the sources; a source is asked for its next range only when
//! its current one is used up, so per item the merge touches only the tree and the ranges.
//!
//! `Before(a, b)`: a leaves the merge before b (a strict weak order; no sentinel values are
//! needed, exhausted sources are tracked). `Refill` is called as
//! `bool refill(std::size_t i, const T*& cur, const T*& end, bool consumed)`: source i's next
//! range (non-empty), or false when the source is exhausted. `consumed` is false on the first
//! call after start() and true after the previous range was used up entirely.
//!
//! Ties go to the item already in the tree (the merge is not stable). Memory: 2 pointers and a
//! word per source. Not thread-safe.
template <class T, class Before, class Refill> class range_merger {
public:
    range_merger(Before before, Refill refill) : before_(std::move(before)), refill_(std::move(refill)) {}

    //! (Re)starts the merge over sources [0, k): asks each for its first range, builds the tree.
    void start(std::size_t k) {
        k_ = 1;
        while (k_ < k)
            k_ *= 2;
        cur_.assign(k_, nullptr);
        end_.assign(k_, nullptr);
        for (std::size_t i = 0; i < k; ++i) {
            const T* c = nullptr;
            const T* e = nullptr;
            if (refill_(i, c, e, false) && c != e) {
                cur_[i] = c;
                end_[i] = e;
            }
        }
        tree_.assign(k_, 0);
        tree_[0] = static_cast<std::uint32_t>(play(1));
    }

    //! True when every source is exhausted.
    bool empty() const { return cur_.empty() || cur_[tree_[0]] == nullptr; }
    //! The next item (not empty()).
    const T& top() const { return *cur_[tree_[0]]; }
    //! The source the next item comes from.
    std::size_t winner() const { return tree_[0]; }
    //! Where source i stands now: its next item, or nullptr when it is exhausted.
    const T* position(std::size_t i) const { return cur_[i]; }

    //! Removes the next item (not empty()).
    void pop() {
        std::size_t w = tree_[0];
        advance(w);
        replay(w);
    }

    //! Moves up to n items, in order, to `out` (raw storage for trivially copyable T);
    //! returns how many.
    std::uint64_t pop_into(T* out, std::uint64_t n) {
        std::uint64_t got = 0;
        if (k_ == 1) { // one source: copy whole ranges
            while (got < n && cur_[0] != nullptr) {
                std::uint64_t k = std::min<std::uint64_t>(n - got, std::uint64_t(end_[0] - cur_[0]));
                std::memcpy(static_cast<void*>(out + got), cur_[0], k * sizeof(T));
                got += k;
                cur_[0] += k;
                if (cur_[0] == end_[0]) next_range(0);
            }
            return got;
        }
        while (got < n) {
            std::size_t w = tree_[0];
            const T* c = cur_[w];
            if (c == nullptr) break;
            std::memcpy(static_cast<void*>(out + got), c, sizeof(T));
            ++got;
            advance(w);
            replay(w);
        }
        return got;
    }

private:
    void advance(std::size_t w) {
        if (++cur_[w] == end_[w]) next_range(w);
    }
    void next_range(std::size_t w) {
        const T* c = nullptr;
        const T* e = nullptr;
        if (refill_(w, c, e, true) && c != e) {
            cur_[w] = c;
            end_[w] = e;
        } else {
            cur_[w] = end_[w] = nullptr;
        }
    }
    //! a leaves before b (an exhausted source never does).
    bool beats(std::size_t a, std::size_t b) const {
        if (cur_[a] == nullptr) return false;
        if (cur_[b] == nullptr) return true;
        return !before_(*cur_[b], *cur_[a]);
    }
    void replay(std::size_t w) {
        for (std::size_t node = (w + k_) / 2; node >= 1; node /= 2) {
            std::size_t other = tree_[node];
            if (beats(other, w)) {
                tree_[node] = static_cast<std::uint32_t>(w);
                w = other;
            }
        }
        tree_[0] = static_cast<std::uint32_t>(w);
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

    Before before_;
    Refill refill_;
    std::size_t k_ = 1;
    std::vector<const T*> cur_, end_;
    std::vector<std::uint32_t> tree_;
};

//! Moves everything merger `m` still holds to the end of `w` (a block_writer or a vector's
//! stream_writer), straight into its write buffers through its span API.
template <class Merger, class Writer> void drain_into(Merger& m, Writer& w) {
    while (!m.empty())
        w.commit(m.pop_into(w.free_begin(), w.free_run()));
}

} // namespace flashxxl
