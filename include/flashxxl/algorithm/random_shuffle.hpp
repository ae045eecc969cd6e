// External random shuffle of a vector range: every item sorted by a random 64-bit tag.
#pragma once

#include <cstddef>
#include <cstdint>

#include "flashxxl/algorithm/sort.hpp"
#include "flashxxl/algorithm/vector_range.hpp"

namespace flashxxl {

namespace detail {
//! An item with its random tag.
template <class T> struct tagged {
    std::uint64_t tag;
    T item;
};
template <class T> struct by_tag {
    bool operator()(const tagged<T>& a, const tagged<T>& b) const { return a.tag < b.tag; }
};
//! splitmix64's finalizer of seed and position: the tag of each item.
inline std::uint64_t shuffle_tag(std::uint64_t seed, std::uint64_t position) {
    std::uint64_t x = seed + 0x9e3779b97f4a7c15ull * (position + 1);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
} // namespace detail

//! Puts the items [first, last) of a vector in a random order determined by `seed`: each item
//! gets a pseudo-random 64-bit tag (a bijective mix of seed and position, so tags are distinct
//! within a range and the order is a permutation) and the range is sorted by tag, as sort() does
//! (STXXL's random_shuffle distributes into buckets instead; sorting by random keys gives the
//! same distribution with the sorter's Br/Bw I/O: one read, the runs, the write-back, on items
//! 8 bytes larger). Memory and failures as sort(); an out_of_space names
//! "flashxxl::random_shuffle".
template <class T>
sort_report random_shuffle(vector_range<T> r, std::uint64_t seed, const memory_budget& memory,
                           role scratch = role::scratch, std::size_t threads = 0) {
    using item = detail::tagged<T>;
    return detail::sort_range_as<item>(
        r,
        [seed](const T& x, std::uint64_t position) {
            return item{detail::shuffle_tag(seed, position), x};
        },
        detail::by_tag<T>(), [](const item& t) -> const T& { return t.item; }, memory, scratch, threads,
        "flashxxl::random_shuffle");
}

} // namespace flashxxl
