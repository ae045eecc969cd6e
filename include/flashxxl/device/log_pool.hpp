// The page-mapped log pool of a hybrid log-block FTL: random writes' pages in arrival order, per-unit
// validity.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace flashxxl {

//! The log blocks a hybrid FTL (the FAST family: Lee et al., "A log buffer-based flash
//! translation layer using fully-associative sector translation", ACM TECS 2007) shares among
//! all data units: pages are appended in arrival order whatever unit they belong to, and a
//! unit's pages stay valid until that unit is merged (its epoch advances). Reclaiming takes
//! log pages from the oldest end; a valid page costs its unit a full merge, an invalid one
//! nothing. Only counts are kept (no data, no per-page table): one entry per host write.
class log_pool {
public:
    //! Pages held, valid or not (the log blocks they occupy are not free yet).
    std::uint64_t used_pages() const { return used_; }
    bool empty() const { return entries_.empty(); }

    //! Appends `pages` pages of `unit`, valid until the unit is next merged.
    void append(std::uint64_t unit, std::uint64_t pages) {
        entries_.push_back({unit, pages, epoch(unit)});
        used_ += pages;
    }

    //! The unit was merged (or rewritten whole): its pages in the pool are now stale.
    void invalidate(std::uint64_t unit) { ++epochs_[unit]; }

    //! Frees the oldest entry. Returns true and sets `unit` when it was still valid (the caller
    //! merges that unit, which invalidates its other pages too); false when it was stale.
    bool pop_oldest(std::uint64_t& unit, std::uint64_t& pages) {
        const entry e = entries_.front();
        entries_.pop_front();
        used_ -= e.pages;
        unit = e.unit;
        pages = e.pages;
        return e.epoch == epoch(e.unit);
    }

    void clear() {
        entries_.clear();
        epochs_.clear();
        used_ = 0;
    }

private:
    struct entry {
        std::uint64_t unit;
        std::uint64_t pages;
        std::uint64_t epoch;
    };
    std::uint64_t epoch(std::uint64_t unit) const {
        auto it = epochs_.find(unit);
        return it == epochs_.end() ? 0 : it->second;
    }

    std::deque<entry> entries_;
    std::unordered_map<std::uint64_t, std::uint64_t> epochs_; // only units merged at least once
    std::uint64_t used_ = 0;
};

} // namespace flashxxl
