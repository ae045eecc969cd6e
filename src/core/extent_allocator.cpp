// The per-device extent allocator (core library): best fit or write frontier, coalescing, a hard capacity.
#include "flashxxl/machine/extent_allocator.hpp"

#include <algorithm>
#include <array>
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
    std::uint64_t start = it->second, have = it->first, offset = start;
    if (order_ == allocation_order::write_frontier) {
        auto fit = first_fit_from(frontier_, length);
        if (fit == by_offset_.end()) fit = first_fit_from(0, length); // wrap around
        start = fit->first;
        have = fit->second;
        // A free range that contains the frontier is entered at the frontier.
        bool enter_at_frontier =
            frontier_ > start && frontier_ < start + have && start + have - frontier_ >= length;
        offset = enter_at_frontier ? frontier_ : start;
    }
    const std::uint64_t before = offset - start, after = start + have - offset - length;
    const std::size_t pieces = (before > 0 ? 1 : 0) + (after > 0 ? 1 : 0);
    // Strong guarantee: the nodes the lists need are all made before anything changes. The
    // free range's own two nodes are reused; each free piece left beside the extent needs two
    // more, and the extent needs its record and a spare for release() (counted as the range's).
    if (spare_sizes_.capacity() < allocated_.size() + 1)
        spare_sizes_.reserve(std::max<std::size_t>(2 * spare_sizes_.capacity(), allocated_.size() + 1));
    std::array<offset_map::node_type, 3> offsets;
    std::array<size_set::node_type, 3> sizes;
    {
        offset_map fresh_offsets;
        size_set fresh_sizes;
        for (std::uint64_t k = 0; k < pieces; ++k) {
            fresh_offsets.emplace(k, 0);
            fresh_sizes.emplace(k, 0);
        }
        for (std::uint64_t k = 0; k < pieces; ++k) {
            offsets[k] = fresh_offsets.extract(k);
            sizes[k] = fresh_sizes.extract({k, 0});
        }
    }
    // From here on nodes only move between the lists: nothing allocates, nothing can fail.
    offsets[pieces] = by_offset_.extract(start);
    sizes[pieces] = by_size_.extract({have, start});
    std::size_t next = 0;
    auto add_free = [&](std::uint64_t at, std::uint64_t free_length) {
        offsets[next].key() = at;
        offsets[next].mapped() = free_length;
        by_offset_.insert(std::move(offsets[next]));
        sizes[next].value() = {free_length, at};
        by_size_.insert(std::move(sizes[next]));
        ++next;
    };
    if (before > 0) add_free(start, before);
    if (after > 0) add_free(offset + length, after);
    offsets[next].key() = offset;
    offsets[next].mapped() = length;
    allocated_.insert(std::move(offsets[next]));
    spare_sizes_.push_back(std::move(sizes[next])); // room reserved above
    if (order_ == allocation_order::write_frontier) frontier_ = offset + length;
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
    // Nothing below allocates, so a release cannot fail half-way and lose the range: it is
    // merged into a free neighbour (whose nodes are reused), or becomes a free range of its
    // own in the extent's record and the spare node allocate() made for this.
    offset_map::node_type record = allocated_.extract(a);
    size_set::node_type spare = std::move(spare_sizes_.back());
    spare_sizes_.pop_back();
    auto next = by_offset_.find(offset + length);
    auto prev = by_offset_.lower_bound(offset);
    bool has_prev = false;
    if (prev != by_offset_.begin()) {
        --prev;
        has_prev = prev->first + prev->second == offset;
    }
    const bool has_next = next != by_offset_.end();
    const std::uint64_t lo = has_prev ? prev->first : offset;
    const std::uint64_t hi = has_next ? next->first + next->second : offset + length;
    if (has_prev) {
        const std::uint64_t prev_length = prev->second;
        if (has_next) erase_free(next->first, next->second);
        move_free(lo, prev_length, lo, hi - lo);
    } else if (has_next) {
        move_free(next->first, next->second, lo, hi - lo);
    } else {
        record.key() = offset;
        record.mapped() = length;
        by_offset_.insert(std::move(record));
        spare.value() = {length, offset};
        by_size_.insert(std::move(spare));
    }
    free_bytes_ += length;
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
    if (bytes > capacity_) // also keeps the rounding below from overflowing
        throw out_of_space(device_, bytes, free_bytes(), capacity_);
    return (bytes + alignment_ - 1) / alignment_ * alignment_;
}

std::map<std::uint64_t, std::uint64_t>::iterator extent_allocator::first_fit_from(std::uint64_t from,
                                                                                  std::uint64_t length) {
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
    try {
        by_size_.emplace(length, offset);
    } catch (...) {
        by_offset_.erase(offset); // both lists or neither
        throw;
    }
}

void extent_allocator::move_free(std::uint64_t old_offset, std::uint64_t old_length, std::uint64_t offset,
                                 std::uint64_t length) noexcept {
    auto by_offset = by_offset_.extract(old_offset);
    by_offset.key() = offset;
    by_offset.mapped() = length;
    by_offset_.insert(std::move(by_offset));
    auto by_size = by_size_.extract({old_length, old_offset});
    by_size.value() = {length, offset};
    by_size_.insert(std::move(by_size));
}

void extent_allocator::erase_free(std::uint64_t offset, std::uint64_t length) {
    by_offset_.erase(offset);
    by_size_.erase({length, offset});
}

} // namespace flashxxl
