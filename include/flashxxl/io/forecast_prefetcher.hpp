// Reads the runs of one merge through a shared pool of Br buffers, prefetching blocks in the order the merge will need them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Feeds a k-way merge (range_merger's source protocol, next_range()) from k sorted runs
//! stored as Br blocks. Every read is one Br block. Instead of a fixed prefetch depth per run
//! (which costs 2 Br per run and halves the fan-in), all runs share one pool of `buffers` Br
//! buffers: each run holds the block being merged, and the free buffers are filled with the
//! blocks the merge will ask for next, in forecast order.
//!
//! The forecast is exact up to ties: run i needs its block b + 1 once its block b is used up,
//! that is, when the merge output reaches the last item of block b. The run writer records
//! that key for every block (block_writer::record_block_keys), so the next block to prefetch
//! is the one of the run whose recorded key is smallest (the schedule of STXXL's sort
//! prefetcher, from Hutchinson, Sanders and Vitter's "Duality between prefetching and queued
//! writing with parallel disks"). A run that needs a block not yet in flight (equal keys,
//! or a pool that was full) reads it at once into the buffer it just gave back: there is always
//! one, so the merge cannot stall for buffers, and forecast_misses() counts these reads.
//!
//! At most `max_requests` prefetches are outstanding at once (completed ones are reaped by
//! polling), so that request objects stay few even when the pool has thousands of buffers; a
//! device queue gains nothing from a deeper backlog.
//!
//! The prefetcher owns the runs' segments: each segment's extent goes back once its last block
//! has been merged, the rest on destruction. Memory: buffers x Br, plus sizeof(T) per block of
//! recorded keys and about 40 bytes per buffer and per run. Not thread-safe.
template <class T, class Before>
class forecast_prefetcher {
public:
    using layout_type = block_layout<T>;
    static std::uint64_t memory_usage(const block_sizes& b, std::size_t buffers) { return buffers * b.br; }
    //! Default bound on outstanding prefetch requests.
    static constexpr std::size_t default_max_requests = 32;

    //! \param before the merge order: before(a, b) when a leaves the merge before b
    //! \param buffers Br buffers in the pool; start() needs at least one per run
    forecast_prefetcher(machine& m, role r, const block_sizes& b, Before before, std::size_t buffers,
                        memory_account* account = nullptr, std::size_t max_requests = default_max_requests)
        : machine_(&m), role_(r), layout_((b.validate(), b.br)), before_(std::move(before)),
          max_requests_(std::max<std::size_t>(max_requests, 1)) {
        slots_.reserve(buffers);
        free_.reserve(buffers);
        for (std::size_t i = 0; i < buffers; ++i) {
            slots_.push_back(slot{aligned_buffer(b.br, account), {}, nullptr, 0, none, false});
            free_.push_back(buffers - 1 - i);
        }
    }
    forecast_prefetcher(const forecast_prefetcher&) = delete;
    forecast_prefetcher& operator=(const forecast_prefetcher&) = delete;
    //! Waits for every read; the runs' remaining extents go back with them.
    ~forecast_prefetcher() {
        for (slot& s : slots_) wait_noexcept(s);
    }

    //! Adds a run: its segments as written (skip 0), and the last item of each of its Br blocks
    //! in order. The prefetcher owns their extents from now on (before start()).
    void add_run(std::vector<segment> segments, std::vector<T> block_keys) {
        runs_.push_back(run_state{std::move(segments), std::move(block_keys)});  // owned from here on
        run_state& added = runs_.back();
        std::uint64_t blocks = 0;
        for (const segment& s : added.segments) {
            if (s.skip != 0)
                throw invalid_request("flashxxl::forecast_prefetcher: a run segment starts at item " +
                                      std::to_string(s.skip) + ", expected whole written segments");
            blocks += layout_.blocks_for(s.items);
        }
        if (blocks != added.keys.size())
            throw invalid_request("flashxxl::forecast_prefetcher: a run of " + std::to_string(blocks) +
                                  " Br blocks came with " + std::to_string(added.keys.size()) + " block keys");
        skip_empty_segments(added);
    }

    //! Runs added.
    std::size_t runs() const { return runs_.size(); }
    //! Blocks read on demand because the forecast had not scheduled them (ties, or a full pool).
    std::uint64_t forecast_misses() const { return misses_; }

    //! Issues the first block of every run, then fills the pool by forecast. Needs runs() <= buffers.
    void start() {
        if (runs_.size() > slots_.size())
            throw invalid_request("flashxxl::forecast_prefetcher: " + std::to_string(runs_.size()) +
                                  " runs need as many buffers, the pool has " + std::to_string(slots_.size()));
        for (std::size_t i = 0; i < runs_.size(); ++i)
            if (has_unissued(runs_[i])) issue(i, take_free());
        prefetch();
    }

    //! range_merger's source protocol for run i: after its range was used up (`consumed`),
    //! gives the buffer back and hands out the next block's items; false when the run is done.
    bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) {
        run_state& r = runs_[i];
        if (consumed && r.current != none) retire_current(r);
        if (r.head == none) {
            if (!has_unissued(r)) return false;
            ++misses_;
            issue(i, take_free());  // the buffer just given back is free
        }
        std::size_t b = r.head;
        r.head = slots_[b].next;
        if (r.head == none) r.tail = none;
        r.current = b;
        wait(slots_[b]);
        prefetch();
        cur = layout_.slot(slots_[b].buf.data(), 0);
        end = cur + slots_[b].items;
        return true;
    }

    //! The blocks of run i read ahead beyond the one next_range handed out last whose reads have
    //! completed, in run order: calls f(cur, end) for each, stopping at the first still in
    //! flight; next_range hands them out next, in this order. Returns whether run i has blocks
    //! beyond those reported (in flight or not issued): their items are no smaller than the last
    //! item reported, which is what bounds a parallel merge step (parallel_run_merger).
    template <class F>
    bool for_each_ready(std::size_t i, F&& f) {
        const run_state& r = runs_[i];
        for (std::size_t b = r.head; b != none; b = slots_[b].next) {
            const slot& s = slots_[b];
            if (s.req && !completed(s.req)) return true;
            const T* cur = layout_.slot(s.buf.data(), 0);
            f(cur, cur + s.items);
        }
        return has_unissued(r);
    }

private:
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

    //! A pool buffer and the block read into it.
    struct slot {
        aligned_buffer buf;
        stxxl::request_ptr req;  // outstanding read, if any
        device* dev;
        std::uint64_t items;     // items in the block
        std::size_t next;        // next block of the same run in flight
        bool last_of_segment;    // merging it finishes a segment
    };
    struct run_state {
        std::vector<segment> segments;
        std::vector<T> keys;              // last item of each Br block
        std::size_t issue_segment = 0;    // where the next block to read is
        std::uint64_t issue_block = 0;
        std::uint64_t issued = 0;         // blocks issued so far
        std::size_t released = 0;         // segments [0, released) are released
        std::size_t head = none, tail = none;  // blocks read ahead, in run order (slot list)
        std::size_t current = none;       // the block being merged
    };
    //! A forecast entry: run `run` needs its block `issued` once key(run, issued - 1) is merged.
    struct forecast {
        std::size_t run;
        std::uint64_t issued;
    };

    static bool has_unissued(const run_state& r) { return r.issued < r.keys.size(); }
    static void skip_empty_segments(run_state& r) {
        while (r.issue_segment < r.segments.size() && r.segments[r.issue_segment].items == 0) ++r.issue_segment;
    }

    std::size_t take_free() {
        std::size_t b = free_.back();
        free_.pop_back();
        return b;
    }

    void issue(std::size_t i, std::size_t b) {
        run_state& r = runs_[i];
        const segment& seg = r.segments[r.issue_segment];
        slot& s = slots_[b];
        try {
            s.req = seg.ext->dev->aread(s.buf.data(), seg.ext->offset + r.issue_block * layout_.block_bytes(),
                                        layout_.block_bytes(), role_);
        } catch (...) {
            free_.push_back(b);
            throw;
        }
        ++outstanding_;
        issue_order_.push_back(b);
        s.dev = seg.ext->dev;
        s.items = std::min<std::uint64_t>(layout_.items_per_block(), seg.items - r.issue_block * layout_.items_per_block());
        s.last_of_segment = r.issue_block + 1 == layout_.blocks_for(seg.items);
        s.next = none;
        if (r.tail == none) r.head = b;
        else slots_[r.tail].next = b;
        r.tail = b;
        ++r.issued;
        if (++r.issue_block == layout_.blocks_for(seg.items)) {
            r.issue_block = 0;
            ++r.issue_segment;
            skip_empty_segments(r);
        }
        if (has_unissued(r)) push_forecast(forecast{i, r.issued});
    }

    //! Fills free buffers with the blocks needed soonest (smallest recorded key first), while
    //! fewer than max_requests_ reads are outstanding.
    void prefetch() {
        reap();
        while (!free_.empty() && !forecast_.empty() && outstanding_ < max_requests_) {
            std::pop_heap(forecast_.begin(), forecast_.end(), later());
            forecast f = forecast_.back();
            forecast_.pop_back();
            if (runs_[f.run].issued != f.issued) continue;  // stale: that block was read on demand
            issue(f.run, take_free());
        }
    }

    //! Collects completed reads, oldest first, until one is still running.
    void reap() {
        while (!issue_order_.empty()) {
            slot& s = slots_[issue_order_.front()];
            if (s.req && !completed(s.req)) return;
            wait(s);  // completed (or already waited for): drops the request
            issue_order_.pop_front();
        }
    }

    //! Whether a read has completed, as the merge may know it without waiting. A read of an
    //! emulated device (a modelled_request): when its modelled end is not after the host's
    //! present on the machine's virtual clock; the real completion is awaited first (the data
    //! must be there). So how far a parallel merge step reaches and which reads are reaped
    //! depend on the virtual clock only, and modelled figures are the same in every run
    //! (STXXL's poll would make them depend on thread timing). Other reads: STXXL's poll.
    bool completed(const stxxl::request_ptr& req) {
        const auto* timed = dynamic_cast<const modelled_request*>(req.get());
        if (!timed) return req->poll();
        try {
            req->wait(false);
        } catch (const stxxl::io_error&) {
            return true;  // device::wait reports it, naming device and request
        }
        return timed->completion_s() <= machine_->clock().now();
    }

    void push_forecast(forecast f) {
        forecast_.push_back(f);
        std::push_heap(forecast_.begin(), forecast_.end(), later());
    }
    //! Heap order for std::push_heap / pop_heap: the front is the entry whose key is merged first.
    auto later() const {
        return [this](const forecast& a, const forecast& b) { return before_(key(b), key(a)); };
    }
    const T& key(const forecast& f) const { return runs_[f.run].keys[f.issued - 1]; }

    void retire_current(run_state& r) {
        slot& s = slots_[r.current];
        r.current = none;
        free_.push_back(std::size_t(&s - slots_.data()));
        if (s.last_of_segment) {
            while (r.segments[r.released].items == 0) r.segments[r.released++].ext.reset();
            r.segments[r.released++].ext.reset();
        }
    }

    void wait(slot& s) {
        if (!s.req) return;
        stxxl::request_ptr req = std::move(s.req);
        s.req = nullptr;
        --outstanding_;
        s.dev->wait(req, role_);
    }
    void wait_noexcept(slot& s) noexcept {
        try {
            wait(s);
        } catch (...) {
        }
    }

    machine* machine_;
    role role_;
    layout_type layout_;
    Before before_;
    std::size_t max_requests_;
    std::vector<slot> slots_;
    std::vector<std::size_t> free_;
    std::vector<run_state> runs_;
    std::vector<forecast> forecast_;     // heap (later() order)
    std::deque<std::size_t> issue_order_;  // slots with a read issued, oldest first (for reap())
    std::size_t outstanding_ = 0;        // slots whose request was not waited for yet
    std::uint64_t misses_ = 0;
};

} // namespace flashxxl
