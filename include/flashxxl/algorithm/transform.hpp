// transform / generate over vector ranges: into another vector (Bw writes) or in place (the vector's cache).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "flashxxl/algorithm/for_each.hpp"
#include "flashxxl/algorithm/vector_range.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"

namespace flashxxl {

//! Memory transform() into another vector holds: a reader's 2 Br and a writer's 2 Bw.
template <class T> std::uint64_t transform_memory(const block_sizes& b) {
    return scan_memory<T>(b) + vector<T>::stream_writer::memory_usage(b);
}

//! Appends f(x) for every item x of `r` to `out` (a different vector): Br reads, Bw writes.
//! Memory: a reader (2 Br of r's vector) and a writer (2 Bw of out's), charged to `memory`'s
//! account. Failures are the writer's (vector::stream_writer): `out` keeps the groups written
//! before the failure, `r` is unchanged; an out_of_space names "flashxxl::transform".
template <class T, class U, class F>
void transform(vector_range<T> r, vector<U>& out, F f, const memory_budget& memory) {
    if (static_cast<void*>(r.v) == static_cast<void*>(&out))
        throw invalid_request(
            "flashxxl::transform: the output is the input's vector (use transform_in_place)");
    memory.require(scan_memory<T>(r.v->blocks()) + vector<U>::stream_writer::memory_usage(out.blocks()),
                   "flashxxl::transform", "a reader's 2 Br and a writer's 2 Bw");
    memory_account account(memory.account());
    rethrow_out_of_space_in("flashxxl::transform", [&] {
        typename vector<U>::stream_writer w(out, &account);
        scan(
            r, [&](const T& x) { w.push(f(x)); }, memory_budget(scan_memory<T>(r.v->blocks()), account));
        w.finish();
    });
}

//! Replaces every item x of `r` by f(x), through the vector's page cache: each page read once
//! (Br), each group written once (Bw), when the vector's memory covers in_place_memory(b)
//! (config_error otherwise); no memory besides the vector's. A failure (out_of_space, a failed
//! write-back or read) part way leaves items before it transformed and the rest not: the
//! vector is latched (see vector: every later use but clear() throws io_failure), since its
//! contents are then neither the old nor the new ones.
template <class T, class F> void transform_in_place(vector_range<T> r, F f) {
    require_in_place_cache(*r.v, "flashxxl::transform_in_place");
    try {
        rethrow_out_of_space_in("flashxxl::transform_in_place", [&] {
            for (std::uint64_t i = r.first; i < r.last; ++i)
                r.v->set(i, f(r.v->get(i)));
            r.v->flush();
        });
    } catch (...) {
        r.v->latch_failure();
        throw;
    }
}

//! Sets every item of `r` to make(i), i its index in the vector, in place as transform_in_place
//! (its memory, I/O and failures; pages are read before they are overwritten).
template <class T, class Make> void generate(vector_range<T> r, Make make) {
    require_in_place_cache(*r.v, "flashxxl::generate");
    try {
        rethrow_out_of_space_in("flashxxl::generate", [&] {
            for (std::uint64_t i = r.first; i < r.last; ++i)
                r.v->set(i, make(i));
            r.v->flush();
        });
    } catch (...) {
        r.v->latch_failure();
        throw;
    }
}

//! Appends make(0), ..., make(n - 1) to `v` with Bw writes (a writer's 2 Bw, charged to
//! `memory`'s account); failures as vector::stream_writer's (the groups written before stay).
template <class T, class Make>
void generate_back(vector<T>& v, std::uint64_t n, Make make, const memory_budget& memory) {
    memory.require(vector<T>::stream_writer::memory_usage(v.blocks()), "flashxxl::generate_back",
                   "a writer's 2 Bw");
    memory_account account(memory.account());
    rethrow_out_of_space_in("flashxxl::generate_back", [&] {
        typename vector<T>::stream_writer w(v, &account);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(make(i));
        w.finish();
    });
}

} // namespace flashxxl
