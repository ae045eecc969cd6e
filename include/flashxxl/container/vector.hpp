// An external vector: a paged cache of Br pages over Bw groups, written back one Bw group at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <cstring>
#include <iterator>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/replace_by_move.hpp"
#include "flashxxl/failure_latch.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/fast_divisor.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/io/span_append.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! An array of T on a machine's devices. Items live in groups of Bw bytes (one extent each,
//! placed by the machine's policy for the vector's role and the group number), in
//! block_layout<T>: Br / sizeof(T) items per Br page. Br and Bw are the run-time block_sizes
//! given to the constructor (or, without them, those of the device the role is placed on; a
//! compile-time blocks<Br, Bw>{} converts to block_sizes).
//!
//! Random access goes through a cache of Br pages (clock replacement). A miss reads one Br
//! page. Evicting a dirty page writes back its whole group with ONE write of Bw bytes: cached
//! pages of the group are copied, the others are read (Br reads) first; only the last group of
//! the vector is written partially (whole pages up to size()). So a random update costs a Bw
//! write, as the unit-cost flash model charges it (seeds/001, Section 2); sequential work should
//! use the stream_reader (Br reads with prefetch) and stream_writer (Bw writes).
//!
//! Memory: the budget M given to the constructor covers a Bw staging buffer, the page frames
//! and the page map (memory_usage(M, b) == M; at least min_memory(b)). Readers and writers hold
//! their own buffers (their memory_usage(b)), charged to the account given to them or, without
//! one, to the vector's (which rolls up into the budget's): a stream_writer (2 Bw) takes the
//! place of the cache, whose buffers it frees while it is alive, so the vector's peak stays
//! within max(M, 2 Bw); a stream_reader (2 Br) is held beside the cache. T must be trivially copyable; it
//! needs a default constructor only for resize(n) without a value. Not thread-safe; a stream_writer or
//! stream_reader must be the only user of the vector while it is alive.
//!
//! Failures: size() counts only items that are stored. An out_of_space names the vector
//! ("structure flashxxl::vector"), its role and the device. A push_back, set or get whose
//! eviction finds no extent (out_of_space) or whose write-back or read fails (io_failure) leaves
//! the vector as it was (a failed write-back keeps its pages dirty in the cache); a resize that
//! fails leaves the size it had. A stream_writer whose group write fails keeps the items of the
//! groups written before it (size() drops to them, also when the failed group was a partial last
//! group it had read back to extend) and refuses further items; see stream_writer.
//!
//! Latched: a failure that cost items nobody was told about (a stream_writer destroyed without
//! finish() whose last write failed in the destructor, or an algorithm that lost items of the
//! vector, see latch_failure()) latches the vector: every later use (size, empty, get, set,
//! push_back, pop_back, resize, flush, iterators, readers, writers) throws io_failure
//! "flashxxl::vector::OP: unusable since an earlier failure lost items (FIRST FAILURE)" instead
//! of going on with fewer items. failed() tells; clear() gives the extents back and makes the
//! vector usable again, empty. Destruction is always safe.
template <class T> class vector {
public:
    using value_type = T;
    using size_type = std::uint64_t;
    using layout_type = block_layout<T>;
    //! Bytes per page frame counted for the page map and frame table.
    static constexpr std::uint64_t frame_overhead = 96;

    //! The least budget a vector with block sizes `b` accepts: a staging buffer of Bw and two
    //! page frames.
    static std::uint64_t min_memory(const block_sizes& b) {
        return b.bw + 2 * (b.br + frame_overhead) + 4096;
    }
    //! min_memory(b) for seeds/001's sizes (128 KiB / 16 MiB).
    static std::uint64_t min_memory() { return min_memory(block_sizes()); }
    //! Memory a vector with budget M and block sizes `b` holds at most: all of M (staging,
    //! frames, page map); its stream readers and writers hold theirs besides (their
    //! memory_usage(b)).
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes&) {
        return memory.bytes();
    }

    class reference;
    class iterator;
    class const_iterator;
    class stream_reader;
    class stream_writer;

    //! An empty vector on machine `m` whose groups have role `r`, with block sizes `b`
    //! (config_error when they break a rule of block_sizes or an item does not fit in Br).
    //! `memory` may name an account the vector's own rolls up into (memory_budget).
    vector(machine& m, const memory_budget& memory, const block_sizes& b, role r = role::stream)
        : machine_(&m), role_(r), memory_(memory.bytes()), blocks_((b.validate(), b)), layout_(b.br),
          items_per_page_(layout_.items_per_block()), pages_per_group_(b.reads_per_write()),
          items_per_group_(items_per_page_ * pages_per_group_), page_shift_(shift_of(items_per_page_)),
          page_divisor_(items_per_page_), account_(std::make_unique<memory_account>(memory.account())) {
        memory.require(min_memory(b), "flashxxl::vector",
                       "one Bw = " + format_size(b.bw) + " staging buffer and two Br = " + format_size(b.br) +
                           " pages");
        frame_count_ = (memory_ - b.bw - 4096) / (b.br + frame_overhead);
    }
    //! The same with the block sizes of the device role `r` is placed on (machine::block_sizes_for).
    vector(machine& m, const memory_budget& memory, role r = role::stream)
        : vector(m, memory, m.block_sizes_for(r), r) {}
    vector(const vector&) = delete;
    vector& operator=(const vector&) = delete;
    //! Moves the vector: its items, extents and buffers change owner; iterators, readers and writers
    //! of the source do not follow. A moved-from vector may only be destroyed or assigned to.
    vector(vector&&) noexcept = default;
    vector& operator=(vector&& o) noexcept { return replace_by_move(*this, std::move(o)); }
    void swap(vector& o) noexcept { std::swap(*this, o); }
    friend void swap(vector& a, vector& b) noexcept { a.swap(b); }

    size_type size() const {
        failed_.check("flashxxl::vector::size");
        return size_;
    }
    bool empty() const { return size() == 0; }
    //! Whether the vector is latched (see the class comment): every use but clear() then throws.
    bool failed() const { return failed_.failed(); }
    //! Latches the exception being handled (call it from a catch block): for an algorithm that
    //! lost items of this vector (sort's output phase), so that no later use sees fewer items.
    void latch_failure() noexcept { failed_.latch(); }
    machine& get_machine() const { return *machine_; }
    role get_role() const { return role_; }
    //! The block sizes of this vector.
    const block_sizes& blocks() const { return blocks_; }
    //! How items sit in a Br page.
    const layout_type& layout() const { return layout_; }
    //! Items in one Br page.
    std::uint64_t items_per_page() const { return items_per_page_; }
    //! Br pages in one Bw group.
    std::uint64_t pages_per_group() const { return pages_per_group_; }
    //! Items in one Bw group (the unit of write-back and of extents).
    std::uint64_t items_per_group() const { return items_per_group_; }
    //! The budget given to the constructor.
    std::uint64_t memory() const { return memory_; }
    //! Bytes of buffers held now and at most so far (tracked).
    const memory_account& account() const { return *account_; }

    //! Item i (i < size()).
    T get(size_type i) {
        check_index(i, "flashxxl::vector::get");
        return *item_ptr(i, false);
    }
    //! Sets item i (i < size()).
    void set(size_type i, const T& value) {
        check_index(i, "flashxxl::vector::set");
        std::memcpy(static_cast<void*>(item_ptr(i, true)), &value, sizeof(T));
    }
    reference operator[](size_type i) { return reference(this, i); }
    T front() { return get(0); }
    T back() { return get(size() - 1); }

    void push_back(const T& value) {
        failed_.check("flashxxl::vector::push_back");
        T* slot = item_ptr(size_, true); // may evict, and fail: the item counts once it is stored
        std::memcpy(static_cast<void*>(slot), &value, sizeof(T));
        ++size_;
    }
    void pop_back() {
        failed_.check("flashxxl::vector::pop_back");
        if (size_ == 0) throw invalid_request("flashxxl::vector::pop_back on an empty vector");
        --size_;
    }
    //! Grows (new items are `value`) or shrinks to n items. A failure while growing
    //! (out_of_space, io_failure) leaves the size it had (and, from empty, no extents).
    void resize(size_type n, const T& value) {
        failed_.check("flashxxl::vector::resize");
        if (n <= size_) {
            size_ = n;
            return;
        }
        const size_type before = size_;
        try {
            if (size_ == 0 && !has_cached_pages()) {
                // Fast path: fill through a stream writer (Bw writes, no reads).
                stream_writer w(*this);
                for (size_type i = 0; i < n; ++i)
                    w.push(value);
                w.finish();
                return;
            }
            while (size_ < n)
                push_back(value);
        } catch (...) {
            if (before == 0) clear(); // the writer is gone: give back the groups it wrote
            size_ = before;
            throw;
        }
    }
    void resize(size_type n) { resize(n, T()); }
    //! Removes every item and gives back all extents; a latched vector is usable again.
    void clear() {
        drop_cache();
        groups_.clear(); // the extents go back to their devices
        disk_pages_.clear();
        size_ = 0;
        failed_ = failure_latch();
    }

    //! Writes back every dirty page (one Bw-group write per group with dirty pages).
    void flush() {
        failed_.check("flashxxl::vector::flush");
        for (std::size_t f = 0; f < frames_.size(); ++f)
            if (frames_[f].dirty) write_back_group(frames_[f].page / pages_per_group_);
    }

    iterator begin() { return iterator(this, (failed_.check("flashxxl::vector::begin"), 0)); }
    iterator end() { return iterator(this, size()); }
    const_iterator cbegin() { return const_iterator(this, (failed_.check("flashxxl::vector::cbegin"), 0)); }
    const_iterator cend() { return const_iterator(this, size()); }

    //! Proxy reference to one item: converts to T, assigns from T.
    class reference {
    public:
        reference(vector* v, size_type i) : v_(v), i_(i) {}
        operator T() const { return v_->get(i_); }
        reference& operator=(const T& x) {
            v_->set(i_, x);
            return *this;
        }
        reference& operator=(const reference& o) { return *this = static_cast<T>(o); }

    private:
        vector* v_;
        size_type i_;
    };

    //! Random-access iterator over proxy references (like std::vector<bool>'s).
    template <class Ref> class basic_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::int64_t;
        using pointer = void;
        using reference = Ref;

        basic_iterator() = default;
        basic_iterator(vector* v, size_type i) : v_(v), i_(i) {}
        size_type index() const { return i_; }
        Ref operator*() const { return make(std::is_same<Ref, T>()); }
        Ref operator[](difference_type d) const { return *(*this + d); }
        basic_iterator& operator++() {
            ++i_;
            return *this;
        }
        basic_iterator operator++(int) {
            auto t = *this;
            ++i_;
            return t;
        }
        basic_iterator& operator--() {
            --i_;
            return *this;
        }
        basic_iterator operator--(int) {
            auto t = *this;
            --i_;
            return t;
        }
        basic_iterator& operator+=(difference_type d) {
            i_ += d;
            return *this;
        }
        basic_iterator& operator-=(difference_type d) {
            i_ -= d;
            return *this;
        }
        friend basic_iterator operator+(basic_iterator a, difference_type d) { return a += d; }
        friend basic_iterator operator+(difference_type d, basic_iterator a) { return a += d; }
        friend basic_iterator operator-(basic_iterator a, difference_type d) { return a -= d; }
        friend difference_type operator-(const basic_iterator& a, const basic_iterator& b) {
            return difference_type(a.i_) - difference_type(b.i_);
        }
        friend bool operator==(const basic_iterator& a, const basic_iterator& b) { return a.i_ == b.i_; }
        friend bool operator!=(const basic_iterator& a, const basic_iterator& b) { return a.i_ != b.i_; }
        friend bool operator<(const basic_iterator& a, const basic_iterator& b) { return a.i_ < b.i_; }
        friend bool operator>(const basic_iterator& a, const basic_iterator& b) { return a.i_ > b.i_; }
        friend bool operator<=(const basic_iterator& a, const basic_iterator& b) { return a.i_ <= b.i_; }
        friend bool operator>=(const basic_iterator& a, const basic_iterator& b) { return a.i_ >= b.i_; }

    private:
        Ref make(std::true_type) const { return v_->get(i_); }
        Ref make(std::false_type) const { return Ref(v_, i_); }
        vector* v_ = nullptr;
        size_type i_ = 0;
    };
    class iterator : public basic_iterator<reference> {
    public:
        using basic_iterator<reference>::basic_iterator;
        iterator(const basic_iterator<reference>& b) : basic_iterator<reference>(b) {}
    };
    class const_iterator : public basic_iterator<T> {
    public:
        using basic_iterator<T>::basic_iterator;
        const_iterator(const basic_iterator<T>& b) : basic_iterator<T>(b) {}
    };

    //! Reads items [first, last) in order with Br reads, `prefetch` blocks ahead. Flushes the
    //! vector's dirty pages first. Memory: (prefetch + 1) x Br.
    class stream_reader {
    public:
        //! Memory of a reader with block sizes `b`.
        static std::uint64_t memory_usage(const block_sizes& b, std::size_t prefetch = 1) {
            return block_reader<T>::memory_usage(b, prefetch);
        }
        //! memory_usage(b, prefetch) for seeds/001's sizes (128 KiB / 16 MiB).
        static std::uint64_t memory_usage(std::size_t prefetch = 1) {
            return memory_usage(block_sizes(), prefetch);
        }
        explicit stream_reader(vector& v, size_type first = 0, size_type last = size_type(-1),
                               std::size_t prefetch = 1, memory_account* account = nullptr)
            : reader_(*v.machine_, v.role_, v.blocks_, account ? account : v.account_.get(), prefetch) {
            v.failed_.check("flashxxl::vector::stream_reader");
            v.flush();
            if (last > v.size_) last = v.size_;
            const std::uint64_t per_group = v.items_per_group_;
            for (size_type pos = first; pos < last;) {
                size_type g = pos / per_group;
                size_type group_end = std::min<size_type>((g + 1) * per_group, last);
                if (g >= v.groups_.size() || !v.groups_[g])
                    throw invalid_request("flashxxl::vector::stream_reader: group " + std::to_string(g) +
                                          " (items " + std::to_string(g * per_group) +
                                          "..) is on no device although the vector holds " +
                                          std::to_string(v.size_) + " items");
                reader_.add_borrowed(v.groups_[g].get(), group_end - g * per_group, pos - g * per_group);
                pos = group_end;
            }
        }
        bool empty() const { return reader_.empty(); }
        std::uint64_t size() const { return reader_.size(); }
        const T& operator*() const { return reader_.front(); }
        const T* operator->() const { return &reader_.front(); }
        stream_reader& operator++() {
            reader_.pop();
            return *this;
        }
        //! Items contiguous in memory from &**this on; consume them with skip(k).
        std::uint64_t run() const { return reader_.run(); }
        void skip(std::uint64_t k) { reader_.pop(k); }

    private:
        block_reader<T> reader_;
    };

    //! Appends items at the end with Bw writes (double-buffered). The vector's cache is
    //! written back and emptied first; a partial last group is read back (Br reads) and
    //! rewritten. finish() (or the destructor) writes the rest. Memory: 2 x Bw.
    //!
    //! A group that finds no extent (out_of_space) or whose write fails (io_failure) ends the
    //! writing: the exception leaves the push (or finish) that met it, the vector keeps the
    //! items of the groups before the failed one whose writes completed (size() says how many),
    //! and every later push, commit or finish throws io_failure naming the first failure.
    //! Call finish(): a destructor must not throw, so a writer destroyed without it whose last
    //! writes fail there latches the vector instead (see the class comment) rather than leave it
    //! usable with fewer items than were pushed.
    class stream_writer {
    public:
        //! Memory of a writer with block sizes `b`.
        static std::uint64_t memory_usage(const block_sizes& b) { return 2 * b.bw; }
        //! memory_usage(b) for seeds/001's sizes (128 KiB / 16 MiB).
        static std::uint64_t memory_usage() { return memory_usage(block_sizes()); }
        explicit stream_writer(vector& v, memory_account* account = nullptr) : v_(&v) {
            v.failed_.check("flashxxl::vector::stream_writer");
            v.flush();
            v.drop_cache();
            v.release_cache_buffers(); // the writer's buffers take their place
            const std::uint64_t br = v.blocks_.br;
            for (auto& s : slots_)
                s.buf = aligned_buffer(v.blocks_.bw, account ? account : v.account_.get());
            group_ = v.size_ / v.items_per_group_;
            fill_ = v.size_ % v.items_per_group_;
            if (fill_ > 0) {
                // Read back the partial last group (whole pages) to rewrite it with more items.
                std::uint64_t pages = v.layout_.blocks_for(fill_);
                const extent& e = v.groups_[group_].get();
                std::vector<stxxl::request_ptr> reqs;
                for (std::uint64_t p = 0; p < pages; ++p)
                    reqs.push_back(
                        e.dev->aread(slots_[0].buf.data() + p * br, e.offset + p * br, br, v.role_));
                e.dev->wait_all(reqs, v.role_);
            }
            place_cursor();
        }
        stream_writer(const stream_writer&) = delete;
        stream_writer& operator=(const stream_writer&) = delete;
        //! Finishes; a failure nobody was told of (the writer had not failed before) latches the vector.
        ~stream_writer() {
            const bool reported = failed_.failed();
            try {
                finish();
            } catch (...) {
                if (!reported) v_->failed_.latch();
            }
        }
        //! Appends one item.
        void push(const T& x) {
            std::memcpy(static_cast<void*>(next_), &x, sizeof(T));
            ++v_->size_;
            ++fill_;
            if (++next_ == run_end_) end_of_run();
        }
        //! Free item slots contiguous in memory at the end of the vector: up to free_run()
        //! items may be placed (memcpy) at free_begin(), then appended with commit(k).
        T* free_begin() { return next_; }
        std::uint64_t free_run() const { return std::uint64_t(run_end_ - next_); }
        //! Appends the k <= free_run() items placed at free_begin().
        void commit(std::uint64_t k) {
            fill_ += k;
            v_->size_ += k;
            next_ += k;
            if (next_ == run_end_) end_of_run();
        }
        //! Appends n items from an array.
        void push(const T* items, std::uint64_t n) { append_by_spans(*this, items, n); }
        //! Writes the last partial group and waits for all writes. Idempotent once it succeeded.
        void finish() {
            failed_.check("flashxxl::vector::stream_writer::finish");
            if (done_) return;
            done_ = true;
            try {
                if (fill_ > 0) write_group();
                for (auto& s : slots_)
                    wait_slot(s);
            } catch (...) {
                fail(group_);
                throw;
            }
        }

    private:
        struct slot {
            aligned_buffer buf;
            stxxl::request_ptr req;
            device* dev = nullptr;
            size_type group = 0; // the group its write holds
        };
        // The next item goes to next_; slots up to run_end_ are contiguous in memory: to the
        // end of the group, or to the end of the Br page when pages have padding. Kept as
        // pointers so that push() computes no slot (no division by a run-time item count).
        void place_cursor() {
            const layout_type& l = v_->layout_;
            char* base = slots_[cur_].buf.data();
            if (!l.padded()) {
                next_ = l.slot(base, fill_);
                run_end_ = l.slot(base, 0) + v_->items_per_group_;
            } else {
                page_ = base + (fill_ / l.items_per_block()) * l.block_bytes();
                next_ = l.slot(page_, 0) + fill_ % l.items_per_block();
                run_end_ = l.slot(page_, 0) + l.items_per_block();
            }
        }
        // The cursor reached run_end_: the group is full (write it), or the next page starts;
        // after a failure, the item just placed is refused.
        void end_of_run() {
            if (failed_.failed()) {
                v_->size_ = kept_;
                park();
                failed_.check("flashxxl::vector::stream_writer::push");
            }
            if (fill_ == v_->items_per_group_) {
                write_group();
                place_cursor();
                return;
            }
            page_ += v_->blocks_.br; // padded pages only
            next_ = v_->layout_.slot(page_, 0);
            run_end_ = next_ + v_->items_per_page_;
        }
        void write_group() {
            const size_type g = group_;
            machine& m = *v_->machine_;
            m.charge_host(fill_, m.host().write_item_s); // filling the group, before its write
            try {
                extent e = v_->group_extent(g);
                slot& s = slots_[cur_];
                s.req = e.dev->awrite(s.buf.data(), e.offset, v_->layout_.bytes_for(fill_), v_->role_);
                s.dev = e.dev;
                s.group = g;
                v_->disk_pages_[g] =
                    std::max<std::uint32_t>(v_->disk_pages_[g], std::uint32_t(v_->layout_.blocks_for(fill_)));
                if (fill_ == v_->items_per_group_) {
                    ++group_;
                    fill_ = 0;
                    cur_ ^= 1;
                    wait_slot(slots_[cur_]);
                }
            } catch (...) {
                fail(g);
                throw;
            }
        }
        // Waits for a slot's write; a failed one marks its group as the first one lost.
        void wait_slot(slot& s) {
            if (!s.req) return;
            stxxl::request_ptr r = std::move(s.req);
            s.req = nullptr;
            try {
                s.dev->wait(r, v_->role_);
            } catch (...) {
                first_lost_ = std::min(first_lost_, s.group);
                throw;
            }
        }
        // From the catch block of a failure in group `g` or in a write before it: waits for the
        // writes in flight, keeps the items of the groups before the first lost one, latches the
        // failure and parks the cursor so that the next item is refused.
        void fail(size_type g) noexcept {
            failed_.latch();
            first_lost_ = std::min(first_lost_, g);
            for (auto& s : slots_) {
                try {
                    wait_slot(s);
                } catch (...) {
                }
            }
            kept_ = std::min(v_->size_, first_lost_ * v_->items_per_group_);
            v_->size_ = kept_;
            park();
        }
        // One free slot in a buffer: the next push or commit reaches end_of_run(), which refuses it.
        void park() {
            next_ = v_->layout_.slot(slots_[0].buf.data(), 0);
            run_end_ = next_ + 1;
        }
        vector* v_;
        slot slots_[2];
        std::size_t cur_ = 0;
        size_type group_ = 0;
        std::uint64_t fill_ = 0;
        T* next_ = nullptr;
        T* run_end_ = nullptr;
        char* page_ = nullptr; // the Br page of next_ (padded pages only)
        bool done_ = false;
        failure_latch failed_;
        size_type first_lost_ = ~size_type(0); // the first group whose write failed (after a failure)
        size_type kept_ = 0;                   // the vector's size after a failure
    };

private:
    struct frame {
        std::uint64_t page = 0;
        bool used = false;
        bool dirty = false;
        bool referenced = false;
    };

    void check_index(size_type i, const char* operation) const {
        failed_.check(operation);
        if (i >= size_)
            throw invalid_request("flashxxl::vector: index " + std::to_string(i) + " out of range (size " +
                                  std::to_string(size_) + ")");
    }
    bool has_cached_pages() const { return !page_map_.empty(); }

    //! log2(n) when n is a power of two, else -1.
    static int shift_of(std::uint64_t n) {
        int s = 0;
        while ((std::uint64_t(1) << s) < n)
            ++s;
        return (std::uint64_t(1) << s) == n ? s : -1;
    }

    void ensure_buffers() {
        if (!frames_buf_.empty()) return;
        staging_ = aligned_buffer(blocks_.bw, account_.get());
        frames_buf_ = aligned_buffer(frame_count_ * blocks_.br, account_.get());
        frames_.assign(frame_count_, frame{});
        page_map_.reserve(frame_count_);
    }

    //! Pointer to item i in the cache (loading its page); marks the page dirty if `dirty`.
    T* item_ptr(size_type i, bool dirty) {
        std::uint64_t page, in_page;
        if (page_shift_ >= 0) {
            page = i >> page_shift_;
            in_page = i & (items_per_page_ - 1);
        } else {
            page = page_divisor_.quotient(i);
            in_page = i - page * items_per_page_;
        }
        std::size_t f;
        if (page == last_page_) { // the page of the previous access: no lookup
            f = last_frame_;
        } else {
            auto it = page_map_.find(page);
            f = it != page_map_.end() ? it->second : load(page);
            last_page_ = page;
            last_frame_ = f;
        }
        frames_[f].referenced = true;
        if (dirty) frames_[f].dirty = true;
        // Item in_page of the page, from the start of the frame (no padding before it).
        return layout_.slot(frames_buf_.data() + f * blocks_.br, 0) + in_page;
    }

    //! Brings `page` into a frame (evicting by clock) and returns the frame.
    std::size_t load(std::uint64_t page) {
        last_page_ = no_page; // the map changes
        ensure_buffers();
        std::size_t f = victim();
        if (frames_[f].used) {
            if (frames_[f].dirty) write_back_group(frames_[f].page / pages_per_group_);
            page_map_.erase(frames_[f].page);
            frames_[f].used = false;
        }
        const std::uint64_t br = blocks_.br;
        char* dst = frames_buf_.data() + f * br;
        std::uint64_t g = page / pages_per_group_, q = page % pages_per_group_;
        if (g < groups_.size() && groups_[g] && q < disk_pages_[g]) {
            const extent& e = groups_[g].get();
            stxxl::request_ptr r = e.dev->aread(dst, e.offset + q * br, br, role_);
            e.dev->wait(r, role_);
        } else {
            std::memset(dst, 0, br);
        }
        frames_[f] = frame{page, true, false, true};
        page_map_.emplace(page, f);
        return f;
    }

    std::size_t victim() {
        for (;;) {
            frame& fr = frames_[hand_];
            std::size_t f = hand_;
            hand_ = (hand_ + 1) % frames_.size();
            if (!fr.used || !fr.referenced) return f;
            fr.referenced = false;
        }
    }

    //! The extent of group g, allocated (Bw bytes) if it has none yet.
    extent group_extent(std::uint64_t g) {
        if (g < groups_.size() && groups_[g]) return groups_[g].get();
        owned_extent e = rethrow_out_of_space_in("flashxxl::vector", [&] {
            return machine_->allocate(role_, blocks_.bw, g,
                                      account_->meter()); // out_of_space: nothing changed
        });
        if (g >= groups_.size()) {
            groups_.resize(g + 1);
            disk_pages_.resize(g + 1, 0);
        }
        groups_[g] = std::move(e);
        return groups_[g].get();
    }

    //! Writes group g with one write: cached pages copied, others read back from the device.
    void write_back_group(std::uint64_t g) {
        const std::uint64_t br = blocks_.br;
        std::uint64_t first_item = g * items_per_group_;
        std::uint64_t pages =
            size_ > first_item
                ? layout_.blocks_for(std::min<std::uint64_t>(size_ - first_item, items_per_group_))
                : 0;
        if (pages == 0) {
            for (frame& fr : frames_)
                if (fr.used && fr.page / pages_per_group_ == g) fr.dirty = false;
            return;
        }
        extent e = group_extent(g); // may throw out_of_space: nothing changed yet
        std::vector<stxxl::request_ptr> reads;
        for (std::uint64_t q = 0; q < pages; ++q) {
            auto it = page_map_.find(g * pages_per_group_ + q);
            if (it != page_map_.end()) {
                std::memcpy(staging_.data() + q * br, frames_buf_.data() + it->second * br, br);
            } else if (q < disk_pages_[g]) {
                reads.push_back(e.dev->aread(staging_.data() + q * br, e.offset + q * br, br, role_));
            } else {
                std::memset(staging_.data() + q * br, 0, br);
            }
        }
        e.dev->wait_all(reads, role_);
        stxxl::request_ptr w = e.dev->awrite(staging_.data(), e.offset, pages * br, role_);
        e.dev->wait(w, role_);
        disk_pages_[g] = std::max<std::uint32_t>(disk_pages_[g], std::uint32_t(pages));
        for (frame& fr : frames_)
            if (fr.used && fr.page / pages_per_group_ == g) fr.dirty = false;
    }

    //! Forgets every cached page (call flush() first to keep changes).
    void drop_cache() {
        for (frame& fr : frames_)
            fr = frame{};
        page_map_.clear();
        last_page_ = no_page;
    }

    //! Frees the (dropped) cache's buffers; ensure_buffers() allocates them again when needed.
    void release_cache_buffers() {
        staging_ = aligned_buffer();
        frames_buf_ = aligned_buffer();
        frames_.clear();
    }

    machine* machine_;
    role role_;
    std::uint64_t memory_;
    block_sizes blocks_;
    layout_type layout_;
    std::uint64_t items_per_page_;
    std::uint64_t pages_per_group_;
    std::uint64_t items_per_group_;
    int page_shift_;            // log2(items_per_page_), or -1
    fast_divisor page_divisor_; // by items_per_page_
    std::uint64_t frame_count_ = 0;
    size_type size_ = 0;
    std::vector<owned_extent> groups_;        // one Bw extent per group (empty: none yet)
    std::vector<std::uint32_t> disk_pages_;   // pages of each group that hold data on the device
    std::unique_ptr<memory_account> account_; // on the heap: buffers point to it while the vector moves
    aligned_buffer staging_;
    aligned_buffer frames_buf_;
    std::vector<frame> frames_;
    std::unordered_map<std::uint64_t, std::size_t> page_map_;
    static constexpr std::uint64_t no_page = ~std::uint64_t(0);
    std::uint64_t last_page_ = no_page; // the page of the last access and its frame (a
    std::size_t last_frame_ = 0;        // one-entry memo in front of page_map_)
    std::size_t hand_ = 0;
    failure_latch failed_; // latched: items were lost without an exception to the user
};

} // namespace flashxxl
