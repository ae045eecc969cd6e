// The on-device format of one primary node of flashxxl::map: a Bw block laid out as a static B-tree of Br
// sub-blocks.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {
namespace detail {

//! No node: the end of the leaf chain, an empty tree.
constexpr std::uint64_t btree_no_node = ~std::uint64_t(0);
//! Levels of the in-node tree at most (level 0: the entries; level l > 0: first keys of the
//! sub-blocks of level l - 1). Eight levels of at least two keys per Br block cover any Bw.
constexpr std::size_t btree_max_levels = 8;

//! The header at the start of sub-block 0 of every primary node.
struct btree_node_header {
    std::uint32_t magic;
    std::uint8_t leaf; //!< 1 for a leaf of the primary tree
    std::uint8_t top;  //!< the level stored in sub-block 0 after the header (0: the entries)
    std::uint16_t unused;
    std::uint32_t count; //!< entries in the node
    std::uint32_t unused2;
    std::uint64_t next;                                      //!< the next leaf (leaves), else btree_no_node
    std::array<std::uint32_t, btree_max_levels> first_block; //!< first sub-block of level l < top
};
static_assert(std::is_trivially_copyable<btree_node_header>::value, "header is stored as bytes");

//! Where the top level starts in sub-block 0.
constexpr std::uint64_t btree_root_offset = 128;
static_assert(sizeof(btree_node_header) <= btree_root_offset, "header fits before the root area");
constexpr std::uint32_t btree_magic = 0x46584254; // "FXBT"

//! The layout of a primary node whose entries have type Entry (a struct whose first member is
//! `key`, of type Key). A node is one Bw block of S = Bw / Br sub-blocks:
//!
//!   sub-block 0: header, then the top level of the in-node tree (entries when they fit there,
//!                else keys);
//!   level 0:     the entries, sorted, E = Br / sizeof(Entry) per sub-block, dense from
//!                sub-block 1 (the last one partial);
//!   level l > 0: key i = first key of sub-block i of level l - 1, K = Br / sizeof(Key) per
//!                sub-block, dense after level l - 1.
//!
//! The top level is the lowest one that fits in sub-block 0. A search reads sub-block 0, then
//! one sub-block per level below the top: top + 1 Br reads for a node (2 or 3 for practical
//! Br, Bw). Loading a whole node reads sub-block 0 and the level-0 sub-blocks only; the index
//! levels are rebuilt from the entries on every write. capacity() is the most entries whose
//! layout fits in S sub-blocks.
template <class Key, class Entry> class btree_node_layout {
public:
    static_assert(std::is_trivially_copyable<Key>::value && std::is_trivially_copyable<Entry>::value,
                  "flashxxl::map stores keys and values as bytes: both must be trivially copyable");

    //! config_error naming `what` when a node of `b` cannot hold at least 4 entries or a Br
    //! block cannot hold two keys.
    btree_node_layout(const block_sizes& b, const char* what)
        : br_(b.br), sub_blocks_(b.bw / b.br), per_block_(b.br / sizeof(Entry)),
          keys_per_block_(b.br / sizeof(Key)), root_entries_((b.br - btree_root_offset) / sizeof(Entry)),
          root_keys_((b.br - btree_root_offset) / sizeof(Key)) {
        if (keys_per_block_ < 2 || root_keys_ < 2 || per_block_ < 1)
            throw config_error(std::string("flashxxl::map: ") + what + " entries of " +
                               std::to_string(sizeof(Entry)) + " bytes (keys of " +
                               std::to_string(sizeof(Key)) + ") are too large for Br = " + format_size(b.br));
        // The largest count whose layout fits: blocks_used() grows with the count.
        std::uint64_t lo = 0, hi = sub_blocks_ * per_block_ + root_entries_ + 1;
        while (hi - lo > 1) {
            std::uint64_t mid = lo + (hi - lo) / 2;
            if (fits(mid))
                lo = mid;
            else
                hi = mid;
        }
        capacity_ = lo;
        if (capacity_ < 4)
            throw config_error(std::string("flashxxl::map: a node of ") + b.describe() + " holds only " +
                               std::to_string(capacity_) + " " + what + " entries of " +
                               std::to_string(sizeof(Entry)) +
                               " bytes; it needs at least 4 (larger Br or Bw)");
    }

    std::uint64_t capacity() const { return capacity_; }
    std::uint64_t sub_blocks() const { return sub_blocks_; }
    std::uint64_t entries_per_block() const { return per_block_; }
    std::uint64_t keys_per_block() const { return keys_per_block_; }
    //! Bytes of a decoded node in memory (a dense array of capacity() entries).
    std::uint64_t decoded_bytes() const { return capacity_ * sizeof(Entry); }

    //! Items in each level for `n` entries, and the top level.
    unsigned levels(std::uint64_t n, std::array<std::uint64_t, btree_max_levels>& counts) const {
        counts.fill(0);
        counts[0] = n;
        unsigned l = 0;
        while (counts[l] > (l == 0 ? root_entries_ : root_keys_)) {
            if (l + 1 >= btree_max_levels) return btree_max_levels; // never fits
            std::uint64_t per = l == 0 ? per_block_ : keys_per_block_;
            counts[l + 1] = (counts[l] + per - 1) / per;
            ++l;
        }
        return l;
    }
    //! Sub-blocks a node of `n` entries occupies (sub-block 0 included).
    std::uint64_t blocks_used(std::uint64_t n) const {
        std::array<std::uint64_t, btree_max_levels> counts;
        unsigned top = levels(n, counts);
        if (top >= btree_max_levels) return ~std::uint64_t(0);
        std::uint64_t used = 1;
        for (unsigned l = 0; l < top; ++l)
            used += (counts[l] + per(l) - 1) / per(l);
        return used;
    }
    bool fits(std::uint64_t n) const { return blocks_used(n) <= sub_blocks_; }

    //! Writes a node of `n` sorted entries into `out` (Bw bytes; sub-block 0 is zeroed first,
    //! bytes after the last used sub-block are left as they are).
    void encode(const Entry* entries, std::uint64_t n, bool leaf, std::uint64_t next, char* out) const {
        std::array<std::uint64_t, btree_max_levels> counts;
        unsigned top = levels(n, counts);
        btree_node_header h{};
        h.magic = btree_magic;
        h.leaf = leaf ? 1 : 0;
        h.top = static_cast<std::uint8_t>(top);
        h.count = static_cast<std::uint32_t>(n);
        h.next = next;
        std::uint64_t block = 1;
        for (unsigned l = 0; l < top; ++l) {
            h.first_block[l] = static_cast<std::uint32_t>(block);
            block += (counts[l] + per(l) - 1) / per(l);
        }
        std::memset(out, 0, br_);
        std::memcpy(out, &h, sizeof h);
        // Level l item i is the key of entry i * stride(l), stride(0) = 1, stride(l) = E * K^(l-1).
        std::uint64_t stride = 1;
        for (unsigned l = 0; l <= top; ++l) {
            char* base = l == top ? out + btree_root_offset : out + std::uint64_t(h.first_block[l]) * br_;
            const std::uint64_t in_block = l == top ? counts[l] : per(l);
            for (std::uint64_t i = 0; i < counts[l]; ++i) {
                char* dst = base + (i / in_block) * br_ + (i % in_block) * item_bytes(l);
                const Entry* src = entries + i * stride;
                if (l == 0)
                    std::memcpy(dst, static_cast<const void*>(src), sizeof(Entry));
                else
                    std::memcpy(dst, static_cast<const void*>(&src->key), sizeof(Key));
            }
            stride *= l == 0 ? per_block_ : keys_per_block_;
        }
    }

    //! The header of a node from its sub-block 0 (invalid_request when it is not one).
    static btree_node_header header(const char* block0) {
        btree_node_header h;
        std::memcpy(&h, block0, sizeof h);
        if (h.magic != btree_magic)
            throw invalid_request("flashxxl::map: a node read back has no node header (device data lost)");
        return h;
    }
    //! Sub-blocks holding the entries: [1, 1 + n) or none when they sit in sub-block 0.
    std::uint64_t entry_blocks(const btree_node_header& h) const {
        return h.top == 0 ? 0 : (h.count + per_block_ - 1) / per_block_;
    }
    //! Copies the entries of a node (sub-block 0 and its entry sub-blocks at their offsets in
    //! `in`) to the dense array `out`.
    void decode(const char* in, Entry* out) const {
        btree_node_header h = header(in);
        if (h.top == 0) {
            std::memcpy(static_cast<void*>(out), in + btree_root_offset,
                        std::uint64_t(h.count) * sizeof(Entry));
            return;
        }
        for (std::uint64_t done = 0, b = 0; done < h.count; ++b) {
            std::uint64_t take = std::min<std::uint64_t>(per_block_, h.count - done);
            std::memcpy(static_cast<void*>(out + done), in + (h.first_block[0] + b) * br_,
                        take * sizeof(Entry));
            done += take;
        }
    }

    //! Items of level `l` stored per sub-block below the top.
    std::uint64_t per(unsigned l) const { return l == 0 ? per_block_ : keys_per_block_; }

private:
    std::uint64_t item_bytes(unsigned l) const { return l == 0 ? sizeof(Entry) : sizeof(Key); }

    std::uint64_t br_;
    std::uint64_t sub_blocks_;
    std::uint64_t per_block_;      // E
    std::uint64_t keys_per_block_; // K
    std::uint64_t root_entries_;
    std::uint64_t root_keys_;
    std::uint64_t capacity_ = 0;
};

} // namespace detail
} // namespace flashxxl
