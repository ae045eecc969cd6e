// Per-device extent allocator with a hard capacity: best fit or write frontier, coalescing, no silent growth.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

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
    //! log at the bandwidth and one that lands mid-chunk a whole merge (docs/machine-config.md).
    write_frontier,
};

//! Hands out byte ranges [offset, offset + length) of one device. Lengths are rounded up to
//! the alignment (4 KiB by default). When no free range is large enough it throws
//! out_of_space naming the device; it never grows the device (STXXL's allocator does, even
//! with autogrow off). Freed ranges are merged with free neighbours and reused, in the
//! allocation_order given. Releasing a range that is not exactly an allocated one throws
//! invalid_request. Thread-safe. allocate gives the strong guarantee (when it throws,
//! out_of_space or bad_alloc, nothing has changed), and release never allocates: it fails only
//! on a range that is not an allocated one, changing nothing.
class extent_allocator {
public:
    extent_allocator(std::string device_name, std::uint64_t capacity, std::uint64_t alignment = 4096,
                     allocation_order order = allocation_order::best_fit);

    //! Reserves `bytes` (rounded up to the alignment); returns the offset.
    std::uint64_t allocate(std::uint64_t bytes);
    allocation_order order() const { return order_; }

    //! Returns a range obtained from allocate(offset, bytes) with the same `bytes`.
    void release(std::uint64_t offset, std::uint64_t bytes);

    std::uint64_t capacity() const { return capacity_; }
    std::uint64_t alignment() const { return alignment_; }
    std::uint64_t free_bytes() const;
    std::uint64_t used_bytes() const { return capacity_ - free_bytes(); }
    //! The largest single extent that allocate() could return now.
    std::uint64_t largest_free() const;
    std::size_t allocated_count() const;
    const std::string& device_name() const { return device_; }

private:
    std::uint64_t round_up(std::uint64_t bytes) const;
    //! The first free range, in address order, with at least `length` bytes at or after `from`
    //! (a range containing `from` counts with its part beyond `from`); end() if none.
    std::map<std::uint64_t, std::uint64_t>::iterator first_fit_from(std::uint64_t from, std::uint64_t length);
    //! Adds a free range to both lists (bad_alloc leaves both as they were).
    void insert_free(std::uint64_t offset, std::uint64_t length);
    void erase_free(std::uint64_t offset, std::uint64_t length);
    //! Turns the free range (old_offset, old_length) into (offset, length) by moving its
    //! nodes: no allocation, so nothing can fail half-way.
    void move_free(std::uint64_t old_offset, std::uint64_t old_length, std::uint64_t offset,
                   std::uint64_t length) noexcept;

    std::string device_;
    std::uint64_t capacity_;
    std::uint64_t alignment_;
    allocation_order order_;
    std::uint64_t frontier_ = 0; // write_frontier: where the next search starts
    std::uint64_t free_bytes_ = 0;
    using offset_map = std::map<std::uint64_t, std::uint64_t>;
    using size_set = std::set<std::pair<std::uint64_t, std::uint64_t>>;
    offset_map by_offset_; // free: offset -> length
    size_set by_size_;     // free: (length, offset)
    offset_map allocated_; // offset -> length
    //! One by_size_ node per allocated extent, made by allocate(): release() needs it when the
    //! range has no free neighbour, and must not allocate.
    std::vector<size_set::node_type> spare_sizes_;
    mutable std::mutex mutex_;
};

} // namespace flashxxl
