// External merge sorter (push / sort / stream out): parallel run formation, Bw-written runs, M/Br-way
// merging.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/background_task.hpp"
#include "flashxxl/container/chunk_sort_pool.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/container/parallel_merge.hpp"
#include "flashxxl/container/parallel_run_merger.hpp"
#include "flashxxl/container/range_merger.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/forecast_prefetcher.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Sorts a stream of items with multiway mergesort in the unit-cost flash model (seeds/001,
//! Section 3.1: splitting Theta(M/Br)-ways transfers Theta(N log_{M/Br}(N/Br)) items, while
//! M/Bw-way splitting, what a single block size B = Bw gives, needs more passes).
//!
//! Use like stxxl::sorter: push() every item, sort(), then read the items in order with
//! `*s`, `++s` and `empty()`. Run formation fills a buffer of run_capacity() items (about
//! M - 2 Bw bytes); its first half is sorted by the sorter's own threads (chunk_sort_pool,
//! threads() of them) as soon as it is filled, while the caller pushes on, the
//! rest by all of them when the buffer is full, and a full buffer is merged from its sorted chunks straight
//! into the Bw write buffers (block_writer), which record the last item of every Br block. sort() merges
//! fan_in() runs at a time until final_fan_in() runs remain, which are merged while the caller
//! streams the output. A merge reads its runs through one pool of Br buffers
//! (forecast_prefetcher): one per run, plus about an eighth of the pool that prefetches the
//! blocks the merge needs next by those recorded keys, so the fan-in is about 7/8 of M / Br.
//!
//! Every merge (chunks into a run, runs into a run, the final merge into the output) runs on
//! threads() threads (parallel_run_merger over merge_sorted: the output is cut into equal
//! pieces by multisequence selection), bounded in each step by the blocks already in memory.
//! threads() is the machine's (OpenMP's default team, default_threads()) unless set_threads()
//! says otherwise. The final merge writes through an output stage (a 64th of M), so operator* /
//! operator++ cost no per-item merge step. passes() counts how often the data was read
//! from the devices (0 when everything fit in memory): the sorter reads and writes
//! N x passes() items in total (up to block rounding).
//!
//! Memory: buffers never exceed the budget M (memory_usage(M) == M), checked through a
//! memory_account; the run directory (48 bytes per Bw written) and the merge steps' bookkeeping
//! (a few words per block in memory) come on top, bounded by directory_memory(N). Comparators are plain
//! strict weak orders (std::less, lambdas): no min/max sentinels. T must be trivially copyable;
//! it need not be default-constructible. Not thread-safe.
//!
//! Failures: an allocation that finds no room (out_of_space), a failed write or read
//! (io_failure), a comparator that throws or a sorting thread that cannot start, met in the
//! middle of run formation, a merge or the output, leaves runs half written or half merged.
//! The sorter latches it (failure_latch): every later push, sort, pop_into, operator* and
//! operator++ throws io_failure naming the first failure, instead of handing out wrong or fewer
//! items; clear() starts over. An out_of_space names the device, the role and the structure
//! ("structure flashxxl::sorter").
//!
//! Block sizes are a run-time value (block_sizes, given to the constructor); nothing per item
//! depends on them. The constructor without block_sizes uses the device's; a compile-time
//! blocks<Br, Bw>{} converts to block_sizes.
template <class T, class Cmp = std::less<T>> class sorter_body {
public:
    using value_type = T;
    using layout_type = block_layout<T>;
    //! A sorted run on the devices: its segments and the last item of each of its Br blocks.
    struct run {
        std::vector<segment> segments;
        std::vector<T> block_keys;
    };

    //! Memory set aside from M for bookkeeping (merge tree, directories, request objects).
    static constexpr std::uint64_t reserve(std::uint64_t memory) { return 16 * 1024 + memory / 64; }
    //! Memory a sorter with budget M and block sizes `b` holds at most in buffers and
    //! bookkeeping: all of M.
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes&) {
        return memory.bytes();
    }
    //! Bound on the run directory for `items` items, held besides M: one 48-byte segment record
    //! per Bw written and one key (sizeof(T)) per Br written, counted four times (old and new
    //! level during a merge, vector slack). For Br = 128 KiB, Bw = 16 MiB and 8-byte items that
    //! is 268 bytes per MiB of input.
    std::uint64_t directory_memory(std::uint64_t items) const {
        const layout_type layout(blocks_.br);
        std::uint64_t runs = items / capacity() + 2;
        std::uint64_t segments = layout.bytes_for(items) / blocks_.bw + 2 * runs;
        std::uint64_t keys = layout.blocks_for(items) + runs;
        // A parallel merge step keeps a few words per block in memory (its ranges, start
        // pointers, live list and events: parallel_run_merger), in vectors that may double.
        std::uint64_t merge_steps = 2 * 64 * (memory_ / blocks_.br + runs);
        return 4 * sizeof(segment) * segments + 4 * sizeof(T) * keys + 4 * sizeof(run) * runs + merge_steps;
    }
    //! The smallest budget accepted with block sizes `b`: one item per run buffer, two Bw write
    //! buffers and a merge pool of four Br buffers (fan-in 3).
    static std::uint64_t min_memory(const block_sizes& b) {
        std::uint64_t need = buffer_floor(b);
        return need + reserve(need) + reserve(need) / 32 + 4096;
    }
    //! min_memory(b) for seeds/001's sizes (128 KiB / 16 MiB).
    static std::uint64_t min_memory() { return min_memory(block_sizes()); }
    //! Bytes of the output stage (operator* / operator++ read from it) of a sorter with budget
    //! `memory` and read blocks `br`: stage_blocks_for M less the reserve, in whole Br.
    static std::uint64_t output_stage_bytes(std::uint64_t memory, std::uint64_t br) {
        const std::uint64_t usable = memory > reserve(memory) ? memory - reserve(memory) : 0;
        return stage_blocks_for(usable, br) * br;
    }
    //! Fan-in of a merge whose pool has `buffers` Br buffers: an eighth (at least one) prefetches.
    static constexpr std::size_t fan_in_for(std::size_t buffers) {
        return buffers - std::max<std::size_t>(1, buffers / 8);
    }

    //! A sorter with budget `memory` (bytes of buffers, see memory_usage) and block sizes `b`,
    //! writing its runs under role `r`; its buffers are charged to `account` when given (which
    //! then has to be the sorter's alone: small_sorter shares it), else to its own account,
    //! which rolls up into the budget's (memory_budget::account). config_error when `b` breaks a
    //! rule of block_sizes, when an item does not fit in one Br block, or when the budget is below
    //! min_memory(b).
    sorter_body(machine& m, const memory_budget& budget, const block_sizes& b, Cmp cmp = Cmp(),
                role r = role::scratch, memory_account* account = nullptr)
        : machine_(&m), memory_(budget.bytes()), blocks_((b.validate(), b)), cmp_(std::move(cmp)), role_(r),
          own_account_(budget.account()), account_(account ? account : &own_account_) {
        budget.require(min_memory(blocks_), "flashxxl::sorter",
                       std::string("two Bw write buffers and a merge pool of 4 Br, Br = ") +
                           format_bytes(double(blocks_.br)) + ", Bw = " + format_bytes(double(blocks_.bw)));
        const std::uint64_t memory = memory_;
        const std::uint64_t br = blocks_.br, bw = blocks_.bw;
        (void)layout_type(br); // config_error when an item does not fit in one read block
        std::uint64_t usable = memory > reserve(memory) ? memory - reserve(memory) : 0;
        if (usable < buffer_floor(blocks_))
            throw config_error("flashxxl::sorter: memory budget " + format_bytes(double(memory)) +
                               " is too small for Br = " + format_bytes(double(br)) +
                               ", Bw = " + format_bytes(double(bw)) + " (need at least " +
                               format_bytes(double(min_memory(blocks_))) +
                               ": two Bw write buffers and a merge pool of 4 Br)");
        run_capacity_ = (usable - 2 * bw) / sizeof(T);
        merge_buffers_ = std::size_t((usable - 2 * bw) / br);
        stage_blocks_ = stage_blocks_for(usable, br);
        final_buffers_ = std::size_t(usable / br - stage_blocks_); // the output stage comes from M
        fan_in_ = fan_in_for(merge_buffers_);
        final_fan_in_ = fan_in_for(final_buffers_);
    }
    //! The same with the block sizes of the device role `r` is placed on (machine::block_sizes_for).
    sorter_body(machine& m, const memory_budget& budget, Cmp cmp = Cmp(), role r = role::scratch,
                memory_account* account = nullptr)
        : sorter_body(m, budget, m.block_sizes_for(r), std::move(cmp), r, account) {}
    sorter_body(const sorter_body&) = delete;
    sorter_body& operator=(const sorter_body&) = delete;
    ~sorter_body() { clear_noexcept(); }

    //! The block sizes this sorter reads and writes with.
    const block_sizes& blocks() const { return blocks_; }

    //! Threads that sort chunks (besides the caller) and merge: default_threads() unless set.
    std::size_t threads() const { return threads_; }
    //! Sets the thread count (0: default_threads()), before the first push or after clear().
    void set_threads(std::size_t n) {
        failed_.check("flashxxl::sorter::set_threads");
        if (state_ != state::input || size_ != 0)
            throw invalid_request("flashxxl::sorter::set_threads after the first push; call clear() first");
        threads_ = resolve_threads(n);
        sorting_ = make_sorting_pool();
    }

    //! Items per sorted run (the run buffer holds this many; half when double-buffered).
    std::uint64_t run_capacity() const { return capacity(); }

    //! Optional hint, before the first push: about how many items will be pushed. When they do
    //! not fit in memory, but runs of half the buffer still need no more merge passes than
    //! full runs (at most final_fan_in() of them), run formation becomes double-buffered: a
    //! background task merges and writes one half while the caller fills the other, so reading
    //! the input, sorting and writing runs overlap. The I/O volume stays the same (one merge
    //! pass either way). On a machine with a modelled device, or with a host that charges CPU,
    //! the runs keep the half size but are written on the caller's thread, so that the modelled
    //! figures repeat to the last bit. flashxxl::sort passes the vector's size. Returns whether
    //! it switched.
    bool expect(std::uint64_t items) {
        failed_.check("flashxxl::sorter::expect");
        if (state_ != state::input || size_ != 0)
            throw invalid_request("flashxxl::sorter::expect after the first push");
        std::uint64_t half = run_capacity_ / 2;
        double_buffered_ =
            half >= 4096 && items > run_capacity_ && (items + half - 1) / half <= final_fan_in_;
        return double_buffered_;
    }
    //! True when run formation is double-buffered (see expect()).
    bool double_buffered() const { return double_buffered_; }
    //! Runs merged at once in an intermediate pass (with an output writer).
    std::size_t fan_in() const { return fan_in_; }
    //! Runs merged at once in the final pass (no output writer).
    std::size_t final_fan_in() const { return final_fan_in_; }
    //! Blocks the merges read on demand because the forecast had not prefetched them.
    std::uint64_t forecast_misses() const {
        return forecast_misses_ + (prefetcher_ ? prefetcher_->forecast_misses() : 0);
    }
    //! Times the data was read from the devices while merging (valid after sort()).
    std::uint64_t passes() const { return passes_; }
    //! Sorted runs written during run formation.
    std::uint64_t runs_formed() const { return runs_formed_; }
    //! Runs written in total (run formation and intermediate merges): each ends with at most
    //! one write shorter than Bw.
    std::uint64_t runs_written() const { return runs_written_; }
    const memory_account& account() const { return *account_; }
    std::uint64_t memory() const { return memory_; }

    //! Adds one item (input phase only).
    void push(const T& item) {
        if (state_ != state::input) refuse_push();
        if (count_ == capacity()) latching([&] { end_run(); });
        if (buf().empty()) buf() = aligned_buffer(capacity() * sizeof(T), account_);
        std::memcpy(static_cast<void*>(buf().template as<T>() + count_), &item, sizeof(T));
        ++count_;
        ++size_;
        if (count_ == chunk_end()) latching([&] { seal_chunk(); });
    }
    //! Adds n items from an array.
    void push(const T* items, std::uint64_t n) {
        if (state_ != state::input) refuse_push();
        while (n > 0) {
            if (count_ == capacity()) latching([&] { end_run(); });
            if (buf().empty()) buf() = aligned_buffer(capacity() * sizeof(T), account_);
            std::uint64_t k = std::min(n, chunk_end() - count_);
            std::memcpy(static_cast<void*>(buf().template as<T>() + count_), items, k * sizeof(T));
            count_ += k;
            size_ += k;
            items += k;
            n -= k;
            if (count_ == chunk_end()) latching([&] { seal_chunk(); });
        }
    }

    //! Ends the input and prepares the sorted output.
    void sort() {
        failed_.check("flashxxl::sorter::sort");
        if (state_ != state::input)
            throw invalid_request("flashxxl::sorter::sort called twice; call clear() first");
        latching([&] { sort_unchecked(); });
    }

    //! Items not yet streamed out (in the input phase: items pushed).
    std::uint64_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    //! The smallest item not yet streamed out (after sort(), not empty()).
    //! An item in the stage implies sort() ran and the sorter is not empty, so the checks
    //! and the refill sit out of line (refill_stage): streaming costs a compare per call.
    const T& operator*() const {
        if (stage_pos_ == stage_end_) refill_stage("operator*");
        return stage_items_[stage_pos_];
    }
    const T* operator->() const { return &**this; }
    //! Moves to the next item.
    sorter_body& operator++() {
        if (stage_pos_ == stage_end_) refill_stage("operator++");
        ++stage_pos_;
        --size_;
        return *this;
    }
    //! Streams up to n items into `out` (raw storage; after sort()); returns how many. The
    //! fast way to drain the sorter: past the stage, the merge writes straight into `out`.
    std::uint64_t pop_into(T* out, std::uint64_t n) {
        failed_.check("flashxxl::sorter::pop_into");
        if (state_ == state::input) throw invalid_request("flashxxl::sorter::pop_into before sort()");
        n = std::min(n, size_);
        std::uint64_t got = std::min<std::uint64_t>(n, stage_end_ - stage_pos_);
        if (got > 0) std::memcpy(static_cast<void*>(out), stage_items_ + stage_pos_, got * sizeof(T));
        stage_pos_ += got;
        got += failed_.run_in("flashxxl::sorter", [&] { return merge_out(out + got, n - got); });
        if (got != n) // size_ items are left, and the merge holds them all
            throw std::logic_error("flashxxl::sorter::pop_into: the merge ended " + std::to_string(n - got) +
                                   " items early");
        size_ -= got;
        return got;
    }

    //! Drops all items and extents; back to the input phase.
    void clear() {
        join_finishing_noexcept(); // a background run formation still uses a buffer
        wait_sorting_noexcept();   // chunk sorts still use the run buffer
        writer_.reset();
        chunk_merger_.reset();
        chunks_.clear();
        chunk_begin_ = 0;
        merger_.reset();
        prefetcher_.reset();
        stage_.reset();
        stage_items_ = nullptr;
        stage_pos_ = stage_end_ = 0;
        runs_.clear(); // the runs' segments give their extents back
        buffers_[0].reset();
        buffers_[1].reset();
        cur_ = 0;
        count_ = size_ = passes_ = runs_formed_ = runs_written_ = forecast_misses_ = 0;
        state_ = state::input;
        failed_ = failure_latch();
    }

private:
    enum class state { input, memory_output, merge_output, failed };

    //! Runs f; an exception from it latches the failure (see the class comment) and goes on.
    template <class F> void latching(F&& f) {
        try {
            failed_.run_in("flashxxl::sorter", f);
        } catch (...) {
            state_ = state::failed;
            throw;
        }
    }
    //! push() outside the input phase: after a failure, or after sort().
    [[noreturn]] void refuse_push() const {
        failed_.check("flashxxl::sorter::push");
        throw invalid_request("flashxxl::sorter::push after sort(); call clear() first");
    }
    //! sort() in the input phase (checked by sort()).
    void sort_unchecked() {
        if (runs_.empty() && !finishing_.running()) {
            seal_rest();
            sorting_->wait(cur_);
            // The sorted chunks are merged as they are streamed out, through the stage.
            chunk_merger_ =
                std::make_unique<run_merger>(merge_source{nullptr, &chunks_}, before{&cmp_}, threads_);
            chunk_merger_->start(chunks_.size());
            out_item_cost_ = machine_->host().sort_pass_item_s(size_, threads_); // sorted in memory: n log n
            make_stage();
            state_ = state::memory_output;
            return;
        }
        if (count_ > 0) end_run();
        join_finishing();
        writer_.reset();
        buffers_[0].reset();
        buffers_[1].reset();
        while (runs_.size() > final_fan_in_)
            merge_level();
        start_final_merge();
        make_stage();
        state_ = state::merge_output;
    }

    //! The merge order: the comparator, by reference.
    struct before {
        const Cmp* cmp;
        bool operator()(const T& a, const T& b) const { return (*cmp)(a, b); }
    };
    using prefetcher_type = forecast_prefetcher<T, before>;
    using chunk_list = std::vector<std::pair<const T*, const T*>>;
    //! A merge's inputs: runs read from the devices (`pool`: each run hands out its Br blocks,
    //! and shows those read ahead), or else the sorted chunks of a run buffer. One source type
    //! for both, so the merger is compiled once per item type, not twice.
    struct merge_source {
        prefetcher_type* pool;
        const chunk_list* chunks;
        bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) const {
            if (pool) return pool->next_range(i, cur, end, consumed);
            return chunk_source<T>{chunks}.next_range(i, cur, end, consumed);
        }
        template <class F> bool for_each_ready(std::size_t i, F&& f) const {
            return pool && pool->for_each_ready(i, f);
        }
    };
    using run_merger = parallel_run_merger<T, before, merge_source>;
    std::unique_ptr<chunk_sort_pool> make_sorting_pool() {
        return std::make_unique<chunk_sort_pool>(&sort_chunk_with<T, Cmp>, &cmp_, threads_);
    }
    //! Br blocks of the output stage (operator* / operator++ read from it): a 64th of the
    //! usable memory, at least 2. Each refill is one merge step, split among the threads, so a
    //! stage of 2 Br (64 Ki 8-byte items at Br = 256 KiB) gave 16 threads 4 Ki items each and
    //! the step's fixed costs (waking the team, selections) outweighed the merging; a 64th of M
    //! costs the final fan-in about 1.5% and does not depend on the thread count, so the I/O
    //! does not either.
    static std::uint64_t stage_blocks_for(std::uint64_t usable, std::uint64_t br) {
        return std::max<std::uint64_t>(2, usable / 64 / br);
    }

    //! Merges up to n output items into `out` (after sort()); returns how many.
    //! Charges the host's sort pass for them (out_item_cost_), once per batch.
    std::uint64_t merge_out(T* out, std::uint64_t n) const {
        if (n == 0) return 0;
        const std::uint64_t got =
            state_ == state::memory_output ? chunk_merger_->pop_into(out, n) : merger_->pop_into(out, n);
        machine_->charge_host(got, out_item_cost_);
        return got;
    }
    //! Refills the output stage from the merge.
    void fill_stage() const {
        stage_pos_ = stage_end_ = 0; // a merge that throws leaves no stale stage behind
        const std::uint64_t want = std::min<std::uint64_t>(size_, stage_blocks_ * blocks_.br / sizeof(T));
        stage_end_ = merge_out(stage_items_, want);
        if (stage_end_ != want) // size_ items are left, and the merge holds them all
            throw std::logic_error("flashxxl::sorter: the merge ended " + std::to_string(want - stage_end_) +
                                   " items early");
    }
    //! operator* / operator++ on a used-up stage: refuses before sort() and when empty, else
    //! refills it. Out of line, so that the per-item path stays small enough to inline (with the
    //! checks inline, streaming 64 Mi 8-byte items cost 0.1 s more of the caller's time on the
    //! 2-core development machine).
    [[gnu::noinline]] void refill_stage(const char* op) const {
        if (failed_.failed()) failed_.check((std::string("flashxxl::sorter::") + op).c_str());
        if (state_ == state::input || size_ == 0)
            throw invalid_request(std::string("flashxxl::sorter: ") + op + " before sort() or when empty()");
        failed_.run_in("flashxxl::sorter", [&] { fill_stage(); });
    }
    //! Allocates the output stage (after sort()).
    void make_stage() {
        stage_ = aligned_buffer(stage_blocks_ * blocks_.br, account_);
        stage_items_ = stage_.template as<T>();
    }

    //! Buffer bytes the budget must cover beyond the reserve: two Bw write buffers, a merge
    //! pool of four Br buffers and one item of run buffer.
    static std::uint64_t buffer_floor(const block_sizes& b) { return 2 * b.bw + 4 * b.br + sizeof(T); }

    aligned_buffer& buf() { return buffers_[cur_]; }
    const aligned_buffer& buf() const { return buffers_[cur_]; }
    //! Items the buffer being filled holds: the whole run capacity, or half of it when run
    //! formation is double-buffered.
    std::uint64_t capacity() const { return double_buffered_ ? run_capacity_ / 2 : run_capacity_; }
    //! End of the chunk being filled: the first half of the buffer is cut into one chunk per
    //! thread, each sorted by the pool as soon as it is full (during input; one chunk of half
    //! the buffer kept 15 of 16 cores idle while it was sorted); the rest is sealed by
    //! seal_rest() when the run ends.
    std::uint64_t chunk_end() const {
        return std::min(chunk_begin_ + std::max<std::uint64_t>(capacity() / (2 * threads_), 4096),
                        capacity());
    }

    //! Hands the filled chunk [chunk_begin_, count_) to the sorting threads, which sort it while
    //! the caller goes on pushing (or waits for the next input), so sorting overlaps with input.
    void seal_chunk() {
        T* first = buf().template as<T>() + chunk_begin_;
        T* last = buf().template as<T>() + count_;
        sorting_->submit(first, last, cur_); // may fail to start a thread: then nothing is recorded
        chunks_.emplace_back(first, last);
        chunk_begin_ = count_;
    }
    //! Seals the rest of the buffer at the end of a run, cut into one piece per sorting thread
    //! (every thread is free to help now).
    void seal_rest() {
        std::uint64_t rest = count_ - chunk_begin_;
        if (rest == 0) return;
        std::uint64_t pieces =
            std::max<std::uint64_t>(1, std::min<std::uint64_t>(sorting_->threads(), rest / 4096));
        std::uint64_t end = count_;
        for (std::uint64_t i = 1; i <= pieces; ++i) {
            count_ = chunk_begin_ + (end - chunk_begin_) / (pieces - i + 1);
            seal_chunk();
        }
        count_ = end;
    }

    void wait_sorting_noexcept() noexcept {
        for (int batch = 0; batch < 2; ++batch) {
            try {
                sorting_->wait(batch);
            } catch (...) {
            }
        }
    }

    //! Writes buffer `batch` (n items, in sorted chunks) as one run through `w`: waits for its
    //! chunk sorts and merges the chunks straight into the Bw write buffers, the copy the
    //! writer needs anyway.
    run write_run(int batch, std::uint64_t n, const chunk_list& chunks, block_writer<T>& w) {
        w.record_block_keys();
        sorting_->wait(batch);
        if (chunks.size() == 1) {
            w.push(buffers_[batch].template as<T>(), n);
        } else {
            run_merger merger(merge_source{nullptr, &chunks}, before{&cmp_}, threads_);
            merger.start(chunks.size());
            drain_into(merger, w);
        }
        return finish_run(w);
    }

    //! Finishes the run `w` wrote (which recorded its block keys) and hands it over.
    static run finish_run(block_writer<T>& w) {
        run r;
        r.segments = w.finish();
        r.block_keys = w.take_block_keys();
        return r;
    }

    //! Ends the run in the buffer being filled. Single-buffered: writes it now. Double-buffered:
    //! a background task merges and writes it while the caller fills the other buffer (after
    //! the previous background run is done, so that buffer is free).
    void end_run() {
        seal_rest();
        // A modelled device or a host model that charges CPU keeps run formation on the caller's
        // thread: a background task's writes and waits would move the virtual clock at moments
        // that depend on thread timing, and the modelled figures would differ between runs. The
        // writer's write-behind still overlaps the run's writes with the caller's work.
        const host_model& host = machine_->host();
        if (!double_buffered_ || host.charges() || machine_->has_modelled_device()) {
            block_writer<T> w(*machine_, role_, blocks_, block_counter_, account_, 2);
            w.set_item_cost(host.write_item_s +
                            host.sort_pass_item_s(count_, threads_)); // run formation: a sort pass
            runs_.push_back(write_run(cur_, count_, chunks_, w));
            ++runs_formed_;
            ++runs_written_;
        } else {
            join_finishing();
            if (!writer_)
                writer_ =
                    std::make_unique<block_writer<T>>(*machine_, role_, blocks_, block_counter_, account_, 2);
            finishing_.start([this, batch = cur_, n = count_, chunks = chunks_]() {
                finished_run_ = write_run(batch, n, chunks, *writer_);
            });
            cur_ ^= 1;
        }
        chunks_.clear();
        chunk_begin_ = 0;
        count_ = 0;
    }

    //! Waits for the background run formation (if any) and takes its run.
    void join_finishing() {
        if (!finishing_.running()) return;
        finishing_.join();
        runs_.push_back(std::move(finished_run_));
        ++runs_formed_;
        ++runs_written_;
    }
    void join_finishing_noexcept() noexcept {
        try {
            join_finishing();
        } catch (...) {
        }
    }

    //! Merges groups of at most fan_in_ runs into longer runs (one pass over the data). On an
    //! error the runs not merged yet go back with `in`, the merged ones with runs_ (clear()).
    void merge_level() {
        std::size_t groups = (runs_.size() + fan_in_ - 1) / fan_in_;
        std::vector<run> in = std::move(runs_);
        runs_.clear();
        std::size_t next = 0;
        for (std::size_t g = 0; g < groups; ++g) {
            std::size_t take = (in.size() - next) / (groups - g);
            prefetcher_type pool(*machine_, role_, blocks_, before{&cmp_}, merge_buffers_, account_);
            hand_over(in.begin() + std::ptrdiff_t(next), take, pool);
            next += take;
            run_merger merger(merge_source{&pool, nullptr}, before{&cmp_}, threads_);
            merger.start(take);
            block_writer<T> w(*machine_, role_, blocks_, block_counter_, account_, 2);
            w.set_item_cost(machine_->host().write_item_s +
                            machine_->host().sort_pass_item_s(take, threads_)); // a merge pass
            w.record_block_keys();
            drain_into(merger, w);
            runs_.push_back(finish_run(w));
            forecast_misses_ += pool.forecast_misses();
            ++runs_written_;
        }
        ++passes_;
    }

    //! Moves `count` runs from `first` on into `pool` (which owns their segments from then on)
    //! and starts it.
    void hand_over(typename std::vector<run>::iterator first, std::size_t count, prefetcher_type& pool) {
        for (std::size_t i = 0; i < count; ++i, ++first)
            pool.add_run(std::move(first->segments), std::move(first->block_keys));
        pool.start();
    }

    void start_final_merge() {
        prefetcher_ = std::make_unique<prefetcher_type>(*machine_, role_, blocks_, before{&cmp_},
                                                        final_buffers_, account_);
        std::size_t k = runs_.size();
        hand_over(runs_.begin(), k, *prefetcher_);
        runs_.clear();
        merger_ =
            std::make_unique<run_merger>(merge_source{prefetcher_.get(), nullptr}, before{&cmp_}, threads_);
        merger_->start(k);
        out_item_cost_ = machine_->host().sort_pass_item_s(k, threads_);
        ++passes_;
    }

    void clear_noexcept() noexcept {
        try {
            clear();
        } catch (...) {
        }
    }

    machine* machine_;
    std::uint64_t memory_;
    block_sizes blocks_;
    Cmp cmp_;
    role role_;
    memory_account own_account_;
    memory_account* account_;
    std::uint64_t run_capacity_ = 0;
    std::uint64_t chunk_begin_ = 0;           // first item of the chunk being filled
    chunk_list chunks_;                       // sealed chunks of the buffer being filled
    bool double_buffered_ = false;            // see expect()
    int cur_ = 0;                             // the buffer being filled (batch of its chunks)
    aligned_buffer buffers_[2];               // run buffers: [cur_] fills; the other may be in the background
    std::unique_ptr<block_writer<T>> writer_; // the background run formation's writer
    background_task finishing_;               // background run formation of buffers_[cur_ ^ 1]
    run finished_run_;                        // what it wrote
    std::size_t threads_ = default_threads(); // see threads()
    //! Sorts sealed chunks on threads_ threads besides the caller.
    std::unique_ptr<chunk_sort_pool> sorting_ = make_sorting_pool();
    std::size_t merge_buffers_ = 0,
                final_buffers_ = 0; // Br buffers of a merge's pool (with / without a writer)
    std::size_t fan_in_ = 0, final_fan_in_ = 0;
    std::uint64_t stage_blocks_ = 2; // Br blocks of the output stage (stage_blocks_for)
    state state_ = state::input;
    mutable failure_latch failed_; // mutable: operator* and operator++ latch a failed refill of the stage
    std::uint64_t count_ = 0;      // items in the buffer being filled
    std::uint64_t size_ = 0;
    mutable aligned_buffer stage_;                        // the output stage (after sort())
    T* stage_items_ = nullptr;                            // stage_ as items
    mutable std::uint64_t stage_pos_ = 0, stage_end_ = 0; // its items not streamed out yet
    std::vector<run> runs_;
    std::uint64_t block_counter_ = 0;
    std::uint64_t passes_ = 0, runs_formed_ = 0, runs_written_ = 0, forecast_misses_ = 0;
    std::unique_ptr<prefetcher_type> prefetcher_; // the final merge's runs
    std::unique_ptr<run_merger> merger_;          // the final merge (merge_output)
    std::unique_ptr<run_merger> chunk_merger_;    // the sorted chunks of the run buffer (memory_output)
    double out_item_cost_ = 0; // host CPU per item streamed out (host_model::sort_pass_item_s)
};

//! The external merge sorter, documented at sorter_body (which does the work): a handle that owns
//! its body on the heap, so that a sorter can be moved and swapped (a function may return one;
//! runs, buffers, accounts and threads stay where they are). A moved-from sorter may only be
//! destroyed or assigned to.
template <class T, class Cmp = std::less<T>> class sorter {
public:
    using body_type = sorter_body<T, Cmp>;
    using value_type = T;
    using layout_type = typename body_type::layout_type;
    using run = typename body_type::run;

    static constexpr std::uint64_t reserve(std::uint64_t memory) { return body_type::reserve(memory); }
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes& b) {
        return body_type::memory_usage(memory, b);
    }
    static std::uint64_t min_memory(const block_sizes& b) { return body_type::min_memory(b); }
    static std::uint64_t min_memory() { return body_type::min_memory(); }
    static std::uint64_t output_stage_bytes(std::uint64_t memory, std::uint64_t br) {
        return body_type::output_stage_bytes(memory, br);
    }
    static constexpr std::size_t fan_in_for(std::size_t buffers) { return body_type::fan_in_for(buffers); }

    //! The constructors of sorter_body: (m, budget, b, cmp, role, account) and (m, budget, cmp,
    //! role, account).
    sorter(machine& m, const memory_budget& budget, const block_sizes& b, Cmp cmp = Cmp(),
           role r = role::scratch, memory_account* account = nullptr)
        : body_(std::make_unique<body_type>(m, budget, b, std::move(cmp), r, account)) {}
    sorter(machine& m, const memory_budget& budget, Cmp cmp = Cmp(), role r = role::scratch,
           memory_account* account = nullptr)
        : body_(std::make_unique<body_type>(m, budget, std::move(cmp), r, account)) {}
    sorter(sorter&&) noexcept = default;
    sorter& operator=(sorter&&) noexcept = default;
    void swap(sorter& o) noexcept { body_.swap(o.body_); }
    friend void swap(sorter& a, sorter& b) noexcept { a.swap(b); }

    std::uint64_t directory_memory(std::uint64_t items) const { return body_->directory_memory(items); }
    const block_sizes& blocks() const { return body_->blocks(); }
    std::size_t threads() const { return body_->threads(); }
    void set_threads(std::size_t n) { body_->set_threads(n); }
    std::uint64_t run_capacity() const { return body_->run_capacity(); }
    bool expect(std::uint64_t items) { return body_->expect(items); }
    bool double_buffered() const { return body_->double_buffered(); }
    std::size_t fan_in() const { return body_->fan_in(); }
    std::size_t final_fan_in() const { return body_->final_fan_in(); }
    std::uint64_t forecast_misses() const { return body_->forecast_misses(); }
    std::uint64_t passes() const { return body_->passes(); }
    std::uint64_t runs_formed() const { return body_->runs_formed(); }
    std::uint64_t runs_written() const { return body_->runs_written(); }
    const memory_account& account() const { return body_->account(); }
    std::uint64_t memory() const { return body_->memory(); }

    void push(const T& item) { body_->push(item); }
    void push(const T* items, std::uint64_t n) { body_->push(items, n); }
    void sort() { body_->sort(); }
    std::uint64_t size() const { return body_->size(); }
    bool empty() const { return body_->empty(); }
    const T& operator*() const { return **body_; }
    const T* operator->() const { return &**body_; }
    sorter& operator++() {
        ++*body_;
        return *this;
    }
    std::uint64_t pop_into(T* out, std::uint64_t n) { return body_->pop_into(out, n); }
    void clear() { body_->clear(); }

private:
    std::unique_ptr<body_type> body_;
};

} // namespace flashxxl
