// The 8-byte integers' generator: key i of a seeded global sequence, the same input for any rank count.
#pragma once

#include <cstdint>

#include "flashxxl/graph/splitmix64.hpp"

namespace flashxxl::distributed {

//! Generates the keys of a global input of 8-byte unsigned integers: key i is a splitmix64 hash of
//! the seed and i, so a rank generating its share [record_generator::first_of(n, r, P), ...)
//! makes its part of the same input whatever P is (duplicates are possible, as in any random
//! 64-bit input, and sort to the same bytes).
class integer_generator {
public:
    explicit integer_generator(std::uint64_t seed) : seed_(seed) {}
    std::uint64_t operator()(std::uint64_t index) const { return mix(seed_ ^ mix(index)); }

private:
    //! splitmix64's finalizer (Steele, Lea, Flood 2014).
    static std::uint64_t mix(std::uint64_t z) { return splitmix64::mix(z); }
    std::uint64_t seed_;
};

} // namespace flashxxl::distributed
