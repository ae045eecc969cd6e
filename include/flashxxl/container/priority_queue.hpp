// An external merge-based priority queue: insertion heap, lazily merged sorted external arrays, range_merger selection.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>


#include "flashxxl/container/parallel_merge.hpp"
#include "flashxxl/container/parallel_run_merger.hpp"
#include "flashxxl/container/range_merger.hpp"
#include "flashxxl/container/sort_range.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! A priority queue with std::priority_queue semantics (top() is the greatest item under
//! Cmp; use std::greater for a min-queue) for more items than fit in memory.
//!
//! It only merges, never distributes (seeds/001, Section 3.2: merging runs M/Br-way, while
//! distribution-based queues are limited to M/Bw-way and lose a log factor). Pushed items go to
//! a small insertion heap (at most 64 Ki items, cache-resident). A full heap is sorted into an
//! internal run in an arena of about 3M / 4; when the arena is full, the internal runs are
//! merged and written as one external sorted array with Bw writes. Every external array is
//! read back through its own block_reader (a Br block plus one prefetched Br block, or no
//! prefetch when Br is so large against M that fewer than 16 such slots would fit), whose
//! buffer is the array's share of the deletion buffer; a loser tree over the heads of the
//! internal runs and external arrays, and the heap's top, give top(). External arrays are merged
//! lazily: only when a spill finds every reader slot (about M / (8 Br)) taken are the
//! `merge_fan_in()` (half the slots) smallest arrays merged into one (Br reads, Bw writes).
//! As long as the arrays fit in the slots, each spilled item is written once; in the long run
//! merging the smallest arrays works like a size-tiered log-structured merge tree, and each item
//! is written O(log_{fan-in}(N / M)) times. Extents are released as soon as they are consumed.
//!
//! Items with equal keys are ordinary items here: nothing relies on distinct keys or on
//! sentinel values, unlike STXXL's queue (STXXL issue #20). Memory: at most M in buffers and
//! bookkeeping (memory_usage(M) == M: the arena about 3M / 4, reader slots, a 2 x Bw writer
//! while writing or merging arrays), plus the arrays' directories, directory_memory(N). T must
//! be trivially copyable; it need not be default-constructible. Not thread-safe.
//!
//! Block sizes are a run-time value (block_sizes, given to the constructor); nothing per item
//! depends on them. `Blocks` only names the sizes the constructor without block_sizes uses:
//! the device's (device_blocks, the default) or a compile-time blocks<Br, Bw>.
template <class T, class Cmp = std::less<T>, class Blocks = device_blocks>
class priority_queue {
public:
    using value_type = T;
    using reader_type = block_reader<T>;

    //! Memory set aside from M for bookkeeping (selection trees, array directory, requests).
    static constexpr std::uint64_t reserve(std::uint64_t memory) { return 16 * 1024 + memory / 64; }
    static constexpr std::uint64_t memory_usage(std::uint64_t memory) { return memory; }
    //! Bound on the external arrays' directories for `items` items queued, held besides M:
    //! one 48-byte segment record per Bw written, counted four times (the inputs and the
    //! output of a merge, vector slack). For Bw = 16 MiB that is 12 bytes per MiB queued.
    std::uint64_t directory_memory(std::uint64_t items) const {
        std::uint64_t segments = block_layout<T>(blocks_.br).bytes_for(items) / blocks_.bw + 2 * max_arrays_ + 2;
        return 4 * sizeof(segment) * segments;
    }
    //! The smallest budget accepted with block sizes `b`: a 2 x Bw writer, 4 reader slots, a
    //! small insertion heap.
    static std::uint64_t min_memory(const block_sizes& b) {
        std::uint64_t need = buffer_floor(b);
        return need + reserve(need) + reserve(need) / 32 + 4096;
    }
    //! min_memory() for the sizes `Blocks` names (seeds/001's 128 KiB / 16 MiB for device_blocks).
    static std::uint64_t min_memory() { return min_memory(detail::static_block_sizes<Blocks>()); }

    //! A queue with budget `memory` (bytes of buffers and bookkeeping) and block sizes `b`,
    //! writing its external arrays under role `r`. config_error when `b` breaks a rule of
    //! block_sizes, when an item does not fit in one Br block, or when the budget is below
    //! min_memory(b).
    priority_queue(machine& m, std::uint64_t memory, const block_sizes& b, Cmp cmp = Cmp(), role r = role::hot)
        : machine_(&m), memory_(memory), blocks_((b.validate(), b)), cmp_(std::move(cmp)), role_(r) {
        (void)block_layout<T>(blocks_.br);  // config_error when an item does not fit in one read block
        std::uint64_t usable = memory > reserve(memory) ? memory - reserve(memory) : 0;
        if (usable < buffer_floor(blocks_))
            throw config_error("flashxxl::priority_queue: memory budget " + format_bytes(double(memory)) +
                               " is too small for Br = " + format_bytes(double(blocks_.br)) + ", Bw = " +
                               format_bytes(double(blocks_.bw)) + " (need at least " +
                               format_bytes(double(min_memory(blocks_))) + ")");
        std::uint64_t rest = usable - 2 * blocks_.bw;
        // Three quarters for the arena (an item that stays in it is never written), a quarter
        // for reader slots (the external fan-in). A slot is a Br block plus one prefetched
        // block; when that would give fewer than 16 slots (Br large against M), slots drop
        // the prefetch: twice the slots merge far less.
        array_prefetch_ = rest / 4 / reader_type::memory_usage(blocks_, 1) >= 16 ? 1 : 0;
        std::uint64_t slot_bytes = reader_type::memory_usage(blocks_, array_prefetch_);
        std::uint64_t arena_bytes = std::max<std::uint64_t>(std::min(rest / 4 * 3, rest - 4 * slot_bytes), 8192);
        arena_capacity_ = std::max<std::uint64_t>(arena_bytes / sizeof(T), 1);
        // The heap stays small enough for the cache (64 Ki items at most); full heaps become
        // sorted internal runs, up to about 64 of them.
        heap_capacity_ = std::min<std::uint64_t>(
            arena_capacity_, std::max<std::uint64_t>(std::min<std::uint64_t>(arena_capacity_ / 64, 65536), 64));
        max_arrays_ = std::size_t((rest - arena_capacity_ * sizeof(T)) / slot_bytes);
        merge_fan_in_ = std::max<std::size_t>(2, max_arrays_ / 2);
        arena_ = aligned_buffer(arena_capacity_ * sizeof(T), &account_);
        rebuild_tree();
    }
    //! The same with the sizes `Blocks` names: blocks<Br, Bw>'s, or for device_blocks those of
    //! the device role `r` is placed on (machine::block_sizes_for).
    priority_queue(machine& m, std::uint64_t memory, Cmp cmp = Cmp(), role r = role::hot)
        : priority_queue(m, memory, detail::default_block_sizes<Blocks>::get(m, r), std::move(cmp), r) {}
    priority_queue(const priority_queue&) = delete;
    priority_queue& operator=(const priority_queue&) = delete;
    ~priority_queue() = default;  // readers wait for their requests; their segments give the extents back

    //! The block sizes this queue reads and writes with.
    const block_sizes& blocks() const { return blocks_; }

    std::uint64_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const memory_account& account() const { return account_; }
    //! Items kept in memory (insertion heap and internal runs) before they are written out.
    std::uint64_t memory_capacity() const { return arena_capacity_; }
    //! Items of the insertion heap before it becomes an internal sorted run.
    std::uint64_t heap_capacity() const { return heap_capacity_; }
    //! External arrays that can be open at once (reader slots).
    std::size_t max_arrays() const { return max_arrays_; }
    //! Arrays merged at once when the reader slots run out.
    std::size_t merge_fan_in() const { return merge_fan_in_; }
    //! Threads that merge internal runs into an external array and external arrays into one
    //! (parallel_run_merger): default_threads() unless set. The selection behind top() / pop()
    //! stays on the caller's thread.
    std::size_t threads() const { return threads_; }
    //! Sets the thread count (0: default_threads()); at any time.
    void set_threads(std::size_t n) { threads_ = resolve_threads(n); }
    //! External arrays now.
    std::size_t arrays() const { return arrays_.size(); }
    //! External merges done so far (each reads and writes the merged items once).
    std::uint64_t merges() const { return merges_; }
    //! External arrays written so far (spills and merges that wrote items): each ends with at
    //! most one write shorter than Bw.
    std::uint64_t arrays_written() const { return arrays_written_; }

    void push(const T& x) {
        if (heap_size_ == heap_capacity_) seal_heap();
        T* h = heap();
        std::memcpy(static_cast<void*>(h + heap_size_), &x, sizeof(T));
        ++heap_size_;
        std::push_heap(h, h + heap_size_, cmp_);
        ++size_;
    }
    //! Pushes [first, last).
    template <class It>
    void push_bulk(It first, It last) {
        for (; first != last; ++first) push(*first);
    }

    //! The greatest item (not empty()).
    const T& top() const {
        check_not_empty("top");
        if (from_heap()) return heap()[0];
        return merger_.top();
    }
    void pop() {
        check_not_empty("pop");
        --size_;
        if (from_heap()) {
            T* h = heap();
            std::pop_heap(h, h + heap_size_, cmp_);
            --heap_size_;
            return;
        }
        merger_.pop();
    }
    //! Pops up to n items into `out` (greatest first); returns how many.
    template <class OutputIt>
    std::uint64_t pop_bulk(std::uint64_t n, OutputIt out) {
        std::uint64_t k = 0;
        for (; k < n && !empty(); ++k) {
            *out++ = top();
            pop();
        }
        return k;
    }

private:
    struct array {
        std::unique_ptr<reader_type> reader;
    };
    //! A sorted run in the arena (pop order), consumed from cur.
    struct internal_run {
        const T* cur;
        const T* end;
    };
    //! a leaves the queue before b
    struct pop_order {
        const Cmp* cmp;
        bool operator()(const T& a, const T& b) const { return (*cmp)(b, a); }
    };
    //! The selection's sources: external arrays [0, A), then internal runs.
    struct queue_ranges {
        priority_queue* q;
        bool operator()(std::size_t i, const T*& cur, const T*& end, bool consumed) const {
            if (i < q->arrays_.size()) return q->arrays_[i].reader->next_range(cur, end, consumed);
            internal_run& r = q->runs_[i - q->arrays_.size()];
            if (consumed) r.cur = r.end;
            cur = r.cur;
            end = r.end;
            return cur != end;
        }
    };
    //! External arrays only (for merging them; parallel_run_merger's protocol). A reader
    //! shows only its current block, and may have more: each step is bounded by those blocks.
    struct array_source {
        std::vector<array>* arrays;
        bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) const {
            return (*arrays)[i].reader->next_range(cur, end, consumed);
        }
        template <class F>
        bool for_each_ready(std::size_t, F&&) const {
            return true;
        }
    };
    //! Internal runs only (for writing them out; parallel_run_merger's protocol): all in memory.
    struct run_source {
        std::vector<internal_run>* runs;
        bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) const {
            internal_run& r = (*runs)[i];
            if (consumed) r.cur = r.end;
            cur = r.cur;
            end = r.end;
            return cur != end;
        }
        template <class F>
        bool for_each_ready(std::size_t, F&&) const {
            return false;
        }
    };


    //! Buffer bytes the budget must cover beyond the reserve: a 2 x Bw writer, 4 reader slots
    //! (a Br block and one prefetched) and a small insertion heap.
    static std::uint64_t buffer_floor(const block_sizes& b) {
        return 2 * b.bw + 4 * reader_type::memory_usage(b, 1) + 2 * 4096;
    }

    T* heap() { return arena_.template as<T>() + used_; }
    const T* heap() const { return arena_.template as<T>() + used_; }

    void check_not_empty(const char* what) const {
        if (size_ == 0) throw invalid_request(std::string("flashxxl::priority_queue::") + what + " on an empty queue");
    }
    bool from_heap() const {
        if (heap_size_ == 0) return false;
        if (merger_.empty()) return true;
        return !cmp_(heap()[0], merger_.top());
    }

    //! Tells the sources how far the selection consumed them (before they change).
    void sync_positions() {
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            const T* p = merger_.position(i);
            reader_type& r = *arrays_[i].reader;
            if (p != nullptr) r.pop(std::uint64_t(p - &r.front()));
        }
        for (std::size_t i = 0; i < runs_.size(); ++i) {
            const T* p = merger_.position(arrays_.size() + i);
            runs_[i].cur = p != nullptr ? p : runs_[i].end;
        }
    }

    //! Restarts the selection over the current arrays and runs (positions synced).
    void rebuild_tree() {
        runs_.erase(std::remove_if(runs_.begin(), runs_.end(), [](const internal_run& r) { return r.cur == r.end; }),
                    runs_.end());
        drop_exhausted();
        merger_.start(arrays_.size() + runs_.size());
    }

    //! The full insertion heap becomes a sorted internal run; when the arena has no room for
    //! another heap, all internal runs are merged into one external array.
    void seal_heap() {
        sync_positions();
        T* h = heap();
        sort_range(h, h + heap_size_, pop_order_);
        runs_.push_back(internal_run{h, h + heap_size_});
        used_ += heap_size_;
        heap_size_ = 0;
        if (used_ + heap_capacity_ > arena_capacity_) spill_runs();
        rebuild_tree();
    }

    //! Writes the remaining items of every internal run, merged, as one external array.
    void spill_runs() {
        drop_exhausted();
        if (arrays_.size() + 1 > max_arrays_) merge_smallest();
        std::vector<segment> segs;
        {
            parallel_run_merger<T, pop_order, run_source> m(run_source{&runs_}, pop_order_, threads_);
            m.start(runs_.size());
            block_writer<T> w(*machine_, role_, blocks_, counter_, &account_, 2);
            drain_into(m, w);
            segs = w.finish();
        }
        runs_.clear();
        used_ = 0;
        add_array(std::move(segs));
    }

    //! Frees reader slots: merges the merge_fan_in_ arrays with the fewest items left into one.
    void merge_smallest() {
        std::stable_sort(arrays_.begin(), arrays_.end(),
                         [](const array& a, const array& b) { return a.reader->size() > b.reader->size(); });
        std::size_t take = std::min(arrays_.size(), merge_fan_in_);
        merge(arrays_.size() - take, arrays_.size());
    }

    //! Opens the segments of a written array for reading (the reader owns them from then on).
    void add_array(std::vector<segment> segs) {
        if (!segs.empty()) ++arrays_written_;
        array a;
        a.reader = std::make_unique<reader_type>(*machine_, role_, blocks_, &account_, array_prefetch_);
        a.reader->add_all(segs);
        arrays_.push_back(std::move(a));
    }

    void drop_exhausted() {
        arrays_.erase(std::remove_if(arrays_.begin(), arrays_.end(), [](const array& a) { return a.reader->empty(); }),
                      arrays_.end());
    }

    //! Merges arrays_[first, last) into one array (their readers are consumed).
    void merge(std::size_t first, std::size_t last) {
        std::vector<array> in;
        for (std::size_t i = first; i < last; ++i) in.push_back(std::move(arrays_[i]));
        arrays_.erase(arrays_.begin() + std::ptrdiff_t(first), arrays_.begin() + std::ptrdiff_t(last));
        parallel_run_merger<T, pop_order, array_source> m(array_source{&in}, pop_order_, threads_);
        m.start(in.size());
        std::vector<segment> segs;
        {
            block_writer<T> w(*machine_, role_, blocks_, counter_, &account_, 2);
            drain_into(m, w);
            segs = w.finish();
        }
        in.clear();
        add_array(std::move(segs));
        ++merges_;
    }

    machine* machine_;
    std::uint64_t memory_;
    block_sizes blocks_;
    Cmp cmp_;
    pop_order pop_order_{&cmp_};
    role role_;
    memory_account account_;
    std::uint64_t arena_capacity_ = 0, heap_capacity_ = 0;
    std::size_t max_arrays_ = 0, merge_fan_in_ = 2;
    std::size_t array_prefetch_ = 1;    // Br blocks each array's reader prefetches
    aligned_buffer arena_;              // [0, used_): internal runs; then the insertion heap
    std::uint64_t used_ = 0;
    std::uint64_t heap_size_ = 0;
    std::vector<internal_run> runs_;
    std::vector<array> arrays_;
    range_merger<T, pop_order, queue_ranges> merger_{pop_order_, queue_ranges{this}};
    std::uint64_t size_ = 0;
    std::uint64_t counter_ = 0;
    std::uint64_t merges_ = 0;
    std::size_t threads_ = default_threads();  // see threads()
    std::uint64_t arrays_written_ = 0;
};

} // namespace flashxxl
