// An external vector: a paged cache of Br pages over Bw groups, written back one Bw group at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/error.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/io/span_append.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! An array of T on a machine's devices. Items live in groups of Bw bytes (one extent each,
//! placed by the machine's policy for the vector's role and the group number), in
//! block_layout<T, Br>: Br / sizeof(T) items per Br page.
//!
//! Random access goes through a cache of Br pages (clock replacement). A miss reads one Br
//! page. Evicting a dirty page writes back its whole group with ONE write of Bw bytes: cached
//! pages of the group are copied, the others are read (Br reads) first; only the last group of
//! the vector is written partially (whole pages up to size()). So a random update costs a Bw
//! write, as the unit-cost flash model charges it (seeds/001, Section 2); sequential work should
//! use the stream_reader (Br reads with prefetch) and stream_writer (Bw writes).
//!
//! Memory: the budget M given to the constructor covers a Bw staging buffer, the page frames
//! and the page map (memory_usage(M) == M; at least min_memory()). Readers and writers hold
//! their own buffers (their memory_usage()). T must be trivially copyable; it needs a default
//! constructor only for resize(n) without a value. Not thread-safe; a stream_writer or
//! stream_reader must be the only user of the vector while it is alive.
template <class T, class Blocks = blocks<128 * 1024, 16 * 1024 * 1024>>
class vector {
public:
    static constexpr std::size_t Br = Blocks::read_block;
    static constexpr std::size_t Bw = Blocks::write_block;
    using value_type = T;
    using size_type = std::uint64_t;
    using layout = block_layout<T, Br>;
    static constexpr std::uint64_t items_per_page = layout::items_per_block;
    static constexpr std::uint64_t pages_per_group = Bw / Br;
    static constexpr std::uint64_t items_per_group = items_per_page * pages_per_group;
    //! Bytes per page frame counted for the page map and frame table.
    static constexpr std::uint64_t frame_overhead = 96;

    //! The least budget a vector accepts: a staging buffer of Bw and two page frames.
    static constexpr std::uint64_t min_memory() { return Bw + 2 * (Br + frame_overhead) + 4096; }
    //! Memory a vector with budget M holds at most (all of it: staging, frames, page map).
    static constexpr std::uint64_t memory_usage(std::uint64_t memory) { return memory; }

    class reference;
    class iterator;
    class const_iterator;
    class stream_reader;
    class stream_writer;

    //! An empty vector on machine `m` whose groups have role `r`.
    vector(machine& m, std::uint64_t memory, role r = role::stream) : machine_(&m), role_(r), memory_(memory) {
        if (memory < min_memory())
            throw config_error("flashxxl::vector: memory budget " + format_bytes(double(memory)) +
                               " is below the minimum " + format_bytes(double(min_memory())) +
                               " (one Bw = " + format_bytes(double(Bw)) + " staging buffer and two Br pages)");
        frame_count_ = (memory - Bw - 4096) / (Br + frame_overhead);
    }
    vector(const vector&) = delete;
    vector& operator=(const vector&) = delete;
    ~vector() {
        for (const extent& e : groups_) release_noexcept(e);
    }

    size_type size() const { return size_; }
    bool empty() const { return size_ == 0; }
    machine& get_machine() const { return *machine_; }
    role get_role() const { return role_; }
    //! The budget given to the constructor.
    std::uint64_t memory() const { return memory_; }
    //! Bytes of buffers held now and at most so far (tracked).
    const memory_account& account() const { return account_; }

    //! Item i (i < size()).
    T get(size_type i) {
        check_index(i);
        return *item_ptr(i, false);
    }
    //! Sets item i (i < size()).
    void set(size_type i, const T& value) {
        check_index(i);
        std::memcpy(static_cast<void*>(item_ptr(i, true)), &value, sizeof(T));
    }
    reference operator[](size_type i) { return reference(this, i); }
    T front() { return get(0); }
    T back() { return get(size_ - 1); }

    void push_back(const T& value) {
        ++size_;
        std::memcpy(static_cast<void*>(item_ptr(size_ - 1, true)), &value, sizeof(T));
    }
    void pop_back() {
        if (size_ == 0) throw invalid_request("flashxxl::vector::pop_back on an empty vector");
        --size_;
    }
    //! Grows (new items are `value`) or shrinks to n items.
    void resize(size_type n, const T& value) {
        if (n <= size_) {
            size_ = n;
            return;
        }
        if (size_ == 0 && !has_cached_pages()) {
            // Fast path: fill through a stream writer (Bw writes, no reads).
            stream_writer w(*this);
            for (size_type i = 0; i < n; ++i) w.push(value);
            w.finish();
            return;
        }
        while (size_ < n) push_back(value);
    }
    void resize(size_type n) { resize(n, T()); }
    //! Removes every item and gives back all extents.
    void clear() {
        drop_cache();
        for (const extent& e : groups_) machine_->release(e);
        groups_.clear();
        disk_pages_.clear();
        size_ = 0;
    }

    //! Writes back every dirty page (one Bw-group write per group with dirty pages).
    void flush() {
        for (std::size_t f = 0; f < frames_.size(); ++f)
            if (frames_[f].dirty) write_back_group(frames_[f].page / pages_per_group);
    }

    iterator begin() { return iterator(this, 0); }
    iterator end() { return iterator(this, size_); }
    const_iterator cbegin() { return const_iterator(this, 0); }
    const_iterator cend() { return const_iterator(this, size_); }

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
    template <class Ref>
    class basic_iterator {
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
        basic_iterator& operator++() { ++i_; return *this; }
        basic_iterator operator++(int) { auto t = *this; ++i_; return t; }
        basic_iterator& operator--() { --i_; return *this; }
        basic_iterator operator--(int) { auto t = *this; --i_; return t; }
        basic_iterator& operator+=(difference_type d) { i_ += d; return *this; }
        basic_iterator& operator-=(difference_type d) { i_ -= d; return *this; }
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
        static constexpr std::uint64_t memory_usage(std::size_t prefetch = 1) { return (prefetch + 1) * Br; }
        explicit stream_reader(vector& v, size_type first = 0, size_type last = size_type(-1),
                               std::size_t prefetch = 1, memory_account* account = nullptr)
            : reader_(*v.machine_, v.role_, false, account, prefetch) {
            v.flush();
            if (last > v.size_) last = v.size_;
            for (size_type pos = first; pos < last;) {
                size_type g = pos / items_per_group;
                size_type group_end = std::min<size_type>((g + 1) * items_per_group, last);
                reader_.add(segment{v.groups_[g], group_end - g * items_per_group, pos - g * items_per_group});
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
        block_reader<T, Br> reader_;
    };

    //! Appends items at the end with Bw writes (double-buffered). The vector's cache is
    //! written back and emptied first; a partial last group is read back (Br reads) and
    //! rewritten. finish() (or the destructor) writes the rest. Memory: 2 x Bw.
    class stream_writer {
    public:
        static constexpr std::uint64_t memory_usage() { return 2 * Bw; }
        explicit stream_writer(vector& v, memory_account* account = nullptr) : v_(&v) {
            v.flush();
            v.drop_cache();
            for (auto& s : slots_) s.buf = aligned_buffer(Bw, account);
            group_ = v.size_ / items_per_group;
            fill_ = v.size_ % items_per_group;
            if (fill_ > 0) {
                // Read back the partial last group (whole pages) to rewrite it with more items.
                std::uint64_t pages = layout::blocks_for(fill_);
                const extent& e = v.groups_[group_];
                std::vector<stxxl::request_ptr> reqs;
                for (std::uint64_t p = 0; p < pages; ++p)
                    reqs.push_back(e.dev->aread(slots_[0].buf.data() + p * Br, e.offset + p * Br, Br, v.role_));
                for (auto& r : reqs) e.dev->wait(r, v.role_);
            }
        }
        stream_writer(const stream_writer&) = delete;
        stream_writer& operator=(const stream_writer&) = delete;
        ~stream_writer() {
            try {
                finish();
            } catch (...) {
                wait_all_noexcept();
            }
        }
        //! Appends one item.
        void push(const T& x) {
            std::memcpy(static_cast<void*>(layout::slot(slots_[cur_].buf.data(), fill_)), &x, sizeof(T));
            ++v_->size_;
            if (++fill_ == items_per_group) write_group();
        }
        //! Free item slots contiguous in memory at the end of the vector: up to free_run()
        //! items may be placed (memcpy) at free_begin(), then appended with commit(k).
        T* free_begin() { return layout::slot(slots_[cur_].buf.data(), fill_); }
        std::uint64_t free_run() const {
            return layout::contiguous_from(fill_, items_per_group);
        }
        //! Appends the k <= free_run() items placed at free_begin().
        void commit(std::uint64_t k) {
            fill_ += k;
            v_->size_ += k;
            if (fill_ == items_per_group) write_group();
        }
        //! Appends n items from an array.
        void push(const T* items, std::uint64_t n) {
            append_by_spans(*this, items, n);
        }
        //! Writes the last partial group and waits for all writes. Idempotent.
        void finish() {
            if (done_) return;
            done_ = true;
            if (fill_ > 0) write_group();
            for (auto& s : slots_) wait_slot(s);
        }

    private:
        struct slot {
            aligned_buffer buf;
            stxxl::request_ptr req;
            device* dev = nullptr;
        };
        void write_group() {
            extent e = v_->group_extent(group_);
            slot& s = slots_[cur_];
            s.req = e.dev->awrite(s.buf.data(), e.offset, layout::bytes_for(fill_), v_->role_);
            s.dev = e.dev;
            v_->disk_pages_[group_] = std::max<std::uint32_t>(v_->disk_pages_[group_],
                                                              std::uint32_t(layout::blocks_for(fill_)));
            if (fill_ == items_per_group) {
                ++group_;
                fill_ = 0;
                cur_ ^= 1;
                wait_slot(slots_[cur_]);
            }
        }
        void wait_slot(slot& s) {
            if (!s.req) return;
            stxxl::request_ptr r = std::move(s.req);
            s.req = nullptr;
            s.dev->wait(r, v_->role_);
        }
        void wait_all_noexcept() noexcept {
            for (auto& s : slots_) {
                try {
                    wait_slot(s);
                } catch (...) {
                }
            }
        }
        vector* v_;
        slot slots_[2];
        std::size_t cur_ = 0;
        size_type group_ = 0;
        std::uint64_t fill_ = 0;
        bool done_ = false;
    };

private:
    struct frame {
        std::uint64_t page = 0;
        bool used = false;
        bool dirty = false;
        bool referenced = false;
    };

    void check_index(size_type i) const {
        if (i >= size_)
            throw invalid_request("flashxxl::vector: index " + std::to_string(i) + " out of range (size " +
                                  std::to_string(size_) + ")");
    }
    bool has_cached_pages() const { return !page_map_.empty(); }

    void ensure_buffers() {
        if (!frames_buf_.empty()) return;
        staging_ = aligned_buffer(Bw, &account_);
        frames_buf_ = aligned_buffer(frame_count_ * Br, &account_);
        frames_.assign(frame_count_, frame{});
        page_map_.reserve(frame_count_);
    }

    //! Pointer to item i in the cache (loading its page); marks the page dirty if `dirty`.
    T* item_ptr(size_type i, bool dirty) {
        std::uint64_t page = i / items_per_page;
        std::size_t f;
        auto it = page_map_.find(page);
        if (it != page_map_.end()) {
            f = it->second;
        } else {
            f = load(page);
        }
        frames_[f].referenced = true;
        if (dirty) frames_[f].dirty = true;
        return layout::slot(frames_buf_.data() + f * Br, i % items_per_page);
    }

    //! Brings `page` into a frame (evicting by clock) and returns the frame.
    std::size_t load(std::uint64_t page) {
        ensure_buffers();
        std::size_t f = victim();
        if (frames_[f].used) {
            if (frames_[f].dirty) write_back_group(frames_[f].page / pages_per_group);
            page_map_.erase(frames_[f].page);
            frames_[f].used = false;
        }
        char* dst = frames_buf_.data() + f * Br;
        std::uint64_t g = page / pages_per_group, q = page % pages_per_group;
        if (g < groups_.size() && groups_[g].dev && q < disk_pages_[g]) {
            const extent& e = groups_[g];
            stxxl::request_ptr r = e.dev->aread(dst, e.offset + q * Br, Br, role_);
            e.dev->wait(r, role_);
        } else {
            std::memset(dst, 0, Br);
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
        if (g >= groups_.size()) {
            groups_.resize(g + 1);
            disk_pages_.resize(g + 1, 0);
        }
        if (!groups_[g].dev) groups_[g] = machine_->allocate(role_, Bw, g);
        return groups_[g];
    }

    //! Writes group g with one write: cached pages copied, others read back from the device.
    void write_back_group(std::uint64_t g) {
        std::uint64_t first_item = g * items_per_group;
        std::uint64_t pages = size_ > first_item
                                  ? layout::blocks_for(std::min<std::uint64_t>(size_ - first_item, items_per_group))
                                  : 0;
        if (pages == 0) {
            for (frame& fr : frames_)
                if (fr.used && fr.page / pages_per_group == g) fr.dirty = false;
            return;
        }
        extent e = group_extent(g);  // may throw out_of_space: nothing changed yet
        std::vector<stxxl::request_ptr> reads;
        for (std::uint64_t q = 0; q < pages; ++q) {
            auto it = page_map_.find(g * pages_per_group + q);
            if (it != page_map_.end()) {
                std::memcpy(staging_.data() + q * Br, frames_buf_.data() + it->second * Br, Br);
            } else if (q < disk_pages_[g]) {
                reads.push_back(e.dev->aread(staging_.data() + q * Br, e.offset + q * Br, Br, role_));
            } else {
                std::memset(staging_.data() + q * Br, 0, Br);
            }
        }
        for (auto& r : reads) e.dev->wait(r, role_);
        stxxl::request_ptr w = e.dev->awrite(staging_.data(), e.offset, pages * Br, role_);
        e.dev->wait(w, role_);
        disk_pages_[g] = std::max<std::uint32_t>(disk_pages_[g], std::uint32_t(pages));
        for (frame& fr : frames_)
            if (fr.used && fr.page / pages_per_group == g) fr.dirty = false;
    }

    //! Forgets every cached page (call flush() first to keep changes).
    void drop_cache() {
        for (frame& fr : frames_) fr = frame{};
        page_map_.clear();
    }

    void release_noexcept(const extent& e) noexcept {
        try {
            machine_->release(e);
        } catch (...) {
        }
    }

    machine* machine_;
    role role_;
    std::uint64_t memory_;
    std::uint64_t frame_count_ = 0;
    size_type size_ = 0;
    std::vector<extent> groups_;             // one Bw extent per group (dev == nullptr: none yet)
    std::vector<std::uint32_t> disk_pages_;  // pages of each group that hold data on the device
    memory_account account_;
    aligned_buffer staging_;
    aligned_buffer frames_buf_;
    std::vector<frame> frames_;
    std::unordered_map<std::uint64_t, std::size_t> page_map_;
    std::size_t hand_ = 0;
};

} // namespace flashxxl
