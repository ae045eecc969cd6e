// A sorted run on a machine's devices with an in-memory index of its Br pages: a selection sequence.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/distributed/multisequence_selection.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl::distributed {

//! A sorted run written with Bw writes into a flashxxl::vector, with the first item of every Br
//! page kept in memory (sizeof(T) per Br: 100 bytes per 128 KiB for records). It answers
//! select_splits: candidates are page starts while a window spans more than a page, and
//! brackets come from the index, so a selection reads a page only where the index cannot
//! decide, and keeps the pages it read last (cache_pages, least recently used out): a
//! selection of k targets at once wants about 2 k, or it reads the same pages again. Memory:
//! the index, cache_pages Br pages, and a Br reader (2 Br) while a page is read.
template <class T, class Before> class sorted_run {
public:
    using vector_type = vector<T>;

    //! An empty run on `m` (role `r`) whose selection keeps up to `cache_pages` pages.
    sorted_run(machine& m, const block_sizes& b, role r, Before before, std::size_t cache_pages = 2)
        : items_(std::make_unique<vector_type>(m, vector_type::min_memory(b), b, r)), before_(before),
          per_page_(items_->items_per_page()), cache_(std::max<std::size_t>(1, cache_pages)) {}

    vector_type& items() { return *items_; }
    std::uint64_t size() const { return size_; }
    std::uint64_t pages_read() const { return pages_read_; }

    //! Writes `n` sorted items from `source` (a sorter after sort(): pop_into) as this run.
    template <class Source> void write_from(Source& source, memory_account* account) {
        typename vector_type::stream_writer w(*items_, account);
        while (!source.empty()) {
            std::uint64_t k = source.pop_into(w.free_begin(), w.free_run());
            const T* first = w.free_begin();
            for (std::uint64_t i = 0; i < k; ++i)
                if ((size_ + i) % per_page_ == 0) page_firsts_.push_back(first[i]);
            w.commit(k);
            size_ += k;
        }
        w.finish();
    }

    std::uint64_t candidate(std::uint64_t lo, std::uint64_t hi) const {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        std::uint64_t start = mid / per_page_ * per_page_;
        if (start < lo) start += per_page_;
        return start < hi ? start : mid;
    }
    T at(std::uint64_t i) {
        if (i % per_page_ == 0) return page_firsts_[i / per_page_];
        return page(i / per_page_)[i % per_page_];
    }
    //! From the index: the first index in [lo, hi) whose item does not go before lies between the
    //! last page start in the window whose item goes before and the next page start.
    template <class Pred> split_bracket bracket(Pred goes_before, std::uint64_t lo, std::uint64_t hi) const {
        const std::uint64_t first_page = (lo + per_page_ - 1) / per_page_;
        const std::uint64_t end_page = (hi + per_page_ - 1) / per_page_; // page starts < hi
        // Page starts in the window: first_page..end_page-1; find the first whose item does not go before.
        std::uint64_t a = first_page, b = end_page;
        while (a < b) {
            std::uint64_t m = a + (b - a) / 2;
            if (goes_before(page_firsts_[m]))
                a = m + 1;
            else
                b = m;
        }
        // Page start a (if in the window) does not go before; page start a-1 (if in it) does.
        const std::uint64_t high = a < end_page ? a * per_page_ : hi;
        const std::uint64_t low = a > first_page ? (a - 1) * per_page_ + 1 : lo;
        return {std::min(low, high), high};
    }
    //! The first index in [lo, hi) whose item does not go before (reads the pages it needs).
    template <class Pred>
    std::uint64_t partition_point(Pred goes_before, std::uint64_t lo, std::uint64_t hi) {
        while (lo < hi) {
            std::uint64_t m = lo + (hi - lo) / 2;
            if (goes_before(at(m)))
                lo = m + 1;
            else
                hi = m;
        }
        return lo;
    }

private:
    //! The items of page p, from the cache (least recently used out) or read (one Br read).
    const T* page(std::uint64_t p) {
        ++clock_;
        cached* victim = &cache_[0];
        for (cached& c : cache_) {
            if (c.page == p && !c.items.empty()) {
                c.used = clock_;
                return c.items.data();
            }
            if (c.used < victim->used) victim = &c;
        }
        victim->page = p;
        victim->used = clock_;
        victim->items.clear();
        typename vector_type::stream_reader in(*items_, p * per_page_, std::min(size_, (p + 1) * per_page_));
        for (; !in.empty(); ++in)
            victim->items.push_back(*in);
        ++pages_read_;
        return victim->items.data();
    }
    struct cached {
        std::uint64_t page = 0, used = 0;
        std::vector<T> items;
    };

    std::unique_ptr<vector_type> items_;
    Before before_;
    std::uint64_t per_page_;
    std::uint64_t size_ = 0, pages_read_ = 0;
    std::vector<T> page_firsts_;
    std::vector<cached> cache_;
    std::uint64_t clock_ = 0;
};

} // namespace flashxxl::distributed
