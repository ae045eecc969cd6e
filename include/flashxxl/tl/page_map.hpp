// The translation layer's logical-to-physical page map and its reverse: 4 bytes per entry each way.
#pragma once

#include <cstdint>
#include <vector>

namespace flashxxl {

//! Forward map (logical page -> physical page) and reverse map (physical page -> logical page)
//! as flat arrays of 32-bit page numbers; `none` marks an unmapped logical or a dead physical page.
//! Memory: 4 bytes per logical page + 4 bytes per physical page, nothing else.
class page_map {
public:
    using page_t = std::uint32_t;
    //! The "no page" marker.
    static constexpr page_t none = 0xffffffffu;

    page_map(std::uint64_t logical_pages, std::uint64_t physical_pages)
        : forward_(logical_pages, none), reverse_(physical_pages, none) {}

    std::uint64_t logical_pages() const { return forward_.size(); }
    std::uint64_t physical_pages() const { return reverse_.size(); }

    //! Physical page of logical page `l`, or none.
    page_t physical(std::uint64_t l) const { return forward_[l]; }
    //! Logical page stored in physical page `p`, or none when `p` is free or dead.
    page_t logical(std::uint64_t p) const { return reverse_[p]; }

    //! Maps l -> p (p must be dead; l's old page, if any, must have been unmapped first).
    void map(std::uint64_t l, std::uint64_t p) {
        forward_[l] = static_cast<page_t>(p);
        reverse_[p] = static_cast<page_t>(l);
    }
    //! Unmaps logical page l; returns its old physical page or none.
    page_t unmap(std::uint64_t l) {
        page_t p = forward_[l];
        if (p != none) {
            reverse_[p] = none;
            forward_[l] = none;
        }
        return p;
    }

    //! Bytes held by both maps.
    std::uint64_t memory_bytes() const {
        return (forward_.capacity() + reverse_.capacity()) * sizeof(page_t);
    }

private:
    std::vector<page_t> forward_;
    std::vector<page_t> reverse_;
};

} // namespace flashxxl
