// A pipeline source streaming an iterator range [first, last) (an in-memory container's items).
#pragma once

#include <cstdint>
#include <iterator>

#include "flashxxl/stream/stage_memory.hpp"

namespace flashxxl::stream {

//! Streams the items of [first, last) in order. It holds the two iterators and nothing else
//! (memory_usage() == 0). For a flashxxl::vector use vector_source: its iterators read through
//! the vector's page cache, one item at a time.
template <class It> class range_source {
public:
    using value_type = typename std::iterator_traits<It>::value_type;
    static constexpr std::uint64_t memory_usage() { return 0; }
    static stage_memory memory_need() { return {"range source", 0, 0}; }

    range_source(It first, It last) : cur_(first), last_(last) {}
    decltype(auto) operator*() const { return *cur_; }
    range_source& operator++() {
        ++cur_;
        return *this;
    }
    bool empty() const { return cur_ == last_; }

private:
    It cur_, last_;
};

//! A range_source over a container's begin() and end().
template <class Container> auto from_range(const Container& c) {
    return range_source(std::begin(c), std::end(c));
}

} // namespace flashxxl::stream
