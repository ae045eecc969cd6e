// The per-device extent allocator (core library): best fit or write frontier, coalescing, a hard capacity.
#include "flashxxl/machine/extent_allocator.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "flashxxl/error.hpp"

namespace flashxxl {

extent_allocator::extent_allocator(std::string device_name, std::uint64_t capacity, std::uint64_t alignment,
                 allocation_order order)
    : device_(std::move(device_name)),
      capacity_(alignment == 0 ? throw config_error("extent_allocator of device '" + device_ +
                                                    "': alignment must be positive")
                               : capacity - capacity % alignment),
      alignment_(alignment), order_(order) {
    if (capacity_ > 0) insert_free(0, capacity_);
    free_bytes_ = capacity_;
}

std::uint64_t extent_allocator::allocate(std::uint64_t bytes) {
    if (bytes == 0) throw invalid_request("device '" + device_ + "': allocation of zero bytes");
    std::uint64_t length = round_up(bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_size_.lower_bound({length, 0});
    if (it == by_size_.end()) throw out_of_space(device_, length, free_bytes_, capacity_);
    std::uint64_t offset = it->second, have = it->first;
    if (order_ == allocation_order::write_frontier) {
        auto fit = first_fit_from(frontier_, length);
        if (fit == by_offset_.end()) fit = first_fit_from(0, length);  // wrap around
        std::uint64_t start = fit->first;
        have = fit->second;
        // A free range that contains the frontier is entered at the frontier.
        bool enter_at_frontier = frontier_ > start && frontier_ < start + have && start + have - frontier_ >= length;
        offset = enter_at_frontier ? frontier_ : start;
        erase_free(start, have);
        if (offset > start) insert_free(start, offset - start);
        if (start + have > offset + length) insert_free(offset + length, start + have - offset - length);
        frontier_ = offset + length;
    } else {
        erase_free(offset, have);
        if (have > length) insert_free(offset + length, have - length);
    }
    allocated_.emplace(offset, length);
    free_bytes_ -= length;
    return offset;
}

void extent_allocator::release(std::uint64_t offset, std::uint64_t bytes) {
    std::uint64_t length = round_up(bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    auto a = allocated_.find(offset);
    if (a == allocated_.end() || a->second != length)
        throw invalid_request("device '" + device_ + "': release of [" + std::to_string(offset) + ", " +
                              std::to_string(offset + length) + ") which is not an allocated extent");
    allocated_.erase(a);
    free_bytes_ += length;
    // Coalesce with the free neighbours.
    auto next = by_offset_.lower_bound(offset);
    if (next != by_offset_.end() && next->first == offset + length) {
        length += next->second;
        erase_free(next->first, next->second);
    }
    auto prev = by_offset_.lower_bound(offset);
    if (prev != by_offset_.begin()) {
        --prev;
        if (prev->first + prev->second == offset) {
            offset = prev->first;
            length += prev->second;
            erase_free(prev->first, prev->second);
        }
    }
    insert_free(offset, length);
}

std::uint64_t extent_allocator::free_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return free_bytes_;
}

std::uint64_t extent_allocator::largest_free() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return by_size_.empty() ? 0 : by_size_.rbegin()->first;
}

std::size_t extent_allocator::allocated_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocated_.size();
}

std::uint64_t extent_allocator::round_up(std::uint64_t bytes) const {
    if (bytes > capacity_)  // also keeps the rounding below from overflowing
        throw out_of_space(device_, bytes, free_bytes(), capacity_);
    return (bytes + alignment_ - 1) / alignment_ * alignment_;
}

std::map<std::uint64_t, std::uint64_t>::iterator extent_allocator::first_fit_from(std::uint64_t from, std::uint64_t length) {
    auto it = by_offset_.upper_bound(from);
    if (it != by_offset_.begin()) {
        auto prev = std::prev(it);
        if (prev->first + prev->second > from && prev->first + prev->second - from >= length) return prev;
    }
    for (; it != by_offset_.end(); ++it)
        if (it->second >= length) return it;
    return by_offset_.end();
}

void extent_allocator::insert_free(std::uint64_t offset, std::uint64_t length) {
    by_offset_.emplace(offset, length);
    by_size_.emplace(length, offset);
}

void extent_allocator::erase_free(std::uint64_t offset, std::uint64_t length) {
    by_offset_.erase(offset);
    by_size_.erase({length, offset});
}

} // namespace flashxxl
