// A pipeline stage that sorts its input stream with the Br/Bw sorter and is read as a stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/stream/stage_memory.hpp"
#include "flashxxl/stream/stream_concept.hpp"

namespace flashxxl::stream {

//! Sorts the items of `in` by `cmp` and streams them out in order: STXXL's stream::sort
//! (runs_creator and runs_merger) on flashxxl's sorter. Constructing the stage is its input
//! phase: it drains `in` into the sorter, whose runs are formed in memory and written with Bw
//! writes (role `scratch`), then merges them down to one final merge; reading the stage
//! (operator*, operator++, pop_into) is that final merge, reading the runs in Br blocks. Nothing
//! is materialised between the stages, so a pipeline source -> sort -> consumer moves exactly
//! what hand-written code pushing the same items into a sorter with the same budget moves
//! (test/stream/test_pipeline.cpp checks the counters).
//!
//! Memory: the whole budget M (the sorter's memory_usage(M, b) == M, at least
//! sorter::min_memory(b)); its line in a pipeline's split is memory_need(b), weight 1. Failures
//! are the sorter's: an out_of_space or io_failure met in the input phase leaves the stage
//! unconstructed (the runs written so far go back); one met while reading latches the stage,
//! whose every later read throws io_failure naming it (see sorter).
template <class In, class Cmp = std::less<value_t<In>>> class sort {
public:
    static_assert(is_stream_v<In>, "flashxxl::stream::sort: the input must be a stream");
    using value_type = value_t<In>;
    using sorter_type = sorter<value_type, Cmp>;
    //! The least budget a sort stage with block sizes `b` accepts.
    static std::uint64_t min_memory(const block_sizes& b) { return sorter_type::min_memory(b); }
    //! Bytes a sort stage with budget M holds: all of M.
    static std::uint64_t memory_usage(const memory_budget& memory, const block_sizes& b) {
        return sorter_type::memory_usage(memory, b);
    }
    //! Its line in a pipeline's memory split: its minimum, and a share (weight 1) of the rest.
    static stage_memory memory_need(const block_sizes& b) { return {"sort", min_memory(b), 1}; }

    //! Sorts `in` (drained here) on machine `m` with budget `memory` and block sizes `b`;
    //! `threads` as sorter::set_threads (0: default_threads()); `expected_items`, when known,
    //! as sorter::expect. config_error when the budget is below min_memory(b).
    sort(In& in, machine& m, const memory_budget& memory, const block_sizes& b, Cmp cmp = Cmp(),
         role scratch = role::scratch, std::size_t threads = 0, std::uint64_t expected_items = 0)
        : sorter_(m, (memory.require(min_memory(b), "flashxxl::stream::sort", b.describe()), memory), b,
                  std::move(cmp), scratch) {
        sorter_.set_threads(threads);
        if (expected_items > 0) sorter_.expect(expected_items);
        rethrow_out_of_space_in("flashxxl::stream::sort", [&] { drain(in); });
    }
    sort(const sort&) = delete;
    sort& operator=(const sort&) = delete;

    const value_type& operator*() const { return *sorter_; }
    sort& operator++() {
        ++sorter_;
        return *this;
    }
    bool empty() const { return sorter_.empty(); }
    //! Items not streamed out yet.
    std::uint64_t size() const { return sorter_.size(); }
    //! Streams up to n items into `out` (raw storage); returns how many (sorter::pop_into).
    std::uint64_t pop_into(value_type* out, std::uint64_t n) { return sorter_.pop_into(out, n); }
    //! The sorter underneath (passes(), runs_formed(), account(), blocks()).
    const sorter_type& sorter_stage() const { return sorter_; }

private:
    void drain(In& in) {
        if constexpr (has_runs<In>::value) {
            while (!in.empty()) {
                const std::uint64_t k = in.run();
                sorter_.push(&*in, k);
                in.skip(k);
            }
        } else {
            for (; !in.empty(); ++in)
                sorter_.push(*in);
        }
        sorter_.sort();
    }
    sorter_type sorter_;
};

} // namespace flashxxl::stream
