// A seeded 64-bit generator (splitmix64) and uniform integers whose output is the same everywhere.
#pragma once

#include <cstdint>

namespace flashxxl {

//! Steele, Lea and Flood's splitmix64 (as in Vigna's reference code): one 64-bit state, passes
//! BigCrush, and every platform produces the same sequence for a seed. Used by the graph
//! generators instead of std:: distributions, whose output is implementation-defined.
class splitmix64 {
public:
    using result_type = std::uint64_t;

    //! A generator whose sequence depends only on `seed`.
    explicit splitmix64(std::uint64_t seed = 0) : state_(seed) {}

    //! The next 64 random bits.
    std::uint64_t operator()() {
        const std::uint64_t z = state_;
        state_ += 0x9e3779b97f4a7c15ULL;
        return mix(z);
    }

    //! The output for state `z` (the state advanced once, then finalized): a stateless hash of
    //! 64 bits, for generators whose item i depends only on a seed and i.
    static constexpr std::uint64_t mix(std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    //! A uniform integer in [0, n), n >= 1, without modulo bias (rejection on the top
    //! 2^64 mod n values). Same result on every platform.
    std::uint64_t below(std::uint64_t n) {
        if (n <= 1) return 0;
        // Reject the lowest (2^64 mod n) values so that the rest split into equal classes.
        const std::uint64_t threshold = (0 - n) % n; // == 2^64 mod n
        for (;;) {
            std::uint64_t x = (*this)();
            if (x >= threshold) return x % n;
        }
    }

    static constexpr std::uint64_t min() { return 0; }
    static constexpr std::uint64_t max() { return ~std::uint64_t(0); }

private:
    std::uint64_t state_;
};

//! Mixes `value` into a well-spread 64-bit hash (splitmix64's finalizer); deterministic.
inline std::uint64_t mix64(std::uint64_t value) {
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
}

} // namespace flashxxl
