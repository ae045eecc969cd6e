// An order-independent checksum of a set of records: the sum of a 64-bit hash of each.
#pragma once

#include <cstdint>
#include <cstring>

#include "flashxxl/distributed/sort_record.hpp"

namespace flashxxl::distributed {

//! Sum (mod 2^64) of a 64-bit FNV-1a hash of every record, so input and output of a sort have the
//! same checksum and the ranks' checksums add up. valsort sums CRC32s the same way; the hash
//! differs, so the figures are not comparable with valsort's.
class record_checksum {
public:
    void add(const sort_record& r) { sum_ += hash(r); }
    void add(const record_checksum& o) { sum_ += o.sum_; }
    std::uint64_t value() const { return sum_; }

    static std::uint64_t hash(const sort_record& r) {
        std::uint64_t h = 0xcbf29ce484222325ULL;
        for (unsigned char c : r.bytes)
            h = (h ^ c) * 0x100000001b3ULL;
        return h;
    }

private:
    std::uint64_t sum_ = 0;
};

} // namespace flashxxl::distributed
