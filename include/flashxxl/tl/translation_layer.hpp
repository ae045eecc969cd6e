// A log-structured translation layer (an stxxl::file): Br-page random writes become Bw-segment writes.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <stxxl/bits/common/exceptions.h>
#include <stxxl/bits/io/completion_handler.h>
#include <stxxl/bits/io/disk_queued_file.h>
#include <stxxl/bits/io/request.h>
#include <stxxl/bits/io/serving_request.h>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/tl/page_map.hpp"
#include "flashxxl/tl/segment_table.hpp"
#include "flashxxl/tl/tl_config.hpp"
#include "flashxxl/tl/tl_stats.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! The translation layer of seeds/001 Section 4 ("similar to MFT"): callers read and write
//! logical pages of Br bytes; the layer appends written pages to an open segment buffer of Bw
//! bytes and writes a full segment to the lower device in one request of exactly Bw at a
//! Bw-aligned physical offset. An in-memory page map (4 bytes per logical page, 4 per physical
//! page) finds each page; a cleaner copies the valid pages out of the segment picked by
//! tl_config::policy when fewer than tl_config::low_watermark_segments segments are free.
//!
//! Contract:
//! - offsets and lengths are multiples of Br, buffers 4 KiB aligned; any number of pages per request;
//! - reading a page that was never written or was discarded is an error (invalid_request, in an
//!   asynchronous request surfacing from wait() as stxxl::io_error with the same message);
//! - size() is the logical capacity = whole segments of the lower device minus the spare; a
//!   write past it throws out_of_space;
//! - requests are served one at a time in submission order by the layer's own I/O thread (a
//!   FIFO, not STXXL's queue, which serves writes before reads); discard() and flush() first
//!   wait until every request submitted before them has been served. So the lower device sees
//!   the I/O in the host's program order, and modelled time does not depend on thread timing;
//! - the lower file is used only through lower.aread / awrite (...)->wait() and discard (TRIM,
//!   best effort: a failure is counted in tl_stats::discard_failures, never thrown), from the
//!   layer's I/O thread or from the thread calling flush() / discard(); `queue_id` must differ
//!   from every STXXL queue of the lower file (its own and an emulated_file's add_queues());
//! - flush() writes the open segment's unwritten pages; the destructor serves what is still
//!   queued, then flushes.
//! Thread safety: one mutex guards all state, held across lower I/O, so serve() in the I/O thread
//! and discard() / flush() / stats() in callers never see a page in flight (STXXL's wbtl_file
//! released its map lock before reading, so a concurrent rewrite could recycle the page).
class translation_layer : public stxxl::disk_queued_file {
public:
    using offset_type = stxxl::file::offset_type;
    using size_type = stxxl::file::size_type;

    //! Builds the layer over `lower` (not owned; must outlive the layer) of which the first
    //! `lower_capacity` bytes are used. `queue_id` (the layer's identity towards STXXL, which
    //! looks queues up by id) must differ from the ids of the lower file's queues: its own and,
    //! for an emulated_file, those of add_queues(). Throws config_error from cfg.validate() or
    //! for a shared queue id.
    translation_layer(stxxl::file& lower, std::uint64_t lower_capacity, tl_config cfg,
                      std::string device_name, int queue_id, int allocator_id = stxxl::file::NO_ALLOCATOR)
        : stxxl::file(stxxl::file::DEFAULT_DEVICE_ID), stxxl::disk_queued_file(queue_id, allocator_id),
          lower_(lower), cfg_(validated(cfg, lower_capacity, device_name)), name_(std::move(device_name)),
          page_(cfg_.page_bytes), segment_(cfg_.segment_bytes),
          pps_(static_cast<std::uint32_t>(cfg_.segment_bytes / cfg_.page_bytes)),
          physical_bytes_(cfg_.physical_bytes(lower_capacity)),
          spare_bytes_(cfg_.resolved_spare(lower_capacity)),
          logical_bytes_(cfg_.logical_bytes(lower_capacity)),
          map_(logical_bytes_ / page_, physical_bytes_ / page_), segments_(physical_bytes_ / segment_),
          open_buf_(make_buffer(segment_)) {
        check_queue_id(lower, queue_id);
        create_lower_queues();
        worker_ = std::thread([this] { serve_in_order(); });
    }

    translation_layer(const translation_layer&) = delete;
    translation_layer& operator=(const translation_layer&) = delete;

    //! Serves what is still queued, flushes the open segment (errors are printed, not thrown),
    //! stops the layer's I/O thread, then waits (at most about a second each) until no request
    //! on this file or on the lower file is referenced any more: a request touches its file once
    //! more when its last reference goes, which may happen in an I/O thread just after the
    //! waiter woke up.
    ~translation_layer() override {
        try {
            flush();
        } catch (const std::exception& e) {
            std::cerr << "flashxxl: translation layer on device '" << name_
                      << "': flush in destructor failed: " << e.what() << std::endl;
        }
        {
            std::lock_guard<std::mutex> lock(fifo_mu_);
            stopping_ = true;
        }
        fifo_cv_.notify_all();
        worker_.join();
        for (int i = 0; i < 100000 && get_request_nref() > 0; ++i)
            std::this_thread::sleep_for(std::chrono::microseconds(10));
        for (int i = 0; i < 100000 && lower_.get_request_nref() > 0; ++i)
            std::this_thread::sleep_for(std::chrono::microseconds(10));
    }

    //! Checks the request (alignment, range, capacity) in the caller's thread, then queues it
    //! behind every request submitted before it.
    stxxl::request_ptr
    aread(void* buffer, offset_type pos, size_type bytes,
          const stxxl::completion_handler& on_cmpl = stxxl::completion_handler()) override {
        check_request(false, buffer, pos, bytes);
        return queue_timed(buffer, pos, bytes, stxxl::request::READ, on_cmpl);
    }
    //! Checks the request (alignment, range, capacity) in the caller's thread, then queues it
    //! behind every request submitted before it.
    stxxl::request_ptr
    awrite(void* buffer, offset_type pos, size_type bytes,
           const stxxl::completion_handler& on_cmpl = stxxl::completion_handler()) override {
        check_request(true, buffer, pos, bytes);
        return queue_timed(buffer, pos, bytes, stxxl::request::WRITE, on_cmpl);
    }

    //! Serves one request (called in the layer's I/O thread). Every failure leaves as
    //! stxxl::io_error carrying the flashxxl message, which serving_request hands to wait().
    void serve(void* buffer, offset_type offset, size_type bytes,
               stxxl::request::request_type type) override {
        if (bytes == 0) return; // nothing to move (aread / awrite reject length 0)
        try {
            const bool is_write = type == stxxl::request::WRITE;
            check_request(is_write, buffer, offset, bytes);
            std::lock_guard<std::mutex> lock(mu_);
            if (is_write)
                write_pages(static_cast<const char*>(buffer), offset, bytes);
            else
                read_pages(static_cast<char*>(buffer), offset, bytes);
        } catch (const stxxl::io_error&) {
            throw;
        } catch (const std::exception& e) {
            throw stxxl::io_error(e.what());
        }
    }

    //! The logical capacity in bytes.
    offset_type size() override { return logical_bytes_; }

    //! The size is fixed at the logical capacity: growing past it throws out_of_space, anything
    //! up to it is accepted and changes nothing.
    void set_size(offset_type newsize) override {
        if (newsize > logical_bytes_)
            throw out_of_space(name_, "translation layer: set_size(" + std::to_string(newsize) +
                                          ") exceeds the logical capacity of " +
                                          std::to_string(logical_bytes_) + " bytes (" +
                                          std::to_string(physical_bytes_) + " physical minus " +
                                          std::to_string(spare_bytes_) + " spare)");
    }

    //! Forwards to the lower file.
    void lock() override { lower_.lock(); }

    //! Invalidates the pages of [offset, offset + size): reading them afterwards is an error, and
    //! segments they empty become free (and are TRIMmed below, best effort). Page-aligned ranges
    //! only (throws invalid_request). Waits first until the requests submitted before it are
    //! served, so it acts in the caller's program order.
    void discard(offset_type offset, offset_type size) override {
        if (size == 0) return;
        if (offset % page_ || size % page_ || offset > logical_bytes_ || size > logical_bytes_ - offset)
            throw invalid_request(describe("discard", offset, size) + ": expected a range of whole " +
                                  format_size(page_) + " pages inside the logical capacity of " +
                                  std::to_string(logical_bytes_) + " bytes");
        wait_for_queued();
        std::lock_guard<std::mutex> lock(mu_);
        for (std::uint64_t l = offset / page_, end = (offset + size) / page_; l < end; ++l)
            if (invalidate(l)) {
                ++stats_.pages_discarded;
                --stats_.live_pages;
            }
    }

    const char* io_type() const override { return "tl"; }

    //! Writes every page of the open segment not yet on the lower device (one request), after
    //! the requests submitted before it have been served.
    void flush() {
        wait_for_queued();
        std::lock_guard<std::mutex> lock(mu_);
        if (open_seg_ == segment_table::none) return;
        if (fill_ == pps_) {
            seal_open();
        } else if (fill_ > flushed_) {
            lower_io(true, open_buf_.get() + std::uint64_t(flushed_) * page_,
                     std::uint64_t(open_seg_) * segment_ + std::uint64_t(flushed_) * page_,
                     std::uint64_t(fill_ - flushed_) * page_, lower_purpose::flush, open_seg_);
            flushed_ = fill_;
            ++stats_.flushes;
        }
    }

    //! A snapshot of the counters.
    tl_stats stats() const {
        std::lock_guard<std::mutex> lock(mu_);
        tl_stats s = stats_;
        s.free_segments = segments_.free_count();
        s.map_memory_bytes = map_memory_bytes_locked();
        s.buffer_memory_bytes = segment_ * (gc_buf_ ? 2 : 1);
        return s;
    }

    //! Bytes of page map, reverse map and segment table.
    std::uint64_t map_memory_bytes() const {
        std::lock_guard<std::mutex> lock(mu_);
        return map_memory_bytes_locked();
    }

    //! The bytes of map state per logical page this configuration needs:
    //! 4 (forward) + 4 * physical/logical (reverse) + 20 per segment spread over its pages.
    static double map_bytes_per_logical_page(const tl_config& cfg, std::uint64_t lower_capacity) {
        const double logical = double(cfg.logical_bytes(lower_capacity) / cfg.page_bytes);
        const double physical = double(cfg.physical_bytes(lower_capacity) / cfg.page_bytes);
        const double segments = double(cfg.physical_bytes(lower_capacity) / cfg.segment_bytes);
        return (4.0 * logical + 4.0 * physical + 20.0 * segments) / logical;
    }

    const tl_config& config() const { return cfg_; }
    const std::string& device_name() const { return name_; }
    std::uint64_t logical_capacity() const { return logical_bytes_; }
    std::uint64_t physical_capacity() const { return physical_bytes_; }
    std::uint64_t spare_bytes() const { return spare_bytes_; }
    std::uint64_t page_bytes() const { return page_; }
    std::uint64_t segment_bytes() const { return segment_; }
    std::uint64_t segment_count() const { return physical_bytes_ / segment_; }

    //! Puts host requests on a machine's virtual clock: each is submitted at the host's time,
    //! the lower-device I/O it causes starts no earlier, and it ends when that I/O ends (a write
    //! absorbed by the segment buffer ends when it was submitted). Set before any I/O.
    void set_clock(const modelled_clock* virtual_clock) { virtual_clock_ = virtual_clock; }

private:
    //! A host request that serves inside a modelled_submit_frame and records its modelled end.
    class timed_request : public stxxl::serving_request, public modelled_request {
    public:
        timed_request(const stxxl::completion_handler& on_cmpl, translation_layer* f, void* buf,
                      offset_type off, size_type bytes, request_type type, double submit_s)
            : stxxl::serving_request(on_cmpl, f, buf, off, bytes, type), submit_s_(submit_s),
              completion_s_(submit_s) {}
        double completion_s() const override { return completion_s_; }
        //! Serves the request (the layer's I/O thread): moves the data, then signals completion.
        void run() { serve(); }

    protected:
        void serve() override {
            // The lower file's charges raise completion_s_ inside serve(), before it signals
            // completion to the waiter.
            modelled_submit_frame& frame = modelled_submit_frame::current();
            frame = {submit_s_, &completion_s_, true};
            stxxl::serving_request::serve();
            frame.active = false;
        }

    private:
        double submit_s_;
        double completion_s_;
    };

    //! Queues a host request at the host's modelled time now (or, from inside a layer above
    //! serving one of its requests, at that request's time).
    stxxl::request_ptr queue_timed(void* buffer, offset_type pos, size_type bytes,
                                   stxxl::request::request_type type,
                                   const stxxl::completion_handler& on_cmpl) {
        const modelled_submit_frame& frame = modelled_submit_frame::current();
        const double submit_s = frame.active ? frame.submit_s : virtual_clock_ ? virtual_clock_->now() : 0.0;
        stxxl::request_ptr req(new timed_request(on_cmpl, this, buffer, pos, bytes, type, submit_s));
        {
            std::lock_guard<std::mutex> lock(fifo_mu_);
            fifo_.push_back(req);
            ++queued_;
        }
        fifo_cv_.notify_one();
        return req;
    }

    //! The layer's I/O thread: serves queued requests one by one, oldest first, until the
    //! destructor asks it to stop and nothing is queued.
    void serve_in_order() {
        for (;;) {
            stxxl::request_ptr req;
            {
                std::unique_lock<std::mutex> lock(fifo_mu_);
                fifo_cv_.wait(lock, [&] { return stopping_ || !fifo_.empty(); });
                if (fifo_.empty()) return;
                req = std::move(fifo_.front());
                fifo_.pop_front();
            }
            static_cast<timed_request*>(req.get())->run();
            req = stxxl::request_ptr(); // released before it counts as served
            {
                std::lock_guard<std::mutex> lock(fifo_mu_);
                ++served_;
            }
            served_cv_.notify_all();
        }
    }

    //! Blocks until every request queued before the call has been served (not those queued
    //! meanwhile by other threads, so it cannot starve). From the layer's own I/O thread (a
    //! completion handler calling discard or flush) it returns at once.
    void wait_for_queued() {
        if (std::this_thread::get_id() == worker_.get_id()) return;
        std::unique_lock<std::mutex> lock(fifo_mu_);
        const std::uint64_t submitted = queued_;
        served_cv_.wait(lock, [&] { return served_ >= submitted; });
    }

    struct free_deleter {
        void operator()(char* p) const { std::free(p); }
    };
    using buffer_ptr = std::unique_ptr<char[], free_deleter>;

    static buffer_ptr make_buffer(std::uint64_t bytes) {
        void* p = std::aligned_alloc(4096, bytes);
        if (!p) throw std::bad_alloc();
        return buffer_ptr(static_cast<char*>(p));
    }

    //! Refuses a queue id that is also one of the lower file's queue ids.
    void check_queue_id(stxxl::file& lower, int queue_id) const {
        std::vector<int> lower_ids{lower.get_queue_id()};
        if (const auto* em = dynamic_cast<const emulated_file*>(&lower))
            lower_ids.insert(lower_ids.end(), em->extra_queue_ids().begin(), em->extra_queue_ids().end());
        if (std::find(lower_ids.begin(), lower_ids.end(), queue_id) == lower_ids.end()) return;
        std::string ids;
        for (int id : lower_ids)
            ids += (ids.empty() ? "" : ", ") + std::to_string(id);
        throw config_error("translation layer on device '" + name_ + "': queue id " +
                           std::to_string(queue_id) + " is also a queue id of the lower file (its queues: " +
                           ids + "); a device's layer and lower file need distinct queue ids");
    }

    //! STXXL creates a queue (and its I/O thread) at the first request for its id, inserting into
    //! an unsynchronised process-wide map. Create the lower file's now, in the constructing
    //! thread (the layer serves its own requests in its own thread, outside that map).
    void create_lower_queues() {
        if (auto* em = dynamic_cast<emulated_file*>(&lower_))
            em->touch_queue();                               // it rejects empty requests of its own
        else if (!dynamic_cast<translation_layer*>(&lower_)) // a layer creates its queues itself
            lower_.aread(open_buf_.get(), 0, 0)->wait();
    }

    static tl_config validated(const tl_config& cfg, std::uint64_t lower_capacity, const std::string& name) {
        cfg.validate(lower_capacity, name);
        return cfg;
    }

    std::string describe(const char* what, std::uint64_t offset, std::uint64_t bytes) const {
        return "device '" + name_ + "' (translation layer, page " + format_size(page_) + "): " + what +
               " of " + std::to_string(bytes) + " bytes at logical offset " + std::to_string(offset);
    }

    void check_request(bool is_write, const void* buffer, std::uint64_t offset, std::uint64_t bytes) const {
        const char* what = is_write ? "write" : "read";
        if (bytes == 0 || offset % page_ != 0 || bytes % page_ != 0)
            throw invalid_request(describe(what, offset, bytes) +
                                  ": offset and length must be non-zero multiples of the page size " +
                                  std::to_string(page_));
        if (reinterpret_cast<std::uintptr_t>(buffer) % 4096 != 0)
            throw invalid_request(describe(what, offset, bytes) + ": buffer is not 4 KiB aligned");
        if (offset > logical_bytes_ || bytes > logical_bytes_ - offset) {
            const std::string why = ": ends beyond the logical capacity of " +
                                    std::to_string(logical_bytes_) + " bytes (" +
                                    std::to_string(physical_bytes_) + " physical minus " +
                                    std::to_string(spare_bytes_) + " spare)";
            if (is_write)
                throw out_of_space(name_, "translation layer: " + describe(what, offset, bytes) + why);
            throw invalid_request(describe(what, offset, bytes) + why);
        }
    }

    std::uint64_t map_memory_bytes_locked() const { return map_.memory_bytes() + segments_.memory_bytes(); }

    //! Why the layer does a lower I/O (named in its error message).
    enum class lower_purpose { host_read, cleaning, seal, flush };

    //! One lower request, waited for. A failure becomes io_failure naming the operation, the
    //! physical offset and why the layer did it (`segment`: the segment written or cleaned),
    //! with the lower file's message last.
    void lower_io(bool is_write, char* buf, std::uint64_t physical_offset, std::uint64_t bytes,
                  lower_purpose why, std::uint32_t segment) {
        try {
            stxxl::request_ptr req = is_write ? lower_.awrite(buf, physical_offset, bytes)
                                              : lower_.aread(buf, physical_offset, bytes);
            req->wait();
            // A lower file that charges in another thread (a layer below) ends this request too.
            modelled_submit_frame& frame = modelled_submit_frame::current();
            if (frame.active)
                if (const auto* timed = dynamic_cast<const modelled_request*>(req.get()))
                    *frame.completion_out = std::max(*frame.completion_out, timed->completion_s());
        } catch (const std::exception& e) {
            const std::string seg = std::to_string(segment);
            const std::string purpose = why == lower_purpose::host_read  ? "for a host read"
                                        : why == lower_purpose::cleaning ? "cleaning segment " + seg
                                        : why == lower_purpose::seal     ? "writing out full segment " + seg
                                                                         : "flushing open segment " + seg;
            throw io_failure(
                "device '" + name_ + "' (translation layer): " + (is_write ? "writing " : "reading ") +
                std::to_string(bytes) + " bytes at physical offset " + std::to_string(physical_offset) +
                " of the lower file (" + purpose + ") failed: " + e.what());
        }
        if (is_write) {
            stats_.device_bytes_written += bytes;
            ++stats_.device_writes;
        } else {
            stats_.device_bytes_read += bytes;
            ++stats_.device_reads;
        }
    }
    //! Frees a segment that holds no valid page, then tells the lower device (TRIM). The TRIM
    //! is last and best effort: the segment is free whatever the lower file says, and a
    //! failure is counted (discard_failures), not thrown, so no caller's bookkeeping is cut short.
    void release_segment(std::uint32_t s) noexcept {
        segments_.release(s);
        try {
            lower_.discard(std::uint64_t(s) * segment_, segment_);
        } catch (...) {
            ++stats_.discard_failures;
        }
    }

    //! Unmaps logical page l; returns whether it was mapped. A sealed segment left without
    //! valid pages becomes free at once.
    bool invalidate(std::uint64_t l) {
        const page_map::page_t p = map_.unmap(l);
        if (p == page_map::none) return false;
        const std::uint32_t s = static_cast<std::uint32_t>(p / pps_);
        if (segments_.remove_valid(s) == 0 && segments_.state_of(s) == segment_table::state::sealed) {
            release_segment(s);
            ++stats_.segments_emptied;
        }
        return true;
    }

    //! Writes the open segment out (the part not flushed yet: all of it, Bw bytes, unless a
    //! flush wrote a prefix) and closes it. A segment whose pages were all overwritten while
    //! open is freed without writing (counted in segments_emptied). The state changes only
    //! after the write succeeded.
    void seal_open() {
        const std::uint32_t s = open_seg_;
        if (segments_.valid(s) == 0) {
            release_segment(s);
            ++stats_.segments_emptied;
        } else {
            lower_io(true, open_buf_.get() + std::uint64_t(flushed_) * page_,
                     std::uint64_t(s) * segment_ + std::uint64_t(flushed_) * page_,
                     std::uint64_t(fill_ - flushed_) * page_, lower_purpose::seal, s);
            segments_.seal(s, clock_);
            ++stats_.segments_sealed;
        }
        open_seg_ = segment_table::none;
        fill_ = flushed_ = 0;
    }

    //! Makes sure an open segment with room exists, cleaning first when free segments are low.
    void ensure_open() {
        if (open_seg_ != segment_table::none && fill_ == pps_) seal_open(); // a failed seal, retried
        if (open_seg_ != segment_table::none) return;
        if (!cleaning_ && segments_.free_count() < cfg_.low_watermark_segments) clean();
        if (open_seg_ != segment_table::none) return; // the cleaner left a partly filled segment open
        if (segments_.free_count() == 0)
            throw io_failure("device '" + name_ +
                             "' (translation layer): internal error: no free segment "
                             "although the spare of " +
                             std::to_string(spare_bytes_) + " bytes should guarantee one");
        open_seg_ = segments_.take_free();
        fill_ = flushed_ = 0;
    }

    //! Appends one page (copied from `src`) as the new home of logical page l, whose old
    //! mapping must be gone. Requires ensure_open() just before. If sealing the now full segment
    //! fails, the page stays readable in the buffer and the seal is retried by ensure_open().
    void put(std::uint64_t l, const char* src) {
        std::memcpy(open_buf_.get() + std::uint64_t(fill_) * page_, src, page_);
        map_.map(l, std::uint64_t(open_seg_) * pps_ + fill_);
        segments_.add_valid(open_seg_);
        ++fill_;
        if (fill_ == pps_) seal_open();
    }

    //! Cleans victims until low_watermark_segments are free. Progress is guaranteed: with
    //! spare >= (low_watermark + 1) * Bw and fewer than low_watermark free segments, the sealed
    //! segments hold more pages than there are live logical pages, so some sealed segment has
    //! garbage; each round removes its garbage and needs at most one new segment for the copies.
    void clean() {
        cleaning_ = true;
        struct reset {
            bool& flag;
            ~reset() { flag = false; }
        } guard{cleaning_};
        while (segments_.free_count() < cfg_.low_watermark_segments) {
            const std::uint32_t victim = segments_.pick_victim(cfg_.policy, pps_, clock_);
            if (victim == segment_table::none) break;
            clean_segment(victim);
        }
    }

    //! Reads the victim's valid pages (one lower read per run of adjacent valid pages), appends
    //! them to the log and frees the victim.
    void clean_segment(std::uint32_t v) {
        if (!gc_buf_) gc_buf_ = make_buffer(segment_);
        const std::uint64_t base = std::uint64_t(v) * pps_;
        for (std::uint32_t i = 0; i < pps_;) {
            if (map_.logical(base + i) == page_map::none) {
                ++i;
                continue;
            }
            std::uint32_t j = i + 1;
            while (j < pps_ && map_.logical(base + j) != page_map::none)
                ++j;
            lower_io(false, gc_buf_.get() + std::uint64_t(i) * page_, (base + i) * page_,
                     std::uint64_t(j - i) * page_, lower_purpose::cleaning, v);
            i = j;
        }
        for (std::uint32_t i = 0; i < pps_; ++i) {
            if (map_.logical(base + i) == page_map::none) continue;
            ensure_open(); // may throw (lower I/O): the page is still mapped to the victim then
            const page_map::page_t l = map_.logical(base + i);
            map_.unmap(l);
            segments_.remove_valid(v);
            ++stats_.cleaning_page_copies; // before put(): its seal may throw with the page mapped
            put(l, gc_buf_.get() + std::uint64_t(i) * page_);
        }
        release_segment(v);
        ++stats_.segments_cleaned;
    }

    void write_pages(const char* buffer, std::uint64_t offset, std::uint64_t bytes) {
        const std::uint64_t first = offset / page_, n = bytes / page_;
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t l = first + i;
            ensure_open(); // first: if cleaning or a seal fails, the page keeps its old data
            if (invalidate(l)) --stats_.live_pages;
            // counted before put(): it maps the page, and then its seal of a full segment may
            // throw; the page is live and readable all the same
            ++stats_.live_pages;
            ++clock_;
            stats_.host_bytes_written += page_;
            put(l, buffer + i * page_);
        }
    }

    void read_pages(char* buffer, std::uint64_t offset, std::uint64_t bytes) {
        const std::uint64_t first = offset / page_, n = bytes / page_;
        for (std::uint64_t i = 0; i < n; ++i)
            if (map_.physical(first + i) == page_map::none)
                throw invalid_request(describe("read", offset, bytes) + ": the page at logical offset " +
                                      std::to_string((first + i) * page_) +
                                      " was never written or was discarded");
        // Runs of pages that are adjacent on the lower device become one lower read.
        std::uint64_t run_start = 0, run_len = 0, run_phys = 0, from_buffer = 0;
        auto end_run = [&] {
            if (run_len)
                lower_io(false, buffer + run_start * page_, run_phys * page_, run_len * page_,
                         lower_purpose::host_read, static_cast<std::uint32_t>(run_phys / pps_));
            run_len = 0;
        };
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t p = map_.physical(first + i);
            const std::uint64_t s = p / pps_;
            if (s == open_seg_ && p % pps_ < fill_) {
                end_run();
                std::memcpy(buffer + i * page_, open_buf_.get() + (p % pps_) * page_, page_);
                from_buffer += page_;
                continue;
            }
            if (run_len && p == run_phys + run_len) {
                ++run_len;
            } else {
                end_run();
                run_start = i;
                run_phys = p;
                run_len = 1;
            }
        }
        end_run();
        // counted only for a request that succeeded, so that buffer_bytes_read <= host_bytes_read
        stats_.buffer_bytes_read += from_buffer;
        stats_.host_bytes_read += bytes;
    }

    stxxl::file& lower_;
    const tl_config cfg_;
    const std::string name_;
    const std::uint64_t page_, segment_;
    const std::uint32_t pps_; // pages per segment
    const std::uint64_t physical_bytes_, spare_bytes_, logical_bytes_;

    mutable std::mutex mu_;
    page_map map_;
    segment_table segments_;
    buffer_ptr open_buf_;
    buffer_ptr gc_buf_; // allocated at the first cleaning round
    std::uint32_t open_seg_ = segment_table::none;
    std::uint32_t fill_ = 0;    // pages appended to the open segment
    std::uint32_t flushed_ = 0; // pages of the open segment already on the lower device
    std::uint64_t clock_ = 0;   // host pages written (the cost-benefit age clock)
    bool cleaning_ = false;
    tl_stats stats_;
    const modelled_clock* virtual_clock_ = nullptr; // the machine's, or none

    // The layer's I/O thread and its FIFO of host requests (guarded by fifo_mu_).
    std::mutex fifo_mu_;
    std::condition_variable fifo_cv_;   // a request was queued, or stopping_ was set
    std::condition_variable served_cv_; // a request was served
    std::deque<stxxl::request_ptr> fifo_;
    std::uint64_t queued_ = 0; // requests queued so far; served in this order
    std::uint64_t served_ = 0; // of which served (and released by the I/O thread)
    bool stopping_ = false;    // set by the destructor: serve what is queued, then end
    std::thread worker_;       // started last in the constructor
};

} // namespace flashxxl
