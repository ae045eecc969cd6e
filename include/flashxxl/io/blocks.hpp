// The block-size pair of the unit-cost flash model: read block Br, write block Bw (seeds/001).
#pragma once

#include <cstddef>
#include <cstdint>

namespace flashxxl {

//! Block sizes of a container in the unit-cost flash model (seeds/001, Section 2): data is
//! read in blocks of `Br` bytes and written in blocks of `Bw` bytes. The paper's experiments use
//! Br = 128 KiB and Bw = 16 MiB, the smallest sizes at which its SSD reached full random-read
//! and random-write throughput. Both are multiples of 4 KiB (O_DIRECT) and Bw is a multiple of
//! Br, so a write block is a whole number of read blocks.
template <std::size_t Br, std::size_t Bw>
struct blocks {
    static_assert(Br > 0 && Br % 4096 == 0, "flashxxl::blocks: Br must be a positive multiple of 4 KiB");
    static_assert(Bw > 0 && Bw % 4096 == 0, "flashxxl::blocks: Bw must be a positive multiple of 4 KiB");
    static_assert(Bw % Br == 0, "flashxxl::blocks: Bw must be a multiple of Br");

    static constexpr std::size_t read_block = Br;   //!< Br, bytes per read
    static constexpr std::size_t write_block = Bw;  //!< Bw, bytes per write
    static constexpr std::size_t reads_per_write = Bw / Br;  //!< Br blocks in one Bw block
};

//! The run-time form of a blocks<Br, Bw> pair, for code that is not templated on it.
struct block_sizes {
    std::uint64_t br = 0;  //!< read block size in bytes
    std::uint64_t bw = 0;  //!< write block size in bytes

    template <class Blocks>
    static constexpr block_sizes of() {
        return block_sizes{Blocks::read_block, Blocks::write_block};
    }
};

} // namespace flashxxl
