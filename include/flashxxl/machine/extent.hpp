// A byte range on one device (`extent`) and its move-only owner (`owned_extent`), which gives the range back
// when it goes.
#pragma once

#include <cstdint>
#include <utility>

#include "flashxxl/machine/device.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! A byte range on one device, as handed out by machine::allocate: a plain view that owns
//! nothing (see owned_extent).
struct extent {
    device* dev = nullptr;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    role r = role::scratch;
};

//! The owner of an extent. machine::allocate returns one; it is move-only, and destroying (or
//! reset()-ing) it returns the range to its device: the data is discarded first (TRIM on the
//! model, page invalidation in the translation layer) and the range is free for the next
//! allocation only after that, so a concurrent allocate can never receive a range whose late
//! discard would destroy its new data. An empty owner (default-constructed or moved from)
//! does nothing. Containers keep their extents in these; nothing releases by hand.
class owned_extent {
public:
    owned_extent() = default;
    //! Takes ownership of `e` (an extent allocated on e.dev).
    explicit owned_extent(const extent& e) noexcept : ext_(e) {}
    owned_extent(const owned_extent&) = delete;
    owned_extent& operator=(const owned_extent&) = delete;
    owned_extent(owned_extent&& o) noexcept : ext_(std::exchange(o.ext_, extent{})) {}
    owned_extent& operator=(owned_extent&& o) noexcept {
        if (this != &o) {
            reset();
            ext_ = std::exchange(o.ext_, extent{});
        }
        return *this;
    }
    ~owned_extent() { reset(); }

    //! Returns the range to its device now (no-op when empty).
    void reset() noexcept {
        if (ext_.dev) ext_.dev->release_range(ext_.offset, ext_.length);
        ext_ = extent{};
    }
    //! Gives up ownership without returning the range; the caller must see to it.
    extent release_ownership() noexcept { return std::exchange(ext_, extent{}); }

    explicit operator bool() const { return ext_.dev != nullptr; }
    const extent& get() const { return ext_; }
    const extent* operator->() const { return &ext_; }
    const extent& operator*() const { return ext_; }

private:
    extent ext_;
};

} // namespace flashxxl
