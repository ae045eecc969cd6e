// An LRU cache of Br sub-blocks of flashxxl::map's primary nodes, keyed by (node, sub-block), with a fixed
// number of slots.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/memory_account.hpp"

namespace flashxxl {
namespace detail {

//! A fixed set of Br buffers holding sub-blocks that searches read, least recently used
//! evicted first. Clean data only: a node that is modified lives in a whole-node frame of the
//! map, and its sub-blocks are dropped from here (erase_node) when it enters one. The buffers
//! are allocated on first use and report to the map's memory_account; the bookkeeping (slot
//! records, a hash index reserved up front) is about 64 bytes per slot.
class btree_block_cache {
public:
    //! Bytes of bookkeeping per slot, for budgets (slot record, hash node and bucket).
    static constexpr std::uint64_t bookkeeping_per_slot = 96;

    btree_block_cache(std::uint64_t slots, std::uint64_t block_bytes, memory_account* account)
        : block_bytes_(block_bytes), account_(account), slots_(slots) {
        index_.reserve(slots);
    }

    std::uint64_t slots() const { return slots_.size(); }

    //! The cached sub-block `sub` of `node`, or nullptr; a hit becomes the most recent.
    const char* find(std::uint64_t node, std::uint64_t sub) {
        auto it = index_.find(key(node, sub));
        if (it == index_.end()) return nullptr;
        touch(it->second);
        return slots_[it->second].buf.data();
    }
    //! A buffer for sub-block `sub` of `node` (not cached yet), taking a free slot or the least
    //! recently used one. The caller fills it, or calls erase() when filling fails.
    char* insert(std::uint64_t node, std::uint64_t sub) {
        std::uint32_t s;
        if (used_ < slots_.size()) {
            s = static_cast<std::uint32_t>(used_++);
            slots_[s].buf = aligned_buffer(block_bytes_, account_);
        } else {
            s = tail_;
            unlink(s);
            index_.erase(slots_[s].key);
        }
        slots_[s].key = key(node, sub);
        index_.emplace(slots_[s].key, s);
        push_front(s);
        return slots_[s].buf.data();
    }
    //! Forgets sub-block `sub` of `node` (its slot goes to the end of the LRU order).
    void erase(std::uint64_t node, std::uint64_t sub) {
        auto it = index_.find(key(node, sub));
        if (it == index_.end()) return;
        std::uint32_t s = it->second;
        index_.erase(it);
        unlink(s);
        slots_[s].key = no_key;
        push_back(s);
    }
    //! Forgets every sub-block of `node` (`sub_blocks` of them).
    void erase_node(std::uint64_t node, std::uint64_t sub_blocks) {
        if (index_.empty()) return;
        for (std::uint64_t j = 0; j < sub_blocks; ++j)
            erase(node, j);
    }
    //! Forgets everything (the buffers stay).
    void clear() {
        index_.clear();
        head_ = tail_ = none;
        for (std::uint32_t s = 0; s < used_; ++s) {
            slots_[s].key = no_key;
            push_back(s);
        }
    }

private:
    static constexpr std::uint32_t none = ~std::uint32_t(0);
    static constexpr std::uint64_t no_key = ~std::uint64_t(0);
    struct slot {
        aligned_buffer buf;
        std::uint64_t key = no_key;
        std::uint32_t prev = none, next = none;
    };
    // Sub-blocks per node are at most 2^18 (Bw <= 1 GiB, Br >= 4 KiB).
    static std::uint64_t key(std::uint64_t node, std::uint64_t sub) { return node << 20 | sub; }

    void unlink(std::uint32_t s) {
        slot& x = slots_[s];
        if (x.prev != none)
            slots_[x.prev].next = x.next;
        else
            head_ = x.next;
        if (x.next != none)
            slots_[x.next].prev = x.prev;
        else
            tail_ = x.prev;
        x.prev = x.next = none;
    }
    void push_front(std::uint32_t s) {
        slots_[s].prev = none;
        slots_[s].next = head_;
        if (head_ != none) slots_[head_].prev = s;
        head_ = s;
        if (tail_ == none) tail_ = s;
    }
    void push_back(std::uint32_t s) {
        slots_[s].next = none;
        slots_[s].prev = tail_;
        if (tail_ != none) slots_[tail_].next = s;
        tail_ = s;
        if (head_ == none) head_ = s;
    }
    void touch(std::uint32_t s) {
        if (head_ == s) return;
        unlink(s);
        push_front(s);
    }

    std::uint64_t block_bytes_;
    memory_account* account_;
    std::vector<slot> slots_;
    std::uint64_t used_ = 0; // slots with a buffer
    std::unordered_map<std::uint64_t, std::uint32_t> index_;
    std::uint32_t head_ = none, tail_ = none;
};

} // namespace detail
} // namespace flashxxl
