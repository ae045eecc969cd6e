// An external LIFO stack: two Bw halves in memory, full halves spilled with one Bw write each.
#pragma once

#include <cstdint>
#include <memory>
#include <cstring>
#include <string>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/replace_by_move.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! A stack of T (DFS needs one). The top 2 x Bw bytes of items live in memory, as two halves
//! of Bw. When both are full, the lower half goes to a fresh extent with ONE write of Bw
//! bytes; when both are empty, the last spilled half is read back with Bw / Br reads of Br
//! bytes. Because a half is spilled only when the other one is full, a push/pop sequence cannot
//! thrash: every Bw of I/O is paid for by at least Bw / sizeof(T) operations.
//!
//! Br and Bw are the run-time block_sizes given to the constructor (or, without them, those of
//! the device the role is placed on; a compile-time blocks<Br, Bw>{} converts to block_sizes).
//!
//! Memory: a stack holds 2 x Bw whatever its budget (memory_usage(M, b)); the budget must cover
//! that (min_memory(b)).
//! T must be trivially copyable; it need not be default-constructible. Not thread-safe.
//!
//! Failures leave the stack as it was: a push whose spill finds no extent (out_of_space) or
//! whose spill write fails (io_failure), or a top / pop whose read-back fails, changes nothing,
//! and the operation may be retried; an out_of_space names the device, the role and the structure
//! ("structure flashxxl::stack"). (The half being spilled is about to take the next push,
//! so its write is waited for at once: there is nothing to overlap it with.)
template <class T> class stack {
public:
    using value_type = T;
    using layout_type = block_layout<T>;

    //! The least budget a stack with block sizes `b` accepts: two halves of Bw.
    static std::uint64_t min_memory(const block_sizes& b) { return 2 * b.bw; }
    //! min_memory(b) for seeds/001's sizes (128 KiB / 16 MiB).
    static std::uint64_t min_memory() { return min_memory(block_sizes()); }
    //! Memory a stack with budget M and block sizes `b` holds: its two halves, however large M is.
    static std::uint64_t memory_usage(const memory_budget&, const block_sizes& b) { return min_memory(b); }

    //! An empty stack on machine `m` whose spilled halves have role `r`, with block sizes `b`
    //! (config_error when they break a rule of block_sizes, an item does not fit in Br, or the
    //! budget is below min_memory(b)). `memory` may name an account the stack's rolls up into.
    stack(machine& m, const memory_budget& memory, const block_sizes& b, role r = role::hot)
        : machine_(&m), role_(r), blocks_((b.validate(), b)), layout_(b.br),
          per_block_(layout_.items_per_block()), blocks_per_half_(b.reads_per_write()),
          half_items_(blocks_per_half_ * per_block_),
          account_(std::make_unique<memory_account>(memory.account())) {
        memory.require(min_memory(b), "flashxxl::stack", "2 x Bw, " + b.describe());
        for (half& h : halves_)
            h.buf = aligned_buffer(b.bw, account_.get());
    }
    //! The same with the block sizes of the device role `r` is placed on (machine::block_sizes_for).
    stack(machine& m, const memory_budget& memory, role r = role::hot)
        : stack(m, memory, m.block_sizes_for(r), r) {}
    stack(const stack&) = delete;
    stack& operator=(const stack&) = delete;
    //! Moves the stack: its items, extents and buffers change owner; iterators, readers and writers
    //! of the source do not follow. A moved-from stack may only be destroyed or assigned to.
    stack(stack&&) noexcept = default;
    stack& operator=(stack&& o) noexcept { return replace_by_move(*this, std::move(o)); }
    void swap(stack& o) noexcept { std::swap(*this, o); }
    friend void swap(stack& a, stack& b) noexcept { a.swap(b); }
    ~stack() = default; // no I/O is ever in flight between calls; spilled extents go back with spilled_

    std::uint64_t size() const { return in_memory_ + spilled_.size() * half_items_; }
    bool empty() const { return size() == 0; }
    const memory_account& account() const { return *account_; }
    //! The block sizes of this stack.
    const block_sizes& blocks() const { return blocks_; }
    //! Items in one half (Bw bytes in block_layout).
    std::uint64_t half_items() const { return half_items_; }

    void push(const T& x) {
        if (in_memory_ == 2 * half_items_) spill();
        std::memcpy(static_cast<void*>(slot(end_block_, end_item_)), &x, sizeof(T));
        ++in_memory_;
        if (++end_item_ == per_block_) {
            ++end_block_;
            end_item_ = 0;
        }
    }
    //! The top item (not empty()); may read a spilled half back.
    const T& top() {
        if (in_memory_ == 0) refill();
        return end_item_ > 0 ? *slot(end_block_, end_item_ - 1) : *slot(end_block_ - 1, per_block_ - 1);
    }
    void pop() {
        if (in_memory_ == 0) refill();
        --in_memory_;
        if (end_item_ == 0) {
            --end_block_;
            end_item_ = per_block_;
        }
        --end_item_;
    }

private:
    struct half {
        aligned_buffer buf;
    };

    // Item `item` of Br block `block` of the in-memory part: blocks [0, Bw / Br) are the bottom
    // half, the rest the other one. Kept as (block, item) so that no per-item division by
    // the run-time items per block is needed.
    T* slot(std::uint64_t block, std::uint64_t item) {
        const bool lower = block < blocks_per_half_;
        half& h = halves_[lower ? bottom_ : 1 - bottom_];
        return layout_.slot(h.buf.data() + (lower ? block : block - blocks_per_half_) * blocks_.br, 0) + item;
    }
    // Sets in_memory_ to one full half.
    void one_half_in_memory() {
        in_memory_ = half_items_;
        end_block_ = blocks_per_half_;
        end_item_ = 0;
    }
    // Writes the bottom half to a fresh extent; nothing changes unless the write succeeded.
    void spill() {
        half& h = halves_[bottom_];
        // Room for the record first, so that nothing can fail once the write is done.
        if (spilled_.size() == spilled_.capacity()) spilled_.reserve(2 * spilled_.size() + 1);
        owned_extent e = rethrow_out_of_space_in("flashxxl::stack", [&] {
            owned_extent x = machine_->allocate(role_, blocks_.bw, counter_, account_->meter());
            x->dev->wait(x->dev->awrite(h.buf.data(), x->offset, blocks_.bw, role_),
                         role_); // on failure x goes back
            return x;
        });
        ++counter_;
        spilled_.push_back(segment{std::move(e), half_items_, 0});
        bottom_ = 1 - bottom_;
        one_half_in_memory();
    }
    void refill() {
        if (spilled_.empty()) throw invalid_request("flashxxl::stack: top/pop on an empty stack");
        const extent& e = spilled_.back().ext.get();
        half& h = halves_[bottom_];
        const std::uint64_t br = blocks_.br;
        std::vector<stxxl::request_ptr> reads;
        for (std::uint64_t b = 0; b < blocks_per_half_; ++b)
            reads.push_back(e.dev->aread(h.buf.data() + b * br, e.offset + b * br, br, role_));
        e.dev->wait_all(reads, role_); // on failure nothing changed: the half stays spilled
        spilled_.pop_back();           // the extent goes back
        one_half_in_memory();
    }

    machine* machine_;
    role role_;
    block_sizes blocks_;
    layout_type layout_;
    std::uint64_t per_block_;       // items per Br block
    std::uint64_t blocks_per_half_; // Bw / Br
    std::uint64_t half_items_;
    std::unique_ptr<memory_account> account_; // on the heap: buffers point to it while the stack moves
    half halves_[2];
    std::size_t bottom_ = 0;
    std::uint64_t in_memory_ = 0;
    std::uint64_t end_block_ = 0, end_item_ = 0; // in_memory_ as (Br block, item in it)
    std::vector<segment> spilled_;
    std::uint64_t counter_ = 0;
};

} // namespace flashxxl
