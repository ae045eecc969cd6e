// How soon MM_BFS's frontier is expected to reach each cluster: the ranks the cluster cache keeps them by.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/cluster_cache.hpp"
#include "flashxxl/graph/mm_cluster_requests.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_charge.hpp"

namespace flashxxl {

//! The rank of every cluster (mm_bfs_options::prefer_frontier_clusters): 0 for a cluster next
//! to a loaded one (some loaded record's c(w)), k + 1 for a cluster next to a held one of rank
//! k (the held copy's records say so), up to `ranks` - 1; cluster_cache::far for the rest.
//! Ranks only fall, never for a loaded cluster, and each change is passed on to the cache's
//! entry (cluster_cache::rerank), so that the cache gives back the farthest clusters first.
//! With `ranks` 0 every cluster stays far (ranking off); with 1, near or far.
//!
//! State: rank_, one byte per cluster, charged to `account`; the cache whose entries it ranks
//! and the requests that say which clusters are loaded (both the caller's).
class mm_frontier_ranks {
public:
    using rank_type = cluster_cache::rank_type;

    //! Every cluster far.
    mm_frontier_ranks(std::uint64_t clusters, unsigned ranks, const mm_cluster_requests& requests,
                      cluster_cache& cache, memory_account& account)
        : charge_(&account, clusters), rank_(clusters, cluster_cache::far), ranks_(ranks),
          requests_(&requests), cache_(&cache) {}

    rank_type operator[](bfs_node c) const { return rank_[c]; }

    //! Cluster c is a neighbour of a loaded cluster (a loaded record's c(w)): rank 0.
    void next_to_loaded(bfs_node c) {
        if (rank_[c] != 0) lower(c, 0);
    }
    //! Cluster x was just copied into the cache: its rank from its neighbours', then theirs
    //! from it.
    void cached(bfs_node x) {
        if (ranks_ < 2) return;
        unsigned best = cluster_cache::far;
        cache_->visit(x, [&](const adjacency_record& r) { best = std::min<unsigned>(best, rank_[r.cw]); });
        if (best + 1 < rank_[x]) lower(x, best + 1);
        if (rank_[x] + 1u < ranks_)
            cache_->visit(x, [&](const adjacency_record& r) { lower(r.cw, rank_[x] + 1u); });
    }

private:
    //! Lowers cluster c's rank to k and, through its held copy's records, its neighbours' to
    //! k + 1 (recursion at most ranks_ deep).
    void lower(bfs_node c, unsigned k) {
        if (k >= ranks_ || requests_->loaded(c) || rank_[c] <= k) return;
        rank_[c] = rank_type(k);
        cache_->rerank(c, rank_[c]);
        if (k + 1 < ranks_) cache_->visit(c, [&](const adjacency_record& r) { lower(r.cw, k + 1); });
    }

    memory_charge charge_;
    std::vector<rank_type> rank_;
    unsigned ranks_;
    const mm_cluster_requests* requests_;
    cluster_cache* cache_;
};

} // namespace flashxxl
