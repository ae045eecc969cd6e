// Per-device extent allocator with a hard capacity: best fit or write frontier, coalescing, no silent growth.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! How an extent_allocator picks a free range.
enum class allocation_order {
    //! The smallest free range that fits: least fragmentation (HDDs, translation layers).
    best_fit,
    //! The first free range at or after a frontier that moves forward with every allocation,
    //! wrapping to the start of the device when nothing fits beyond it (next fit). Consecutive
    //! allocations lie one after another, so a container that writes its blocks in the order it
    //! allocates them writes sequentially on the device; space freed behind the frontier is
    //! reused only when the frontier comes round, by which time neighbouring frees have merged
    //! into long ranges. This is what a flash device without a translation layer needs: its
    //! model (and the 2009 devices it was fitted to) charges a write that continues the open
    //! log at the bandwidth and one that lands mid-chunk a whole merge (issue 13).
    write_frontier,
};

//! Hands out byte ranges [offset, offset + length) of one device. Lengths are rounded up to
//! the alignment (4 KiB by default). When no free range is large enough it throws
//! out_of_space naming the device; it never grows the device (STXXL's allocator does, even
//! with autogrow off). Freed ranges are merged with free neighbours and reused, in the
//! allocation_order given. Releasing a range that is not exactly an allocated one throws
//! invalid_request. Thread-safe.
class extent_allocator {
public:
    extent_allocator(std::string device_name, std::uint64_t capacity, std::uint64_t alignment = 4096,
                     allocation_order order = allocation_order::best_fit)
        : device_(std::move(device_name)), capacity_(capacity - capacity % alignment), alignment_(alignment),
          order_(order) {
        if (alignment == 0) throw config_error("extent_allocator: alignment must be positive");
        if (capacity_ > 0) insert_free(0, capacity_);
        free_bytes_ = capacity_;
    }

    //! Reserves `bytes` (rounded up to the alignment); returns the offset.
    std::uint64_t allocate(std::uint64_t bytes) {
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
    allocation_order order() const { return order_; }

    //! Returns a range obtained from allocate(offset, bytes) with the same `bytes`.
    void release(std::uint64_t offset, std::uint64_t bytes) {
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

    std::uint64_t capacity() const { return capacity_; }
    std::uint64_t alignment() const { return alignment_; }
    std::uint64_t free_bytes() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return free_bytes_;
    }
    std::uint64_t used_bytes() const { return capacity_ - free_bytes(); }
    //! The largest single extent that allocate() could return now.
    std::uint64_t largest_free() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return by_size_.empty() ? 0 : by_size_.rbegin()->first;
    }
    std::size_t allocated_count() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return allocated_.size();
    }
    const std::string& device_name() const { return device_; }

private:
    std::uint64_t round_up(std::uint64_t bytes) const {
        if (bytes > capacity_)  // also keeps the rounding below from overflowing
            throw out_of_space(device_, bytes, free_bytes(), capacity_);
        return (bytes + alignment_ - 1) / alignment_ * alignment_;
    }
    //! The first free range, in address order, with at least `length` bytes at or after `from`
    //! (a range containing `from` counts with its part beyond `from`); end() if none.
    std::map<std::uint64_t, std::uint64_t>::iterator first_fit_from(std::uint64_t from, std::uint64_t length) {
        auto it = by_offset_.upper_bound(from);
        if (it != by_offset_.begin()) {
            auto prev = std::prev(it);
            if (prev->first + prev->second > from && prev->first + prev->second - from >= length) return prev;
        }
        for (; it != by_offset_.end(); ++it)
            if (it->second >= length) return it;
        return by_offset_.end();
    }
    void insert_free(std::uint64_t offset, std::uint64_t length) {
        by_offset_.emplace(offset, length);
        by_size_.emplace(length, offset);
    }
    void erase_free(std::uint64_t offset, std::uint64_t length) {
        by_offset_.erase(offset);
        by_size_.erase({length, offset});
    }

    std::string device_;
    std::uint64_t capacity_;
    std::uint64_t alignment_;
    allocation_order order_;
    std::uint64_t frontier_ = 0;  // write_frontier: where the next search starts
    std::uint64_t free_bytes_ = 0;
    std::map<std::uint64_t, std::uint64_t> by_offset_;              // free: offset -> length
    std::set<std::pair<std::uint64_t, std::uint64_t>> by_size_;    // free: (length, offset)
    std::map<std::uint64_t, std::uint64_t> allocated_;              // offset -> length
    mutable std::mutex mutex_;
};

} // namespace flashxxl
