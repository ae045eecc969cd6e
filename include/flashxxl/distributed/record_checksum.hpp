// An order-independent checksum of a set of items (records, integers): the sum of a 64-bit hash of each.
#pragma once

#include <cstdint>
#include <cstring>

#include "flashxxl/distributed/sort_record.hpp"

namespace flashxxl::distributed {

//! Sum (mod 2^64) of a 64-bit FNV-1a hash of every item's bytes (T trivially copyable, without
//! padding), so input and output of a sort have the same checksum and the ranks' checksums add
//! up. valsort sums CRC32s the same way; the hash differs, so the figures are not comparable
//! with valsort's.
template <class T> class item_checksum {
public:
    void add(const T& item) { sum_ += hash(item); }
    void add(const item_checksum& o) { sum_ += o.sum_; }
    std::uint64_t value() const { return sum_; }

    static std::uint64_t hash(const T& item) {
        unsigned char bytes[sizeof(T)];
        std::memcpy(bytes, &item, sizeof(T));
        std::uint64_t h = 0xcbf29ce484222325ULL;
        for (unsigned char c : bytes)
            h = (h ^ c) * 0x100000001b3ULL;
        return h;
    }

private:
    std::uint64_t sum_ = 0;
};

//! The checksum of sort benchmark records.
using record_checksum = item_checksum<sort_record>;

} // namespace flashxxl::distributed
