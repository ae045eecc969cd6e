// The unit-cost flash model's read and write block sizes Br and Bw (seeds/001), a run-time value every layer
// uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Block sizes in the unit-cost flash model (seeds/001, Section 2): data is read in blocks of
//! `br` bytes and written in blocks of `bw` bytes. They are properties of a device, measured at
//! run time (`flashxxl characterize` recommends them), so every container and algorithm takes
//! them as this value; per-item code does not depend on them.
//!
//! The rules, checked by the two-argument constructor and by validate(): both positive
//! multiples of 4 KiB (O_DIRECT), Br <= Bw, Bw a multiple of Br (a write block is a whole
//! number of read blocks), Bw at most 1 GiB. A violation throws config_error naming both
//! values and the rule. The default is seeds/001's pair, Br = 128 KiB and Bw = 16 MiB, the
//! smallest sizes at which its SSD reached full random-read and random-write throughput.
struct block_sizes {
    static constexpr std::uint64_t alignment = 4096; //!< both sizes are multiples of this
    static constexpr std::uint64_t max_bytes = GiB;  //!< largest Bw accepted

    std::uint64_t br = 128 * KiB; //!< read block size in bytes
    std::uint64_t bw = 16 * MiB;  //!< write block size in bytes

    //! seeds/001's pair (128 KiB, 16 MiB).
    block_sizes() = default;
    //! A checked pair; config_error when it breaks a rule.
    block_sizes(std::uint64_t read_block, std::uint64_t write_block) : br(read_block), bw(write_block) {
        validate();
    }

    //! Throws config_error naming both values and the broken rule.
    void validate() const {
        auto fail = [&](const std::string& rule) {
            throw config_error("block sizes Br = " + format_size(br) + ", Bw = " + format_size(bw) + ": " +
                               rule);
        };
        if (br == 0 || bw == 0) fail("both must be positive");
        if (br % alignment != 0) fail("Br must be a multiple of 4 KiB");
        if (bw % alignment != 0) fail("Bw must be a multiple of 4 KiB");
        if (br > bw) fail("Br must not exceed Bw");
        if (bw % br != 0) fail("Bw must be a multiple of Br");
        if (bw > max_bytes) fail("Bw must be at most 1 GiB");
    }
    //! `bw` raised to at least `br` and to a multiple of it: the write block that holds whole
    //! read blocks (for combining sizes from different sources, e.g. a device's Bw with --br).
    static std::uint64_t whole_reads_bw(std::uint64_t br, std::uint64_t bw) {
        if (br == 0) return bw;
        return bw <= br ? br : (bw + br - 1) / br * br;
    }
    //! Read blocks in one write block.
    std::uint64_t reads_per_write() const { return bw / br; }
    //! "Br = 128KiB, Bw = 16MiB"
    std::string describe() const { return "Br = " + format_size(br) + ", Bw = " + format_size(bw); }

    friend bool operator==(const block_sizes& a, const block_sizes& b) {
        return a.br == b.br && a.bw == b.bw;
    }
    friend bool operator!=(const block_sizes& a, const block_sizes& b) { return !(a == b); }
};

//! The compile-time spelling of a block-size pair, kept for research code written against it:
//! a value `blocks<128 * 1024, 16 * 1024 * 1024>{}` converts to the run-time block_sizes, so it
//! may be passed wherever block_sizes is taken (`sorter<T, Cmp> s(m, M, blocks<Br, Bw>{})`).
//! Containers take no block-size template argument. The rules are checked at compile time here.
template <std::size_t Br, std::size_t Bw> struct blocks {
    static_assert(Br > 0 && Br % 4096 == 0, "flashxxl::blocks: Br must be a positive multiple of 4 KiB");
    static_assert(Bw > 0 && Bw % 4096 == 0, "flashxxl::blocks: Bw must be a positive multiple of 4 KiB");
    static_assert(Bw % Br == 0, "flashxxl::blocks: Bw must be a multiple of Br");

    static constexpr std::size_t read_block = Br;           //!< Br, bytes per read
    static constexpr std::size_t write_block = Bw;          //!< Bw, bytes per write
    static constexpr std::size_t reads_per_write = Bw / Br; //!< Br blocks in one Bw block

    //! The run-time value of this pair.
    operator block_sizes() const { return block_sizes{Br, Bw}; } // NOLINT: the documented conversion
};

} // namespace flashxxl
