// sort, stable_sort and ksort of a vector range [first, last) with the Br/Bw merge sorter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

#include "flashxxl/algorithm/vector_range.hpp"
#include "flashxxl/algorithm/write_back.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"

namespace flashxxl {

namespace detail {

//! Sorts the items of `r` as items of type Item (make(x) of each item x, ordered by `cmp`) and
//! writes item_of(sorted item) back: the range is read once (Br), the sorter forms its runs
//! (Bw) and merges them, write_back puts the result in place. The budget covers the reader
//! (2 Br), the writer (2 Bw) and the sorter (the rest).
template <class Item, class T, class Make, class Cmp, class ItemOf>
sort_report sort_range_as(vector_range<T> r, Make make, Cmp cmp, ItemOf item_of, const memory_budget& budget,
                          role scratch, std::size_t threads, const char* algorithm) {
    const block_sizes b = r.v->blocks();
    const std::uint64_t streams = sort_stream_memory<T>(b);
    budget.require(streams + sorter<Item, Cmp>::min_memory(b), algorithm,
                   "its reader, writer and a sorter for " + b.describe());
    if (!r.is_suffix()) require_in_place_cache(*r.v, algorithm);
    memory_account account(budget.account());
    sort_report report;
    report.items = r.size();
    sorter<Item, Cmp> s(r.v->get_machine(), budget.bytes() - streams, b, std::move(cmp), scratch, &account);
    s.set_threads(threads);
    s.expect(r.size());
    rethrow_out_of_space_in(algorithm, [&] { // nothing of the vector changed yet
        typename vector<T>::stream_reader in(*r.v, r.first, r.last, 1, &account);
        std::uint64_t index = r.first;
        for (; !in.empty(); ++in, ++index)
            s.push(make(*in, index));
        s.sort();
    });
    if (r.size() > 0) write_back(r, s, item_of, account, algorithm);
    report.passes = r.size() == 0 ? 0 : 1 + s.passes();
    report.runs = s.runs_formed();
    report.peak_memory = account.peak();
    return report;
}

template <class T> struct same_item {
    const T& operator()(const T& x, std::uint64_t) const { return x; }
    const T& operator()(const T& x) const { return x; }
};

//! An item with its position, for stable_sort.
template <class T> struct positioned {
    T item;
    std::uint64_t position;
};
template <class T, class Cmp> struct by_item_then_position {
    Cmp cmp;
    bool operator()(const positioned<T>& a, const positioned<T>& b) const {
        if (cmp(a.item, b.item)) return true;
        if (cmp(b.item, a.item)) return false;
        return a.position < b.position;
    }
};

template <class T, class KeyOf> struct by_key {
    KeyOf key_of;
    bool operator()(const T& a, const T& b) const { return key_of(a) < key_of(b); }
};

} // namespace detail

//! Sorts the items [first, last) of a vector by `cmp` (the rest of the vector unchanged), with
//! at most `memory` bytes of buffers (reader 2 Br, writer 2 Bw and the sorter; charged to the
//! budget's account): the range is read once with Br reads, runs are written with Bw writes and
//! merged as by sorter, and the result goes back in place. A range that ends at the vector's
//! end (the whole vector too) is cut off and appended (Bw writes, as flashxxl::sort(vector));
//! any other range is written through the vector's cache, whose memory must cover
//! in_place_memory(b) (config_error otherwise), at the price of reading its pages before
//! overwriting them. Failures: before the write-back (the runs find no room, a read fails)
//! nothing changed; during it, the vector is latched (vector's class comment); an out_of_space
//! names "flashxxl::sort(range)".
template <class T, class Cmp>
sort_report sort(vector_range<T> r, Cmp cmp, const memory_budget& memory, role scratch = role::scratch,
                 std::size_t threads = 0) {
    return detail::sort_range_as<T>(r, detail::same_item<T>(), std::move(cmp), detail::same_item<T>(), memory,
                                    scratch, threads, "flashxxl::sort(range)");
}

//! sort() keeping items that compare equal in their order: each item travels with its
//! position (8 bytes more per item through the sorter, so its runs are (sizeof(T) + 8) /
//! sizeof(T) times larger). Memory, I/O and failures as sort().
template <class T, class Cmp>
sort_report stable_sort(vector_range<T> r, Cmp cmp, const memory_budget& memory, role scratch = role::scratch,
                        std::size_t threads = 0) {
    using item = detail::positioned<T>;
    return detail::sort_range_as<item>(
        r,
        [](const T& x, std::uint64_t position) {
            return item{x, position};
        },
        detail::by_item_then_position<T, Cmp>{std::move(cmp)},
        [](const item& p) -> const T& { return p.item; }, memory, scratch, threads, "flashxxl::stable_sort");
}

//! sort() by an extracted key: items in ascending key_of(item) (STXXL's ksort, whose key()
//! member becomes a function here; the key type needs operator<). Memory, I/O and failures as
//! sort().
template <class T, class KeyOf>
sort_report ksort(vector_range<T> r, KeyOf key_of, const memory_budget& memory, role scratch = role::scratch,
                  std::size_t threads = 0) {
    return detail::sort_range_as<T>(r, detail::same_item<T>(), detail::by_key<T, KeyOf>{std::move(key_of)},
                                    detail::same_item<T>(), memory, scratch, threads, "flashxxl::ksort");
}

} // namespace flashxxl
