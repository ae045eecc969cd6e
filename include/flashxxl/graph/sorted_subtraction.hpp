// The subtraction step of external BFS: a stream sorted by node, without repeats, minus two streams sorted by
// node.
#pragma once

#include <cstdint>

#include "flashxxl/graph/bfs_records.hpp"

namespace flashxxl {

//! Walks `sorted` (records with a node field `v`, sorted by v; its `empty()`, `*`, `++`) and
//! calls emit(record) for the first record of each node that neither `minus1` nor `minus2`
//! (streams sorted by v, advanced as needed) holds. Returns how many were emitted. One pass
//! over each input: shared/BFS.md's L(t) = N(L(t-1)) - L(t-1) - L(t-2), and the clustering's
//! frontier step.
template <class Sorted, class Minus1, class Minus2, class Emit>
std::uint64_t subtract_sorted(Sorted& sorted, Minus1& minus1, Minus2& minus2, Emit&& emit) {
    std::uint64_t count = 0;
    bool have_last = false;
    bfs_node last = 0;
    for (; !sorted.empty(); ++sorted) {
        const auto rec = *sorted;
        if (have_last && rec.v == last) continue;
        have_last = true;
        last = rec.v;
        while (!minus1.empty() && minus1->v < rec.v)
            ++minus1;
        if (!minus1.empty() && minus1->v == rec.v) continue;
        while (!minus2.empty() && minus2->v < rec.v)
            ++minus2;
        if (!minus2.empty() && minus2->v == rec.v) continue;
        emit(rec);
        ++count;
    }
    return count;
}

} // namespace flashxxl
