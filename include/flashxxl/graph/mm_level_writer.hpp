// MM_BFS's level lists L(t-2), L(t-1) and the step that writes L(t) from the sorted neighbours.
#pragma once

#include <cstdint>
#include <memory>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_level_store.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/sorted_subtraction.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! The levels of MM_BFS's BFS phase (shared/BFS.md, step 4): L(t) = S_N minus L(t-1) minus
//! L(t-2), one merge-scan of three sorted streams, each level a bfs_level_store (in memory while
//! it fits `level_memory` bytes, spilled to role scratch past that), so a level that stays small
//! creates no file. write() builds L(t) and tells the visitor of every node in it; advance()
//! then makes it L(t-1).
//!
//! State: prev2_ = L(t-2), prev_ = L(t-1) and, between write() and advance(), next_ = L(t).
//! At first L(-1) is empty and L(0) = {source} (its own parent, in cluster 0).
class mm_level_writer {
public:
    mm_level_writer(machine& m, const block_sizes& b, std::uint64_t level_memory, memory_account& account,
                    std::uint64_t source)
        : machine_(&m), blocks_(b), level_memory_(level_memory), account_(&account),
          prev2_(std::make_unique<bfs_level_store>(m, b, level_memory, account)),
          prev_(std::make_unique<bfs_level_store>(m, b, level_memory, account)) {
        prev2_->finish();
        prev_->push(level_record{bfs_node(source), 0, bfs_node(source)});
        prev_->finish();
    }

    //! L(t-1), sorted by node.
    bfs_level_store& previous() { return *prev_; }
    //! L(t-2), sorted by node.
    bfs_level_store& before_previous() { return *prev2_; }

    //! Writes L(t) from `neighbours` (sorted by (node, parent): its empty(), *, ++), the first
    //! record of each node that neither L(t-1) nor L(t-2) holds, calling vis.discover_vertex(v,
    //! t, parent) and vis.tree_edge(parent, v) for each; returns |L(t)|. An empty L(t) is
    //! dropped at once.
    template <class Sorted, class Visitor>
    std::uint64_t write(Sorted& neighbours, std::uint64_t t, Visitor& vis) {
        next_ = std::make_unique<bfs_level_store>(*machine_, blocks_, level_memory_, *account_);
        std::uint64_t count = 0;
        {
            auto r1 = prev_->read();
            auto r2 = prev2_->read();
            count = subtract_sorted(neighbours, r1, r2, [&](const level_record& rec) {
                next_->push(rec);
                vis.discover_vertex(rec.v, t, rec.parent);
                vis.tree_edge(rec.parent, rec.v);
            });
            next_->finish();
        }
        if (count == 0) next_.reset();
        return count;
    }
    //! The level write() built becomes L(t-1), L(t-1) becomes L(t-2).
    void advance() {
        if (!next_)
            throw invalid_request("mm_level_writer::advance: no level written since the last advance()");
        prev2_ = std::move(prev_);
        prev_ = std::move(next_);
    }

private:
    machine* machine_;
    block_sizes blocks_;
    std::uint64_t level_memory_;
    memory_account* account_;
    std::unique_ptr<bfs_level_store> prev2_, prev_, next_;
};

} // namespace flashxxl
