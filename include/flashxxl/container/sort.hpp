// flashxxl::sort(vector&, cmp, M): sorts an external vector in place with the Br/Bw merge sorter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! What one sort did.
struct sort_report {
    std::uint64_t items = 0;
    //! Times the data was read from the devices: 1 (reading the input) + the sorter's merge
    //! passes. Reads and writes are each about items x sizeof(T) x passes bytes.
    std::uint64_t passes = 0;
    std::uint64_t runs = 0;        //!< sorted runs formed
    std::uint64_t peak_memory = 0; //!< most bytes of buffers held at once (<= the budget)
};

//! Memory sort() needs beyond the sorter for a vector with block sizes `b`: an input reader
//! (2 Br) and an output writer (2 Bw).
template <class T> std::uint64_t sort_stream_memory(const block_sizes& b) {
    return vector<T>::stream_reader::memory_usage(b, 1) + vector<T>::stream_writer::memory_usage(b);
}

namespace detail {

//! sort()'s work; sort() names itself in an out_of_space from it.
template <class T, class Cmp>
sort_report sort_vector(vector<T>& v, Cmp cmp, const memory_budget& budget, role scratch,
                        std::size_t threads) {
    using sorter_type = sorter<T, Cmp>;
    const block_sizes b = v.blocks();
    const std::uint64_t streams = sort_stream_memory<T>(b);
    budget.require(streams + sorter_type::min_memory(b), "flashxxl::sort",
                   "its input reader, output writer and a sorter for " + b.describe());
    const std::uint64_t memory = budget.bytes();
    memory_account account(budget.account());
    sort_report report;
    report.items = v.size();
    sorter_type s(v.get_machine(), memory - streams, b, std::move(cmp), scratch, &account);
    s.set_threads(threads);
    s.expect(v.size()); // double-buffered run formation when it costs no extra pass
    {
        typename vector<T>::stream_reader in(v, 0, v.size(), 1, &account);
        while (!in.empty()) {
            std::uint64_t k = in.run();
            s.push(&*in, k);
            in.skip(k);
        }
    }
    s.sort();
    try {
        rethrow_out_of_space_in("flashxxl::sort", [&] {
            v.clear();
            typename vector<T>::stream_writer out(v, &account);
            drain_into(s, out); // the sorter has the merger interface (empty, pop_into)
            out.finish();
        });
    } catch (...) {
        v.latch_failure(); // the rest of the input went with the sorter
        throw;
    }
    report.passes = v.size() == 0 ? 0 : 1 + s.passes();
    report.runs = s.runs_formed();
    report.peak_memory = account.peak();
    return report;
}

} // namespace detail

//! Sorts `v` by `cmp` using at most `memory` bytes of buffers (besides the vector's own cache,
//! which is written back and emptied first; the input reader and output writer included,
//! charged to the budget's account when it has one): the input is read once to form runs (role
//! `scratch` by default), the runs are merged as by sorter, and the result is written back into
//! the vector with Bw writes. The sorter uses the vector's block sizes (v.blocks()) and
//! `threads` threads (0: default_threads(), see sorter::set_threads). Throws config_error if
//! the budget is too small.
//!
//! The vector's groups are given back once the runs hold the data (before the output is
//! written), so the sort needs about one copy of the data in extra space, not two. The price:
//! a failure while the output is written (out_of_space, a failed write) loses the rest of the
//! input with the sorter, so it latches the vector (see vector's class comment: every later
//! use but clear() throws io_failure naming that failure) instead of leaving a sorted prefix
//! that looks like the whole. A failure before that (the runs find no room, a read fails)
//! leaves the vector as it was. An out_of_space names the device, the role and the structure
//! ("flashxxl::sorter in flashxxl::sort", "flashxxl::vector in flashxxl::sort").
template <class T, class Cmp>
sort_report sort(vector<T>& v, Cmp cmp, const memory_budget& memory, role scratch = role::scratch,
                 std::size_t threads = 0) {
    return rethrow_out_of_space_in(
        "flashxxl::sort", [&] { return detail::sort_vector(v, std::move(cmp), memory, scratch, threads); });
}

//! sort(v, std::less<T>(), memory).
template <class T> sort_report sort(vector<T>& v, const memory_budget& memory) {
    return sort(v, std::less<T>(), memory);
}

} // namespace flashxxl
