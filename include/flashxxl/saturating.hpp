// 64-bit sums and products that stop at the largest value instead of wrapping: sizes and counts that must
// exceed every limit when they overflow.
#pragma once

#include <cstdint>
#include <limits>

namespace flashxxl {

//! The value a saturated quantity reaches: the true one does not fit 64 bits, so it exceeds every limit.
inline constexpr std::uint64_t saturated = std::numeric_limits<std::uint64_t>::max();

//! a + b, or `saturated` when that does not fit 64 bits.
inline constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return a > saturated - b ? saturated : a + b;
}

//! a x b, or `saturated` when that does not fit 64 bits.
inline constexpr std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    return b != 0 && a > saturated / b ? saturated : a * b;
}

} // namespace flashxxl
