// In-memory sort of a range of items: the sort the sorter's chunks and the priority queue's heaps use.
#pragma once

#include <boost/sort/pdqsort/pdqsort.hpp>

namespace flashxxl {

//! Sorts [first, last) in memory: pattern-defeating quicksort (Boost.Sort), with branchless
//! partitioning for items of up to 16 bytes, where comparisons are cheap and mispredicted
//! branches dominate (with it the input phase of sort(vector) on random 8-byte keys took half
//! the time it took with std::sort).
template <class T, class Cmp> void sort_range(T* first, T* last, const Cmp& cmp) {
    if constexpr (sizeof(T) <= 16)
        boost::sort::pdqsort_branchless(first, last, cmp);
    else
        boost::sort::pdqsort(first, last, cmp);
}

} // namespace flashxxl
