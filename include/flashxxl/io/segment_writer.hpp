// The untyped half of block_writer: Bw write buffers, one extent and one write per full buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Everything of block_writer<T> that does not depend on the item type, compiled once in the
//! core library: the `buffers` Bw buffers (one allocation), the extents (machine::allocate with
//! the role and a running block index), one write of bytes_for(fill) bytes per buffer, the
//! waits and the segments written. block_writer<T> places the items and counts them; it calls
//! write_buffer() when a buffer is full (or at the end).
//!
//! Errors: a write that fails (out_of_space from the allocator, io_failure from the device,
//! also an earlier write's, reported by the wait for its buffer) loses a buffer of items, so
//! the writer latches it (failure_latch): every later write_buffer() and take_segments()
//! throws io_failure naming the first failure. The writer stays destructible: its destructor
//! waits for its requests, and the extents it still holds go back with it.
class segment_writer {
public:
    //! \param items_per_block items in one Br block (block_layout<T>::items_per_block())
    //! \param block_counter   running index handed to the placement policy, advanced per extent
    segment_writer(machine& m, role r, const block_sizes& b, std::uint64_t items_per_block,
                   std::uint64_t& block_counter, memory_account* account, std::size_t buffers);
    segment_writer(const segment_writer&) = delete;
    segment_writer& operator=(const segment_writer&) = delete;
    ~segment_writer();

    const block_sizes& blocks() const { return blocks_; }
    //! Items in one full Bw buffer.
    std::uint64_t items_per_segment() const { return per_segment_; }
    //! Host CPU seconds charged per item written, once per Bw write on the writing thread
    //! (default: the machine's host_model::write_item_s). A writer filled on a background
    //! thread is set to 0 and its owner charges the work on its own thread, so that the
    //! virtual clock does not depend on thread timing.
    void set_item_cost(double seconds_per_item) { item_cost_s_ = seconds_per_item; }

protected:
    //! The buffer being filled (Bw bytes at a block boundary).
    char* current_buffer() const { return buffers_[current_].buf; }
    //! Writes the current buffer's `items` items to a fresh extent, moves on to the next
    //! buffer and waits until that one's earlier write is done. A failure is latched; after
    //! one, the current buffer has no write in flight (the caller may go on filling it) and
    //! every later call throws io_failure naming `operation`.
    void write_buffer(std::uint64_t items, const char* operation);
    //! Waits for every write and hands the segments (and with them their extents) over; after
    //! a failure (latched) throws io_failure naming `operation`.
    std::vector<segment> take_segments(const char* operation);
    //! Called in a catch block when the current buffer's items are lost before write_buffer().
    void latch_failure() noexcept { failed_.latch(); }

private:
    struct slot {
        char* buf; // its Bw in memory_
        stxxl::request_ptr req;
        device* dev;
    };
    void wait_slot(slot& s);

    machine* machine_;
    role role_;
    block_sizes blocks_;
    std::uint64_t per_block_;   // items in one Br block
    std::uint64_t per_segment_; // items in one Bw buffer
    std::uint64_t* counter_;
    //! Host CPU seconds per item written (set_item_cost).
    double item_cost_s_;
    structure_meter* meter_; // the named structure the account belongs to, or nullptr
    aligned_buffer memory_;  // the buffers, one allocation (in huge pages from 2 MiB on)
    std::vector<slot> buffers_;
    std::size_t current_ = 0;
    std::vector<segment> segments_; // written (or in flight): the extent of each write once issued
    failure_latch failed_;
};

} // namespace flashxxl
