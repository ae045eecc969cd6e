// The in-memory merge kernel's speed at each thread count: what the sorter's merge phase could reach on this
// machine without I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench_vs_stxxl {

//! One thread count of the in-memory merge: the median of `rounds` runs.
struct ceiling_row {
    std::size_t threads = 0;
    double seconds = 0;          //!< median wall time of the merge and the consumer's scan
    double items_per_s = 0;      //!< items / seconds
    double speedup = 0;          //!< against the first thread count
    std::vector<double> round_s; //!< every run, in order
    bool ok = true;              //!< the output was sorted and held every item
};

//! Merges `runs` sorted runs of 8-byte keys (`items` in all, interleaved at random, made
//! sorted so that no sort is timed) held in memory, in steps of `step_items` into one output
//! buffer that a single consumer then scans: the final merge of flashxxl::sorter (the same
//! parallel_run_merger, merge_sorted and merge_team, the same output stage and single
//! consumer) with the disk taken away. Each thread count runs `rounds` times, alternating
//! with the others. Memory: items * 8 bytes plus the step buffer.
std::vector<ceiling_row> measure_merge_ceiling(std::uint64_t items, std::size_t runs,
                                               std::uint64_t step_items,
                                               const std::vector<std::size_t>& thread_counts,
                                               unsigned rounds);

} // namespace bench_vs_stxxl
