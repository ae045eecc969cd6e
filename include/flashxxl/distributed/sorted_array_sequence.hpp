// A sorted array in memory as a sequence of multisequence selection (exact brackets, no I/O).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "flashxxl/distributed/multisequence_selection.hpp"

namespace flashxxl::distributed {

//! The sequence interface select_splits asks for, over a sorted std::vector held in memory:
//! every position is known, so brackets are exact.
template <class T> class sorted_array_sequence {
public:
    explicit sorted_array_sequence(const std::vector<T>& items) : items_(&items) {}
    std::uint64_t size() const { return items_->size(); }
    std::uint64_t candidate(std::uint64_t lo, std::uint64_t hi) const { return lo + (hi - lo) / 2; }
    T at(std::uint64_t i) const { return (*items_)[i]; }
    template <class Pred>
    std::uint64_t partition_point(Pred goes_before, std::uint64_t lo, std::uint64_t hi) const {
        return std::uint64_t(std::partition_point(items_->begin() + std::ptrdiff_t(lo),
                                                  items_->begin() + std::ptrdiff_t(hi), goes_before) -
                             items_->begin());
    }
    template <class Pred> split_bracket bracket(Pred goes_before, std::uint64_t lo, std::uint64_t hi) const {
        std::uint64_t p = partition_point(goes_before, lo, hi);
        return {p, p};
    }

private:
    const std::vector<T>* items_;
};

} // namespace flashxxl::distributed
