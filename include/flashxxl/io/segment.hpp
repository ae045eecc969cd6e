// A stored run of items on one extent (at most Bw bytes) and the block layout of items in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>

#include "flashxxl/error.hpp"
#include "flashxxl/io/fast_divisor.hpp"
#include "flashxxl/machine/extent.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! How items of type T sit in read blocks of Br bytes (a run-time value): items_per_block() =
//! Br / sizeof(T) items from the start of each block, the rest of the block is padding (at most
//! sizeof(T) - 1 bytes per block, e.g. 16 of 4096 bytes for 40-byte items). No item straddles
//! a read block, so every item can be read with exactly one Br read. When there is no padding
//! (sizeof(T) divides Br, the common case) slot() is plain pointer arithmetic.
template <class T> class block_layout {
public:
    static_assert(std::is_trivially_copyable<T>::value,
                  "flashxxl containers store items as bytes: T must be trivially copyable");

    //! config_error when an item does not fit in one read block.
    explicit block_layout(std::uint64_t read_block)
        : br_(read_block), per_block_(sizeof(T) <= read_block ? read_block / sizeof(T) : 0),
          padded_(per_block_ * sizeof(T) != read_block), per_block_divisor_(per_block_ ? per_block_ : 1) {
        if (per_block_ == 0)
            throw config_error("flashxxl: an item of " + std::to_string(sizeof(T)) +
                               " bytes does not fit in one read block Br = " + format_size(read_block));
    }

    std::uint64_t block_bytes() const { return br_; }
    std::uint64_t items_per_block() const { return per_block_; }
    bool padded() const { return padded_; }

    //! Read blocks needed for `items` items.
    std::uint64_t blocks_for(std::uint64_t items) const { return (items + per_block_ - 1) / per_block_; }
    //! Bytes (whole read blocks) needed for `items` items.
    std::uint64_t bytes_for(std::uint64_t items) const { return blocks_for(items) * br_; }
    //! Free slots contiguous in memory from slot `fill` of a buffer of `capacity` slots: to the
    //! end of the buffer when blocks have no padding, else to the end of the read block.
    std::uint64_t contiguous_from(std::uint64_t fill, std::uint64_t capacity) const {
        if (!padded_) return capacity - fill;
        return per_block_ - fill % per_block_;
    }
    //! Address of item `i` in a buffer that starts at a block boundary.
    T* slot(char* base, std::uint64_t i) const {
        if (!padded_) return std::launder(reinterpret_cast<T*>(base)) + i;
        std::uint64_t block = per_block_divisor_.quotient(i);
        return std::launder(reinterpret_cast<T*>(base + block * br_)) + (i - block * per_block_);
    }
    const T* slot(const char* base, std::uint64_t i) const {
        if (!padded_) return std::launder(reinterpret_cast<const T*>(base)) + i;
        std::uint64_t block = per_block_divisor_.quotient(i);
        return std::launder(reinterpret_cast<const T*>(base + block * br_)) + (i - block * per_block_);
    }

private:
    std::uint64_t br_;
    std::uint64_t per_block_;
    bool padded_;
    fast_divisor per_block_divisor_; // slot() of padded layouts: no hardware division per item
};

//! Items stored on one extent in block_layout: item j (skip <= j < items) is in read block
//! j / items_per_block of the extent. The extent is Bw bytes; the data written is
//! bytes_for(items), so only the last segment of a sequence is written partially. A segment
//! owns its extent (move-only): dropping it returns the space.
struct segment {
    owned_extent ext;        //!< where (its length is what was allocated)
    std::uint64_t items = 0; //!< items stored from slot 0
    std::uint64_t skip = 0;  //!< leading items that were already consumed
    std::uint64_t remaining() const { return items - skip; }
};

} // namespace flashxxl
