// Clean in-memory copies of clusters that a read brought along unasked (MM_BFS's free neighbours), admitted while there is room.
#pragma once

#include <cstdint>
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
//! external pool that every level scans. An entry stays until take() moves it into the pool:
//! every cluster in the file is reachable from the source, so each entry is needed sooner or
//! later, and without knowing when, keeping the first ones is as good as replacing them (on the
//! Table 2 grids replacing the oldest read 1.4 to 1.6 times as many blocks; docs/bfs.md).
//! Memory: every entry's records (12 bytes each) plus entry_overhead bytes, at most `capacity`
//! bytes, charged to `account`.
class cluster_cache {
public:
    //! Bytes counted per entry besides its records (the hash map's node and bucket).
    static constexpr std::uint64_t entry_overhead = 64;

    cluster_cache(std::uint64_t capacity, memory_account* account) : capacity_(capacity), account_(account) {}
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

    //! Opens an entry for cluster c with `records` records (append() them next). False, and
    //! nothing changes, when they do not fit in what is left or c is held already.
    bool open(bfs_node c, std::uint64_t records) {
        const std::uint64_t need = records * sizeof(adjacency_record) + entry_overhead;
        if (bytes_ + need > capacity_ || contains(c)) return false;
        entry& e = entries_[c];
        e.records.reserve(records);
        e.expected = records;
        bytes_ += need;
        if (account_) account_->add(need);
        open_ = &e;
        return true;
    }
    //! Appends a record to the entry open() opened last (at most the announced count).
    void append(const adjacency_record& r) {
        if (!open_ || open_->records.size() == open_->expected)
            throw invalid_request("cluster_cache::append: no open entry with room (" +
                                  std::to_string(open_ ? open_->expected : 0) + " records announced)");
        open_->records.push_back(r);
        ++records_;
    }
    //! Calls f(record) for each record of cluster c (in the order appended) and forgets c.
    template <class F>
    void take(bfs_node c, F&& f) {
        auto it = entries_.find(c);
        if (it == entries_.end()) throw invalid_request("cluster_cache::take: cluster " + std::to_string(c) + " not held");
        for (const adjacency_record& r : it->second.records) f(r);
        if (&it->second == open_) open_ = nullptr;
        records_ -= it->second.records.size();
        const std::uint64_t freed = it->second.expected * sizeof(adjacency_record) + entry_overhead;
        entries_.erase(it);
        bytes_ -= freed;
        if (account_) account_->remove(freed);
    }

private:
    struct entry {
        std::vector<adjacency_record> records;
        std::uint64_t expected = 0;
    };

    std::uint64_t capacity_;
    std::unordered_map<bfs_node, entry> entries_;
    entry* open_ = nullptr;
    std::uint64_t bytes_ = 0, records_ = 0;
    memory_account* account_;
};

} // namespace flashxxl
