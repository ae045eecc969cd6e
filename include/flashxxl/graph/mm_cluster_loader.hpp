// MM_BFS's cluster loader: a level's requested clusters, from the cache or in merged reads of the file.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/cluster_cache.hpp"
#include "flashxxl/graph/cluster_file.hpp"
#include "flashxxl/graph/mm_cluster_requests.hpp"
#include "flashxxl/graph/mm_frontier_ranks.hpp"

namespace flashxxl {

//! How the loader reads (the mm_bfs_options of the same names).
struct mm_load_policy {
    //! One read serves the requests whose Br blocks overlap (false: one read per cluster).
    bool merge_block_requests = true;
    //! The unrequested clusters wholly in the blocks read go to the cache.
    bool load_block_neighbours = true;
    //! With load_block_neighbours, while the cache could hold the whole file: a read takes the
    //! blocks that complete the clusters its first and last block boundaries cut.
    bool complete_straddling_clusters = true;
};

//! One read of the cluster file, serving a run of a level's sorted requests.
struct mm_cluster_read {
    std::size_t begin = 0;        //!< first request served (an index into the sorted list)
    std::size_t end = 0;          //!< one past the last request served (loaded ones among them skipped)
    bfs_node first_requested = 0; //!< the first cluster staged
    bfs_node last_requested = 0;  //!< the last cluster staged
    std::pair<std::uint64_t, std::uint64_t> blocks; //!< the Br blocks [first, last) read
    std::uint64_t first = 0;                        //!< first cluster read
    std::uint64_t last = 0;                         //!< one past the last cluster read
};

//! What one load() did.
struct mm_load_counts {
    std::uint64_t clusters_loaded = 0; //!< requested clusters now in the pool (empty ones included)
    std::uint64_t reads = 0;           //!< read requests of the cluster file
};

//! Step 2 of a level of MM_BFS's BFS phase (shared/BFS.md): every cluster the level requested
//! (mm_cluster_requests) is handed record by record to the hot pool's staging area and marked
//! loaded. A cluster the cache holds, or an empty one, costs no read. The others are read in
//! ascending order, a run of requests whose Br blocks overlap by one read of those blocks
//! (merge_block_requests); the read takes the unrequested clusters that lie wholly in its
//! blocks along into the cache (load_block_neighbours), ranked by mm_frontier_ranks. While the
//! cache could still take the whole file, a read also takes the blocks that complete the
//! clusters cut by its first and last block boundaries (complete_straddling_clusters): where it
//! cannot, the clusters the extra blocks bring push out others before they are needed (on the
//! largest Table 2 grid Br read 30 % more). Every record of a requested cluster's neighbours
//! lowers their rank to 0.
//!
//! State: none of its own between levels; the file, cache, requests and ranks are the caller's.
class mm_cluster_loader {
public:
    mm_cluster_loader(cluster_file& file, cluster_cache& cache, mm_cluster_requests& requests,
                      mm_frontier_ranks& ranks, const mm_load_policy& policy)
        : file_(&file), cache_(&cache), requests_(&requests), ranks_(&ranks), policy_(policy) {}

    //! Loads the requested clusters, calling stage(record) for each of their records, and
    //! empties the request list.
    template <class Stage> mm_load_counts load(Stage&& stage) {
        mm_load_counts counts;
        const std::vector<bfs_node>& list = requests_->sorted();
        auto staged = [&](const adjacency_record& r) {
            ranks_->next_to_loaded(r.cw); // next to a loaded one
            stage(r);
        };
        take_cached(list, staged, counts);
        const bool complete = completes_straddlers();
        const std::uint64_t reads_before = file_->read_requests();
        for (std::size_t i = 0; i < list.size();) {
            if (requests_->loaded(list[i])) {
                ++i;
                continue;
            }
            const mm_cluster_read rd = plan(list, i, complete);
            read(rd, staged);
            for (std::size_t k = rd.begin; k < rd.end; ++k) {
                if (requests_->loaded(list[k])) continue;
                requests_->mark_loaded(list[k]);
                ++counts.clusters_loaded;
            }
            i = rd.end;
        }
        counts.reads = file_->read_requests() - reads_before;
        requests_->clear();
        return counts;
    }

    //! The read that serves the sorted requests `list` from index i (a cluster not loaded): the
    //! following requests whose Br blocks overlap the blocks so far (merge_block_requests), the
    //! blocks' whole clusters (load_block_neighbours), widened to complete the clusters its ends
    //! cut (`complete`) unless they are loaded or held.
    mm_cluster_read plan(const std::vector<bfs_node>& list, std::size_t i, bool complete) const {
        mm_cluster_read rd;
        rd.begin = i;
        rd.first_requested = rd.last_requested = list[i];
        rd.blocks = file_->block_span(list[i]);
        std::size_t j = i + 1;
        for (; j < list.size(); ++j) {
            const bfs_node d = list[j];
            if (requests_->loaded(d)) continue;
            const auto sd = file_->block_span(d);
            if (!policy_.merge_block_requests || sd.first >= rd.blocks.second) break;
            rd.blocks.second = std::max(rd.blocks.second, sd.second);
            rd.last_requested = d;
        }
        rd.end = j;
        rd.first = rd.first_requested;
        rd.last = rd.last_requested + std::uint64_t(1);
        if (policy_.load_block_neighbours) {
            std::tie(rd.first, rd.last) = file_->clusters_in_blocks(rd.blocks.first, rd.blocks.second);
            if (complete) widen(rd);
        }
        return rd;
    }

    //! Whether reads complete the clusters their ends cut: the policy says so and the cache has
    //! room for the whole file beside what it holds.
    bool completes_straddlers() const {
        const std::uint64_t whole_file =
            file_->records() * sizeof(adjacency_record) + file_->clusters() * cluster_cache::entry_overhead;
        return policy_.load_block_neighbours && policy_.complete_straddling_clusters &&
               cache_->has_room(whole_file > cache_->bytes() ? whole_file - cache_->bytes() : 0);
    }

private:
    //! Requested clusters the cache holds cost no read; so do empty ones.
    template <class Staged>
    void take_cached(const std::vector<bfs_node>& list, Staged& staged, mm_load_counts& counts) {
        for (bfs_node c : list) {
            if (cache_->contains(c)) {
                cache_->take(c, staged);
            } else if (file_->cluster_records(c) != 0) {
                continue;
            }
            requests_->mark_loaded(c);
            ++counts.clusters_loaded;
        }
    }
    //! Widens rd's blocks to the clusters cut by its ends, unless loaded or held already.
    void widen(mm_cluster_read& rd) const {
        auto wanted = [&](std::uint64_t x) {
            return !requests_->loaded(bfs_node(x)) && !cache_->contains(bfs_node(x));
        };
        auto& span = rd.blocks;
        const auto before = span;
        if (rd.first > 0 && wanted(rd.first - 1) && file_->block_span(rd.first - 1).second > span.first)
            span.first = file_->block_span(rd.first - 1).first;
        if (rd.last < file_->clusters() && wanted(rd.last) && file_->block_span(rd.last).first < span.second)
            span.second = std::max(span.second, file_->block_span(rd.last).second);
        if (span != before) std::tie(rd.first, rd.last) = file_->clusters_in_blocks(span.first, span.second);
    }
    //! One read: the requested clusters of rd to staged(), the others (unrequested, not loaded)
    //! into the cache while it admits them.
    template <class Staged> void read(const mm_cluster_read& rd, Staged& staged) {
        std::uint64_t current = no_bfs_node;
        bool to_stage = false, to_cache = false;
        file_->read_cluster_range(rd.first, rd.last, [&](std::uint64_t x, const adjacency_record& r) {
            if (x != current) {
                if (to_cache) ranks_->cached(bfs_node(current));
                current = x;
                const bfs_node cx = bfs_node(x);
                // (with merge_block_requests off, a later request in these blocks still gets a
                // read of its own)
                to_stage = requests_->requested(cx) && !requests_->loaded(cx) && cx >= rd.first_requested &&
                           cx <= rd.last_requested;
                to_cache = !requests_->requested(cx) && !requests_->loaded(cx) &&
                           policy_.load_block_neighbours &&
                           cache_->open(cx, file_->cluster_records(x), (*ranks_)[cx]);
            }
            if (to_stage)
                staged(r);
            else if (to_cache)
                cache_->append(r);
        });
        if (to_cache) ranks_->cached(bfs_node(current));
    }

    cluster_file* file_;
    cluster_cache* cache_;
    mm_cluster_requests* requests_;
    mm_frontier_ranks* ranks_;
    mm_load_policy policy_;
};

} // namespace flashxxl
