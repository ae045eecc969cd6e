// An external FIFO queue: Bw-written tail buffers, Br-read head with prefetch, in memory when small.
#pragma once

#include <cstdint>
#include <memory>
#include <cstring>
#include <optional>
#include <string>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/replace_by_move.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! A FIFO queue of T (BFS needs one). Pushed items fill a Bw buffer; a full buffer goes to a
//! fresh extent with ONE Bw write (asynchronously, into the second buffer meanwhile). The head
//! is read back in Br blocks with one block of prefetch (block_reader), and extents are
//! released as soon as they have been consumed. While the queue fits in its write buffer,
//! pops take items straight from it and no I/O happens.
//!
//! Br and Bw are the run-time block_sizes given to the constructor (or, without them, those of
//! the device the role is placed on; a compile-time blocks<Br, Bw>{} converts to block_sizes).
//!
//! Memory: a queue holds 2 x Bw + 2 x Br whatever its budget (memory_usage(M, b)); the budget
//! must cover that (min_memory(b)). T must be trivially copyable; it need not be
//! default-constructible. Not thread-safe.
//!
//! Failures: a push whose buffer finds no extent (out_of_space, naming the device, the role and
//! "structure flashxxl::queue") leaves the queue as it was: the item is not queued. A
//! failed write or read (io_failure) loses the items of its block: the queue then throws that
//! failure from every push, front and pop (failure_latch); size() stays readable.
template <class T> class queue {
public:
    using value_type = T;
    using layout_type = block_layout<T>;

    //! The least budget a queue with block sizes `b` accepts: two Bw buffers and the reader's
    //! two Br blocks.
    static std::uint64_t min_memory(const block_sizes& b) {
        return 2 * b.bw + block_reader<T>::memory_usage(b, 1);
    }
    //! min_memory(b) for seeds/001's sizes (128 KiB / 16 MiB).
    static std::uint64_t min_memory() { return min_memory(block_sizes()); }
    //! Memory a queue with budget M and block sizes `b` holds: its buffers, however large M is.
    static std::uint64_t memory_usage(const memory_budget&, const block_sizes& b) { return min_memory(b); }

    //! An empty queue on machine `m` whose extents have role `r`, with block sizes `b`
    //! (config_error when they break a rule of block_sizes, an item does not fit in Br, or the
    //! budget is below min_memory(b)). `memory` may name an account the queue's rolls up into.
    queue(machine& m, const memory_budget& memory, const block_sizes& b, role r = role::hot)
        : machine_(&m), role_(r), blocks_((b.validate(), b)), layout_(b.br),
          per_block_(layout_.items_per_block()), buffer_items_(b.reads_per_write() * per_block_),
          account_(std::make_unique<memory_account>(memory.account())),
          reader_(std::make_unique<block_reader<T>>(m, r, b, account_.get(), 1)) {
        memory.require(min_memory(b), "flashxxl::queue", "2 x Bw + 2 x Br, " + b.describe());
        for (auto& buf : buffers_)
            buf = aligned_buffer(b.bw, account_.get());
    }
    //! The same with the block sizes of the device role `r` is placed on (machine::block_sizes_for).
    queue(machine& m, const memory_budget& memory, role r = role::hot)
        : queue(m, memory, m.block_sizes_for(r), r) {}
    queue(const queue&) = delete;
    queue& operator=(const queue&) = delete;
    //! Moves the queue: its items, extents and buffers change owner; iterators, readers and writers
    //! of the source do not follow. A moved-from queue may only be destroyed or assigned to.
    queue(queue&&) noexcept = default;
    queue& operator=(queue&& o) noexcept { return replace_by_move(*this, std::move(o)); }
    void swap(queue& o) noexcept { std::swap(*this, o); }
    friend void swap(queue& a, queue& b) noexcept { a.swap(b); }
    //! Waits for the write in flight; its extent (and the reader's) go back with the members.
    ~queue() {
        if (pending_ && pending_req_) {
            try {
                pending_dev_->wait(pending_req_, role_);
            } catch (...) {
            }
        }
    }

    std::uint64_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const memory_account& account() const { return *account_; }
    //! The block sizes of this queue.
    const block_sizes& blocks() const { return blocks_; }
    //! Items in one write buffer (Bw bytes in block_layout).
    std::uint64_t buffer_items() const { return buffer_items_; }

    void push(const T& x) {
        failed_.check("flashxxl::queue::push");
        if (fill_ == buffer_items_) flush(); // lazily: an allocation that fails leaves the queue as it was
        std::memcpy(static_cast<void*>(slot(tail_)), &x, sizeof(T));
        ++fill_;
        step(tail_);
        ++size_;
    }
    //! The oldest item (not empty()).
    const T& front() {
        check_not_empty("front");
        failed_.check("flashxxl::queue::front");
        if (reader_->empty()) hand_over_pending();
        if (!reader_->empty()) return reader_->front();
        return *slot(head_pos_);
    }
    void pop() {
        check_not_empty("pop");
        failed_.check("flashxxl::queue::pop");
        if (reader_->empty()) hand_over_pending();
        if (!reader_->empty()) {
            failed_.run([&] { reader_->pop(); }); // may read the next block
            --size_;
            return;
        }
        --size_;
        if (++head_ == fill_) {
            head_ = fill_ = 0;
            head_pos_ = tail_ = position{};
        } else {
            step(head_pos_);
        }
    }

private:
    //! An item slot of the current buffer as (Br block, item in it): moving on by one needs no
    //! division by the run-time items per block.
    struct position {
        std::uint64_t block = 0;
        std::uint64_t item = 0;
    };
    void step(position& p) const {
        if (++p.item == per_block_) {
            ++p.block;
            p.item = 0;
        }
    }
    T* slot(const position& p) {
        return layout_.slot(buffers_[current_].data() + p.block * blocks_.br, 0) + p.item;
    }

    void check_not_empty(const char* what) const {
        if (size_ == 0) throw invalid_request(std::string("flashxxl::queue::") + what + " on an empty queue");
    }
    // Writes the full current buffer (items [head_, fill_)) as one Bw write.
    void flush() {
        hand_over_pending(); // its buffer becomes the next current one
        owned_extent e = rethrow_out_of_space_in("flashxxl::queue", [&] {
            return machine_->allocate(role_, blocks_.bw, counter_, account_->meter()); // nothing changed yet
        });
        ++counter_;
        pending_req_ =
            e->dev->awrite(buffers_[current_].data(), e->offset, blocks_.bw, role_); // on failure e goes back
        pending_dev_ = e->dev;
        pending_ = segment{std::move(e), fill_, head_};
        current_ ^= 1;
        head_ = fill_ = 0;
        head_pos_ = tail_ = position{};
    }
    // Waits for the in-flight write and lets the reader have its segment (whose first block
    // it reads). A failure of either loses items: the queue latches it.
    void hand_over_pending() {
        if (!pending_) return;
        failed_.run_in("flashxxl::queue", [&] {
            stxxl::request_ptr r = std::move(pending_req_);
            pending_req_ = nullptr;
            segment s = std::move(*pending_);
            pending_.reset(); // a failed write's extent goes back with s
            pending_dev_->wait(r, role_);
            reader_->add(std::move(s));
        });
    }

    machine* machine_;
    role role_;
    block_sizes blocks_;
    layout_type layout_;
    std::uint64_t per_block_; // items per Br block
    std::uint64_t buffer_items_;
    std::unique_ptr<memory_account> account_; // on the heap: buffers point to it while the queue moves
    std::unique_ptr<block_reader<T>> reader_; // on the heap: it keeps pointers into itself
    aligned_buffer buffers_[2];
    std::size_t current_ = 0;
    std::uint64_t head_ = 0, fill_ = 0; // items [head_, fill_) of the current buffer are queued
    position head_pos_, tail_;          // head_ and fill_ as positions
    std::optional<segment> pending_;
    stxxl::request_ptr pending_req_;
    device* pending_dev_ = nullptr;
    std::uint64_t size_ = 0;
    std::uint64_t counter_ = 0;
    failure_latch failed_;
};

} // namespace flashxxl
