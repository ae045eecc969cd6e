// Appends an array through a writer's span API (free_begin / free_run / commit): one copy per contiguous run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace flashxxl {

//! Copies n items to the end of `w` (a block_writer, a vector's stream_writer): as many at once
//! as the writer has contiguous free slots, then commits them.
template <class Writer, class T> void append_by_spans(Writer& w, const T* items, std::uint64_t n) {
    while (n > 0) {
        std::uint64_t k = std::min<std::uint64_t>(n, w.free_run());
        std::memcpy(static_cast<void*>(w.free_begin()), items, k * sizeof(T));
        items += k;
        n -= k;
        w.commit(k);
    }
}

} // namespace flashxxl
