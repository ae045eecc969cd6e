// Reads a sequence of segments item by item in Br-sized reads, prefetching k blocks ahead.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Streams the items of a sequence of segments (appended with add() or add_borrowed(), also
//! while reading) in order. Every read is one Br block; up to `prefetch` blocks beyond the
//! current one are in flight (asynchronous device::aread), so reading overlaps with the
//! caller's work. The host's CPU per item consumed (machine::host(), read_item_s) is charged on
//! the virtual clock as each block is retired, before the read that takes its slot is issued.
//!
//! A segment given with add() is owned: its extent goes back to the device as soon as its last
//! block has been consumed (and on destruction), so a merge needs little more disk space than
//! its input. add_borrowed() reads an extent that stays with its owner (a vector's groups).
//! Memory: (prefetch + 1) x Br, one aligned_buffer (so that a reader of 2 MiB or more gets
//! huge pages even when Br is smaller).
//!
//! Errors: a read that fails (io_failure from device::wait, or a read that cannot be issued)
//! loses its block, so the reader latches it (failure_latch): every later add, add_borrowed,
//! pop and next_range throws io_failure "flashxxl::block_reader::OP: unusable since an earlier
//! failure lost items (FIRST FAILURE)". empty(), size() and run() stay readable: the reader is
//! empty() from then on and size() still counts the items it did not hand out. Destruction
//! stays safe. The checks sit on the block path, plus one compare per pop() (a pop() on an
//! empty reader throws invalid_request). Not thread-safe.
template <class T> class block_reader {
public:
    using layout_type = block_layout<T>;
    static std::uint64_t memory_usage(const block_sizes& b, std::size_t prefetch = 1) {
        return (prefetch + 1) * b.br;
    }

    block_reader(machine& m, role r, const block_sizes& b, memory_account* account = nullptr,
                 std::size_t prefetch = 1)
        : machine_(&m), read_item_s_(m.host().read_item_s), role_(r), layout_((b.validate(), b.br)),
          buffer_((prefetch + 1) * b.br, account) {
        for (std::size_t i = 0; i <= prefetch; ++i)
            slots_.push_back(slot{buffer_.data() + i * b.br, {}, nullptr, 0, 0, false});
    }
    block_reader(const block_reader&) = delete;
    block_reader& operator=(const block_reader&) = delete;
    ~block_reader() {
        for (slot& s : slots_) {
            try {
                wait_slot(s);
            } catch (...) {
            }
        }
    }

    const layout_type& layout() const { return layout_; }

    //! Appends an owned segment to read after the ones added before. Its data must be on the
    //! device (its write completed).
    void add(segment&& s) {
        failed_.check("flashxxl::block_reader::add");
        if (s.remaining() == 0) {
            s.ext.reset(); // nothing to read: its extent goes back now
            return;
        }
        extent e = s.ext.get();
        std::uint64_t items = s.items, skip = s.skip;
        append(entry{e, items, skip, std::move(s.ext)}, "flashxxl::block_reader::add");
    }
    //! Appends items [skip, items) of an extent that stays with its owner.
    void add_borrowed(const extent& e, std::uint64_t items, std::uint64_t skip) {
        failed_.check("flashxxl::block_reader::add_borrowed");
        if (items == skip) return;
        append(entry{e, items, skip, owned_extent()}, "flashxxl::block_reader::add_borrowed");
    }
    //! add() of every segment of a range (moved from).
    template <class Range> void add_all(Range&& segs) {
        for (segment& s : segs)
            add(std::move(s));
    }

    //! True when every item has been consumed.
    bool empty() const { return current_ == block_end_; }
    //! Items not consumed yet.
    std::uint64_t size() const { return unloaded_ + std::uint64_t(block_end_ - current_); }
    //! The next item (not empty()).
    const T& front() const { return *current_; }
    //! Consumes the next item (not empty()): a pointer increment and a compare, except at the
    //! end of a block.
    void pop() {
        if (current_ == block_end_) refuse_pop();
        if (++current_ == block_end_) advance("flashxxl::block_reader::pop");
    }
    //! Items available in memory from front() on, contiguous: front() + [0, run()).
    std::uint64_t run() const { return std::uint64_t(block_end_ - current_); }
    //! The range_merger source protocol: after consuming the range handed out last (when
    //! `consumed`), hands out the items in memory from front() on as [cur, end); false when
    //! every item has been consumed.
    bool next_range(const T*& cur, const T*& end, bool consumed) {
        if (consumed) pop(run());
        if (empty()) {
            failed_.check("flashxxl::block_reader::next_range");
            return false;
        }
        cur = current_;
        end = cur + run();
        return true;
    }
    //! Consumes k <= run() items.
    void pop(std::uint64_t k) {
        current_ += k;
        if (current_ == block_end_) advance("flashxxl::block_reader::pop");
    }

private:
    //! A segment being read: where, which items, and its owner (empty when borrowed).
    struct entry {
        extent ext;
        std::uint64_t items;
        std::uint64_t skip;
        owned_extent owner;
    };
    struct slot {
        char* buf; // its Br block in buffer_
        stxxl::request_ptr req;
        device* dev;
        std::uint64_t first;  // first valid item in the block
        std::uint64_t end;    // one past the last valid item in the block
        bool last_of_segment; // retiring it finishes the front segment
    };

    void append(entry&& e, const char* operation) {
        segments_.push_back(std::move(e));
        const entry& s = segments_.back();
        unloaded_ += s.items - s.skip;
        if (next_segment_ + 1 == segments_.size()) next_block_ = s.skip / layout_.items_per_block();
        if (current_ == block_end_)
            advance(operation);
        else
            failed_.run([&] { fill(); });
    }

    // Issues reads until every slot is busy or no block is left to schedule.
    void fill() {
        while (issued_ < slots_.size() && next_segment_ < segments_.size()) {
            const entry& s = segments_[next_segment_];
            const std::uint64_t per_block = layout_.items_per_block();
            std::uint64_t nblocks = layout_.blocks_for(s.items);
            slot& sl = slots_[(head_ + issued_) % slots_.size()];
            std::uint64_t b = next_block_;
            std::uint64_t block_begin = b * per_block;
            sl.first = b == s.skip / per_block ? s.skip % per_block : 0;
            sl.end = std::min<std::uint64_t>(per_block, s.items - block_begin);
            sl.last_of_segment = b + 1 == nblocks;
            sl.dev = s.ext.dev;
            sl.req = s.ext.dev->aread(sl.buf, s.ext.offset + b * layout_.block_bytes(), layout_.block_bytes(),
                                      role_);
            ++issued_;
            if (++next_block_ == nblocks) {
                ++next_segment_;
                if (next_segment_ < segments_.size())
                    next_block_ = segments_[next_segment_].skip / layout_.items_per_block();
            }
        }
    }

    // Retires the current block (if any) and makes the next one current. A failure is latched;
    // the reader is empty() after it.
    void advance(const char* operation) {
        failed_.check(operation);
        failed_.run([&] { advance_unchecked(); });
    }
    void advance_unchecked() {
        if (have_current_) {
            slot& done = slots_[head_];
            machine_->charge_host(done.end - done.first, read_item_s_); // the caller's work on the block
            have_current_ = false;
            head_ = (head_ + 1) % slots_.size();
            --issued_;
            if (done.last_of_segment) {
                segments_[front_].owner.reset(); // consumed: an owned extent goes back now
                ++front_;
                if (2 * front_ >= segments_.size()) { // compact the directory (amortised O(1))
                    segments_.erase(segments_.begin(), segments_.begin() + std::ptrdiff_t(front_));
                    next_segment_ -= front_;
                    front_ = 0;
                }
            }
        }
        fill();
        current_ = block_end_ = nullptr;
        if (issued_ == 0) return;
        slot& cur = slots_[head_];
        wait_slot(cur);
        have_current_ = true;
        const T* items = layout_.slot(cur.buf, 0);
        current_ = items + cur.first;
        block_end_ = items + cur.end;
        unloaded_ -= cur.end - cur.first;
    }

    //! pop() on an empty reader: after a failure, or a misuse.
    [[noreturn]] void refuse_pop() const {
        failed_.check("flashxxl::block_reader::pop");
        throw invalid_request("flashxxl::block_reader::pop on an empty reader");
    }

    void wait_slot(slot& s) {
        if (!s.req) return;
        stxxl::request_ptr req = std::move(s.req);
        s.req = nullptr;
        s.dev->wait(req, role_);
    }

    machine* machine_;
    double read_item_s_; // host CPU per item consumed (host_model::read_item_s), charged per block
    role role_;
    layout_type layout_;
    aligned_buffer buffer_; // the slots' Br blocks, one allocation (in huge pages from 2 MiB on)
    std::vector<slot> slots_;
    std::vector<entry> segments_; // [front_, size) not fully consumed, in order
    std::size_t front_ = 0;
    std::size_t next_segment_ = 0; // index in segments_ of the next block to issue
    std::uint64_t next_block_ = 0; // block index within that segment
    std::size_t head_ = 0;         // slot of the current block
    std::size_t issued_ = 0;       // slots in use, from head_
    bool have_current_ = false;
    const T* current_ = nullptr;   // the next item, in the current block
    const T* block_end_ = nullptr; // one past the current block's last valid item
    std::uint64_t unloaded_ = 0;   // items not yet in the current block (later blocks)
    failure_latch failed_;
};

} // namespace flashxxl
