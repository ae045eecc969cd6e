// Writes a stream of items in Bw-sized writes: Br blocks are coalesced into one write per extent.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/io/segment_writer.hpp"
#include "flashxxl/io/span_append.hpp"

namespace flashxxl {

//! Appends items to a sequence of segments. Items are packed into a Bw buffer in
//! block_layout<T> (read blocks of Br); a full buffer goes to a fresh Bw extent from machine::allocate (the
//! placement policy picks the device from the role and a running block index) as ONE write of
//! Bw bytes. finish() writes the last, partial buffer with bytes_for(items) bytes (whole Br
//! blocks). With `buffers` >= 2 writing overlaps with filling the next buffer. The buffers,
//! extents and writes are segment_writer's (compiled once, in the core library); this template
//! only places the items and records the block keys.
//!
//! Memory: buffers x Bw (memory_usage). Errors: a write that finds no extent (out_of_space)
//! or fails (io_failure; an asynchronous write's failure surfaces at a later push, when its
//! buffer is needed again, or at finish()) loses a buffer of items. The writer latches it:
//! every later finish() throws io_failure "flashxxl::block_writer::finish: unusable since an
//! earlier failure lost items (FIRST FAILURE)", and so does every push that fills a buffer;
//! pushes in between only fill the current buffer, which no write uses. The writer stays
//! destructible, its destructor waits for its requests, and the extents it still holds go back
//! with it. The checks sit on the buffer path: nothing per item. Not thread-safe.
template <class T> class block_writer : public segment_writer {
public:
    using layout_type = block_layout<T>;

    //! Bytes of memory a writer with `buffers` buffers holds.
    static std::uint64_t memory_usage(const block_sizes& b, std::size_t buffers = 2) {
        return buffers * b.bw;
    }
    //! Items in one full Bw segment.
    static std::uint64_t items_per_segment(const block_sizes& b) {
        return b.reads_per_write() * layout_type(b.br).items_per_block();
    }

    //! \param block_counter running index handed to the placement policy, advanced per extent
    block_writer(machine& m, role r, const block_sizes& b, std::uint64_t& block_counter,
                 memory_account* account = nullptr, std::size_t buffers = 2)
        : block_writer(layout_type((b.validate(), b.br)), m, r, b, block_counter, account, buffers) {}

    const layout_type& layout() const { return layout_; }

    //! Appends one item.
    void push(const T& item) {
        std::memcpy(static_cast<void*>(layout_.slot(current_buffer(), fill_)), &item, sizeof(T));
        if (++fill_ == per_segment_) flush();
        ++items_;
    }

    //! Appends `n` items from a contiguous array.
    void push(const T* items, std::uint64_t n) { append_by_spans(*this, items, n); }

    //! Free item slots contiguous in memory at the end of the stream: up to free_run() items
    //! may be constructed (memcpy) at free_begin() and then appended with commit(k). Lets a
    //! merge write straight into the write buffer.
    T* free_begin() { return layout_.slot(current_buffer(), fill_); }
    std::uint64_t free_run() const { return layout_.contiguous_from(fill_, per_segment_); }
    //! Appends the k <= free_run() items placed at free_begin().
    void commit(std::uint64_t k) {
        fill_ += k;
        items_ += k;
        if (fill_ == per_segment_) flush();
    }

    //! Items pushed so far.
    std::uint64_t size() const { return items_; }

    //! From the next write on, keeps the last item of every Br block written (the forecast a
    //! forecast_prefetcher schedules its reads by): sizeof(T) per Br, handed over by
    //! take_block_keys().
    void record_block_keys() { recording_ = true; }
    //! The keys recorded since the last call, in block order.
    std::vector<T> take_block_keys() { return std::exchange(keys_, {}); }

    //! Writes what is buffered, waits for every write and hands the segments (and with them
    //! their extents) over.
    std::vector<segment> finish() {
        if (fill_ > 0) flush("flashxxl::block_writer::finish");
        return take_segments("flashxxl::block_writer::finish");
    }

private:
    block_writer(const layout_type& layout, machine& m, role r, const block_sizes& b,
                 std::uint64_t& block_counter, memory_account* account, std::size_t buffers)
        : segment_writer(m, r, b, layout.items_per_block(), block_counter, account, buffers), layout_(layout),
          per_segment_(segment_writer::items_per_segment()) {}

    //! Writes the current buffer. Its items are taken out first, so that after a failure
    //! the next push starts the buffer afresh instead of writing past it.
    void flush(const char* operation = "flashxxl::block_writer::push") {
        const std::uint64_t n = std::exchange(fill_, 0);
        if (recording_) {
            try {
                for (std::uint64_t end = layout_.items_per_block();; end += layout_.items_per_block()) {
                    keys_.push_back(*layout_.slot(current_buffer(), std::min(end, n) - 1));
                    if (end >= n) break;
                }
            } catch (...) {
                latch_failure(); // the buffer's items are lost
                throw;
            }
        }
        write_buffer(n, operation);
    }

    layout_type layout_;
    std::uint64_t per_segment_; // items in one Bw segment
    std::uint64_t fill_ = 0;    // items in the current buffer
    std::uint64_t items_ = 0;   // items pushed in total
    bool recording_ = false;    // see record_block_keys()
    std::vector<T> keys_;
};

} // namespace flashxxl
