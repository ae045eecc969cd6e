// The layout of flashxxl's binary edge-list file (FXEDGES1): header fields and encoding helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace flashxxl {

//! The binary edge list, version 1 (docs/graph-formats.md). All integers little-endian.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0  | 8 | magic "FXEDGES1" |
//! | 8  | 4 | version, 1 |
//! | 12 | 4 | id width in bytes, 4 or 8 |
//! | 16 | 8 | node count n: every id is < n |
//! | 24 | 8 | edge count m |
//! | 32 | m x 2 x width | the edges: u then v, each `width` bytes |
//!
//! The file size is exactly 32 + 2 x width x m bytes.
namespace binary_edge_format {

constexpr char magic[8] = {'F', 'X', 'E', 'D', 'G', 'E', 'S', '1'};
constexpr std::uint32_t version = 1;
constexpr std::size_t header_bytes = 32;
constexpr std::size_t offset_version = 8;
constexpr std::size_t offset_id_width = 12;
constexpr std::size_t offset_nodes = 16;
constexpr std::size_t offset_edges = 24;

//! Writes the low `width` bytes of `value` little-endian at `out`.
inline void store_le(unsigned char* out, std::uint64_t value, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i)
        out[i] = static_cast<unsigned char>(value >> (8 * i));
}

//! Reads a `width`-byte little-endian integer at `in`.
inline std::uint64_t load_le(const unsigned char* in, std::size_t width) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i)
        value |= std::uint64_t(in[i]) << (8 * i);
    return value;
}

//! A decoded header.
struct header {
    std::uint32_t version = binary_edge_format::version; //!< format version
    std::uint32_t id_width = 8;                          //!< bytes per id, 4 or 8
    std::uint64_t nodes = 0;                             //!< node count
    std::uint64_t edges = 0;                             //!< edge count
};

//! Encodes `h` into `out[0 .. header_bytes)`.
inline void encode_header(const header& h, unsigned char* out) {
    std::memcpy(out, magic, sizeof magic);
    store_le(out + offset_version, h.version, 4);
    store_le(out + offset_id_width, h.id_width, 4);
    store_le(out + offset_nodes, h.nodes, 8);
    store_le(out + offset_edges, h.edges, 8);
}

} // namespace binary_edge_format
} // namespace flashxxl
