// Clean in-memory copies of clusters that a read brought along unasked (MM_BFS's free neighbours): near-frontier ones first, given back on demand.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/io/memory_account.hpp"

namespace flashxxl {

//! The clusters of MM_BFS that came with the read blocks of requested clusters (shared/BFS.md,
//! "Engineering that matters": loading the whole read block costs no extra I/O) but are not
//! needed yet. They are unchanged copies of the cluster file: one that finds no room is simply
//! not kept (it is read again when a node of it is reached), so they never go to the device,
//! unlike the hot pool proper, whose records must not be lost and which overflows to an
//! external pool that every level scans. An entry stays until take() moves it into the pool or
//! evict() drops it. Entries are far or near: a near cluster is next to a loaded one, so the
//! frontier reaches it within about a cluster's diameter; the caller says so at open() or later
//! (promote()). A near cluster that finds no room takes the place of far ones; evict() drops far
//! entries first. Within each kind the first admitted are kept, the newest dropped: every
//! cluster is needed sooner or later and without knowing when, keeping the first ones beat
//! replacing them (on the Table 2 grids replacing the oldest read 1.4 to 1.6 times as many
//! blocks), while ranking by nearness halved the reads above the crossover (docs/bfs.md).
//! Memory: every entry's records (12 bytes each) plus entry_overhead bytes, charged to
//! `account`; an entry is admitted while the cache holds at most `capacity` bytes and the
//! account at most `account_limit`. As the entries are clean, the cache can give memory back at
//! once, so MM_BFS lets it fill whatever of M the other structures leave idle and reclaims it
//! through the account when they grow (memory_account::set_reclaimer).
class cluster_cache {
public:
    //! Bytes counted per entry besides its records: the hash map's node and bucket, the
    //! records' allocation header and the entry's places in the admission order.
    static constexpr std::uint64_t entry_overhead = 96;

    cluster_cache(std::uint64_t capacity, memory_account* account,
                  std::uint64_t account_limit = std::numeric_limits<std::uint64_t>::max())
        : capacity_(capacity), account_(account), account_limit_(account_limit) {}
    ~cluster_cache() {
        if (account_) account_->remove(bytes_);
    }
    cluster_cache(const cluster_cache&) = delete;
    cluster_cache& operator=(const cluster_cache&) = delete;

    bool contains(bfs_node c) const { return entries_.count(c) != 0; }
    //! Clusters held.
    std::uint64_t size() const { return entries_.size(); }
    //! Records held.
    std::uint64_t records() const { return records_; }
    //! Bytes charged now.
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t capacity() const { return capacity_; }
    //! Clusters evict() dropped so far.
    std::uint64_t evicted() const { return evicted_; }
    //! The most bytes held at once.
    std::uint64_t peak_bytes() const { return peak_; }

    //! Opens an entry for cluster c with `records` records (append() them next). False, and
    //! nothing changes, when c is held already or its records do not fit in what is left; for
    //! a cluster `near` the frontier, far entries are given back first to make room.
    bool open(bfs_node c, std::uint64_t records, bool near = false) {
        const std::uint64_t need = records * sizeof(adjacency_record) + entry_overhead;
        open_dropped_ = false;
        if (contains(c)) return false;
        if (near)  // give back far entries, one at a time, until the near cluster fits
            while (!fits(need) && evict_from(far_order_, 1, true) > 0) {
            }
        if (!fits(need)) return false;
        compact_order();
        (near ? near_order_ : far_order_).push_back(c);
        entry& e = entries_[c];
        e.records.reserve(records);
        e.expected = records;
        e.near = near;
        bytes_ += need;
        peak_ = std::max(peak_, bytes_);
        if (account_) account_->add(need);
        open_ = &e;
        return true;
    }
    //! Marks a held cluster as near the frontier (given back after the far ones); nothing when
    //! c is not held.
    void promote(bfs_node c) {
        auto it = entries_.find(c);
        if (it == entries_.end() || it->second.near) return;
        it->second.near = true;
        compact_order();
        near_order_.push_back(c);
    }
    //! Appends a record to the entry open() opened last (at most the announced count).
    void append(const adjacency_record& r) {
        if (!open_ && open_dropped_) return;  // evict() dropped the entry being filled
        if (!open_ || open_->records.size() == open_->expected)
            throw invalid_request("cluster_cache::append: no open entry with room (" +
                                  std::to_string(open_ ? open_->expected : 0) + " records announced)");
        open_->records.push_back(r);
        ++records_;
    }
    //! Calls f(record) for each record of cluster c (in the order appended) and forgets c.
    //! The entry leaves the cache first (f may make an evict() happen); its bytes stay charged
    //! until f has seen every record.
    template <class F>
    void take(bfs_node c, F&& f) {
        auto it = entries_.find(c);
        if (it == entries_.end()) throw invalid_request("cluster_cache::take: cluster " + std::to_string(c) + " not held");
        if (&it->second == open_) open_ = nullptr;
        entry e = std::move(it->second);
        const std::uint64_t held = entry_bytes(e);
        entries_.erase(it);
        records_ -= e.records.size();
        bytes_ -= held;
        struct uncharge {
            memory_account* account;
            std::uint64_t bytes;
            ~uncharge() {
                if (account) account->remove(bytes);
            }
        } on_exit{account_, held};
        for (const adjacency_record& r : e.records) f(r);
    }
    //! Drops entries until `bytes` are freed or none is left, the far ones first, each kind
    //! newest first (their clusters are read again when requested); returns the bytes freed.
    //! Dropping the entry that open() opened last makes the appends that follow it do nothing.
    std::uint64_t evict(std::uint64_t bytes) {
        std::uint64_t freed = evict_from(far_order_, bytes, true);
        if (freed < bytes) freed += evict_from(near_order_, bytes - freed, false);
        return freed;
    }

private:
    struct entry {
        std::vector<adjacency_record> records;
        std::uint64_t expected = 0;
        bool near = false;
    };

    using entry_map = std::unordered_map<bfs_node, entry>;

    static std::uint64_t entry_bytes(const entry& e) { return e.expected * sizeof(adjacency_record) + entry_overhead; }
    std::uint64_t forget(entry_map::iterator it) {
        records_ -= it->second.records.size();
        const std::uint64_t freed = entry_bytes(it->second);
        entries_.erase(it);
        bytes_ -= freed;
        if (account_) account_->remove(freed);
        return freed;
    }
    bool fits(std::uint64_t need) const {
        return bytes_ + need <= capacity_ && (!account_ || account_->current() + need <= account_limit_);
    }
    std::uint64_t evict_from(std::vector<bfs_node>& order, std::uint64_t bytes, bool far_only) {
        std::uint64_t freed = 0;
        while (freed < bytes && !order.empty()) {
            const bfs_node c = order.back();
            order.pop_back();
            auto it = entries_.find(c);
            if (it == entries_.end() || (far_only && it->second.near)) continue;  // taken, or promoted
            if (&it->second == open_) {
                open_ = nullptr;
                open_dropped_ = true;
            }
            freed += forget(it);
            ++evicted_;
        }
        return freed;
    }
    //! Drops taken, given-back and promoted clusters from the orders once they are half of them
    //! (each stays within twice the entries, which entry_overhead covers).
    void compact_order() {
        if (far_order_.size() + near_order_.size() < 2 * entries_.size() + 64) return;
        far_order_.erase(std::remove_if(far_order_.begin(), far_order_.end(),
                                        [&](bfs_node c) {
                                            auto it = entries_.find(c);
                                            return it == entries_.end() || it->second.near;
                                        }),
                         far_order_.end());
        near_order_.erase(std::remove_if(near_order_.begin(), near_order_.end(), [&](bfs_node c) { return !contains(c); }),
                          near_order_.end());
    }

    std::uint64_t capacity_;
    entry_map entries_;
    std::vector<bfs_node> far_order_, near_order_;  // clusters in the order admitted (or promoted)
    entry* open_ = nullptr;
    bool open_dropped_ = false;
    std::uint64_t bytes_ = 0, peak_ = 0, records_ = 0, evicted_ = 0;
    memory_account* account_;
    std::uint64_t account_limit_;
};

} // namespace flashxxl
