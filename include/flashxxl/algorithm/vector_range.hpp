// A range [first, last) of a flashxxl::vector: what the algorithms of flashxxl/algorithm/ work on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl {

//! Items [first, last) of vector `*v` (STXXL's algorithms take the vector's iterators; a
//! flashxxl iterator knows its index, range_of turns a pair into a range).
template <class T> struct vector_range {
    vector<T>* v = nullptr;
    std::uint64_t first = 0, last = 0;
    std::uint64_t size() const { return last - first; }
    //! Whether the range ends at the vector's end (the algorithms then append instead of
    //! overwriting through the cache).
    bool is_suffix() const { return last == v->size(); }
};

//! Items [first, min(last, size())) of `v`; invalid_request when first > last.
template <class T>
vector_range<T> range_of(vector<T>& v, std::uint64_t first = 0, std::uint64_t last = ~std::uint64_t(0)) {
    last = std::min(last, v.size());
    if (first > last)
        throw invalid_request("flashxxl: range [" + std::to_string(first) + ", " + std::to_string(last) +
                              ") of a vector of " + std::to_string(v.size()) +
                              " items (expected first <= last)");
    return {&v, first, last};
}
//! The range between two iterators of `v`.
template <class T>
vector_range<T> range_of(vector<T>& v, typename vector<T>::iterator first,
                         typename vector<T>::iterator last) {
    return range_of(v, first.index(), last.index());
}

//! The least vector budget (vector::memory()) with which an in-place pass over a vector with
//! block sizes `b` writes every group once: the staging buffer and a group of pages plus one.
template <class T> std::uint64_t in_place_memory(const block_sizes& b) {
    return b.bw + (b.reads_per_write() + 1) * (b.br + vector<T>::frame_overhead) + 4096;
}

//! config_error naming `algorithm` when `v`'s cache cannot hold a group (in_place_memory).
template <class T> void require_in_place_cache(const vector<T>& v, const char* algorithm) {
    if (v.memory() < in_place_memory<T>(v.blocks()))
        throw config_error(
            std::string(algorithm) + ": the vector's memory " + format_bytes(double(v.memory())) +
            " cannot cache a Bw group for an in-place pass (expected at least " +
            format_bytes(double(in_place_memory<T>(v.blocks()))) + ", " + v.blocks().describe() + ")");
}

} // namespace flashxxl
