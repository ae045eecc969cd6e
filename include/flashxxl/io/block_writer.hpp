// Writes a stream of items in Bw-sized writes: Br blocks are coalesced into one write per extent.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/io/span_append.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Appends items to a sequence of segments. Items are packed into a Bw buffer in
//! block_layout<T> (read blocks of Br); a full buffer goes to a fresh Bw extent from machine::allocate (the
//! placement policy picks the device from the role and a running block index) as ONE write of
//! Bw bytes. finish() writes the last, partial buffer with bytes_for(items) bytes (whole Br
//! blocks). With `buffers` >= 2 writing overlaps with filling the next buffer.
//!
//! Memory: buffers x Bw (memory_usage). Errors: out_of_space from the allocator propagates; the
//! writer stays destructible and its destructor waits for its requests; the extents it still
//! holds go back with it. Not thread-safe.
template <class T>
class block_writer {
public:
    using layout_type = block_layout<T>;

    //! Bytes of memory a writer with `buffers` buffers holds.
    static std::uint64_t memory_usage(const block_sizes& b, std::size_t buffers = 2) { return buffers * b.bw; }
    //! Items in one full Bw segment.
    static std::uint64_t items_per_segment(const block_sizes& b) {
        return b.reads_per_write() * layout_type(b.br).items_per_block();
    }

    //! \param block_counter running index handed to the placement policy, advanced per extent
    block_writer(machine& m, role r, const block_sizes& b, std::uint64_t& block_counter,
                 memory_account* account = nullptr, std::size_t buffers = 2)
        : machine_(&m), role_(r), blocks_((b.validate(), b)), layout_(b.br),
          per_segment_(items_per_segment(b)), counter_(&block_counter) {
        if (buffers == 0) buffers = 1;
        memory_ = aligned_buffer(buffers * b.bw, account);
        for (std::size_t i = 0; i < buffers; ++i) buffers_.push_back(slot{memory_.data() + i * b.bw, {}, nullptr});
    }
    block_writer(const block_writer&) = delete;
    block_writer& operator=(const block_writer&) = delete;
    ~block_writer() { wait_all_noexcept(); }

    const layout_type& layout() const { return layout_; }
    const block_sizes& blocks() const { return blocks_; }

    //! Appends one item.
    void push(const T& item) {
        std::memcpy(static_cast<void*>(layout_.slot(buffers_[current_].buf, fill_)), &item, sizeof(T));
        if (++fill_ == per_segment_) flush();
        ++items_;
    }

    //! Appends `n` items from a contiguous array.
    void push(const T* items, std::uint64_t n) {
        append_by_spans(*this, items, n);
    }

    //! Free item slots contiguous in memory at the end of the stream: up to free_run() items
    //! may be constructed (memcpy) at free_begin() and then appended with commit(k). Lets a
    //! merge write straight into the write buffer.
    T* free_begin() { return layout_.slot(buffers_[current_].buf, fill_); }
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
        if (fill_ > 0) flush();
        wait_all();
        return std::exchange(segments_, {});
    }

private:
    struct slot {
        char* buf;  // its Bw in memory_
        stxxl::request_ptr req;
        device* dev;
    };

    void flush() {
        slot& s = buffers_[current_];
        owned_extent e = machine_->allocate(role_, blocks_.bw, (*counter_)++);
        device* dev = e->dev;
        std::uint64_t offset = e->offset;
        segments_.push_back(segment{std::move(e), fill_, 0});
        if (recording_)
            for (std::uint64_t end = layout_.items_per_block();; end += layout_.items_per_block()) {
                keys_.push_back(*layout_.slot(s.buf, std::min(end, fill_) - 1));
                if (end >= fill_) break;
            }
        s.req = dev->awrite(s.buf, offset, layout_.bytes_for(fill_), role_);
        s.dev = dev;
        fill_ = 0;
        current_ = (current_ + 1) % buffers_.size();
        wait_slot(buffers_[current_]);
    }
    void wait_slot(slot& s) {
        if (!s.req) return;
        stxxl::request_ptr req = std::move(s.req);
        s.req = nullptr;
        s.dev->wait(req, role_);
    }
    void wait_all() {
        for (slot& s : buffers_) wait_slot(s);
    }
    void wait_all_noexcept() noexcept {
        for (slot& s : buffers_) {
            try {
                wait_slot(s);
            } catch (...) {
            }
        }
    }
    machine* machine_;
    role role_;
    block_sizes blocks_;
    layout_type layout_;
    std::uint64_t per_segment_;  // items in one Bw segment
    std::uint64_t* counter_;
    aligned_buffer memory_;  // the buffers, one allocation (in huge pages from 2 MiB on)
    std::vector<slot> buffers_;
    std::size_t current_ = 0;
    std::uint64_t fill_ = 0;   // items in the current buffer
    std::uint64_t items_ = 0;  // items pushed in total
    std::vector<segment> segments_;
    bool recording_ = false;  // see record_block_keys()
    std::vector<T> keys_;
};

} // namespace flashxxl
