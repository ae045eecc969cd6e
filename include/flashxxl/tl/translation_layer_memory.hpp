// Host memory held by a machine's translation layers, which algorithms charge against their budget M.
#pragma once

#include <cstdint>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer.hpp"

namespace flashxxl {

//! Host memory one translation layer holds at most: its open segment buffer, the cleaner's
//! segment buffer (allocated at the first cleaning) and its maps. seeds/001 Section 4 reserves
//! "O(1) Bw-sized buffers" in memory; the open buffer also answers reads of its pages.
inline std::uint64_t translation_layer_memory(const translation_layer& tl) {
    return 2 * tl.segment_bytes() + tl.map_memory_bytes();
}

//! The segment buffers alone (open and cleaning, 2 Bw per layer) of the machine's translation
//! layers: what an experiment charges when the maps, which grow with the device and not with
//! the blocks, would distort a scaled-down run (seeds/001 Table 2 at scale 32: about 8 bytes
//! per 4 KiB page of an 8 GiB device is all of the scaled M; the paper's maps were 0.4 % of
//! its M).
inline std::uint64_t translation_layer_buffer_memory(const machine& m) {
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < m.device_count(); ++i)
        if (const translation_layer* tl = m.dev(i).tl()) bytes += 2 * tl->segment_bytes();
    return bytes;
}

//! Sum over the devices of `m` that have a translation layer (0 without one). An algorithm
//! that counts it (dfs) subtracts it from M before sizing its caches, so the layer's segment
//! buffer, a read cache for the pages it holds, is not a cache outside M.
inline std::uint64_t translation_layer_memory(const machine& m) {
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < m.device_count(); ++i)
        if (const translation_layer* tl = m.dev(i).tl()) bytes += translation_layer_memory(*tl);
    return bytes;
}

} // namespace flashxxl
