// flashxxl::sort(vector&, cmp, M): sorts an external vector in place with the Br/Bw merge sorter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! What one sort did.
struct sort_report {
    std::uint64_t items = 0;
    //! Times the data was read from the devices: 1 (reading the input) + the sorter's merge
    //! passes. Reads and writes are each about items x sizeof(T) x passes bytes.
    std::uint64_t passes = 0;
    std::uint64_t runs = 0;         //!< sorted runs formed
    std::uint64_t peak_memory = 0;  //!< most bytes of buffers held at once (<= the budget)
};

//! Memory sort() needs beyond the sorter for a vector with block sizes `b`: an input reader
//! (2 Br) and an output writer (2 Bw).
template <class T, class Blocks = device_blocks>
std::uint64_t sort_stream_memory(const block_sizes& b) {
    return vector<T, Blocks>::stream_reader::memory_usage(b, 1) + vector<T, Blocks>::stream_writer::memory_usage(b);
}
//! sort_stream_memory(b) for the sizes `Blocks` names (seeds/001's 128 KiB / 16 MiB for
//! device_blocks); a vector's own sizes are v.blocks().
template <class T, class Blocks>
std::uint64_t sort_stream_memory() {
    return sort_stream_memory<T, Blocks>(detail::static_block_sizes<Blocks>());
}

//! Sorts `v` by `cmp` using at most `memory` bytes of buffers (besides the vector's own cache,
//! which is written back and emptied first): the input is read once to form runs (role
//! `scratch` by default), the runs are merged as by sorter, and the result is written back into
//! the vector with Bw writes. The sorter uses the vector's block sizes (v.blocks()) and
//! `threads` threads (0: default_threads(), see sorter::set_threads). Throws config_error if
//! the budget is too small.
//!
//! The vector's groups are given back once the runs hold the data (before the output is
//! written), so the sort needs about one copy of the data in extra space, not two. The price:
//! a failure while the output is written (out_of_space, a failed write) leaves the vector with
//! the sorted prefix written so far (vector::stream_writer), and the rest of the input is gone
//! with the sorter (v.size() tells how many items are left). A failure before that leaves the
//! vector as it was.
template <class T, class Blocks, class Cmp>
sort_report sort(vector<T, Blocks>& v, Cmp cmp, std::uint64_t memory, role scratch = role::scratch,
                 std::size_t threads = 0) {
    using sorter_type = sorter<T, Cmp>;  // one sorter type per element and comparator, whatever Blocks
    const block_sizes b = v.blocks();
    const std::uint64_t streams = sort_stream_memory<T, Blocks>(b);
    const std::uint64_t minimum = streams + sorter_type::min_memory(b);
    if (memory < minimum)
        throw config_error("flashxxl::sort: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
                           format_bytes(double(minimum)) + " for " + b.describe());
    memory_account account;
    sort_report report;
    report.items = v.size();
    sorter_type s(v.get_machine(), memory - streams, b, std::move(cmp), scratch, &account);
    s.set_threads(threads);
    s.expect(v.size());  // double-buffered run formation when it costs no extra pass
    {
        typename vector<T, Blocks>::stream_reader in(v, 0, v.size(), 1, &account);
        while (!in.empty()) {
            std::uint64_t k = in.run();
            s.push(&*in, k);
            in.skip(k);
        }
    }
    s.sort();
    v.clear();
    {
        typename vector<T, Blocks>::stream_writer out(v, &account);
        drain_into(s, out);  // the sorter has the merger interface (empty, pop_into)
        out.finish();
    }
    report.passes = v.size() == 0 ? 0 : 1 + s.passes();
    report.runs = s.runs_formed();
    report.peak_memory = account.peak();
    return report;
}

//! sort(v, std::less<T>(), memory).
template <class T, class Blocks>
sort_report sort(vector<T, Blocks>& v, std::uint64_t memory) {
    return sort(v, std::less<T>(), memory);
}

} // namespace flashxxl
