// An external double-ended queue: Bw chunks, the two outermost at each end in memory, the middle spilled.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! A deque of T: push and pop at both ends (STXXL's deque without random access). Items live
//! in chunks of Bw bytes (block_layout<T>: Br / sizeof(T) items per Br page), each holding a
//! contiguous slice [lo, hi) of its slots: push_back fills a chunk upwards, push_front
//! downwards. Only the two outermost chunks at each end may be in memory; a chunk that moves
//! further in is spilled to a fresh extent with ONE write (of the Br pages its items cover, at
//! most Bw), and an end chunk found on a device is read back with Br reads of those pages. As in
//! the stack, a chunk is spilled only when a new one is started beyond it and read back only
//! when everything beyond it is gone, so a push/pop pattern at one end moves a chunk between
//! memory and device at most once per chunk's worth of items.
//!
//! Br and Bw are the run-time block_sizes given to the constructor (or those of the device the
//! role is placed on). Memory: at most four Bw chunk buffers whatever its budget
//! (memory_usage(M, b) == min_memory(b) == 4 Bw), charged to its own account, which rolls up
//! into the budget's. T must be trivially copyable; it need not be default-constructible. Not
//! thread-safe. References from front() / back() stay valid until the next push or pop. Moves
//! and swaps like the other containers (items, extents and buffers change owner).
//!
//! Failures leave the deque as it was: a push whose spill finds no extent (out_of_space, naming
//! the device, the role and "structure flashxxl::deque") or whose spill write fails
//! (io_failure), and a front / back / pop whose read-back fails, change nothing (the spilled
//! chunk stays in memory, the item is not pushed, the chunk stays on the device); the operation
//! may be retried.
template <class T> class deque {
public:
    using value_type = T;
    using layout_type = block_layout<T>;

    //! The least budget a deque with block sizes `b` accepts: four Bw chunks.
    static std::uint64_t min_memory(const block_sizes& b) { return 4 * b.bw; }
    //! Memory a deque with budget M holds at most: its four chunks, however large M is.
    static std::uint64_t memory_usage(const memory_budget&, const block_sizes& b) { return min_memory(b); }

    //! An empty deque on machine `m` whose spilled chunks have role `r`, with block sizes `b`
    //! (config_error when they break a rule of block_sizes, an item does not fit in Br, or the
    //! budget is below min_memory(b)).
    deque(machine& m, const memory_budget& memory, const block_sizes& b, role r = role::hot)
        : machine_(&m), role_(r), blocks_((b.validate(), b)), layout_(b.br),
          per_page_(layout_.items_per_block()), chunk_items_(per_page_ * b.reads_per_write()),
          account_(std::make_unique<memory_account>(memory.account())) {
        memory.require(min_memory(b), "flashxxl::deque", "four Bw chunks, " + b.describe());
    }
    //! The same with the block sizes of the device role `r` is placed on.
    deque(machine& m, const memory_budget& memory, role r = role::hot)
        : deque(m, memory, m.block_sizes_for(r), r) {}
    deque(const deque&) = delete;
    deque& operator=(const deque&) = delete;
    //! Moves items, extents, buffers and the memory account (on the heap, so the buffers' pointer
    //! to it stays valid); the moved-from deque may only be destroyed or assigned to.
    deque(deque&&) noexcept = default;
    deque& operator=(deque&&) noexcept = default;
    friend void swap(deque& a, deque& b) noexcept {
        deque t(std::move(a));
        a = std::move(b);
        b = std::move(t);
    }

    std::uint64_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const memory_account& account() const { return *account_; }
    const block_sizes& blocks() const { return blocks_; }
    //! Items in one chunk (Bw bytes in block_layout).
    std::uint64_t chunk_items() const { return chunk_items_; }
    //! Chunks held on a device now (spilled).
    std::uint64_t chunks_on_device() const {
        std::uint64_t n = 0;
        for (const chunk& c : chunks_)
            n += c.on_device() ? 1 : 0;
        return n;
    }

    void push_back(const T& x) {
        if (chunks_.empty() || chunks_.back().hi == chunk_items_ || chunks_.back().on_device()) {
            if (chunks_.size() >= 4) spill(chunks_[chunks_.size() - 2]); // it is about to move inwards
            chunks_.push_back(fresh_chunk(0));
        }
        chunk& c = chunks_.back();
        std::memcpy(static_cast<void*>(slot(c, c.hi)), &x, sizeof(T));
        ++c.hi;
        ++size_;
    }
    void push_front(const T& x) {
        if (chunks_.empty() || chunks_.front().lo == 0 || chunks_.front().on_device()) {
            if (chunks_.size() >= 4) spill(chunks_[1]);
            chunks_.push_front(fresh_chunk(chunk_items_));
        }
        chunk& c = chunks_.front();
        std::memcpy(static_cast<void*>(slot(c, c.lo - 1)), &x, sizeof(T));
        --c.lo;
        ++size_;
    }
    //! The last item (not empty()); may read its chunk back.
    const T& back() {
        check_not_empty("back");
        chunk& c = chunks_.back();
        load(c);
        return *slot(c, c.hi - 1);
    }
    //! The first item (not empty()); may read its chunk back.
    const T& front() {
        check_not_empty("front");
        chunk& c = chunks_.front();
        load(c);
        return *slot(c, c.lo);
    }
    void pop_back() {
        check_not_empty("pop_back");
        chunk& c = chunks_.back();
        load(c);
        --size_;
        if (--c.hi == c.lo) chunks_.pop_back();
    }
    void pop_front() {
        check_not_empty("pop_front");
        chunk& c = chunks_.front();
        load(c);
        --size_;
        if (++c.lo == c.hi) chunks_.pop_front();
    }
    //! Removes every item; spilled chunks give their extents back.
    void clear() {
        chunks_.clear();
        size_ = 0;
    }

private:
    //! A chunk: items in slots [lo, hi), in `buf` when in memory, else on `ext`.
    struct chunk {
        aligned_buffer buf;
        owned_extent ext;
        std::uint64_t lo = 0, hi = 0;
        bool on_device() const { return buf.empty(); }
    };

    chunk fresh_chunk(std::uint64_t at) {
        chunk c;
        c.buf = aligned_buffer(blocks_.bw, account_.get());
        c.lo = c.hi = at;
        return c;
    }
    T* slot(chunk& c, std::uint64_t i) {
        return layout_.slot(c.buf.data() + (i / per_page_) * blocks_.br, 0) + i % per_page_;
    }
    void check_not_empty(const char* what) const {
        if (size_ == 0) throw invalid_request(std::string("flashxxl::deque::") + what + " on an empty deque");
    }
    //! The Br pages of a chunk that hold its items: [first, last).
    std::uint64_t first_page(const chunk& c) const { return c.lo / per_page_; }
    std::uint64_t last_page(const chunk& c) const { return (c.hi + per_page_ - 1) / per_page_; }

    //! Writes an in-memory chunk to a fresh extent (its item pages in one write) and frees its
    //! buffer; nothing changes unless the write succeeded.
    void spill(chunk& c) {
        if (c.on_device()) return;
        const std::uint64_t br = blocks_.br, p0 = first_page(c), p1 = last_page(c);
        owned_extent e = rethrow_out_of_space_in("flashxxl::deque", [&] {
            owned_extent x = machine_->allocate(role_, blocks_.bw, counter_);
            x->dev->wait(x->dev->awrite(c.buf.data() + p0 * br, x->offset + p0 * br, (p1 - p0) * br, role_),
                         role_); // on failure x goes back
            return x;
        });
        ++counter_;
        c.ext = std::move(e);
        c.buf.reset();
    }
    //! Reads a spilled chunk back (Br reads of its item pages) and gives its extent back;
    //! nothing changes when a read fails.
    void load(chunk& c) {
        if (!c.on_device()) return;
        const std::uint64_t br = blocks_.br;
        aligned_buffer buf(blocks_.bw, account_.get());
        const extent& e = c.ext.get();
        std::vector<stxxl::request_ptr> reads;
        for (std::uint64_t p = first_page(c); p < last_page(c); ++p)
            reads.push_back(e.dev->aread(buf.data() + p * br, e.offset + p * br, br, role_));
        e.dev->wait_all(reads, role_);
        c.buf = std::move(buf);
        c.ext.reset();
    }

    machine* machine_;
    role role_;
    block_sizes blocks_;
    layout_type layout_;
    std::uint64_t per_page_;                  // items per Br page
    std::uint64_t chunk_items_;               // items per Bw chunk
    std::unique_ptr<memory_account> account_; // on the heap: buffers point to it, and the deque moves
    std::deque<chunk> chunks_;
    std::uint64_t size_ = 0;
    std::uint64_t counter_ = 0;
};

} // namespace flashxxl
