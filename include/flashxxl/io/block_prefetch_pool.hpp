// The untyped half of forecast_prefetcher: the Br buffer pool, the reads, the forecast heap and the runs'
// extents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Everything of forecast_prefetcher<T, Before> that does not depend on the item type,
//! compiled once in the core library: one pool of `buffers` Br buffers, the runs' segments
//! (owned; an extent goes back once its last block has been merged), at most `max_requests`
//! outstanding reads, reaping, and the forecast heap. The heap asks the typed half which of
//! two blocks the merge needs first through `key_before` (block_before: compares the recorded
//! last keys of the blocks before them); nothing else here looks at an item.
//!
//! Blocks are identified by slot (an index into the pool).
//!
//! Errors: a refused run (add_run) leaves the pool as it was, its segments released. A read
//! that fails loses its block, so the pool latches it (failure_latch; also any other failure in
//! start() and next_block()): every later add_run, start, next_block and ready throws io_failure
//! "flashxxl::forecast_prefetcher::OP: unusable since an earlier failure lost items (FIRST
//! FAILURE)". Destruction stays safe. Not thread-safe.
class block_prefetch_pool {
public:
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    //! True when block `block_a` of run `run_a` is needed before block `block_b` of run `run_b`
    //! (the recorded key of the block before each, compared by the merge order). `order` is
    //! the typed half, given to the constructor.
    using block_before = bool (*)(const void* order, std::size_t run_a, std::uint64_t block_a,
                                  std::size_t run_b, std::uint64_t block_b);

    //! \param items_per_block items in one Br block (block_layout<T>::items_per_block())
    block_prefetch_pool(machine& m, role r, const block_sizes& b, std::uint64_t items_per_block,
                        std::size_t buffers, block_before key_before, const void* order,
                        memory_account* account, std::size_t max_requests);
    block_prefetch_pool(const block_prefetch_pool&) = delete;
    block_prefetch_pool& operator=(const block_prefetch_pool&) = delete;
    //! Waits for every read; the runs' remaining extents go back with them.
    ~block_prefetch_pool();

    //! Adds a run of `blocks` Br blocks (as many keys as the typed half recorded), stored in
    //! `segments` (whole written segments, skip 0). invalid_request otherwise: the segments are
    //! released and the pool is as it was.
    void add_run(std::vector<segment> segments, std::uint64_t blocks);
    std::size_t runs() const { return runs_.size(); }
    std::uint64_t forecast_misses() const { return misses_; }
    //! Issues the first block of every run, then fills the pool by forecast. Needs runs() <= buffers.
    void start();
    //! The next block of run i after its current one was used up (`consumed`): its slot, with
    //! the read completed, or none when the run is done. invalid_request when there is no run i.
    std::size_t next_block(std::size_t i, bool consumed);
    //! invalid_request naming `op` when there is no run i (i >= runs()).
    void check_run(std::size_t i, const char* op) const;

    //! Read-ahead blocks of run i beyond the one next_block handed out last, in run order:
    //! first_ahead(i), then next_ahead(slot) until none.
    std::size_t first_ahead(std::size_t i) const { return runs_[i].head; }
    std::size_t next_ahead(std::size_t b) const { return slots_[b].next; }
    //! Whether the read into slot b has completed as the merge may know it (see completed()).
    //! A completed read that failed throws (and is latched) instead of being reported ready.
    bool ready(std::size_t b);
    //! Whether run i has blocks not issued yet.
    bool has_unissued(std::size_t i) const { return has_unissued(runs_[i]); }
    //! The block in slot b: its buffer (at a block boundary) and its item count.
    const char* buffer(std::size_t b) const { return slots_[b].buf; }
    std::uint64_t items(std::size_t b) const { return slots_[b].items; }

private:
    //! A pool buffer and the block read into it.
    struct slot {
        char* buf;              // its Br bytes of pool_
        stxxl::request_ptr req; // outstanding read, if any
        device* dev;
        std::uint64_t items;  // items in the block
        std::size_t next;     // next block of the same run in flight
        bool last_of_segment; // merging it finishes a segment
    };
    struct run_state {
        std::vector<segment> segments;
        std::uint64_t blocks = 0;      // Br blocks in the run
        std::size_t issue_segment = 0; // where the next block to read is
        std::uint64_t issue_block = 0;
        std::uint64_t issued = 0;             // blocks issued so far
        std::size_t released = 0;             // segments [0, released) are released
        std::size_t head = none, tail = none; // blocks read ahead, in run order (slot list)
        std::size_t current = none;           // the block being merged
    };
    //! A forecast entry: run `run` needs its block `issued` once the key before it is merged.
    struct forecast {
        std::size_t run;
        std::uint64_t issued;
    };
    //! Heap order for std::push_heap / pop_heap: the front is the entry needed first.
    struct later {
        const block_prefetch_pool* pool;
        bool operator()(const forecast& a, const forecast& b) const {
            return pool->key_before_(pool->order_, b.run, b.issued, a.run, a.issued);
        }
    };

    static bool has_unissued(const run_state& r) { return r.issued < r.blocks; }
    static void skip_empty_segments(run_state& r);
    std::uint64_t blocks_for(std::uint64_t items) const { return (items + per_block_ - 1) / per_block_; }
    std::size_t take_free();
    void issue(std::size_t i, std::size_t b);
    void prefetch();
    void reap();
    bool completed(const stxxl::request_ptr& req);
    static bool read_failed(const stxxl::request_ptr& req);
    void retire_current(run_state& r);
    std::size_t next_block_unchecked(std::size_t i, bool consumed);
    void wait(slot& s);
    void wait_noexcept(slot& s) noexcept;

    machine* machine_;
    role role_;
    std::uint64_t br_;
    std::uint64_t per_block_; // items in one Br block
    block_before key_before_;
    const void* order_;
    std::size_t max_requests_;
    aligned_buffer pool_; // the slots' buffers, Br bytes each
    std::vector<slot> slots_;
    std::vector<std::size_t> free_;
    std::vector<run_state> runs_;
    std::vector<forecast> forecast_;      // heap (later order)
    std::deque<std::size_t> issue_order_; // slots with a read issued, oldest first (for reap())
    std::size_t outstanding_ = 0;         // slots whose request was not waited for yet
    std::uint64_t misses_ = 0;
    failure_latch failed_;
};

} // namespace flashxxl
