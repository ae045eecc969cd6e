// An external merge-based priority queue: insertion heap, lazily merged sorted external arrays, range_merger
// selection.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/container/parallel_merge.hpp"
#include "flashxxl/container/parallel_run_merger.hpp"
#include "flashxxl/container/range_merger.hpp"
#include "flashxxl/container/sort_range.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
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
//! push_batch() and pop_batch() do what push() and top() / pop() do for many items at once,
//! with less work per item and on threads() threads where it pays: a large batch is sorted
//! into internal runs in parallel, and pops leave in bulk merge steps (merge_sorted) over what
//! is in memory. The popped keys are exactly those of the one-at-a-time calls.
//!
//! Items with equal keys are ordinary items here: nothing relies on distinct keys or on
//! sentinel values, unlike STXXL's queue (STXXL issue #20). Memory: at most M in buffers and
//! bookkeeping (memory_usage(M) == M: the arena about 3M / 4, reader slots, a 2 x Bw writer
//! while writing or merging arrays), plus the arrays' directories, directory_memory(N). T must
//! be trivially copyable; it need not be default-constructible. Not thread-safe.
//!
//! Failures: writing the internal runs out as an external array (a spill) that fails, for want
//! of room (out_of_space, naming the device, the role and "flashxxl::priority_queue") or in its
//! I/O, loses nothing: the runs are still whole in the arena, so the queue throws that failure,
//! keeps every item it held and tries the spill again at the next push or push_batch. A push
//! that failed so added nothing; a push_batch added the first size() - (size() before) items of
//! its batch; top, pop and pop_batch go on as before. A merge of external arrays that fails
//! (for room or I/O; it consumes its inputs as it writes), and a pop whose read fails
//! (io_failure), leave arrays half consumed or half written: the queue then throws that failure
//! from every push, top and pop (failure_latch); size() stays readable.
//!
//! Block sizes are a run-time value (block_sizes, given to the constructor); nothing per item
//! depends on them. The constructor without block_sizes uses the device's; a compile-time
//! blocks<Br, Bw>{} converts to block_sizes.
template <class T, class Cmp = std::less<T>> class priority_queue_body {
public:
    using value_type = T;
    using reader_type = block_reader<T>;

    //! Memory set aside from M for bookkeeping (selection trees, array directory, requests).
    static constexpr std::uint64_t reserve(std::uint64_t memory) { return 16 * 1024 + memory / 64; }
    //! Memory a queue with budget M and block sizes `b` holds at most: all of M.
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes&) {
        return memory.bytes();
    }
    //! Bound on the external arrays' directories for `items` items queued, held besides M:
    //! one 48-byte segment record per Bw written, counted four times (the inputs and the
    //! output of a merge, vector slack). For Bw = 16 MiB that is 12 bytes per MiB queued.
    std::uint64_t directory_memory(std::uint64_t items) const {
        std::uint64_t segments =
            block_layout<T>(blocks_.br).bytes_for(items) / blocks_.bw + 2 * max_arrays_ + 2;
        return 4 * sizeof(segment) * segments;
    }
    //! The smallest budget accepted with block sizes `b`: a 2 x Bw writer, 4 reader slots, a
    //! small insertion heap.
    static std::uint64_t min_memory(const block_sizes& b) {
        std::uint64_t need = buffer_floor(b);
        return need + reserve(need) + reserve(need) / 32 + 4096;
    }
    //! min_memory(b) for seeds/001's sizes (128 KiB / 16 MiB).
    static std::uint64_t min_memory() { return min_memory(block_sizes()); }

    //! A queue with budget `memory` (bytes of buffers and bookkeeping) and block sizes `b`,
    //! writing its external arrays under role `r`. config_error when `b` breaks a rule of
    //! block_sizes, when an item does not fit in one Br block, or when the budget is below
    //! min_memory(b). Its account rolls up into the budget's (memory_budget::account).
    priority_queue_body(machine& m, const memory_budget& budget, const block_sizes& b, Cmp cmp = Cmp(),
                        role r = role::hot)
        : machine_(&m), memory_(budget.bytes()), blocks_((b.validate(), b)), cmp_(std::move(cmp)), role_(r),
          account_(budget.account()) {
        budget.require(min_memory(blocks_), "flashxxl::priority_queue",
                       std::string("a 2 x Bw writer, 4 reader slots and a small insertion heap, Br = ") +
                           format_bytes(double(blocks_.br)) + ", Bw = " + format_bytes(double(blocks_.bw)));
        const std::uint64_t memory = memory_;
        (void)block_layout<T>(blocks_.br); // config_error when an item does not fit in one read block
        std::uint64_t usable = memory > reserve(memory) ? memory - reserve(memory) : 0;
        if (usable < buffer_floor(blocks_))
            throw config_error("flashxxl::priority_queue: memory budget " + format_bytes(double(memory)) +
                               " is too small for Br = " + format_bytes(double(blocks_.br)) +
                               ", Bw = " + format_bytes(double(blocks_.bw)) + " (need at least " +
                               format_bytes(double(min_memory(blocks_))) + ")");
        std::uint64_t rest = usable - 2 * blocks_.bw;
        // Three quarters for the arena (an item that stays in it is never written), a quarter
        // for reader slots (the external fan-in). A slot is a Br block plus one prefetched
        // block; when that would give fewer than 16 slots (Br large against M), slots drop
        // the prefetch: twice the slots merge far less.
        array_prefetch_ = rest / 4 / reader_type::memory_usage(blocks_, 1) >= 16 ? 1 : 0;
        std::uint64_t slot_bytes = reader_type::memory_usage(blocks_, array_prefetch_);
        std::uint64_t arena_bytes =
            std::max<std::uint64_t>(std::min(rest / 4 * 3, rest - 4 * slot_bytes), 8192);
        arena_capacity_ = std::max<std::uint64_t>(arena_bytes / sizeof(T), 1);
        // The heap stays small enough for the cache (64 Ki items at most); full heaps become
        // sorted internal runs, up to about 64 of them.
        heap_capacity_ = std::min<std::uint64_t>(
            arena_capacity_,
            std::max<std::uint64_t>(std::min<std::uint64_t>(arena_capacity_ / 64, 65536), 64));
        max_arrays_ = std::size_t((rest - arena_capacity_ * sizeof(T)) / slot_bytes);
        merge_fan_in_ = std::max<std::size_t>(2, max_arrays_ / 2);
        arena_ = aligned_buffer(arena_capacity_ * sizeof(T), &account_);
        rebuild_tree();
    }
    //! The same with the block sizes of the device role `r` is placed on (machine::block_sizes_for).
    priority_queue_body(machine& m, const memory_budget& budget, Cmp cmp = Cmp(), role r = role::hot)
        : priority_queue_body(m, budget, m.block_sizes_for(r), std::move(cmp), r) {}
    priority_queue_body(const priority_queue_body&) = delete;
    priority_queue_body& operator=(const priority_queue_body&) = delete;
    ~priority_queue_body() = default; // readers wait for their requests; their segments give the extents back

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
    //! (parallel_run_merger), sort the large heaps of push_batch() and merge the bulk steps
    //! of pop_batch(): default_threads() unless set. top() / pop() stay on the caller's thread.
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
    //! Bulk steps pop_batch() merged so far (each moved at least one item).
    std::uint64_t bulk_steps() const { return bulk_steps_; }

    //! Adds x. A failed spill (see Failures) adds nothing.
    void push(const T& x) {
        failed_.check("flashxxl::priority_queue::push");
        if (spill_due_) retry_spill();
        if (heap_size_ == heap_capacity_) seal_heap();
        T* h = heap();
        std::memcpy(static_cast<void*>(h + heap_size_), &x, sizeof(T));
        ++heap_size_;
        std::push_heap(h, h + heap_size_, cmp_);
        ++size_;
    }
    //! Pushes the items of [first, last): the same queue as push() of each in order (the same
    //! pop sequence of keys follows), with less work per item. The items are copied into the
    //! insertion heap's free room in the arena and the heap order is restored once per batch
    //! (std::make_heap when the batch is large against the heap, else push_heap per item). A
    //! batch that fills the heap goes on into the rest of the arena, and that whole part is
    //! sorted into internal runs at once, on threads() threads (one chunk per thread, each
    //! chunk a run of at least heap_capacity() items, so there are never more internal runs
    //! than one-at-a-time pushes make); when that fills the arena, the runs are spilled as
    //! usual. Input iterators that are not forward iterators are pushed one at a time.
    template <class It> void push_batch(It first, It last) {
        failed_.check("flashxxl::priority_queue::push_batch");
        using category = typename std::iterator_traits<It>::iterator_category;
        if constexpr (!std::is_base_of<std::forward_iterator_tag, category>::value) {
            for (; first != last; ++first)
                push(*first);
        } else {
            std::uint64_t left = std::uint64_t(std::distance(first, last));
            while (left > 0) {
                if (spill_due_) retry_spill();
                if (heap_size_ >= heap_capacity_) seal_heap();
                const std::uint64_t before = heap_size_;
                if (before + left < heap_capacity_) { // the batch stays in the heap
                    first = copy_to_heap(first, left);
                    left = 0;
                    restore_heap(before);
                    break;
                }
                // The batch fills the heap: take what the arena holds, sort it into runs.
                std::uint64_t k = std::min(left, arena_capacity_ - used_ - before);
                first = copy_to_heap(first, k);
                left -= k;
                seal_heap();
            }
        }
    }

    //! The greatest item (not empty()).
    const T& top() const {
        check_not_empty("top");
        failed_.check("flashxxl::priority_queue::top");
        if (from_heap()) return heap()[0];
        return merger_.top();
    }
    void pop() {
        check_not_empty("pop");
        failed_.check("flashxxl::priority_queue::pop");
        if (from_heap()) {
            T* h = heap();
            std::pop_heap(h, h + heap_size_, cmp_);
            --heap_size_;
            --size_;
            return;
        }
        failed_.run([&] { merger_.pop(); }); // may read an array's next block
        --size_;
    }
    //! Pops up to `count` items into `out`, in pop order (greatest first); returns how many
    //! (fewer only when the queue runs empty). The same items, in the same key order, as
    //! `count` top() / pop() pairs, with less work per item: while the insertion heap's top
    //! does not leave next, the selection moves items in bulk. A bulk step merges what is in
    //! memory (every internal run, each external array's current Br block) with
    //! merge_sorted on threads() threads, up to the smallest last item of an array's current
    //! block (the array's unread items come after it) and before the heap's top. Steps are
    //! tried for at least `bulk_pop_min_items` items; when the bounds keep them short (the
    //! heap's top close behind, small blocks) the queue pops one at a time for a while.
    //! `out` is written directly when it is a T* or a std::vector<T>::iterator, else through
    //! a small staging array on the stack.
    template <class OutputIt> std::uint64_t pop_batch(OutputIt out, std::uint64_t count) {
        failed_.check("flashxxl::priority_queue::pop_batch");
        return failed_.run([&] { return pop_batch_unchecked(out, count); });
    }
    //! Least items a pop_batch() call (or what is left of it) asks for before it merges in
    //! bulk steps; below that, items leave one at a time.
    static constexpr std::uint64_t bulk_pop_min_items = 4096;

private:
    template <class OutputIt> std::uint64_t pop_batch_unchecked(OutputIt out, std::uint64_t count) {
        count = std::min(count, size_);
        std::uint64_t done = 0;
        while (done < count) {
            if (heap_size_ > 0 && from_heap()) {
                *out = heap()[0];
                ++out;
                T* h = heap();
                std::pop_heap(h, h + heap_size_, cmp_);
                --heap_size_;
                --size_;
                ++done;
                continue;
            }
            // The selection's top leaves next (it is not empty: the heap's top does not).
            const std::uint64_t want = count - done;
            if (want >= bulk_pop_min_items && sequential_pops_ == 0) {
                std::uint64_t got = 0;
                if constexpr (std::is_same<OutputIt, T*>::value ||
                              std::is_same<OutputIt, typename std::vector<T>::iterator>::value) {
                    got = bulk_pop(&*out, want);
                    out += std::ptrdiff_t(got);
                } else {
                    constexpr std::size_t stage_items = std::max<std::size_t>(1, 64 * 1024 / sizeof(T));
                    alignas(T) unsigned char stage[stage_items * sizeof(T)];
                    T* st = std::launder(reinterpret_cast<T*>(stage));
                    got = bulk_pop(st, std::min<std::uint64_t>(want, stage_items));
                    for (std::uint64_t i = 0; i < got; ++i, ++out)
                        *out = st[i];
                }
                done += got;
                // A short step: the bounds are tight here; go on one at a time for a while.
                if (got < bulk_pop_min_items / 8) sequential_pops_ = bulk_pop_min_items;
                continue;
            }
            // One at a time while the selection's top leaves before the heap's.
            while (done < count && !merger_.empty() &&
                   (heap_size_ == 0 || pop_order_(merger_.top(), heap()[0]))) {
                *out = merger_.top();
                ++out;
                merger_.pop();
                --size_;
                ++done;
                if (sequential_pops_ > 0) --sequential_pops_;
            }
        }
        return done;
    }

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
        priority_queue_body* q;
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
        template <class F> bool for_each_ready(std::size_t, F&&) const { return true; }
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
        template <class F> bool for_each_ready(std::size_t, F&&) const { return false; }
    };

    //! Buffer bytes the budget must cover beyond the reserve: a 2 x Bw writer, 4 reader slots
    //! (a Br block and one prefetched) and a small insertion heap.
    static std::uint64_t buffer_floor(const block_sizes& b) {
        return 2 * b.bw + 4 * reader_type::memory_usage(b, 1) + 2 * 4096;
    }

    T* heap() { return arena_.template as<T>() + used_; }
    const T* heap() const { return arena_.template as<T>() + used_; }

    void check_not_empty(const char* what) const {
        if (size_ == 0)
            throw invalid_request(std::string("flashxxl::priority_queue::") + what + " on an empty queue");
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
        runs_.erase(
            std::remove_if(runs_.begin(), runs_.end(), [](const internal_run& r) { return r.cur == r.end; }),
            runs_.end());
        drop_exhausted();
        merger_.start(arrays_.size() + runs_.size());
    }

    //! The full insertion heap becomes a sorted internal run; when the arena has no room for
    //! another heap, all internal runs are merged into one external array. A heap that a
    //! push_batch() grew to at least 2 heap_capacity() items is sorted as one chunk per
    //! thread (each chunk at least heap_capacity() items), each chunk an internal run.
    //! A failed spill of the runs keeps them (spill_due_); any other failure latches failed_:
    //! the arrays may be half merged.
    void seal_heap() {
        keep_or_latch([&] { seal_heap_unchecked(); });
    }
    //! The spill a failure left due (push and push_batch call it before they add items).
    void retry_spill() {
        spill_due_ = false;
        keep_or_latch([&] {
            sync_positions();
            spill_runs();
            rebuild_tree();
        });
    }
    //! Runs f(); a failure passes on (an out_of_space naming this queue as its structure),
    //! latched unless it was a spill that kept the runs.
    template <class F> void keep_or_latch(F&& f) {
        try {
            rethrow_out_of_space_in("flashxxl::priority_queue", f);
        } catch (...) {
            if (!spill_due_) failed_.latch();
            throw;
        }
    }
    void seal_heap_unchecked() {
        sync_positions();
        T* h = heap();
        const std::uint64_t n = heap_size_;
        const std::size_t pieces = std::size_t(std::min<std::uint64_t>(threads_, n / heap_capacity_));
        if (pieces <= 1) {
            sort_range(h, h + n, pop_order_);
            runs_.push_back(internal_run{h, h + n});
        } else {
            team().run(pieces, [&](std::size_t t) {
                sort_range(h + n * t / pieces, h + n * (t + 1) / pieces, pop_order_);
            });
            for (std::size_t t = 0; t < pieces; ++t)
                runs_.push_back(internal_run{h + n * t / pieces, h + n * (t + 1) / pieces});
        }
        used_ += n;
        heap_size_ = 0;
        if (used_ + heap_capacity_ > arena_capacity_) spill_runs();
        rebuild_tree();
    }

    //! Copies k items from `first` behind the heap's items (room checked by the caller).
    template <class It> It copy_to_heap(It first, std::uint64_t k) {
        T* dst = heap() + heap_size_;
        for (std::uint64_t i = 0; i < k; ++i, ++first) {
            const T& x = *first;
            std::memcpy(static_cast<void*>(dst + i), &x, sizeof(T));
        }
        heap_size_ += k;
        size_ += k;
        return first;
    }
    //! Restores the heap order after items were appended behind the first `before`.
    void restore_heap(std::uint64_t before) {
        T* h = heap();
        if (4 * (heap_size_ - before) >= heap_size_) {
            std::make_heap(h, h + heap_size_, cmp_);
        } else {
            for (std::uint64_t i = before + 1; i <= heap_size_; ++i)
                std::push_heap(h, h + i, cmp_);
        }
    }

    //! The team for parallel sorts and bulk pops (started at first use, resized with threads_).
    merge_team& team() {
        if (!team_ || team_->size() != threads_) team_ = std::make_unique<merge_team>(threads_);
        return *team_;
    }

    //! One bulk step of pop_batch(): merges up to `want` items that may leave now into `dst`
    //! (see pop_batch()) and returns how many (at least one when the selection's top leaves
    //! before the heap's).
    std::uint64_t bulk_pop(T* dst, std::uint64_t want) {
        sync_positions();
        bulk_seqs_.clear();
        const T* bound = nullptr; // the smallest last item of a current block with more blocks behind
        for (array& a : arrays_) {
            reader_type& r = *a.reader;
            if (r.empty()) {
                bulk_seqs_.emplace_back(nullptr, nullptr);
                continue;
            }
            T* c = const_cast<T*>(&r.front());
            T* e = c + r.run();
            bulk_seqs_.emplace_back(c, e);
            if (r.size() > r.run() && (bound == nullptr || pop_order_(*(e - 1), *bound))) bound = e - 1;
        }
        for (internal_run& run : runs_)
            bulk_seqs_.emplace_back(const_cast<T*>(run.cur), const_cast<T*>(run.end));
        // What may leave: a prefix of each range, up to the bound and before the heap's top.
        std::uint64_t safe = 0;
        for (const auto& q : bulk_seqs_) {
            T* e = q.second;
            if (bound != nullptr) e = std::upper_bound(q.first, e, *bound, pop_order_);
            if (heap_size_ > 0) e = std::lower_bound(q.first, e, heap()[0], pop_order_);
            safe += std::uint64_t(e - q.first);
            if (safe >= want) break;
        }
        const std::uint64_t len = std::min(want, safe);
        std::size_t i = 0;
        std::vector<T*>& begins = bulk_begins_;
        begins.clear();
        for (const auto& q : bulk_seqs_)
            begins.push_back(q.first);
        merge_sorted(bulk_seqs_, dst, len, pop_order_, threads_ > 1 ? &team() : nullptr);
        for (array& a : arrays_) {
            const std::uint64_t used = std::uint64_t(bulk_seqs_[i].first - begins[i]);
            if (used > 0) a.reader->pop(used);
            ++i;
        }
        for (internal_run& run : runs_)
            run.cur = bulk_seqs_[i++].first;
        size_ -= len;
        ++bulk_steps_;
        rebuild_tree();
        return len;
    }

    //! Writes the remaining items of every internal run, merged, as one external array. When
    //! that write fails the runs are left as they were (the writer gives its extents back),
    //! the selection restarted over them and spill_due_ set before the failure passes on; a
    //! failed merge_smallest() passes on as it is (the caller latches it).
    void spill_runs() {
        drop_exhausted();
        if (arrays_.size() + 1 > max_arrays_) merge_smallest();
        std::vector<segment> segs;
        spill_backup_ = runs_; // the merger consumes runs_; the arena keeps their items
        try {
            parallel_run_merger<T, pop_order, run_source> m(run_source{&runs_}, pop_order_, threads_);
            m.start(runs_.size());
            block_writer<T> w(*machine_, role_, blocks_, counter_, &account_, 2);
            drain_into(m, w);
            segs = w.finish();
        } catch (...) {
            runs_.swap(spill_backup_);
            rebuild_tree();
            spill_due_ = true;
            throw;
        }
        spill_due_ = false;
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
        arrays_.erase(
            std::remove_if(arrays_.begin(), arrays_.end(), [](const array& a) { return a.reader->empty(); }),
            arrays_.end());
    }

    //! Merges arrays_[first, last) into one array (their readers are consumed).
    void merge(std::size_t first, std::size_t last) {
        std::vector<array> in;
        for (std::size_t i = first; i < last; ++i)
            in.push_back(std::move(arrays_[i]));
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
    std::size_t array_prefetch_ = 1; // Br blocks each array's reader prefetches
    aligned_buffer arena_;           // [0, used_): internal runs; then the insertion heap
    std::uint64_t used_ = 0;
    std::uint64_t heap_size_ = 0;
    std::vector<internal_run> runs_;
    std::vector<array> arrays_;
    range_merger<T, pop_order, queue_ranges> merger_{pop_order_, queue_ranges{this}};
    std::uint64_t size_ = 0;
    std::uint64_t counter_ = 0;
    std::uint64_t merges_ = 0;
    std::size_t threads_ = default_threads(); // see threads()
    std::uint64_t arrays_written_ = 0;
    std::unique_ptr<merge_team> team_;         // parallel sorts and bulk pops (see team())
    std::vector<std::pair<T*, T*>> bulk_seqs_; // a bulk pop's ranges (read only)
    std::vector<T*> bulk_begins_;              // where they started
    std::uint64_t sequential_pops_ = 0;        // pop_batch(): one at a time for this many
    std::uint64_t bulk_steps_ = 0;
    bool spill_due_ = false;                 // a spill failed and kept the runs: retry it
    std::vector<internal_run> spill_backup_; // the runs as a spill found them
    failure_latch failed_;
};

//! The external priority queue, documented at priority_queue_body (which does the work): a handle
//! that owns its body on the heap, so that a priority_queue can be moved and swapped (runs,
//! arrays, buffers and accounts stay where they are). A moved-from queue may only be destroyed
//! or assigned to.
template <class T, class Cmp = std::less<T>> class priority_queue {
public:
    using body_type = priority_queue_body<T, Cmp>;
    using value_type = T;
    using reader_type = typename body_type::reader_type;

    static constexpr std::uint64_t reserve(std::uint64_t memory) { return body_type::reserve(memory); }
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes& b) {
        return body_type::memory_usage(memory, b);
    }
    static std::uint64_t min_memory(const block_sizes& b) { return body_type::min_memory(b); }
    static std::uint64_t min_memory() { return body_type::min_memory(); }
    static constexpr std::uint64_t bulk_pop_min_items = body_type::bulk_pop_min_items;

    //! The constructors of priority_queue_body: (m, budget, b, cmp, role) and (m, budget, cmp, role).
    priority_queue(machine& m, const memory_budget& budget, const block_sizes& b, Cmp cmp = Cmp(),
                   role r = role::hot)
        : body_(std::make_unique<body_type>(m, budget, b, std::move(cmp), r)) {}
    priority_queue(machine& m, const memory_budget& budget, Cmp cmp = Cmp(), role r = role::hot)
        : body_(std::make_unique<body_type>(m, budget, std::move(cmp), r)) {}
    priority_queue(priority_queue&&) noexcept = default;
    priority_queue& operator=(priority_queue&&) noexcept = default;
    void swap(priority_queue& o) noexcept { body_.swap(o.body_); }
    friend void swap(priority_queue& a, priority_queue& b) noexcept { a.swap(b); }

    std::uint64_t directory_memory(std::uint64_t items) const { return body_->directory_memory(items); }
    const block_sizes& blocks() const { return body_->blocks(); }
    std::uint64_t size() const { return body_->size(); }
    bool empty() const { return body_->empty(); }
    const memory_account& account() const { return body_->account(); }
    std::uint64_t memory_capacity() const { return body_->memory_capacity(); }
    std::uint64_t heap_capacity() const { return body_->heap_capacity(); }
    std::size_t max_arrays() const { return body_->max_arrays(); }
    std::size_t merge_fan_in() const { return body_->merge_fan_in(); }
    std::size_t threads() const { return body_->threads(); }
    void set_threads(std::size_t n) { body_->set_threads(n); }
    std::size_t arrays() const { return body_->arrays(); }
    std::uint64_t merges() const { return body_->merges(); }
    std::uint64_t arrays_written() const { return body_->arrays_written(); }
    std::uint64_t bulk_steps() const { return body_->bulk_steps(); }

    void push(const T& x) { body_->push(x); }
    template <class It> void push_batch(It first, It last) { body_->push_batch(first, last); }
    const T& top() const { return body_->top(); }
    void pop() { body_->pop(); }
    template <class OutputIt> std::uint64_t pop_batch(OutputIt out, std::uint64_t count) {
        return body_->pop_batch(out, count);
    }

private:
    std::unique_ptr<body_type> body_;
};

} // namespace flashxxl
