// The sort benchmark's record: 100 bytes, a 10-byte key compared as unsigned bytes, and its order.
#pragma once

#include <cstdint>
#include <cstring>

namespace flashxxl::distributed {

//! One record of the sort benchmark (sortbenchmark.org, gensort's format): 100 raw bytes, the
//! first 10 the key. Trivially copyable, so the containers and MPI move it as bytes.
struct sort_record {
    static constexpr std::size_t size = 100;
    static constexpr std::size_t key_size = 10;
    unsigned char bytes[size];
};
static_assert(sizeof(sort_record) == sort_record::size, "a record is exactly 100 bytes");

//! The records' order: keys compared as unsigned bytes (memcmp, as valsort), ties broken by the
//! other 90 bytes, so that the order is total and any correct sort writes the same bytes.
struct record_less {
    bool operator()(const sort_record& a, const sort_record& b) const {
        int by_key = std::memcmp(a.bytes, b.bytes, sort_record::key_size);
        if (by_key != 0) return by_key < 0;
        return std::memcmp(a.bytes + sort_record::key_size, b.bytes + sort_record::key_size,
                           sort_record::size - sort_record::key_size) < 0;
    }
};

} // namespace flashxxl::distributed
