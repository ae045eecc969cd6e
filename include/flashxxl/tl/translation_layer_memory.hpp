// Host memory held by a machine's translation layers, which algorithms charge against their budget M.
#pragma once

#include <cstdint>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer.hpp"

namespace flashxxl {

//! The segment buffers one translation layer holds at most: the open one and the cleaner's
//! (allocated at the first cleaning), 2 Bw. seeds/001 Section 4 reserves "O(1) Bw-sized
//! buffers" in memory; the open buffer also answers reads of its pages.
inline std::uint64_t translation_layer_buffer_memory(const translation_layer& tl) {
    return 2 * tl.segment_bytes();
}

//! Host memory one translation layer holds at most: its segment buffers and its maps.
inline std::uint64_t translation_layer_memory(const translation_layer& tl) {
    return translation_layer_buffer_memory(tl) + tl.map_memory_bytes();
}

namespace detail {
//! `per_layer(tl)` summed over the devices of `m` that have a translation layer (0 without one).
template <class PerLayer> std::uint64_t sum_over_translation_layers(const machine& m, PerLayer per_layer) {
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < m.device_count(); ++i)
        if (const translation_layer* tl = m.dev(i).tl()) bytes += per_layer(*tl);
    return bytes;
}
} // namespace detail

//! The segment buffers alone of the machine's translation layers: what an experiment charges
//! when the maps, which grow with the device and not with the blocks, would distort a
//! scaled-down run (seeds/001 Table 2 at scale 32: about 8 bytes per 4 KiB page of an 8 GiB
//! device is all of the scaled M; the paper's maps were 0.4 % of its M).
inline std::uint64_t translation_layer_buffer_memory(const machine& m) {
    return detail::sum_over_translation_layers(
        m, [](const translation_layer& tl) { return translation_layer_buffer_memory(tl); });
}

//! Buffers and maps of the machine's translation layers. An algorithm that counts it (dfs,
//! run_bfs_experiment) subtracts it from M before sizing its caches, so the layer's segment
//! buffer, a read cache for the pages it holds, is not a cache outside M.
inline std::uint64_t translation_layer_memory(const machine& m) {
    return detail::sum_over_translation_layers(
        m, [](const translation_layer& tl) { return translation_layer_memory(tl); });
}

} // namespace flashxxl
