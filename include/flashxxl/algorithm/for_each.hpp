// scan / for_each over a vector range: one pass of Br reads, the function sees every item in order.
#pragma once

#include <cstdint>
#include <utility>

#include "flashxxl/algorithm/vector_range.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"

namespace flashxxl {

//! Memory scan() and for_each() hold: a stream reader's 2 Br.
template <class T> std::uint64_t scan_memory(const block_sizes& b) {
    return vector<T>::stream_reader::memory_usage(b, 1);
}

//! Calls f(item) for every item of `r` in order, reading with Br reads (one block of prefetch);
//! returns f. Memory: scan_memory(b), charged to `memory`'s account (config_error below it).
//! A failed read throws io_failure and leaves the vector unchanged.
template <class T, class F> F scan(vector_range<T> r, F f, const memory_budget& memory) {
    memory.require(scan_memory<T>(r.v->blocks()), "flashxxl::scan", "a reader's 2 Br");
    memory_account account(memory.account());
    typename vector<T>::stream_reader in(*r.v, r.first, r.last, 1, &account);
    while (!in.empty()) {
        const std::uint64_t k = in.run();
        const T* items = &*in;
        for (std::uint64_t i = 0; i < k; ++i)
            f(items[i]);
        in.skip(k);
    }
    return f;
}

//! STXXL's name for scan(): f(item) for every item of `r`, in order.
template <class T, class F> F for_each(vector_range<T> r, F f, const memory_budget& memory) {
    return scan(r, std::move(f), memory);
}

} // namespace flashxxl
