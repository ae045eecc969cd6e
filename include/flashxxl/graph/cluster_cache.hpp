// Clean in-memory copies of clusters that a read brought along unasked (MM_BFS's free neighbours), ranked by
// nearness to the frontier, given back on demand.
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
//! evict() drops it. Each entry has a rank, how soon the frontier is expected to reach it: 0
//! for a cluster next to a loaded one, k + 1 next to one of rank k, `far` when nothing is known;
//! the caller says so at open() or later (rerank(), which only lowers). A cluster that finds no
//! room takes the place of entries of higher rank; evict() drops the highest rank first. Within
//! a rank the first admitted are kept, the newest dropped: every cluster is needed sooner or
//! later, and without knowing when, keeping the first ones beat replacing them (on the Table 2
//! grids replacing the oldest read 1.4 to 1.6 times as many blocks), while ranking halved the
//! reads above the crossover with two ranks and cut them 1.7 to 8 times more with 32
//! (docs/bfs.md).
//! Memory: every entry's records (12 bytes each) plus entry_overhead bytes, charged to
//! `account`; an entry is admitted while the cache holds at most `capacity` bytes and the
//! account at most `account_limit`. As the entries are clean, the cache can give memory back at
//! once, so MM_BFS lets it fill whatever of M the other structures leave idle and reclaims it
//! through the account when they grow (memory_account::set_reclaimer).
class cluster_cache {
public:
    //! How soon the frontier is expected to need a cluster: 0 (next to a loaded one), 1, ...
    using rank_type = std::uint8_t;
    //! The rank of a cluster about which nothing is known.
    static constexpr rank_type far = 255;
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
    //! Whether entries of `bytes` in all would be admitted now without giving any back.
    bool has_room(std::uint64_t bytes) const { return fits(bytes); }

    //! Opens an entry for cluster c with `records` records (append() them next) at rank `rank`
    //! (0: next to a loaded cluster, kept longest; `far`: nothing known, given back first). False,
    //! and nothing changes, when c is held already or its records do not fit in what is left;
    //! entries of a higher rank are given back first, one at a time, to make room.
    bool open(bfs_node c, std::uint64_t records, rank_type rank = far) {
        const std::uint64_t need = records * sizeof(adjacency_record) + entry_overhead;
        open_dropped_ = false;
        if (contains(c)) return false;
        while (!fits(need) && evict_above(rank, 1) > 0) {
        }
        if (!fits(need)) return false;
        compact_order();
        enqueue(c, rank);
        entry& e = entries_[c];
        e.records.reserve(records);
        e.expected = records;
        e.rank = rank;
        bytes_ += need;
        peak_ = std::max(peak_, bytes_);
        if (account_) account_->add(need);
        open_ = &e;
        return true;
    }
    //! Lowers a held cluster's rank to `rank` (it is then given back after the entries of higher
    //! ranks); nothing when c is not held or its rank is that low already.
    void rerank(bfs_node c, rank_type rank) {
        auto it = entries_.find(c);
        if (it == entries_.end() || it->second.rank <= rank) return;
        it->second.rank = rank;
        compact_order();
        enqueue(c, rank);
    }
    //! Rank 0 for a held cluster (rerank).
    void promote(bfs_node c) { rerank(c, 0); }
    //! The rank of a held cluster, `far` when c is not held.
    rank_type rank(bfs_node c) const {
        auto it = entries_.find(c);
        return it == entries_.end() ? far : it->second.rank;
    }
    //! Calls f(record) for each record of a held cluster so far appended, leaving it held; false
    //! when c is not held. f may rerank() entries, nothing else.
    template <class F> bool visit(bfs_node c, F&& f) const {
        auto it = entries_.find(c);
        if (it == entries_.end()) return false;
        for (const adjacency_record& r : it->second.records)
            f(r);
        return true;
    }
    //! Appends a record to the entry open() opened last (at most the announced count).
    void append(const adjacency_record& r) {
        if (!open_ && open_dropped_) return; // evict() dropped the entry being filled
        if (!open_ || open_->records.size() == open_->expected)
            throw invalid_request("cluster_cache::append: no open entry with room (" +
                                  std::to_string(open_ ? open_->expected : 0) + " records announced)");
        open_->records.push_back(r);
        ++records_;
    }
    //! Calls f(record) for each record of cluster c (in the order appended) and forgets c.
    //! The entry leaves the cache first (f may make an evict() happen); its bytes stay charged
    //! until f has seen every record.
    template <class F> void take(bfs_node c, F&& f) {
        auto it = entries_.find(c);
        if (it == entries_.end())
            throw invalid_request("cluster_cache::take: cluster " + std::to_string(c) + " not held");
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
        for (const adjacency_record& r : e.records)
            f(r);
    }
    //! Drops entries until `bytes` are freed or none is left, the far ones first, each kind
    //! newest first (their clusters are read again when requested); returns the bytes freed.
    //! Dropping the entry that open() opened last makes the appends that follow it do nothing.
    std::uint64_t evict(std::uint64_t bytes) { return evict_above(-1, bytes); }

private:
    struct entry {
        std::vector<adjacency_record> records;
        std::uint64_t expected = 0;
        rank_type rank = far;
    };

    using entry_map = std::unordered_map<bfs_node, entry>;

    static std::uint64_t entry_bytes(const entry& e) {
        return e.expected * sizeof(adjacency_record) + entry_overhead;
    }
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
    //! Appends c to its rank's order.
    void enqueue(bfs_node c, rank_type rank) {
        if (orders_.size() <= rank) orders_.resize(std::size_t(rank) + 1);
        orders_[rank].push_back(c);
        ++positions_;
    }
    //! Drops entries of ranks above `rank` (-1: all), the highest rank first, each newest first,
    //! until `bytes` are freed or none is left.
    std::uint64_t evict_above(int rank, std::uint64_t bytes) {
        std::uint64_t freed = 0;
        for (int k = int(orders_.size()) - 1; k > rank && freed < bytes; --k) {
            std::vector<bfs_node>& order = orders_[std::size_t(k)];
            while (freed < bytes && !order.empty()) {
                const bfs_node c = order.back();
                order.pop_back();
                --positions_;
                auto it = entries_.find(c);
                if (it == entries_.end() || it->second.rank != k) continue; // taken, or reranked
                if (&it->second == open_) {
                    open_ = nullptr;
                    open_dropped_ = true;
                }
                freed += forget(it);
                ++evicted_;
            }
        }
        return freed;
    }
    //! Drops taken, given-back and reranked clusters from the orders once they are half of them
    //! (each stays within twice the entries, which entry_overhead covers).
    void compact_order() {
        if (positions_ < 2 * entries_.size() + 64) return;
        positions_ = 0;
        for (std::size_t k = 0; k < orders_.size(); ++k) {
            orders_[k].erase(std::remove_if(orders_[k].begin(), orders_[k].end(),
                                            [&](bfs_node c) {
                                                auto it = entries_.find(c);
                                                return it == entries_.end() || it->second.rank != k;
                                            }),
                             orders_[k].end());
            positions_ += orders_[k].size();
        }
    }

    std::uint64_t capacity_;
    entry_map entries_;
    std::vector<std::vector<bfs_node>> orders_; // per rank: clusters in the order admitted (or reranked)
    std::size_t positions_ = 0;                 // the orders' lengths summed (stale positions included)
    entry* open_ = nullptr;
    bool open_dropped_ = false;
    std::uint64_t bytes_ = 0, peak_ = 0, records_ = 0, evicted_ = 0;
    memory_account* account_;
    std::uint64_t account_limit_;
};

} // namespace flashxxl
