// Writes a sorted stream back into a vector range: appended when the range is a suffix, else through the
// cache.
#pragma once

#include <cstdint>

#include "flashxxl/algorithm/vector_range.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"

namespace flashxxl::detail {

//! Puts r.size() items of stream `in` (operator*, operator++), each through `item_of`, into
//! positions [r.first, r.last) of r's vector, whose old items `in` must hold already (the
//! vector is overwritten). A suffix range (the whole vector included) is cut off (no I/O) and
//! appended with a stream writer (Bw writes, 2 Bw charged to `account`; a partial group
//! before it is read back); any other range goes through the vector's cache (set(), then
//! flush(): the pages are read, each group written once, see require_in_place_cache). A
//! failure part way loses the rest of the items with `in`: it latches the vector (vector's
//! class comment) and goes on, naming `algorithm` in an out_of_space.
template <class T, class Stream, class ItemOf>
void write_back(vector_range<T> r, Stream& in, ItemOf item_of, memory_account& account,
                const char* algorithm) {
    vector<T>& v = *r.v;
    try {
        rethrow_out_of_space_in(algorithm, [&] {
            if (r.is_suffix()) {
                v.resize(r.first, item_of(*in)); // shrinking: no item is made, no I/O
                typename vector<T>::stream_writer w(v, &account);
                for (std::uint64_t i = r.first; i < r.last; ++i, ++in)
                    w.push(item_of(*in));
                w.finish();
            } else {
                for (std::uint64_t i = r.first; i < r.last; ++i, ++in)
                    v.set(i, item_of(*in));
                v.flush();
            }
        });
    } catch (...) {
        v.latch_failure();
        throw;
    }
}

} // namespace flashxxl::detail
