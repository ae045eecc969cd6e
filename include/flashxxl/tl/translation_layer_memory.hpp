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
