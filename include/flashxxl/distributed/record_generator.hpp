// The records' generator: record i of a seeded global sequence, so any rank count makes the same input.
#pragma once

#include <cstdint>
#include <cstring>

#include "flashxxl/distributed/sort_record.hpp"
#include "flashxxl/graph/splitmix64.hpp"

namespace flashxxl::distributed {

//! Generates the records of a global input of n records: record i depends only on the seed and
//! i (a splitmix64 hash of both), so rank r of P, generating its share [first_of(r), first_of(r+1)),
//! makes its part of the same input whatever P is, and the sorted output is byte-identical for
//! every rank count. Key: 10 random bytes. Payload: the global index (8 bytes, little-endian),
//! then 82 bytes of filler derived from it, like gensort's record layout (key, row id, filler).
class record_generator {
public:
    explicit record_generator(std::uint64_t seed) : seed_(seed) {}

    //! Record `index` of the global sequence.
    sort_record operator()(std::uint64_t index) const {
        sort_record r;
        std::uint64_t a = mix(seed_ ^ mix(index)), b = mix(a + index);
        std::memcpy(r.bytes, &a, 8);
        std::memcpy(r.bytes + 8, &b, 2);
        for (int i = 0; i < 8; ++i)
            r.bytes[10 + i] = static_cast<unsigned char>(index >> (8 * i));
        for (std::size_t i = 18; i < sort_record::size; ++i)
            r.bytes[i] = static_cast<unsigned char>('A' + (index + i) % 26);
        return r;
    }

    //! The first global index of rank `rank` of `ranks` in an input of `n` records (the shares
    //! differ by at most one record).
    static std::uint64_t first_of(std::uint64_t n, int rank, int ranks) {
        const std::uint64_t r = std::uint64_t(rank), p = std::uint64_t(ranks);
        return n / p * r + n % p * r / p; // floor(n r / p) without overflow
    }

private:
    //! splitmix64's finalizer (Steele, Lea, Flood 2014).
    static std::uint64_t mix(std::uint64_t z) { return splitmix64::mix(z); }
    std::uint64_t seed_;
};

} // namespace flashxxl::distributed
