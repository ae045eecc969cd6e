// An external FIFO queue: Bw-written tail buffers, Br-read head with prefetch, in memory when small.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include <stxxl/bits/io/request.h>

#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/memory_account.hpp"
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
//! Memory: memory_usage() = 2 x Bw + 2 x Br. T must be trivially copyable; it need not be
//! default-constructible. Not thread-safe.
template <class T, class Blocks = blocks<128 * 1024, 16 * 1024 * 1024>>
class queue {
public:
    static constexpr std::size_t Br = Blocks::read_block;
    static constexpr std::size_t Bw = Blocks::write_block;
    using value_type = T;
    using layout = block_layout<T, Br>;
    static constexpr std::uint64_t buffer_items = (Bw / Br) * layout::items_per_block;

    static constexpr std::uint64_t memory_usage() { return 2 * Bw + block_reader<T, Br>::memory_usage(1); }

    queue(machine& m, std::uint64_t memory, role r = role::hot)
        : machine_(&m), role_(r), reader_(m, r, true, &account_, 1) {
        if (memory < memory_usage())
            throw config_error("flashxxl::queue: memory budget " + format_bytes(double(memory)) +
                               " is below the " + format_bytes(double(memory_usage())) +
                               " it needs (2 x Bw + 2 x Br)");
        for (auto& b : buffers_) b = aligned_buffer(Bw, &account_);
    }
    queue(const queue&) = delete;
    queue& operator=(const queue&) = delete;
    ~queue() {
        if (pending_) {
            try {
                pending_dev_->wait(pending_req_, role_);
            } catch (...) {
            }
            try {
                machine_->release(pending_->ext);
            } catch (...) {
            }
        }
    }

    std::uint64_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const memory_account& account() const { return account_; }

    void push(const T& x) {
        if (fill_ == buffer_items) flush();  // lazily: a failed flush leaves the queue as it was
        std::memcpy(static_cast<void*>(layout::slot(buffers_[current_].data(), fill_)), &x, sizeof(T));
        ++fill_;
        ++size_;
    }
    //! The oldest item (not empty()).
    const T& front() {
        check_not_empty("front");
        if (reader_.empty()) hand_over_pending();
        if (!reader_.empty()) return reader_.front();
        return *layout::slot(buffers_[current_].data(), head_);
    }
    void pop() {
        check_not_empty("pop");
        --size_;
        if (reader_.empty()) hand_over_pending();
        if (!reader_.empty()) {
            reader_.pop();
            return;
        }
        if (++head_ == fill_) head_ = fill_ = 0;
    }

private:
    void check_not_empty(const char* what) const {
        if (size_ == 0) throw invalid_request(std::string("flashxxl::queue::") + what + " on an empty queue");
    }
    // Writes the full current buffer (items [head_, fill_)) as one Bw write.
    void flush() {
        hand_over_pending();  // its buffer becomes the next current one
        extent e = machine_->allocate(role_, Bw, counter_++);
        try {
            pending_req_ = e.dev->awrite(buffers_[current_].data(), e.offset, Bw, role_);
        } catch (...) {
            machine_->release(e);
            throw;
        }
        pending_dev_ = e.dev;
        pending_ = segment{e, fill_, head_};
        current_ ^= 1;
        head_ = fill_ = 0;
    }
    // Waits for the in-flight write and lets the reader have its segment.
    void hand_over_pending() {
        if (!pending_) return;
        stxxl::request_ptr r = std::move(pending_req_);
        pending_req_ = nullptr;
        pending_dev_->wait(r, role_);
        segment s = *pending_;
        pending_.reset();
        reader_.add(s);
    }

    machine* machine_;
    role role_;
    memory_account account_;
    block_reader<T, Br> reader_;
    aligned_buffer buffers_[2];
    std::size_t current_ = 0;
    std::uint64_t head_ = 0, fill_ = 0;  // items [head_, fill_) of the current buffer are queued
    std::optional<segment> pending_;
    stxxl::request_ptr pending_req_;
    device* pending_dev_ = nullptr;
    std::uint64_t size_ = 0;
    std::uint64_t counter_ = 0;
};

} // namespace flashxxl
