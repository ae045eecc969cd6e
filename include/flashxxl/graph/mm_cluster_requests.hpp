// MM_BFS's cluster requests: which clusters are loaded, which a level asks for (once each, ascending).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_charge.hpp"

namespace flashxxl {

//! The clusters a level of MM_BFS's BFS phase asks for (shared/BFS.md, step 2): a node of
//! L(t-1) without a list in the hot pool requests its cluster, which is listed once however
//! many of its nodes ask, and never when it was loaded at an earlier level (a cluster is loaded
//! once: its unvisited nodes stay in the pool until visited). sorted() gives the list in
//! ascending cluster order, the order in which the cluster file is read.
//!
//! State: two bitsets, loaded_ and requested_, and the list_ of requested clusters. The list is
//! reserved once for every cluster (each is listed at most once at a time), so it never grows
//! (a doubling would hold up to 8 bytes per cluster while it moves). Memory: the bitsets (with
//! 8 bytes of slack each) and 4 bytes per cluster for the list, charged to `account`.
class mm_cluster_requests {
public:
    //! Bytes held for `clusters` clusters.
    static std::uint64_t memory(std::uint64_t clusters) {
        return 2 * (clusters / 8 + 8) + clusters * sizeof(bfs_node);
    }

    //! No cluster loaded or requested.
    mm_cluster_requests(std::uint64_t clusters, memory_account& account)
        : bitsets_charge_(&account, 2 * (clusters / 8 + 8)), loaded_(clusters, false),
          requested_(clusters, false) {
        list_.reserve(clusters);
        list_charge_ = memory_charge(&account, list_.capacity() * sizeof(bfs_node));
    }

    //! Clusters tracked.
    std::uint64_t clusters() const { return loaded_.size(); }
    //! Lists cluster c unless it is loaded or listed already; whether it was listed now.
    bool request(bfs_node c) {
        if (loaded_[c] || requested_[c]) return false;
        requested_[c] = true;
        list_.push_back(c);
        return true;
    }
    bool loaded(bfs_node c) const { return loaded_[c]; }
    bool requested(bfs_node c) const { return requested_[c]; }
    //! Records that cluster c is in the pool now (it is never listed again).
    void mark_loaded(bfs_node c) { loaded_[c] = true; }
    //! Whether no cluster is listed.
    bool empty() const { return list_.empty(); }
    //! The listed clusters, ascending.
    const std::vector<bfs_node>& sorted() {
        std::sort(list_.begin(), list_.end());
        return list_;
    }
    //! Empties the list (the clusters it held may be requested again unless loaded).
    void clear() {
        for (bfs_node c : list_)
            requested_[c] = false;
        list_.clear();
    }

private:
    memory_charge bitsets_charge_;
    std::vector<bool> loaded_, requested_;
    std::vector<bfs_node> list_;
    memory_charge list_charge_;
};

} // namespace flashxxl
