// An external LIFO stack: two Bw halves in memory, full halves spilled with one Bw write each.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/memory_account.hpp"
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
//! Memory: memory_usage() = 2 x Bw (the budget passed to the constructor must cover it).
//! T must be trivially copyable; it need not be default-constructible. Not thread-safe.
template <class T, class Blocks = blocks<128 * 1024, 16 * 1024 * 1024>>
class stack {
public:
    static constexpr std::size_t Br = Blocks::read_block;
    static constexpr std::size_t Bw = Blocks::write_block;
    using value_type = T;
    using layout = block_layout<T, Br>;
    static constexpr std::uint64_t half_items = (Bw / Br) * layout::items_per_block;

    static constexpr std::uint64_t memory_usage() { return 2 * Bw; }

    stack(machine& m, std::uint64_t memory, role r = role::hot) : machine_(&m), role_(r) {
        if (memory < memory_usage())
            throw config_error("flashxxl::stack: memory budget " + format_bytes(double(memory)) +
                               " is below the " + format_bytes(double(memory_usage())) + " it needs (2 x Bw)");
        for (half& h : halves_) h.buf = aligned_buffer(Bw, &account_);
    }
    stack(const stack&) = delete;
    stack& operator=(const stack&) = delete;
    ~stack() {
        for (half& h : halves_) {
            try {
                wait(h);
            } catch (...) {
            }
        }
        for (const segment& s : spilled_) {
            try {
                machine_->release(s.ext);
            } catch (...) {
            }
        }
    }

    std::uint64_t size() const { return in_memory_ + spilled_.size() * half_items; }
    bool empty() const { return size() == 0; }
    const memory_account& account() const { return account_; }

    void push(const T& x) {
        if (in_memory_ == 2 * half_items) spill();
        std::memcpy(static_cast<void*>(slot(in_memory_)), &x, sizeof(T));
        ++in_memory_;
    }
    //! The top item (not empty()); may read a spilled half back.
    const T& top() {
        if (in_memory_ == 0) refill();
        return *slot(in_memory_ - 1);
    }
    void pop() {
        if (in_memory_ == 0) refill();
        --in_memory_;
    }

private:
    struct half {
        aligned_buffer buf;
        stxxl::request_ptr req;
        device* dev = nullptr;
    };

    // Item i of the in-memory part: [0, half_items) in the bottom half, the rest in the other.
    T* slot(std::uint64_t i) {
        half& h = halves_[i < half_items ? bottom_ : 1 - bottom_];
        wait(h);
        return layout::slot(h.buf.data(), i % half_items);
    }
    void wait(half& h) {
        if (!h.req) return;
        stxxl::request_ptr r = std::move(h.req);
        h.req = nullptr;
        h.dev->wait(r, role_);
    }
    void spill() {
        half& h = halves_[bottom_];
        wait(h);
        extent e = machine_->allocate(role_, Bw, counter_++);
        try {
            h.req = e.dev->awrite(h.buf.data(), e.offset, Bw, role_);
        } catch (...) {
            machine_->release(e);
            throw;
        }
        h.dev = e.dev;
        spilled_.push_back(segment{e, half_items, 0});
        bottom_ = 1 - bottom_;
        in_memory_ = half_items;
    }
    void refill() {
        if (spilled_.empty()) throw invalid_request("flashxxl::stack: top/pop on an empty stack");
        const segment s = spilled_.back();
        half& h = halves_[bottom_];
        wait(h);
        std::vector<stxxl::request_ptr> reads;
        for (std::uint64_t b = 0; b < Bw / Br; ++b)
            reads.push_back(s.ext.dev->aread(h.buf.data() + b * Br, s.ext.offset + b * Br, Br, role_));
        for (auto& r : reads) s.ext.dev->wait(r, role_);
        spilled_.pop_back();
        machine_->release(s.ext);
        in_memory_ = half_items;
    }

    machine* machine_;
    role role_;
    memory_account account_;
    half halves_[2];
    std::size_t bottom_ = 0;
    std::uint64_t in_memory_ = 0;
    std::vector<segment> spilled_;
    std::uint64_t counter_ = 0;
};

} // namespace flashxxl
