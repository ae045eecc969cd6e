// MM_BFS's hot pool H: adjacency lists of loaded clusters' unvisited nodes, in memory with a device overflow.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/graph/bfs_level_store.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/cluster_cache.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_charge.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! The hot pool H of MM_BFS's BFS phase (shared/BFS.md; Ajwani, Meyer and Osipov's in-memory
//! pool): adjacency records (v, w, c(w)) of the loaded clusters' unvisited nodes, sorted by
//! (v, w). It lives in one array as far as its share of M allows; the rest is an external
//! sorted pool, the overflow (role `hot`: on HDDs under flash_aware). A level uses it in two
//! steps:
//! - extract() (step 1): the lists of L(t-1)'s nodes leave the pool for S_N, the kept records
//!   by binary search, the overflow and the array's excess over `keep` by one merge-scan that
//!   rewrites the overflow (once per level); a node without a list is reported missing;
//! - stage() and settle() (step 3): the records of the clusters loaded for the level are staged
//!   behind the sorted part, sorted, the lists of L(t-1)'s nodes taken out, the rest merged in
//!   (or into the overflow when the staging area filled and the array cannot grow).
//!
//! State: the array hot_ = [0, prefix_) sorted, records of visited nodes tombstoned
//! (w = no_bfs_node, counted in dead_) until the compaction after the scan, then the staging
//! area [prefix_, end) of at most stage_ records; keep_ records survive in memory from level to
//! level; overflow_ (null when empty). The array starts at the size it is given and grows up to
//! keep_ + stage_ records while the account, less what the cache can give back, stays within
//! `limit` (the cache then gives memory back through the account's reclaimer); its capacity is
//! charged to the account, the overflow's streams too.
class mm_hot_pool {
public:
    //! The external overflow pool.
    using overflow_pool = vector<adjacency_record>;

    //! Sizes of the pool, in records.
    struct sizes {
        std::uint64_t initial = 0; //!< records the array is reserved for at first
        std::uint64_t keep = 0;    //!< records kept in memory from level to level
        std::uint64_t stage = 0;   //!< records of the staging area (and of its merge copy)
    };

    //! An empty pool on machine `m` (overflow streams in blocks `b`) charged to `account`, which
    //! it keeps within `limit` when it grows, counting the bytes of `cache` as free.
    mm_hot_pool(machine& m, const block_sizes& b, const sizes& s, memory_account& account,
                std::uint64_t limit, const cluster_cache& cache)
        : machine_(&m), blocks_(b), keep_(s.keep), stage_(s.stage), max_capacity_(s.keep + s.stage),
          account_(&account), limit_(limit), cache_(&cache) {
        hot_.reserve(s.initial);
        charge_ = memory_charge(account_, hot_.capacity() * sizeof(adjacency_record));
    }
    mm_hot_pool(const mm_hot_pool&) = delete;
    mm_hot_pool& operator=(const mm_hot_pool&) = delete;

    //! Records in the pool (memory and device).
    std::uint64_t records() const { return prefix_ - dead_ + device_records(); }
    //! Records in the array's sorted part.
    std::uint64_t memory_records() const { return prefix_; }
    //! Records in the overflow.
    std::uint64_t device_records() const { return overflow_ ? overflow_->size() : 0; }
    //! Records the array can hold now.
    std::uint64_t capacity() const { return hot_.capacity(); }

    //! Step 1 for the level `level` (sorted by node): found(level_record{w, c(w), v}) for each
    //! record of each of its nodes v, which leaves the pool; missing(node's level record) for a
    //! node the pool has no list of. Afterwards at most keep_ records are in memory and a
    //! staging area's room is free in the array (grown first if M lets).
    template <class Found, class Missing>
    void extract(bfs_level_store& level, Found&& found, Missing&& missing) {
        while (prefix_ + stage_ > hot_.capacity() && grow()) {
        }
        scan(level, found, missing);
        compact();
    }

    //! Step 3, one record: stages r (a record of a cluster loaded for `level`, the level
    //! extract() was given). When the staging area is full, it is settled first (settle()).
    template <class Found> void stage(const adjacency_record& r, bfs_level_store& level, Found&& found) {
        if (hot_.size() - prefix_ == stage_room()) settle(level, found, false);
        hot_.push_back(r);
    }
    //! Step 3, the end: sorts the staged records, found(...) for those of `level`'s nodes, and
    //! merges the rest into the array.
    template <class Found> void settle(bfs_level_store& level, Found&& found) { settle(level, found, true); }

private:
    using by_owner = adjacency_by_owner;

    //! The merge-scan of step 1: the overflow and the array's excess [first, last) read in node
    //! order, the lists of the level's nodes taken out, everything else written to a new
    //! overflow (one rewrite). Allocates the new overflow, then the reader, then the writer.
    class excess_scan {
    public:
        excess_scan(mm_hot_pool& p, const adjacency_record* first, const adjacency_record* last)
            : rest_(std::make_unique<overflow_pool>(*p.machine_, overflow_pool::min_memory(p.blocks_),
                                                    p.blocks_, role::hot)),
              e_(first), e_end_(last) {
            if (p.overflow_)
                h_ = std::make_unique<overflow_pool::stream_reader>(*p.overflow_, 0, std::uint64_t(-1), 1,
                                                                    p.account_);
            out_ = std::make_unique<overflow_pool::stream_writer>(*rest_, p.account_);
        }
        //! found(...) for node v's records; true if there were any. The records before v are
        //! written to the new overflow.
        template <class Found> bool take(bfs_node v, Found& found) {
            bool any = false;
            emit_before(v);
            for (; h_ && !h_->empty() && (*h_)->v == v; ++*h_) {
                found(level_record{(*h_)->w, (*h_)->cw, v});
                any = true;
            }
            for (; e_ != e_end_ && e_->v == v; ++e_) {
                found(level_record{e_->w, e_->cw, v});
                any = true;
            }
            return any;
        }
        //! Writes the rest; the new overflow, null when it is empty.
        std::unique_ptr<overflow_pool> finish() {
            emit_before(no_bfs_node);
            for (; h_ && !h_->empty(); ++*h_)
                out_->push(**h_); // records of node no_bfs_node: none
            out_->finish();
            out_.reset();
            h_.reset();
            return rest_->empty() ? nullptr : std::move(rest_);
        }

    private:
        //! Writes the overflow's and the excess's records of nodes before v, in (v, w) order.
        void emit_before(bfs_node v) {
            for (;;) {
                const bool he = h_ && !h_->empty() && (*h_)->v < v;
                const bool ee = e_ != e_end_ && e_->v < v;
                if (!he && !ee) return;
                if (he && (!ee || by_owner()(**h_, *e_))) {
                    out_->push(**h_);
                    ++*h_;
                } else {
                    out_->push(*e_);
                    ++e_;
                }
            }
        }

        std::unique_ptr<overflow_pool> rest_;
        std::unique_ptr<overflow_pool::stream_reader> h_;
        std::unique_ptr<overflow_pool::stream_writer> out_;
        const adjacency_record* e_;
        const adjacency_record* e_end_;
    };

    //! Step 1's scan: the kept records [0, kept) by binary search, tombstoned when taken; the
    //! overflow and the excess [kept, prefix_) by an excess_scan, after which the array holds
    //! [0, kept).
    template <class Found, class Missing> void scan(bfs_level_store& level, Found& found, Missing& missing) {
        const std::uint64_t kept = std::min({prefix_, keep_, std::uint64_t(hot_.capacity()) - stage_});
        std::unique_ptr<excess_scan> excess;
        if (overflow_ || prefix_ > kept)
            excess = std::make_unique<excess_scan>(*this, hot_.data() + kept, hot_.data() + prefix_);
        auto pos = hot_.begin();
        const auto end = hot_.begin() + kept;
        for (auto l = level.read(); !l.empty(); ++l) {
            const bfs_node v = l->v;
            bool any = false;
            pos =
                std::lower_bound(pos, end, v, [](const adjacency_record& r, bfs_node x) { return r.v < x; });
            for (; pos != end && pos->v == v; ++pos) {
                found(level_record{pos->w, pos->cw, v});
                pos->w = no_bfs_node;
                ++dead_;
                any = true;
            }
            if (excess && excess->take(v, found)) any = true;
            if (!any) missing(*l);
        }
        if (excess) {
            overflow_ = excess->finish();
            hot_.resize(kept);
            prefix_ = kept;
        }
    }
    //! Drops the tombstones of step 1.
    void compact() {
        if (dead_ == 0) return;
        auto kept = std::remove_if(hot_.begin(), hot_.begin() + prefix_,
                                   [](const adjacency_record& r) { return r.w == no_bfs_node; });
        hot_.erase(kept, hot_.begin() + prefix_);
        prefix_ = hot_.size();
        dead_ = 0;
    }
    //! Room for staged records: what the array has left, at most the staging area.
    std::uint64_t stage_room() const { return std::min<std::uint64_t>(hot_.capacity() - prefix_, stage_); }
    //! Grows the array towards max_capacity_ when M has room for the new array beside the old
    //! one once the cache has given back what it holds; false when it cannot grow.
    bool grow() {
        const std::uint64_t cap = hot_.capacity();
        if (cap >= max_capacity_) return false;
        const std::uint64_t want = std::min(max_capacity_, std::max(2 * cap, cap + stage_));
        if (account_->current() - cache_->bytes() + want * sizeof(adjacency_record) > limit_) return false;
        charge_.set(want * sizeof(adjacency_record)); // both arrays while it moves (the cache makes room)
        hot_.reserve(want);
        return true;
    }
    //! Sorts the staged records, found(...) for the lists of `level`'s nodes, and merges the rest
    //! into the array when it fits (always at the end, `last`: the staging area is within the
    //! array), else into the overflow.
    template <class Found> void settle(bfs_level_store& level, Found& found, bool last) {
        auto first = hot_.begin() + prefix_;
        std::sort(first, hot_.end(), by_owner());
        auto out = first;
        auto l = level.read();
        for (auto it = first; it != hot_.end(); ++it) {
            while (!l.empty() && l->v < it->v)
                ++l;
            if (!l.empty() && l->v == it->v)
                found(level_record{it->w, it->cw, it->v});
            else
                *out++ = *it;
        }
        hot_.erase(out, hot_.end());
        // too little room left to stage and none to grow: overflow
        if (!last && hot_.size() + stage_ / 2 > hot_.capacity() && !grow()) {
            spill(hot_.data() + prefix_, hot_.data() + hot_.size());
            hot_.resize(prefix_);
            return;
        }
        merge_staged();
    }
    //! Merges the sorted staged records into [0, prefix_), from the back through a copy of them.
    void merge_staged() {
        const std::uint64_t staged = hot_.size() - prefix_;
        if (staged == 0) return;
        std::vector<adjacency_record> copy;
        memory_charge copy_charge(account_, staged * sizeof(adjacency_record));
        copy.assign(hot_.begin() + prefix_, hot_.end());
        std::uint64_t i = prefix_, j = staged, k = prefix_ + staged;
        while (j > 0) {
            if (i > 0 && by_owner()(copy[j - 1], hot_[i - 1]))
                hot_[--k] = hot_[--i];
            else
                hot_[--k] = copy[--j];
        }
        prefix_ = hot_.size();
    }
    //! Merges the sorted records [first, last) into the overflow (one rewrite).
    void spill(const adjacency_record* first, const adjacency_record* last) {
        if (first == last) return;
        auto merged = std::make_unique<overflow_pool>(*machine_, overflow_pool::min_memory(blocks_), blocks_,
                                                      role::hot);
        {
            overflow_pool::stream_writer out(*merged, account_);
            if (overflow_) {
                overflow_pool::stream_reader h(*overflow_, 0, std::uint64_t(-1), 1, account_);
                for (; first != last; ++first) {
                    while (!h.empty() && by_owner()(*h, *first)) {
                        out.push(*h);
                        ++h;
                    }
                    out.push(*first);
                }
                for (; !h.empty(); ++h)
                    out.push(*h);
            } else {
                for (; first != last; ++first)
                    out.push(*first);
            }
            out.finish();
        }
        overflow_ = std::move(merged);
    }

    machine* machine_;
    block_sizes blocks_;
    std::uint64_t keep_, stage_, max_capacity_;
    memory_account* account_;
    std::uint64_t limit_;
    const cluster_cache* cache_;
    std::vector<adjacency_record> hot_;
    memory_charge charge_; // hot_'s capacity
    std::uint64_t prefix_ = 0, dead_ = 0;
    std::unique_ptr<overflow_pool> overflow_;
};

} // namespace flashxxl
