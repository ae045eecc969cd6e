// Division by a divisor fixed at run time as one multiplication and shifts (for per-item block arithmetic).
#pragma once

#include <cstdint>

namespace flashxxl {

//! Division by a divisor fixed at run time, as one multiplication and shifts (Granlund and
//! Montgomery 1994, Figure 4.1, what compilers emit for a constant divisor): exact for every
//! 64-bit n and every divisor d >= 1. Block sizes became run-time values; a hardware division
//! per item access made sequential vector::operator[] about a third slower than with the
//! compile-time Br of blocks<Br, Bw>.
class fast_divisor {
public:
    explicit fast_divisor(std::uint64_t d = 1) {
        int l = 0; // ceil(log2 d)
        while (l < 64 && (std::uint64_t(1) << l) < d)
            ++l;
        magic_ = std::uint64_t(((u128(1) << 64) * ((u128(1) << l) - d)) / d + 1);
        shift1_ = l < 1 ? l : 1;
        shift2_ = l > 0 ? l - 1 : 0;
    }
    //! n / d.
    std::uint64_t quotient(std::uint64_t n) const {
        std::uint64_t t = std::uint64_t((u128(magic_) * n) >> 64);
        return (t + ((n - t) >> shift1_)) >> shift2_;
    }

private:
    __extension__ typedef unsigned __int128 u128;
    std::uint64_t magic_;
    int shift1_, shift2_;
};

} // namespace flashxxl
