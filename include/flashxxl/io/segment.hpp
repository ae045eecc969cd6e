// A stored run of items on one extent (at most Bw bytes) and the block layout of items in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! How items of type T sit in read blocks of `Br` bytes: `items_per_block` = Br / sizeof(T)
//! items from the start of each block, the rest of the block is padding (at most
//! sizeof(T) - 1 bytes per block, e.g. 16 of 4096 bytes for 40-byte items). No item straddles
//! a read block, so every item can be read with exactly one Br read.
template <class T, std::size_t Br>
struct block_layout {
    static_assert(std::is_trivially_copyable<T>::value,
                  "flashxxl containers store items as bytes: T must be trivially copyable");
    static_assert(sizeof(T) <= Br, "flashxxl: an item must fit in one read block Br");

    static constexpr std::size_t items_per_block = Br / sizeof(T);

    //! Read blocks needed for `items` items.
    static constexpr std::uint64_t blocks_for(std::uint64_t items) {
        return (items + items_per_block - 1) / items_per_block;
    }
    //! Bytes (whole read blocks) needed for `items` items.
    static constexpr std::uint64_t bytes_for(std::uint64_t items) { return blocks_for(items) * Br; }
    //! Free slots contiguous in memory from slot `fill` of a buffer of `capacity` slots: to the
    //! end of the buffer when blocks have no padding, else to the end of the read block.
    static constexpr std::uint64_t contiguous_from(std::uint64_t fill, std::uint64_t capacity) {
        if (items_per_block * sizeof(T) == Br) return capacity - fill;
        return items_per_block - fill % items_per_block;
    }
    //! Address of item `i` in a buffer that starts at a block boundary.
    static T* slot(char* base, std::uint64_t i) {
        return std::launder(reinterpret_cast<T*>(base + (i / items_per_block) * Br)) + i % items_per_block;
    }
    static const T* slot(const char* base, std::uint64_t i) {
        return std::launder(reinterpret_cast<const T*>(base + (i / items_per_block) * Br)) + i % items_per_block;
    }
};

//! Items stored on one extent in block_layout: item j (skip <= j < items) is in read block
//! j / items_per_block of the extent. The extent is Bw bytes; the data written is
//! bytes_for(items), so only the last segment of a sequence is written partially.
struct segment {
    extent ext;                 //!< where (its length is what was allocated)
    std::uint64_t items = 0;    //!< items stored from slot 0
    std::uint64_t skip = 0;     //!< leading items that were already consumed
    std::uint64_t remaining() const { return items - skip; }
};

} // namespace flashxxl
