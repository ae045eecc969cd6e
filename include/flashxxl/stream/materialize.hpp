// The end of a pipeline: appends every item of a stream to a flashxxl::vector (or an output iterator).
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/range_merger.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/stream/sort.hpp"
#include "flashxxl/stream/stage_memory.hpp"
#include "flashxxl/stream/stream_concept.hpp"

namespace flashxxl::stream {

//! Bytes materialize() holds for a vector with block sizes `b`: its stream writer's 2 Bw.
template <class T> std::uint64_t materialize_memory(const block_sizes& b) {
    return vector<T>::stream_writer::memory_usage(b);
}
//! materialize()'s line in a pipeline's memory split.
template <class T> stage_memory materialize_need(const block_sizes& b) {
    return {"materialize", materialize_memory<T>(b), 0};
}

namespace detail {
template <class S> struct is_sort_stage : std::false_type {};
template <class In, class Cmp> struct is_sort_stage<sort<In, Cmp>> : std::true_type {};
} // namespace detail

//! Appends every item of `in` to `out` with Bw writes (vector::stream_writer, its 2 Bw charged
//! to `memory`'s account; config_error when `memory` is below materialize_memory) and returns
//! how many. A sort stage is drained by pop_into straight into the writer's buffers. Failures
//! are the stream writer's: an out_of_space or io_failure ends the writing, the vector keeps
//! the items of the groups written before (size() says how many) and the exception names
//! "flashxxl::stream::materialize"; the stream is left where it stopped.
template <class S, class T> std::uint64_t materialize(S& in, vector<T>& out, const memory_budget& memory) {
    static_assert(is_stream_v<S>, "flashxxl::stream::materialize: the input must be a stream");
    memory.require(materialize_memory<T>(out.blocks()), "flashxxl::stream::materialize",
                   "its writer's 2 Bw, " + out.blocks().describe());
    memory_account account(memory.account());
    const std::uint64_t before = out.size();
    rethrow_out_of_space_in("flashxxl::stream::materialize", [&] {
        typename vector<T>::stream_writer w(out, &account);
        if constexpr (detail::is_sort_stage<S>::value) {
            drain_into(in, w); // the sort stage has the merger interface (empty, pop_into)
        } else {
            for (; !in.empty(); ++in)
                w.push(*in);
        }
        w.finish();
    });
    return out.size() - before;
}

//! Copies every item of `in` to the output iterator `out`; returns the iterator past the last.
template <class S, class OutIt> OutIt materialize(S& in, OutIt out) {
    static_assert(is_stream_v<S>, "flashxxl::stream::materialize: the input must be a stream");
    for (; !in.empty(); ++in, ++out)
        *out = *in;
    return out;
}

} // namespace flashxxl::stream
