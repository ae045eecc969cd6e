// Per-segment state of a translation layer (free / open / sealed, valid pages, age) and victim choice.
#pragma once

#include <cstdint>
#include <vector>

#include "flashxxl/tl/tl_config.hpp"

namespace flashxxl {

//! State of every physical segment: 16 bytes each. Victim selection scans all sealed segments,
//! O(segments) per cleaned segment, which is negligible next to the Bw of I/O each cleaning
//! round costs (4096 segments for 64 GiB at 16 MiB).
class segment_table {
public:
    enum class state : std::uint8_t { free, open, sealed };
    //! "No segment".
    static constexpr std::uint32_t none = 0xffffffffu;

    explicit segment_table(std::uint64_t segments) : entries_(segments) {
        free_list_.reserve(segments);
        // Hand out low segments first: pop from the back of a descending list.
        for (std::uint64_t s = segments; s-- > 0;)
            free_list_.push_back(static_cast<std::uint32_t>(s));
    }

    std::uint64_t count() const { return entries_.size(); }
    std::uint64_t free_count() const { return free_list_.size(); }
    state state_of(std::uint32_t s) const { return entries_[s].st; }
    std::uint32_t valid(std::uint32_t s) const { return entries_[s].valid; }

    //! Takes a free segment and marks it open; requires free_count() > 0.
    std::uint32_t take_free() {
        std::uint32_t s = free_list_.back();
        free_list_.pop_back();
        entries_[s].st = state::open;
        entries_[s].valid = 0;
        return s;
    }
    //! An open segment was written out; `clock` is the layer's write clock (for cost-benefit).
    void seal(std::uint32_t s, std::uint64_t clock) {
        entries_[s].st = state::sealed;
        entries_[s].sealed_at = clock;
    }
    //! Returns a sealed segment without valid pages to the free list.
    void release(std::uint32_t s) {
        entries_[s].st = state::free;
        entries_[s].valid = 0;
        free_list_.push_back(s);
    }
    void add_valid(std::uint32_t s) { ++entries_[s].valid; }
    //! Returns the new count.
    std::uint32_t remove_valid(std::uint32_t s) { return --entries_[s].valid; }

    //! The sealed segment to clean next under `policy`, among those with fewer than
    //! `pages_per_segment` valid pages; none if there is no such segment.
    std::uint32_t pick_victim(cleaning_policy policy, std::uint32_t pages_per_segment,
                              std::uint64_t clock) const {
        std::uint32_t best = none;
        if (policy == cleaning_policy::greedy) {
            std::uint32_t best_valid = pages_per_segment;
            for (std::uint32_t s = 0; s < entries_.size(); ++s) {
                const entry& e = entries_[s];
                if (e.st == state::sealed && e.valid < best_valid) {
                    best_valid = e.valid;
                    best = s;
                    if (best_valid == 0) break;
                }
            }
        } else {
            double best_score = -1;
            for (std::uint32_t s = 0; s < entries_.size(); ++s) {
                const entry& e = entries_[s];
                if (e.st != state::sealed || e.valid >= pages_per_segment) continue;
                double u = double(e.valid) / double(pages_per_segment);
                double age = double(clock - e.sealed_at) + 1.0;
                double score = (1.0 - u) * age / (1.0 + u);
                if (score > best_score) {
                    best_score = score;
                    best = s;
                }
            }
        }
        return best;
    }

    //! Bytes held by the table.
    std::uint64_t memory_bytes() const {
        return entries_.capacity() * sizeof(entry) + free_list_.capacity() * sizeof(std::uint32_t);
    }

private:
    struct entry {
        std::uint64_t sealed_at = 0;
        std::uint32_t valid = 0;
        state st = state::free;
    };
    std::vector<entry> entries_;
    std::vector<std::uint32_t> free_list_;
};

} // namespace flashxxl
