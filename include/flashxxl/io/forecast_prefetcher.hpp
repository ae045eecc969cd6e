// Reads the runs of one merge through a shared pool of Br buffers, prefetching blocks in the order the merge
// will need them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/io/block_prefetch_pool.hpp"
#include "flashxxl/io/segment.hpp"

namespace flashxxl {

//! Feeds a k-way merge (range_merger's source protocol, next_range()) from k sorted runs
//! stored as Br blocks. Every read is one Br block. Instead of a fixed prefetch depth per run
//! (which costs 2 Br per run and halves the fan-in), all runs share one pool of `buffers` Br
//! buffers: each run holds the block being merged, and the free buffers are filled with the
//! blocks the merge will ask for next, in forecast order.
//!
//! The forecast is exact up to ties: run i needs its block b + 1 once its block b is used up,
//! that is, when the merge output reaches the last item of block b. The run writer records
//! that key for every block (block_writer::record_block_keys), so the next block to prefetch
//! is the one of the run whose recorded key is smallest (the schedule of STXXL's sort
//! prefetcher, from Hutchinson, Sanders and Vitter's "Duality between prefetching and queued
//! writing with parallel disks"). A run that needs a block not yet in flight (equal keys,
//! or a pool that was full) reads it at once into the buffer it just gave back: there is always
//! one, so the merge cannot stall for buffers, and forecast_misses() counts these reads.
//!
//! At most `max_requests` prefetches are outstanding at once (completed ones are reaped by
//! polling), so that request objects stay few even when the pool has thousands of buffers; a
//! device queue gains nothing from a deeper backlog.
//!
//! The prefetcher owns the runs' segments: each segment's extent goes back once its last block
//! has been merged, the rest on destruction. Memory: buffers x Br, plus sizeof(T) per block of
//! recorded keys and about 40 bytes per buffer and per run. Not thread-safe. The buffers, reads
//! and forecast heap are block_prefetch_pool's (compiled once, in the core library); this
//! template holds the keys and hands out typed ranges.
//!
//! Errors: a read that fails loses its block, so the prefetcher latches it (as any other
//! failure of start() or next_range()): every later add_run, start, next_range and
//! for_each_ready throws io_failure "flashxxl::forecast_prefetcher::OP: unusable since an
//! earlier failure lost items (FIRST FAILURE)"; a failed read is never reported ready.
//! Destruction stays safe: it waits for the reads, and the extents go back.
template <class T, class Before> class forecast_prefetcher {
public:
    using layout_type = block_layout<T>;
    static std::uint64_t memory_usage(const block_sizes& b, std::size_t buffers) { return buffers * b.br; }
    //! Default bound on outstanding prefetch requests.
    static constexpr std::size_t default_max_requests = 32;

    //! \param before the merge order: before(a, b) when a leaves the merge before b
    //! \param buffers Br buffers in the pool; start() needs at least one per run
    forecast_prefetcher(machine& m, role r, const block_sizes& b, Before before, std::size_t buffers,
                        memory_account* account = nullptr, std::size_t max_requests = default_max_requests)
        : layout_((b.validate(), b.br)), before_(std::move(before)),
          pool_(m, r, b, layout_.items_per_block(), buffers, &block_needed_first, this, account,
                max_requests) {}
    forecast_prefetcher(const forecast_prefetcher&) = delete;
    forecast_prefetcher& operator=(const forecast_prefetcher&) = delete;

    //! Adds a run: its segments as written (skip 0), and the last item of each of its Br blocks
    //! in order. The prefetcher owns their extents from now on (before start()). A run it
    //! refuses (invalid_request: not whole segments, or not one key per block) is released at
    //! once and leaves the prefetcher as it was.
    void add_run(std::vector<segment> segments, std::vector<T> block_keys) {
        const std::uint64_t blocks = block_keys.size();
        keys_.push_back(std::move(block_keys));
        try {
            pool_.add_run(std::move(segments), blocks);
        } catch (...) {
            keys_.pop_back(); // the pool kept no run: no keys either
            throw;
        }
    }

    //! Runs added.
    std::size_t runs() const { return pool_.runs(); }
    //! Blocks read on demand because the forecast had not scheduled them (ties, or a full pool).
    std::uint64_t forecast_misses() const { return pool_.forecast_misses(); }

    //! Issues the first block of every run, then fills the pool by forecast. Needs runs() <= buffers.
    void start() { pool_.start(); }

    //! range_merger's source protocol for run i: after its range was used up (`consumed`),
    //! gives the buffer back and hands out the next block's items; false when the run is done.
    //! invalid_request when there is no run i.
    bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) {
        std::size_t b = pool_.next_block(i, consumed);
        if (b == block_prefetch_pool::none) return false;
        cur = layout_.slot(pool_.buffer(b), 0);
        end = cur + pool_.items(b);
        return true;
    }

    //! The blocks of run i read ahead beyond the one next_range handed out last whose reads have
    //! completed, in run order: calls f(cur, end) for each, stopping at the first still in
    //! flight or when f returns false; next_range hands them out next, in this order. Returns
    //! whether run i has blocks beyond those reported (in flight, not issued, or not asked
    //! for): their items are no smaller than the last item reported, which is what bounds a
    //! parallel merge step (parallel_run_merger).
    template <class F> bool for_each_ready(std::size_t i, F&& f) {
        pool_.check_run(i, "for_each_ready");
        for (std::size_t b = pool_.first_ahead(i); b != block_prefetch_pool::none; b = pool_.next_ahead(b)) {
            if (!pool_.ready(b)) return true;
            const T* cur = layout_.slot(pool_.buffer(b), 0);
            if (!f(cur, cur + pool_.items(b))) return true; // the caller has seen enough
        }
        return pool_.has_unissued(i);
    }

private:
    //! block_prefetch_pool's forecast order: block a of run ra is needed before block b of run
    //! rb when the key recorded for the block before it leaves the merge first.
    static bool block_needed_first(const void* self, std::size_t ra, std::uint64_t a, std::size_t rb,
                                   std::uint64_t b) {
        const auto* p = static_cast<const forecast_prefetcher*>(self);
        return p->before_(p->keys_[ra][a - 1], p->keys_[rb][b - 1]);
    }

    layout_type layout_;
    Before before_;
    std::vector<std::vector<T>> keys_; // per run: the last item of each Br block
    block_prefetch_pool pool_;         // declared last: waits for its reads before the keys go
};

} // namespace flashxxl
