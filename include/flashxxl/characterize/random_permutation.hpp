// A seeded random permutation of [0, n) in O(1) memory: random offsets that never repeat.
#pragma once

#include <cstdint>

namespace flashxxl::characterize {

//! The i-th element of a pseudo-random permutation of [0, n), computed on demand: a four-round
//! Feistel network over the smallest even-bit power-of-two domain >= n, with cycle walking to
//! stay below n. seeds/000 Appendix A: "random accesses generate and use a permutation of the
//! possible starting addresses (so addresses are not repeated unless the entire address space
//! is written)". Needs no table, so an 8 GiB span at 4 KiB granularity (2 M addresses) or a
//! 120 GB span at 512 B costs nothing.
class random_permutation {
public:
    //! A permutation of [0, n) chosen by `seed`; n = 0 gives an empty permutation.
    random_permutation(std::uint64_t n, std::uint64_t seed) : n_(n), seed_(seed) {
        unsigned bits = 2;
        while (bits < 64 && (std::uint64_t(1) << bits) < n)
            ++bits;
        if (bits % 2) ++bits;
        half_bits_ = bits / 2;
        half_mask_ = half_bits_ >= 32 ? 0xffffffffull : ((std::uint64_t(1) << half_bits_) - 1);
    }

    std::uint64_t size() const { return n_; }

    //! Element i (i < size()); every value of [0, n) appears exactly once over i = 0 .. n-1.
    std::uint64_t operator[](std::uint64_t i) const {
        std::uint64_t x = i;
        do {
            x = encrypt(x);
        } while (x >= n_);
        return x;
    }

private:
    static std::uint64_t mix(std::uint64_t z) {
        // splitmix64 finaliser
        z += 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::uint64_t encrypt(std::uint64_t x) const {
        std::uint64_t left = (x >> half_bits_) & half_mask_, right = x & half_mask_;
        for (std::uint64_t round = 0; round < 4; ++round) {
            std::uint64_t f = mix(right ^ mix(seed_ + round * 0x632be59bd9b4e019ull)) & half_mask_;
            std::uint64_t next_right = left ^ f;
            left = right;
            right = next_right;
        }
        return (left << half_bits_) | right;
    }

    std::uint64_t n_;
    std::uint64_t seed_;
    unsigned half_bits_ = 1;
    std::uint64_t half_mask_ = 1;
};

} // namespace flashxxl::characterize
