// flashxxl::map: the two-level B-tree of seeds/001 Section 3.2 (primary nodes of Bw, each a B-tree of Br
// sub-blocks).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/btree_block_cache.hpp"
#include "flashxxl/container/btree_node_layout.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/saturating.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! An ordered map from Key to T for more items than fit in memory: the search tree of the
//! unit-cost flash model (seeds/001, Section 3.2). A B+-tree whose primary nodes are one Bw
//! block each (fan-out Theta(Bw)); each primary node is itself laid out as a B-tree of Br
//! sub-blocks (btree_node_layout), so a search reads sub-block 0 of a node and one sub-block
//! per in-node level below it, a few Br blocks per primary level, never a whole Bw node:
//! O(Br log_Br N) items per search. docs/map.md has the layout and the costs.
//!
//! Memory M (memory_usage(M) == M) holds
//!  - node frames: whole primary nodes, decoded, Bw each, at least 3, about half of M. A node
//!    that an update changes is loaded whole (its entry sub-blocks, Br reads) into a frame,
//!    changed there and marked dirty; dirty frames are written back as one Bw write when they
//!    are evicted (least recently used) or on flush(), so all updates to a node while it is
//!    cached share one write;
//!  - a cache of Br sub-blocks that searches read (least recently used, clean data only): the
//!    upper levels of the tree stay there;
//!  - one Bw staging block for encoding and decoding nodes, and bookkeeping.
//! Besides M, the node directory (one extent record per node) takes directory_memory(nodes).
//!
//! Updates go top down: an insert splits a full node before descending into it, an erase
//! refills a node at the minimum (borrowing from or merging with a sibling) before descending,
//! so an update holds at most three frames at once. Internal nodes that an update only passes
//! through are searched through the sub-block cache and neither loaded whole nor written.
//!
//! Keys and values must be trivially copyable; neither needs a default constructor. Cmp is
//! a strict weak order on Key; no sentinel keys are needed. Iterators hold a copy of their
//! item and stay valid across insert, erase, bulk_load and clear (as stxxl::map's do): an
//! iterator made before an update finds its place again by its item's key on the next ++ (one
//! lookup), which moves it to the next item in key order that the map holds then; operator*
//! gives the copy it holds, also after its item was erased. Iterators compare by key.
//! Out of space: an insert that needs a new node throws out_of_space (naming the device, the
//! role and "flashxxl::map") without inserting (splits further up its path may have happened;
//! the tree stays valid and every item stays findable), and the map stays usable; a bulk_load
//! that finds no room leaves the map empty, its nodes' extents given back.
//! The same for an exception from Cmp: every split, borrow and merge compares and checks before
//! it moves an entry, so an update that throws changes no item (restructuring completed further
//! up its path stays; check_structure() passes). Not thread-safe.
template <class Key, class T, class Cmp = std::less<Key>> class map_body {
    struct leaf_entry {
        Key key;
        T value;
    };
    struct inner_entry {
        Key key;
        std::uint64_t child;
    };
    using leaf_layout = detail::btree_node_layout<Key, leaf_entry>;
    using inner_layout = detail::btree_node_layout<Key, inner_entry>;
    static constexpr std::uint64_t no_node = detail::btree_no_node;

public:
    using key_type = Key;
    using mapped_type = T;
    using value_type = std::pair<const Key, T>;
    using size_type = std::uint64_t;
    using key_compare = Cmp;

    //! A forward iterator over the items in key order; holds a copy of its item.
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = map_body::value_type;
        using difference_type = std::ptrdiff_t;
        using pointer = const value_type*;
        using reference = const value_type&;

        iterator() = default;
        iterator(const iterator& o)
            : map_(o.map_), leaf_(o.leaf_), pos_(o.pos_), version_(o.version_), item_(o.item_) {}
        iterator& operator=(const iterator& o) {
            map_ = o.map_;
            leaf_ = o.leaf_;
            pos_ = o.pos_;
            version_ = o.version_;
            if (o.item_)
                item_.emplace(*o.item_);
            else
                item_.reset();
            return *this;
        }
        reference operator*() const { return *item_; }
        pointer operator->() const { return &*item_; }
        //! Moves to the next item (reads the next entry sub-block when it is not cached).
        iterator& operator++() {
            map_->advance(*this);
            return *this;
        }
        iterator operator++(int) {
            iterator old = *this;
            ++*this;
            return old;
        }
        //! Equal when both are end() or both hold items with equivalent keys (the map's keys are
        //! unique), so an iterator made before an update compares as one made after it.
        friend bool operator==(const iterator& a, const iterator& b) {
            if (a.leaf_ == no_node || b.leaf_ == no_node) return a.leaf_ == b.leaf_;
            if (a.version_ == b.version_ && a.leaf_ == b.leaf_) return a.pos_ == b.pos_;
            return a.same_key(b);
        }
        friend bool operator!=(const iterator& a, const iterator& b) { return !(a == b); }

    private:
        friend class map_body;
        iterator(map_body* m, std::uint64_t leaf, std::uint64_t pos, const Key& k, const T& v)
            : map_(m), leaf_(leaf), pos_(pos), version_(m->version_) {
            item_.emplace(k, v);
        }
        explicit iterator(map_body* m) : map_(m) {}
        bool same_key(const iterator& o) const {
            return !map_->cmp_(item_->first, o.item_->first) && !map_->cmp_(o.item_->first, item_->first);
        }
        map_body* map_ = nullptr;
        std::uint64_t leaf_ = no_node;
        std::uint64_t pos_ = 0;
        std::uint64_t version_ = 0; // the map's version_ when leaf_ and pos_ were found
        std::optional<value_type> item_;
    };
    using const_iterator = iterator;

    //! Memory kept aside from M for bookkeeping other than the sub-block cache's.
    static constexpr std::uint64_t reserve(std::uint64_t memory) { return 64 * KiB + memory / 64; }
    //! Memory a map with budget M and block sizes `b` holds at most in buffers and bookkeeping:
    //! all of M.
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes&) {
        return memory.bytes();
    }
    //! The smallest M accepted with block sizes `b`: three node frames and the staging block
    //! (4 Bw), four cached sub-blocks, the reserve.
    static std::uint64_t min_memory(const block_sizes& b) {
        std::uint64_t need = 4 * b.bw + 4 * (b.br + detail::btree_block_cache::bookkeeping_per_slot);
        // M - reserve(M) >= need  <=>  M - M / 64 >= need + 64 KiB
        return ((need + 64 * KiB) * 64 + 62) / 63 + 64;
    }
    //! Bound on the node directory for `nodes` primary nodes, held besides M (also covers the
    //! list of child entries bulk_load builds a level from).
    static std::uint64_t directory_memory(std::uint64_t nodes) {
        return nodes * (2 * (sizeof(owned_extent) + sizeof(std::uint64_t)) + 2 * sizeof(inner_entry)) + 4096;
    }
    //! Entries a leaf / an internal node holds at most with block sizes `b` (config_error like
    //! the constructor's when `b` breaks a rule or a node cannot hold 4 entries).
    static std::uint64_t leaf_capacity(const block_sizes& b) { return leaf_layout(b, "leaf").capacity(); }
    static std::uint64_t inner_capacity(const block_sizes& b) { return inner_layout(b, "inner").capacity(); }
    //! An upper bound on node_count() (each node one Bw extent on the device) after a bulk load
    //! of `loaded` items and `inserted` more inserted (repeats not counted), with erases or not.
    //! Leaves: every leaf but a root holds at least floor(C / 2) of the items (splits halve full
    //! leaves, bulk_load spreads evenly, erases refill), so at most (loaded + inserted) /
    //! floor(C / 2); and bulk_load makes ceil(loaded / C), each later one comes from a split
    //! that needs at least one insert: at most that + inserted. The smaller bound (after many
    //! random inserts leaves are about 70 % full: the bound is about 1.4 times the real count).
    //! Each level above: at most its children / floor(IC / 2), until one. Saturates at
    //! UINT64_MAX.
    static std::uint64_t max_nodes(const block_sizes& b, std::uint64_t loaded, std::uint64_t inserted) {
        const std::uint64_t c = leaf_capacity(b), half = std::max<std::uint64_t>(1, c / 2);
        const std::uint64_t inner_half = std::max<std::uint64_t>(2, inner_capacity(b) / 2);
        const std::uint64_t all = saturating_add(loaded, inserted);
        if (all == 0) return 0;
        const std::uint64_t bulk = std::max<std::uint64_t>(1, loaded / c + (loaded % c != 0 ? 1 : 0));
        const std::uint64_t by_splits = saturating_add(bulk, inserted);
        std::uint64_t level = std::max<std::uint64_t>(1, std::min(all / half, by_splits));
        std::uint64_t nodes = level;
        while (level > 1) {
            level = std::max<std::uint64_t>(1, level / inner_half);
            nodes = saturating_add(nodes, level);
        }
        return nodes;
    }

    //! An empty map on machine `m` with budget `memory` and block sizes `b`, its nodes of role
    //! `r`. config_error when `b` breaks a rule of block_sizes, when a node cannot hold 4
    //! entries, or when the budget is below min_memory(b). Its account rolls up into the
    //! budget's (memory_budget::account).
    map_body(machine& m, const memory_budget& budget, const block_sizes& b, Cmp cmp = Cmp(),
             role r = role::static_data)
        : machine_(&m), memory_(budget.bytes()), blocks_((b.validate(), b)), cmp_(std::move(cmp)), role_(r),
          leaf_layout_(blocks_, "leaf"), inner_layout_(blocks_, "inner"), account_(budget.account()),
          frame_count_(plan_frames((budget.require(min_memory(blocks_), "flashxxl::map",
                                                   "three node frames and a staging block of Bw, four Br "
                                                   "sub-blocks, " +
                                                       blocks_.describe()),
                                    memory_),
                                   blocks_)),
          slot_count_(plan_slots(memory_, blocks_, frame_count_)),
          cache_(slot_count_, blocks_.br, &account_) {
        staging_ = aligned_buffer(blocks_.bw, &account_);
        frames_.resize(frame_count_);
        for (frame& f : frames_)
            f.buf = aligned_buffer(blocks_.bw, &account_);
        frame_of_.reserve(frame_count_);
    }
    //! The same with the block sizes of the device role `r` is placed on.
    map_body(machine& m, const memory_budget& budget, Cmp cmp = Cmp(), role r = role::static_data)
        : map_body(m, budget, m.block_sizes_for(r), std::move(cmp), r) {}
    map_body(const map_body&) = delete;
    map_body& operator=(const map_body&) = delete;
    //! Drops everything without writing: the nodes' extents go back to their devices.
    ~map_body() = default;

    size_type size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const block_sizes& blocks() const { return blocks_; }
    //! The budget M given to the constructor.
    std::uint64_t memory() const { return memory_; }
    const memory_account& account() const { return account_; }
    //! Levels of the primary tree (0 when empty, 1 when the root is a leaf).
    unsigned height() const { return height_; }
    //! Primary nodes on the device.
    std::uint64_t node_count() const { return nodes_.size() - free_ids_.size(); }
    //! Entries a leaf / an internal node holds at most.
    std::uint64_t leaf_capacity() const { return leaf_layout_.capacity(); }
    std::uint64_t inner_capacity() const { return inner_layout_.capacity(); }
    //! Whole-node frames and cached sub-blocks that M pays for.
    std::uint64_t frames() const { return frame_count_; }
    std::uint64_t cache_slots() const { return slot_count_; }
    //! Bw writes of dirty nodes so far (write-backs and bulk_load's node writes).
    std::uint64_t node_writes() const { return node_writes_; }
    //! Whole-node loads so far (updates and iteration).
    std::uint64_t node_loads() const { return node_loads_; }
    //! Bytes the node directory holds now (besides M).
    std::uint64_t directory_bytes() const {
        return nodes_.capacity() * sizeof(owned_extent) + free_ids_.capacity() * sizeof(std::uint64_t);
    }

    iterator end() { return iterator(this); }
    //! The smallest item (end() when empty).
    iterator begin() {
        if (size_ == 0) return end();
        std::uint64_t id = root_;
        for (unsigned h = height_; h > 1; --h) {
            if (frame* f = cached(id)) {
                id = inners(*f)[0].child;
            } else {
                detail::btree_node_header hd;
                id = walk<inner_entry>(id, inner_layout_, nullptr, hd).entries[0].child;
            }
        }
        return first_of_leaf(id);
    }
    //! The first item whose key is not less than `k`, or end().
    iterator lower_bound(const Key& k) {
        if (root_ == no_node) return end();
        return leaf_lower_bound(descend(k), k);
    }
    //! The item with key `k`, or end().
    iterator find(const Key& k) {
        iterator it = lower_bound(k);
        if (it != end() && !cmp_(k, it->first)) return it;
        return end();
    }
    //! 1 when an item with key `k` exists, else 0.
    size_type count(const Key& k) { return find(k) != end() ? 1 : 0; }

    //! Inserts `v` unless its key is present; returns the item with that key and whether `v`
    //! was inserted (std::map::insert). out_of_space (no item inserted; the tree stays
    //! valid) when a split needs a node and the device is full.
    std::pair<iterator, bool> insert(const value_type& v) {
        ++version_; // a split may move entries (also when the insert then fails)
        iterator it = find(v.first);
        if (it != end()) return {it, false};
        if (root_ == no_node) {
            frame& f = new_node(true);
            root_ = f.id;
            height_ = 1;
        }
        if (info(root_).count == capacity(height_ == 1)) split_root();
        std::uint64_t id = root_;
        for (unsigned h = height_; h > 1; --h) {
            std::uint64_t child = child_of(id, v.first);
            const bool child_leaf = h == 2;
            if (info(child).count == capacity(child_leaf)) {
                split_child(id, child, child_leaf);
                child = child_of(id, v.first);
            }
            id = child;
        }
        frame& f = load(id);
        leaf_entry* e = leaves(f);
        std::uint64_t pos = leaf_position(e, f.count, v.first);
        std::memmove(static_cast<void*>(e + pos + 1), static_cast<const void*>(e + pos),
                     (f.count - pos) * sizeof(leaf_entry));
        std::memcpy(static_cast<void*>(&e[pos].key), static_cast<const void*>(&v.first), sizeof(Key));
        std::memcpy(static_cast<void*>(&e[pos].value), static_cast<const void*>(&v.second), sizeof(T));
        ++f.count;
        f.dirty = true;
        ++size_;
        return {iterator(this, id, pos, v.first, v.second), true};
    }

    //! Removes the item with key `k`; returns how many were removed (0 or 1).
    size_type erase(const Key& k) {
        ++version_; // borrows and merges move entries
        if (find(k) == end()) return 0;
        std::uint64_t id = root_;
        unsigned h = height_;
        while (h > 1) {
            std::uint64_t child = child_of(id, k);
            const bool child_leaf = h == 2;
            if (info(child).count <= min_fill(child_leaf)) {
                if (refill_child(id, child, child_leaf,
                                 k)) { // the root's two children merged: one level less
                    id = root_;
                    h = height_;
                    continue;
                }
                child = child_of(id, k);
            }
            id = child;
            --h;
        }
        frame& f = load(id);
        leaf_entry* e = leaves(f);
        std::uint64_t pos = leaf_position(e, f.count, k);
        if (pos >= f.count || cmp_(k, e[pos].key))
            throw invalid_request("flashxxl::map::erase: internal error: the key vanished on the way down");
        std::memmove(static_cast<void*>(e + pos), static_cast<const void*>(e + pos + 1),
                     (f.count - pos - 1) * sizeof(leaf_entry));
        --f.count;
        f.dirty = true;
        --size_;
        if (size_ == 0) clear();
        return 1;
    }

    //! Builds the map from sorted input (strictly increasing keys, items convertible to
    //! value_type) with every node written once, in one Bw write: leaves are filled completely
    //! (the last ones evenly), then each level above. The map must be empty (invalid_request
    //! otherwise); unsorted or duplicate keys throw invalid_request naming the position, and
    //! any failure (also out_of_space) leaves the map empty.
    template <class ForwardIt> void bulk_load(ForwardIt first, ForwardIt last) {
        if (!empty())
            throw invalid_request("flashxxl::map::bulk_load: the map is not empty (clear() it first)");
        clear();
        const std::uint64_t n = static_cast<std::uint64_t>(std::distance(first, last));
        if (n == 0) return;
        try {
            build(first, n);
        } catch (...) {
            clear();
            throw;
        }
    }
    template <class Range> void bulk_load(const Range& r) { bulk_load(std::begin(r), std::end(r)); }

    //! Removes every item; the nodes' extents go back (nothing is written).
    void clear() {
        ++version_;
        for (frame& f : frames_) {
            f.id = no_node;
            f.dirty = false;
        }
        frame_of_.clear();
        cache_.clear();
        nodes_.clear();
        free_ids_.clear();
        root_ = no_node;
        height_ = 0;
        size_ = 0;
    }

    //! Writes every dirty node back (one Bw write each); they stay cached.
    void flush() {
        for (frame& f : frames_)
            if (f.id != no_node && f.dirty) write_back(f);
    }
    //! flush(), then empties both caches: the next operations start cold.
    void drop_cache() {
        flush();
        for (frame& f : frames_)
            f.id = no_node;
        frame_of_.clear();
        cache_.clear();
    }

    //! Checks the whole tree, for tests: every node reachable exactly once from the root and
    //! node_count() of them; each at height - depth levels (leaves at the bottom); at most
    //! capacity entries, at least half of it except the root (a root leaf at least 1, an
    //! internal root at least 2); keys strictly increasing in each leaf and within the
    //! separators above it; the leaf chain in key order; size() items in the leaves. Loads every
    //! node whole into a frame (dirty frames evicted on the way are written back). Throws
    //! invalid_request naming the first violation.
    void check_structure() {
        const auto bad = [](const std::string& what) {
            throw invalid_request("flashxxl::map::check_structure: " + what);
        };
        if (root_ == no_node) {
            if (size_ != 0 || height_ != 0 || node_count() != 0)
                bad("no root, but size " + std::to_string(size_) + ", height " + std::to_string(height_) +
                    ", " + std::to_string(node_count()) + " nodes");
            return;
        }
        structure_walk w;
        w.seen.assign(nodes_.size(), false);
        check_node(root_, height_, nullptr, nullptr, w);
        if (w.last_next != no_node) bad("the last leaf links to node " + std::to_string(w.last_next));
        if (w.items != size_)
            bad("the leaves hold " + std::to_string(w.items) + " items, size() is " + std::to_string(size_));
        if (w.nodes != node_count())
            bad(std::to_string(w.nodes) + " nodes reachable from the root, node_count() is " +
                std::to_string(node_count()) + " (nodes leaked)");
    }

private:
    struct structure_walk {
        std::vector<bool> seen;
        std::uint64_t nodes = 0, items = 0;
        std::uint64_t last_leaf = no_node, last_next = no_node;
    };
    //! check_structure() for the subtree of node `id`, `level` levels high, whose keys lie in
    //! [*lo, *hi) (nullptr: unbounded).
    void check_node(std::uint64_t id, unsigned level, const Key* lo, const Key* hi, structure_walk& w) {
        const auto bad = [id](const std::string& what) {
            throw invalid_request("flashxxl::map::check_structure: node " + std::to_string(id) + ": " + what);
        };
        if (id >= nodes_.size() || !nodes_[id] || w.seen[id]) bad("freed, unknown or reached twice");
        w.seen[id] = true;
        ++w.nodes;
        frame& f = load(id);
        const bool root = id == root_;
        const std::uint64_t low = root ? (f.leaf ? 1 : 2) : min_fill(f.leaf);
        if (f.leaf != (level == 1)) bad("a leaf above the bottom level, or an internal node at it");
        if (f.count < low || f.count > capacity(f.leaf))
            bad(std::to_string(f.count) + " entries, outside [" + std::to_string(low) + ", " +
                std::to_string(capacity(f.leaf)) + "]");
        if (f.leaf) {
            const leaf_entry* e = leaves(f);
            for (std::uint64_t i = 1; i < f.count; ++i)
                if (!cmp_(e[i - 1].key, e[i].key)) bad("keys not increasing at entry " + std::to_string(i));
            if ((lo && cmp_(e[0].key, *lo)) || (hi && !cmp_(e[f.count - 1].key, *hi)))
                bad("keys outside the separators of its parent");
            if (w.last_leaf != no_node && w.last_next != id)
                bad("leaf " + std::to_string(w.last_leaf) + " before it in key order links to " +
                    std::to_string(w.last_next));
            w.last_leaf = id;
            w.last_next = f.next;
            w.items += f.count;
            return;
        }
        // Copied: the frame may be reused while the children are checked.
        const std::vector<inner_entry> children(inners(f), inners(f) + f.count);
        for (std::uint64_t j = 0; j < children.size(); ++j) {
            const Key* clo = j == 0 ? lo : &children[j].key;
            const Key* chi = j + 1 < children.size() ? &children[j + 1].key : hi;
            if (j > 0 && ((lo && cmp_(*clo, *lo)) || (hi && !cmp_(*clo, *hi)) ||
                          (j > 1 && !cmp_(children[j - 1].key, *clo))))
                bad("separator " + std::to_string(j) + " out of order");
            check_node(children[j].child, level - 1, clo, chi, w);
        }
    }

    struct frame {
        std::uint64_t id = no_node;
        bool leaf = false;
        bool dirty = false;
        std::uint64_t count = 0;
        std::uint64_t next = no_node;
        std::uint32_t pins = 0;
        std::uint64_t tick = 0;
        aligned_buffer buf;
    };
    //! Keeps a frame from eviction while an update works on it.
    class pin {
    public:
        explicit pin(frame& f) : f_(&f) { ++f_->pins; }
        pin(const pin&) = delete;
        pin& operator=(const pin&) = delete;
        ~pin() { --f_->pins; }

    private:
        frame* f_;
    };
    template <class Entry> struct block_view {
        const Entry* entries; // entries [first, first + n) of the node
        std::uint64_t first;
        std::uint64_t n;
    };
    struct node_info {
        bool leaf;
        std::uint64_t count;
        std::uint64_t next;
    };

    static std::uint64_t plan_frames(std::uint64_t memory, const block_sizes& b) {
        const std::uint64_t usable = memory > reserve(memory) ? memory - reserve(memory) : 0;
        const std::uint64_t slot = b.br + detail::btree_block_cache::bookkeeping_per_slot;
        if (usable < 4 * b.bw + 4 * slot)
            throw config_error("flashxxl::map: memory budget " + format_bytes(double(memory)) +
                               " is too small for " + b.describe() + " (need at least " +
                               format_bytes(double(min_memory(b))) +
                               ": three node frames and a staging block of Bw, four Br sub-blocks)");
        // About half of what is left after staging for frames, at least 3.
        return std::max<std::uint64_t>(
            3, std::min<std::uint64_t>((usable - b.bw) / 2 / b.bw, (usable - b.bw - 4 * slot) / b.bw));
    }
    static std::uint64_t plan_slots(std::uint64_t memory, const block_sizes& b, std::uint64_t frames) {
        const std::uint64_t usable = memory - reserve(memory);
        return (usable - (frames + 1) * b.bw) / (b.br + detail::btree_block_cache::bookkeeping_per_slot);
    }

    std::uint64_t capacity(bool leaf) const {
        return leaf ? leaf_layout_.capacity() : inner_layout_.capacity();
    }
    std::uint64_t min_fill(bool leaf) const { return capacity(leaf) / 2; }

    static leaf_entry* leaves(frame& f) { return std::launder(reinterpret_cast<leaf_entry*>(f.buf.data())); }
    static inner_entry* inners(frame& f) {
        return std::launder(reinterpret_cast<inner_entry*>(f.buf.data()));
    }

    //! First entry whose key is not less than k.
    std::uint64_t leaf_position(const leaf_entry* e, std::uint64_t n, const Key& k) const {
        return std::uint64_t(
            std::lower_bound(e, e + n, k,
                             [this](const leaf_entry& a, const Key& b) { return cmp_(a.key, b); }) -
            e);
    }
    //! Last entry whose key is not greater than k, or 0.
    template <class Item, class KeyOf>
    std::uint64_t last_not_greater(const Item* a, std::uint64_t n, const Key& k, KeyOf key_of) const {
        std::uint64_t i = std::uint64_t(
            std::upper_bound(a, a + n, k, [&](const Key& x, const Item& y) { return cmp_(x, key_of(y)); }) -
            a);
        return i > 0 ? i - 1 : 0;
    }
    std::uint64_t child_index(const inner_entry* e, std::uint64_t n, const Key& k) const {
        return last_not_greater(e, n, k, [](const inner_entry& x) -> const Key& { return x.key; });
    }

    frame* cached(std::uint64_t id) {
        auto it = frame_of_.find(id);
        if (it == frame_of_.end()) return nullptr;
        frame& f = frames_[it->second];
        f.tick = ++tick_;
        return &f;
    }

    // ---- device I/O -------------------------------------------------------------------------

    //! Reads sub-blocks [first, first + n) of node `id` into dst: one request of n Br blocks
    //! (a whole node's entries are contiguous; one request spares the device n - 1 latencies).
    void read_blocks(std::uint64_t id, std::uint64_t first, std::uint64_t n, char* dst) {
        const extent& e = nodes_[id].get();
        const std::uint64_t br = blocks_.br;
        stxxl::request_ptr r = e.dev->aread(dst, e.offset + first * br, n * br, role_);
        e.dev->wait(r, role_);
    }
    //! One Bw write of staging_ to node `id`.
    void write_staging(std::uint64_t id) {
        const extent& e = nodes_[id].get();
        rethrow_out_of_space_in("flashxxl::map", [&] { // a translation layer may have no room
            stxxl::request_ptr r = e.dev->awrite(staging_.data(), e.offset, blocks_.bw, role_);
            e.dev->wait(r, role_);
        });
        ++node_writes_;
    }
    void write_back(frame& f) {
        if (f.leaf)
            leaf_layout_.encode(leaves(f), f.count, true, f.next, staging_.data());
        else
            inner_layout_.encode(inners(f), f.count, false, no_node, staging_.data());
        write_staging(f.id);
        f.dirty = false;
    }
    //! Sub-block `j` of node `id` through the cache; valid until the next fetch.
    const char* fetch(std::uint64_t id, std::uint64_t j) {
        if (const char* p = cache_.find(id, j)) return p;
        char* p = cache_.insert(id, j);
        try {
            read_blocks(id, j, 1, p);
        } catch (...) {
            cache_.erase(id, j);
            throw;
        }
        return p;
    }

    // ---- frames -----------------------------------------------------------------------------

    //! A frame to reuse: a free one, else the least recently used unpinned one (written back
    //! when dirty).
    frame& victim() {
        frame* best = nullptr;
        for (frame& f : frames_) {
            if (f.pins != 0) continue;
            if (f.id == no_node) return f;
            if (!best || f.tick < best->tick) best = &f;
        }
        if (!best) throw invalid_request("flashxxl::map: internal error: every node frame is pinned");
        if (best->dirty) write_back(*best);
        frame_of_.erase(best->id);
        best->id = no_node;
        return *best;
    }
    std::uint32_t index_of(const frame& f) const { return static_cast<std::uint32_t>(&f - frames_.data()); }

    //! Node `id` whole in a frame (loaded when not cached: sub-block 0 and the entry
    //! sub-blocks, Br reads).
    frame& load(std::uint64_t id) {
        if (frame* f = cached(id)) return *f;
        frame& f = victim();
        char* s = staging_.data();
        if (const char* b0 = cache_.find(id, 0))
            std::memcpy(s, b0, blocks_.br);
        else
            read_blocks(id, 0, 1, s);
        detail::btree_node_header h = leaf_layout::header(s);
        if (h.leaf) {
            std::uint64_t nb = leaf_layout_.entry_blocks(h);
            if (nb) read_blocks(id, h.first_block[0], nb, s + h.first_block[0] * blocks_.br);
            leaf_layout_.decode(s, leaves(f));
        } else {
            std::uint64_t nb = inner_layout_.entry_blocks(h);
            if (nb) read_blocks(id, h.first_block[0], nb, s + h.first_block[0] * blocks_.br);
            inner_layout_.decode(s, inners(f));
        }
        frame_of_[id] = index_of(f); // bad_alloc: the frame stays free
        f.id = id;
        f.leaf = h.leaf != 0;
        f.count = h.count;
        f.next = h.next;
        f.dirty = false;
        f.tick = ++tick_;
        cache_.erase_node(id, leaf_layout_.sub_blocks()); // the frame is the copy to use now
        ++node_loads_;
        return f;
    }

    //! Allocates a node's extent (out_of_space, bad_alloc: before anything changes) and
    //! registers it. free_ids_ keeps room for every node, so free_node never allocates.
    std::uint64_t allocate_node() {
        if (free_ids_.empty() && free_ids_.capacity() < nodes_.size() + 1)
            free_ids_.reserve(std::max<std::size_t>(2 * free_ids_.capacity(), nodes_.size() + 1));
        owned_extent e = rethrow_out_of_space_in("flashxxl::map", [&] {
            return machine_->allocate(role_, blocks_.bw, allocations_++, account_.meter());
        });
        if (!free_ids_.empty()) {
            std::uint64_t id = free_ids_.back();
            nodes_[id] = std::move(e);
            free_ids_.pop_back();
            return id;
        }
        nodes_.push_back(std::move(e));
        return nodes_.size() - 1;
    }
    //! A new empty node in a frame, dirty.
    frame& new_node(bool leaf) {
        frame& f = victim();
        std::uint64_t id = allocate_node();
        try {
            frame_of_[id] = index_of(f);
        } catch (...) { // bad_alloc: the node goes back, the frame stays free
            nodes_[id].reset();
            free_ids_.push_back(id);
            throw;
        }
        f.id = id;
        f.leaf = leaf;
        f.count = 0;
        f.next = no_node;
        f.dirty = true;
        f.tick = ++tick_;
        cache_.erase_node(id, leaf_layout_.sub_blocks());
        return f;
    }
    //! Gives node `id` back; allocates nothing, so it cannot fail.
    void free_node(std::uint64_t id) noexcept {
        auto it = frame_of_.find(id);
        if (it != frame_of_.end()) {
            frames_[it->second].id = no_node;
            frames_[it->second].dirty = false;
            frame_of_.erase(it);
        }
        cache_.erase_node(id, leaf_layout_.sub_blocks());
        nodes_[id].reset();
        free_ids_.push_back(id);
    }

    // ---- searching --------------------------------------------------------------------------

    node_info info(std::uint64_t id) {
        if (frame* f = cached(id)) return {f->leaf, f->count, f->next};
        detail::btree_node_header h = leaf_layout::header(fetch(id, 0));
        return {h.leaf != 0, h.count, h.next};
    }

    //! Walks the in-node tree of an uncached node through the sub-block cache down to the
    //! entry sub-block where `k` belongs (the first one when k is nullptr).
    template <class Entry, class Layout>
    block_view<Entry> walk(std::uint64_t id, const Layout& lay, const Key* k, detail::btree_node_header& h) {
        const char* b = fetch(id, 0);
        h = Layout::header(b);
        if (h.top == 0)
            return {std::launder(reinterpret_cast<const Entry*>(b + detail::btree_root_offset)), 0, h.count};
        std::array<std::uint64_t, detail::btree_max_levels> counts;
        lay.levels(h.count, counts);
        auto key_at = [](const Key& x) -> const Key& { return x; };
        const Key* keys = std::launder(reinterpret_cast<const Key*>(b + detail::btree_root_offset));
        std::uint64_t p = k ? last_not_greater(keys, counts[h.top], *k, key_at) : 0;
        const std::uint64_t kb = lay.keys_per_block();
        for (unsigned l = h.top - 1; l >= 1; --l) {
            const char* blk = fetch(id, h.first_block[l] + p);
            keys = std::launder(reinterpret_cast<const Key*>(blk));
            const std::uint64_t n = std::min(kb, counts[l] - p * kb);
            p = p * kb + (k ? last_not_greater(keys, n, *k, key_at) : 0);
        }
        const std::uint64_t e = lay.entries_per_block();
        const char* blk = fetch(id, h.first_block[0] + p);
        return {std::launder(reinterpret_cast<const Entry*>(blk)), p * e,
                std::min(e, std::uint64_t(h.count) - p * e)};
    }

    //! The child of internal node `id` whose subtree holds `k`.
    std::uint64_t child_of(std::uint64_t id, const Key& k) {
        if (frame* f = cached(id)) {
            inner_entry* e = inners(*f);
            return e[child_index(e, f->count, k)].child;
        }
        detail::btree_node_header h;
        block_view<inner_entry> v = walk<inner_entry>(id, inner_layout_, &k, h);
        return v.entries[child_index(v.entries, v.n, k)].child;
    }
    //! The leaf whose range holds `k`.
    std::uint64_t descend(const Key& k) {
        std::uint64_t id = root_;
        for (unsigned h = height_; h > 1; --h)
            id = child_of(id, k);
        return id;
    }
    //! An iterator at the first item of leaf `id` (end() for an empty root leaf).
    iterator first_of_leaf(std::uint64_t id) {
        if (frame* f = cached(id)) {
            if (f->count == 0) return end();
            const leaf_entry& e = leaves(*f)[0];
            return iterator(this, id, 0, e.key, e.value);
        }
        detail::btree_node_header h;
        block_view<leaf_entry> v = walk<leaf_entry>(id, leaf_layout_, nullptr, h);
        if (v.n == 0) return end();
        return iterator(this, id, 0, v.entries[0].key, v.entries[0].value);
    }
    iterator leaf_lower_bound(std::uint64_t id, const Key& k) {
        std::uint64_t next;
        if (frame* f = cached(id)) {
            leaf_entry* e = leaves(*f);
            std::uint64_t pos = leaf_position(e, f->count, k);
            if (pos < f->count) return iterator(this, id, pos, e[pos].key, e[pos].value);
            next = f->next;
        } else {
            detail::btree_node_header h;
            block_view<leaf_entry> v = walk<leaf_entry>(id, leaf_layout_, &k, h);
            std::uint64_t local = leaf_position(v.entries, v.n, k);
            if (local < v.n)
                return iterator(this, id, v.first + local, v.entries[local].key, v.entries[local].value);
            if (v.first + v.n < h.count) { // the first entry of the next entry sub-block
                const std::uint64_t block = h.first_block[0] + v.first / leaf_layout_.entries_per_block() + 1;
                const leaf_entry* e = std::launder(reinterpret_cast<const leaf_entry*>(fetch(id, block)));
                return iterator(this, id, v.first + v.n, e[0].key, e[0].value);
            }
            next = h.next;
        }
        return next == no_node ? end() : first_of_leaf(next);
    }
    //! Moves `it` to the next item: in the frame when its leaf is cached, else through the
    //! sub-block cache (a scan of k items reads about k / E entry sub-blocks, not whole leaves).
    //! ++ for an iterator made before the last update: the first item with a key after its own.
    void advance_after_update(iterator& it) {
        const Key key = it.item_->first;
        iterator next = lower_bound(key);
        if (next != end() && !cmp_(key, next.item_->first)) advance(next);
        it = next;
    }
    void advance(iterator& it) {
        if (it.version_ != version_) {
            advance_after_update(it);
            return;
        }
        std::uint64_t next;
        if (frame* f = cached(it.leaf_)) {
            if (it.pos_ + 1 < f->count) {
                ++it.pos_;
                const leaf_entry& e = leaves(*f)[it.pos_];
                it.item_.emplace(e.key, e.value);
                return;
            }
            next = f->next;
        } else {
            const detail::btree_node_header h = leaf_layout::header(fetch(it.leaf_, 0));
            if (it.pos_ + 1 < h.count) {
                ++it.pos_;
                const leaf_entry* e;
                if (h.top == 0) {
                    e = std::launder(reinterpret_cast<const leaf_entry*>(fetch(it.leaf_, 0) +
                                                                         detail::btree_root_offset)) +
                        it.pos_;
                } else {
                    const std::uint64_t per = leaf_layout_.entries_per_block();
                    e = std::launder(reinterpret_cast<const leaf_entry*>(
                            fetch(it.leaf_, h.first_block[0] + it.pos_ / per))) +
                        it.pos_ % per;
                }
                it.item_.emplace(e->key, e->value);
                return;
            }
            next = h.next;
        }
        if (next == no_node)
            it = end();
        else
            it = first_of_leaf(next);
    }

    // ---- updates ----------------------------------------------------------------------------

    //! Where the split of full node c enters its new right half in parent p: the index of c's
    //! entry in p (the new one goes right after it). Compares keys and checks, changes nothing:
    //! everything that may throw during a split (this, loads, the allocation of the new node)
    //! happens before split_into moves an entry, so a throwing comparator, a failed read or a
    //! full device leaves the tree as it was.
    std::uint64_t split_position(frame& p, frame& c) {
        const std::uint64_t mid = c.count / 2;
        const Key& sep = c.leaf ? leaves(c)[mid].key : inners(c)[mid].key;
        const std::uint64_t i = child_index(inners(p), p.count, sep);
        if (inners(p)[i].child != c.id)
            throw invalid_request(
                "flashxxl::map: internal error: a split node is not where its parent points");
        return i;
    }
    //! Moves the upper half of full node c into the new node r and enters r in parent p as
    //! entry i + 1, right after c (i from split_position). Copies bytes only: cannot throw.
    void split_into(frame& p, std::uint64_t i, frame& c, frame& r) noexcept {
        const std::uint64_t mid = c.count / 2, moved = c.count - mid;
        if (c.leaf) {
            std::memcpy(static_cast<void*>(leaves(r)), static_cast<const void*>(leaves(c) + mid),
                        moved * sizeof(leaf_entry));
            r.next = c.next;
            c.next = r.id;
        } else {
            std::memcpy(static_cast<void*>(inners(r)), static_cast<const void*>(inners(c) + mid),
                        moved * sizeof(inner_entry));
        }
        r.count = moved;
        c.count = mid;
        inner_entry* pe = inners(p);
        std::memmove(static_cast<void*>(pe + i + 2), static_cast<const void*>(pe + i + 1),
                     (p.count - i - 1) * sizeof(inner_entry));
        if (c.leaf)
            std::memcpy(static_cast<void*>(&pe[i + 1].key), static_cast<const void*>(&leaves(r)[0].key),
                        sizeof(Key));
        else
            std::memcpy(static_cast<void*>(&pe[i + 1].key), static_cast<const void*>(&inners(r)[0].key),
                        sizeof(Key));
        pe[i + 1].child = r.id;
        ++p.count;
        p.dirty = c.dirty = r.dirty = true;
    }
    void split_child(std::uint64_t parent, std::uint64_t child, bool child_leaf) {
        frame& p = load(parent);
        pin pp(p);
        frame& c = load(child);
        pin pc(c);
        const std::uint64_t i = split_position(p, c); // may throw: nothing changed yet
        frame& r = new_node(child_leaf);              // out_of_space: nothing changed yet
        split_into(p, i, c, r);
    }
    //! A new root above the full old one, then the old one split: the tree grows a level. Both
    //! new nodes are allocated first (the first freed when the second fails); the new root has
    //! one entry, so the split's position there is 0 without a comparison, and nothing after
    //! the allocations throws.
    void split_root() {
        frame& c = load(root_);
        pin pc(c);
        frame& nr = new_node(false);
        pin pn(nr);
        frame* r = nullptr;
        try {
            r = &new_node(c.leaf);
        } catch (...) {
            free_node(nr.id);
            throw;
        }
        inner_entry* e = inners(nr);
        if (c.leaf)
            std::memcpy(static_cast<void*>(&e[0].key), static_cast<const void*>(&leaves(c)[0].key),
                        sizeof(Key));
        else
            std::memcpy(static_cast<void*>(&e[0].key), static_cast<const void*>(&inners(c)[0].key),
                        sizeof(Key));
        e[0].child = c.id;
        nr.count = 1;
        split_into(nr, 0, c, *r);
        root_ = nr.id;
        ++height_;
    }

    //! Gives child `child` of `parent` (at its minimum fill) one more entry than the minimum:
    //! borrows from a sibling with more, else merges with a sibling. When the root is left
    //! with one child, that child becomes the root (returns true then).
    bool refill_child(std::uint64_t parent, std::uint64_t child, bool leaf, const Key& k) {
        frame& p = load(parent);
        pin pp(p);
        inner_entry* pe = inners(p);
        const std::uint64_t i = child_index(pe, p.count, k);
        if (pe[i].child != child)
            throw invalid_request("flashxxl::map: internal error: a child is not where its parent points");
        frame& c = load(child);
        pin pc(c);
        if (i + 1 < p.count) {
            frame& s = load(pe[i + 1].child);
            pin ps(s);
            if (s.count > min_fill(leaf))
                borrow_from_right(p, i, c, s);
            else
                merge(p, i, c, s);
        } else {
            frame& s = load(pe[i - 1].child);
            pin ps(s);
            if (s.count > min_fill(leaf))
                borrow_from_left(p, i, s, c);
            else
                merge(p, i - 1, s, c);
        }
        if (p.id == root_ && p.count == 1) {
            root_ = pe[0].child;
            --height_;
            free_node(p.id);
            return true;
        }
        return false;
    }
    //! Entry 0 of right sibling s (entry i + 1 of p) moves to the end of c.
    void borrow_from_right(frame& p, std::uint64_t i, frame& c, frame& s) {
        inner_entry* pe = inners(p);
        if (c.leaf) {
            leaf_entry* ce = leaves(c);
            leaf_entry* se = leaves(s);
            std::memcpy(static_cast<void*>(ce + c.count), static_cast<const void*>(se), sizeof(leaf_entry));
            std::memmove(static_cast<void*>(se), static_cast<const void*>(se + 1),
                         (s.count - 1) * sizeof(leaf_entry));
            std::memcpy(static_cast<void*>(&pe[i + 1].key), static_cast<const void*>(&se[0].key),
                        sizeof(Key));
        } else {
            inner_entry* ce = inners(c);
            inner_entry* se = inners(s);
            std::memcpy(static_cast<void*>(&ce[c.count].key), static_cast<const void*>(&pe[i + 1].key),
                        sizeof(Key));
            ce[c.count].child = se[0].child;
            std::memcpy(static_cast<void*>(&pe[i + 1].key), static_cast<const void*>(&se[1].key),
                        sizeof(Key));
            std::memmove(static_cast<void*>(se), static_cast<const void*>(se + 1),
                         (s.count - 1) * sizeof(inner_entry));
        }
        ++c.count;
        --s.count;
        p.dirty = c.dirty = s.dirty = true;
    }
    //! The last entry of left sibling s (entry i - 1 of p) moves to the front of c (entry i).
    void borrow_from_left(frame& p, std::uint64_t i, frame& s, frame& c) {
        inner_entry* pe = inners(p);
        if (c.leaf) {
            leaf_entry* ce = leaves(c);
            leaf_entry* se = leaves(s);
            std::memmove(static_cast<void*>(ce + 1), static_cast<const void*>(ce),
                         c.count * sizeof(leaf_entry));
            std::memcpy(static_cast<void*>(ce), static_cast<const void*>(se + s.count - 1),
                        sizeof(leaf_entry));
            std::memcpy(static_cast<void*>(&pe[i].key), static_cast<const void*>(&ce[0].key), sizeof(Key));
        } else {
            inner_entry* ce = inners(c);
            inner_entry* se = inners(s);
            // c's old entry 0 gets the separator that was above it.
            std::memcpy(static_cast<void*>(&ce[0].key), static_cast<const void*>(&pe[i].key), sizeof(Key));
            std::memmove(static_cast<void*>(ce + 1), static_cast<const void*>(ce),
                         c.count * sizeof(inner_entry));
            std::memcpy(static_cast<void*>(ce), static_cast<const void*>(se + s.count - 1),
                        sizeof(inner_entry));
            std::memcpy(static_cast<void*>(&pe[i].key), static_cast<const void*>(&ce[0].key), sizeof(Key));
        }
        ++c.count;
        --s.count;
        p.dirty = c.dirty = s.dirty = true;
    }
    //! Right node r (entry i + 1 of p) is appended to left node l and freed.
    void merge(frame& p, std::uint64_t i, frame& l, frame& r) {
        inner_entry* pe = inners(p);
        if (l.leaf) {
            std::memcpy(static_cast<void*>(leaves(l) + l.count), static_cast<const void*>(leaves(r)),
                        r.count * sizeof(leaf_entry));
            l.next = r.next;
        } else {
            inner_entry* re = inners(r);
            std::memcpy(static_cast<void*>(&re[0].key), static_cast<const void*>(&pe[i + 1].key),
                        sizeof(Key));
            std::memcpy(static_cast<void*>(inners(l) + l.count), static_cast<const void*>(re),
                        r.count * sizeof(inner_entry));
        }
        l.count += r.count;
        std::memmove(static_cast<void*>(pe + i + 1), static_cast<const void*>(pe + i + 2),
                     (p.count - i - 2) * sizeof(inner_entry));
        --p.count;
        p.dirty = l.dirty = true;
        free_node(r.id);
    }

    //! Counts of the `parts` nodes `n` entries are spread over evenly.
    static std::uint64_t share(std::uint64_t n, std::uint64_t parts, std::uint64_t j) {
        return n / parts + (j < n % parts ? 1 : 0);
    }
    template <class It> void build(It it, std::uint64_t n) {
        const std::uint64_t leaves_needed = (n + leaf_capacity() - 1) / leaf_capacity();
        std::vector<inner_entry> level;
        level.reserve(leaves_needed);
        leaf_entry* buf = std::launder(reinterpret_cast<leaf_entry*>(frames_[0].buf.data()));
        std::uint64_t id = allocate_node(), done = 0;
        std::optional<Key> previous;
        for (std::uint64_t j = 0; j < leaves_needed; ++j) {
            const std::uint64_t cnt = share(n, leaves_needed, j);
            for (std::uint64_t i = 0; i < cnt; ++i, ++it, ++done) {
                const auto& item = *it; // a reference, or a value an input generator made
                const Key& key = item.first;
                if (previous && !cmp_(*previous, key))
                    throw invalid_request(
                        "flashxxl::map::bulk_load: input item " + std::to_string(done) +
                        " is not greater than the one before (the input must be sorted by key, "
                        "without duplicates)");
                previous.emplace(key);
                std::memcpy(static_cast<void*>(&buf[i].key), static_cast<const void*>(&key), sizeof(Key));
                const T& value = item.second;
                std::memcpy(static_cast<void*>(&buf[i].value), static_cast<const void*>(&value), sizeof(T));
            }
            const std::uint64_t next = j + 1 < leaves_needed ? allocate_node() : no_node;
            leaf_layout_.encode(buf, cnt, true, next, staging_.data());
            write_staging(id);
            level.push_back(inner_entry{buf[0].key, id});
            id = next;
        }
        unsigned height = 1;
        while (level.size() > 1) {
            const std::uint64_t parts = (level.size() + inner_capacity() - 1) / inner_capacity();
            std::vector<inner_entry> up;
            up.reserve(parts);
            for (std::uint64_t j = 0, off = 0; j < parts; ++j) {
                const std::uint64_t cnt = share(level.size(), parts, j);
                const std::uint64_t node = allocate_node();
                inner_layout_.encode(level.data() + off, cnt, false, no_node, staging_.data());
                write_staging(node);
                up.push_back(inner_entry{level[off].key, node});
                off += cnt;
            }
            level.swap(up);
            ++height;
        }
        root_ = level[0].child;
        height_ = height;
        size_ = n;
    }

    machine* machine_;
    std::uint64_t memory_;
    block_sizes blocks_;
    Cmp cmp_;
    role role_;
    leaf_layout leaf_layout_;
    inner_layout inner_layout_;
    memory_account account_;
    std::uint64_t frame_count_;
    std::uint64_t slot_count_;
    detail::btree_block_cache cache_;
    aligned_buffer staging_;
    std::vector<frame> frames_;
    std::unordered_map<std::uint64_t, std::uint32_t> frame_of_;
    std::vector<owned_extent> nodes_;     // the node directory: node id -> its Bw extent
    std::vector<std::uint64_t> free_ids_; // ids of freed nodes, reused first
    std::uint64_t root_ = no_node;
    unsigned height_ = 0;
    size_type size_ = 0;
    std::uint64_t version_ = 0; // counts updates: an iterator of an older version finds its place again
    std::uint64_t tick_ = 0;
    std::uint64_t allocations_ = 0;
    std::uint64_t node_writes_ = 0;
    std::uint64_t node_loads_ = 0;
};

//! The external B+-tree map, documented at map_body (which does the work): a handle that owns its
//! body on the heap, so that a map can be moved and swapped (nodes, caches and iterators stay
//! valid: an iterator refers to the body). A moved-from map may only be destroyed or assigned to.
template <class Key, class T, class Cmp = std::less<Key>> class map {
public:
    using body_type = map_body<Key, T, Cmp>;
    using key_type = Key;
    using mapped_type = T;
    using value_type = typename body_type::value_type;
    using size_type = typename body_type::size_type;
    using key_compare = Cmp;
    using iterator = typename body_type::iterator;
    using const_iterator = iterator;

    static constexpr std::uint64_t reserve(std::uint64_t memory) { return body_type::reserve(memory); }
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes& b) {
        return body_type::memory_usage(memory, b);
    }
    static std::uint64_t min_memory(const block_sizes& b) { return body_type::min_memory(b); }
    static std::uint64_t directory_memory(std::uint64_t nodes) { return body_type::directory_memory(nodes); }
    static std::uint64_t leaf_capacity(const block_sizes& b) { return body_type::leaf_capacity(b); }
    static std::uint64_t inner_capacity(const block_sizes& b) { return body_type::inner_capacity(b); }
    static std::uint64_t max_nodes(const block_sizes& b, std::uint64_t loaded, std::uint64_t inserted) {
        return body_type::max_nodes(b, loaded, inserted);
    }

    //! The constructors of map_body: (m, budget, b, cmp, role) and (m, budget, cmp, role).
    map(machine& m, const memory_budget& budget, const block_sizes& b, Cmp cmp = Cmp(),
        role r = role::static_data)
        : body_(std::make_unique<body_type>(m, budget, b, std::move(cmp), r)) {}
    map(machine& m, const memory_budget& budget, Cmp cmp = Cmp(), role r = role::static_data)
        : body_(std::make_unique<body_type>(m, budget, std::move(cmp), r)) {}
    map(map&&) noexcept = default;
    map& operator=(map&&) noexcept = default;
    void swap(map& o) noexcept { body_.swap(o.body_); }
    friend void swap(map& a, map& b) noexcept { a.swap(b); }

    size_type size() const { return body_->size(); }
    bool empty() const { return body_->empty(); }
    const block_sizes& blocks() const { return body_->blocks(); }
    std::uint64_t memory() const { return body_->memory(); }
    const memory_account& account() const { return body_->account(); }
    unsigned height() const { return body_->height(); }
    std::uint64_t node_count() const { return body_->node_count(); }
    std::uint64_t leaf_capacity() const { return body_->leaf_capacity(); }
    std::uint64_t inner_capacity() const { return body_->inner_capacity(); }
    std::uint64_t frames() const { return body_->frames(); }
    std::uint64_t cache_slots() const { return body_->cache_slots(); }
    std::uint64_t node_writes() const { return body_->node_writes(); }
    std::uint64_t node_loads() const { return body_->node_loads(); }
    std::uint64_t directory_bytes() const { return body_->directory_bytes(); }

    iterator end() { return body_->end(); }
    iterator begin() { return body_->begin(); }
    iterator lower_bound(const Key& k) { return body_->lower_bound(k); }
    iterator find(const Key& k) { return body_->find(k); }
    size_type count(const Key& k) { return body_->count(k); }
    std::pair<iterator, bool> insert(const value_type& v) { return body_->insert(v); }
    size_type erase(const Key& k) { return body_->erase(k); }
    template <class ForwardIt> void bulk_load(ForwardIt first, ForwardIt last) {
        body_->bulk_load(first, last);
    }
    template <class Range> void bulk_load(const Range& r) { body_->bulk_load(r); }
    void clear() { body_->clear(); }
    void flush() { body_->flush(); }
    void drop_cache() { body_->drop_cache(); }
    void check_structure() { body_->check_structure(); }

private:
    std::unique_ptr<body_type> body_;
};

} // namespace flashxxl
