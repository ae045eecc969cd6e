// The (Br, Bw) pairs for which the BFS command-line tools instantiate the algorithms, and the dispatch.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! The supported pairs, for messages: small blocks for quick runs, seeds/001's Br = 128 KiB /
//! Bw = 16 MiB, and the single-block-size baselines B = Br and B = Bw of seeds/001 Table 2.
inline std::string bfs_block_pairs() {
    return "(4KiB, 16KiB), (4KiB, 64KiB), (64KiB, 1MiB), (128KiB, 128KiB), (128KiB, 16MiB), (16MiB, 16MiB)";
}

//! Calls f(blocks<Br, Bw>()) for a supported pair; config_error listing them otherwise.
template <class F>
void dispatch_bfs_blocks(std::uint64_t br, std::uint64_t bw, F&& f) {
    constexpr std::size_t k4 = 4096, k16 = 16384, k64 = 65536, k128 = 128 * 1024, m1 = 1024 * 1024,
                          m16 = 16 * 1024 * 1024;
    if (br == k4 && bw == k16) return f(blocks<k4, k16>());
    if (br == k4 && bw == k64) return f(blocks<k4, k64>());
    if (br == k64 && bw == m1) return f(blocks<k64, m1>());
    if (br == k128 && bw == k128) return f(blocks<k128, k128>());
    if (br == k128 && bw == m16) return f(blocks<k128, m16>());
    if (br == m16 && bw == m16) return f(blocks<m16, m16>());
    throw config_error("--br " + format_size(br) + " --bw " + format_size(bw) +
                       " is not a compiled configuration of the BFS tools; supported (Br, Bw): " + bfs_block_pairs());
}

} // namespace flashxxl
