// Closed-form I/O predictors of the containers (scan, fill, sorter, sort, priority queue, stack, queue) in
// the unit-cost flash model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/cost/prediction.hpp"

namespace flashxxl {

//! The predictors below follow the analyses of seeds/001, Sections 3.1-3.2, and the textbook
//! external-memory bounds (Aggarwal and Vitter's sort(N) = N/B log_{M/B}(N/B)), with the
//! constants of flashxxl's implementation written out: how many items a run holds, how many runs
//! a merge takes, what stays in memory. They never look at a run. Volumes are bytes moved
//! between memory and the devices, whole Br blocks read and whole Br blocks written (in Bw
//! requests), so that volume / Br and volume / Bw are the model's x and y.
namespace predict {

//! Items of `item` bytes in one Br block (block_layout: no item spans two blocks).
inline std::uint64_t items_per_block(std::uint64_t item, const block_sizes& b) { return b.br / item; }
//! Bytes that `n` items occupy in whole Br blocks.
inline double block_bytes(std::uint64_t n, std::uint64_t item, const block_sizes& b) {
    const std::uint64_t per = items_per_block(item, b);
    return double((n + per - 1) / per) * double(b.br);
}

//! Reading n items of a vector once in order: ceil(n / (Br / item)) Br reads.
inline io_prediction scan(std::uint64_t n, std::uint64_t item, const block_sizes& b) {
    io_prediction r;
    r.basis = "scan: ceil(N / per Br) Br reads";
    return r.add(io_op::read, block_bytes(n, item, b), 0);
}
//! Writing n items into a vector in order (stream_writer): Bw writes of whole Br blocks.
inline io_prediction fill(std::uint64_t n, std::uint64_t item, const block_sizes& b) {
    io_prediction r;
    r.basis = "fill: N / Bw Bw writes";
    return r.add(io_op::write, block_bytes(n, item, b), 0);
}

//! How flashxxl::sorter sorts n items with budget M (sorter.hpp's constructor and expect()):
//! runs of about (M - M/64 - 16 KiB - 2 Bw) / item items, halved when run formation is
//! double-buffered at no extra pass; intermediate merges take fan_in runs (the Br buffers left
//! beside two Bw write buffers, less an eighth for prefetching), the final merge final_fan_in
//! (no writer, the output stage taken off).
struct sorter_plan {
    std::uint64_t run_items = 0;    //!< items per run
    std::uint64_t runs = 0;         //!< runs formed (0: everything stayed in memory)
    std::uint64_t fan_in = 0;       //!< runs per intermediate merge, about (M - 2 Bw) / Br * 7/8
    std::uint64_t final_fan_in = 0; //!< runs the final merge takes, about M / Br * 7/8
    std::uint64_t merge_levels = 0; //!< intermediate passes: ceil(log_fan_in(runs / final_fan_in))
};

inline std::uint64_t sorter_usable(std::uint64_t memory) {
    const std::uint64_t reserve = 16 * 1024 + memory / 64;
    return memory > reserve ? memory - reserve : 0;
}
inline std::uint64_t merge_fan_in(std::uint64_t buffers) {
    return buffers - std::max<std::uint64_t>(1, buffers / 8);
}

//! The plan of a sorter with budget `memory` given n items; `expect` as flashxxl::sort calls
//! sorter::expect(n) (double-buffered run formation when it costs no pass).
inline sorter_plan plan_sorter(std::uint64_t n, std::uint64_t item, std::uint64_t memory,
                               const block_sizes& b, bool expect = false) {
    sorter_plan p;
    const std::uint64_t usable = sorter_usable(memory);
    const std::uint64_t capacity = (usable - 2 * b.bw) / item;
    const std::uint64_t stage_blocks = std::max<std::uint64_t>(2, usable / 64 / b.br);
    p.fan_in = merge_fan_in((usable - 2 * b.bw) / b.br);
    p.final_fan_in = merge_fan_in(usable / b.br - stage_blocks);
    p.run_items = capacity;
    const std::uint64_t half = capacity / 2;
    if (expect && half >= 4096 && n > capacity && (n + half - 1) / half <= p.final_fan_in) p.run_items = half;
    if (n <= p.run_items) return p; // sorted in memory, no I/O
    p.runs = (n + p.run_items - 1) / p.run_items;
    for (std::uint64_t r = p.runs; r > p.final_fan_in; r = (r + p.fan_in - 1) / p.fan_in)
        ++p.merge_levels;
    return p;
}

//! Pushing n items into a sorter, sorting and reading them all back: run formation writes every
//! item once, each of the merge_levels intermediate passes reads and writes it once, the final
//! merge reads it once (seeds/001 Lemma 3: Theta(N log_{M/Br}(N/M)) items, merging M/Br-way,
//! runs written in Bw). Each run and merged run is whole Br blocks.
inline io_prediction sorter(std::uint64_t n, std::uint64_t item, std::uint64_t memory, const block_sizes& b,
                            bool expect = false) {
    const sorter_plan p = plan_sorter(n, item, memory, b, expect);
    io_prediction r;
    r.basis = "sorter: " + std::to_string(p.runs) + " runs, " + std::to_string(p.merge_levels) +
              " intermediate merge passes";
    if (p.runs == 0) return r;
    // Run formation: full runs and the last one, each in whole Br blocks.
    std::vector<std::uint64_t> runs(n / p.run_items, p.run_items);
    if (n % p.run_items) runs.push_back(n % p.run_items);
    auto bytes_of = [&](const std::vector<std::uint64_t>& rs) {
        double sum = 0;
        for (std::uint64_t x : rs)
            sum += block_bytes(x, item, b);
        return sum;
    };
    r.add(io_op::write, bytes_of(runs), 0); // run formation writes each run in order
    // Each intermediate pass merges groups of at most fan_in runs, as evenly as they divide:
    // it reads them jumping between the group's runs and writes the merged run in order
    // beside them.
    for (std::uint64_t level = 0; level < p.merge_levels; ++level) {
        const std::uint64_t groups = (runs.size() + p.fan_in - 1) / p.fan_in;
        const double level_bytes = bytes_of(runs), group_span = level_bytes / double(groups);
        r.add_spread(io_op::read, level_bytes, group_span);
        std::vector<std::uint64_t> merged;
        std::size_t next = 0;
        for (std::uint64_t g = 0; g < groups; ++g) {
            const std::size_t take = (runs.size() - next) / (groups - g);
            std::uint64_t items = 0;
            for (std::size_t i = 0; i < take; ++i)
                items += runs[next + i];
            next += take;
            merged.push_back(items);
        }
        runs = std::move(merged);
        r.add(io_op::write, bytes_of(runs), group_span);
    }
    const double final_bytes = bytes_of(runs);
    r.add_spread(io_op::read, final_bytes, final_bytes); // the final merge
    return r;
}

//! Memory flashxxl::sort keeps beside its sorter: an input reader (2 Br) and an output writer (2 Bw).
inline std::uint64_t sort_streams(const block_sizes& b) { return 2 * b.br + 2 * b.bw; }

//! flashxxl::sort of a vector of n items with budget M: the input read once, the sorter (with
//! expect(n)) on M less its streams, the output written back once.
inline io_prediction sort(std::uint64_t n, std::uint64_t item, std::uint64_t memory, const block_sizes& b) {
    io_prediction r = scan(n, item, b);
    const io_prediction s = sorter(n, item, memory - sort_streams(b), b, true);
    if (s.volume() == 0 && n > 0) {
        // Everything sorted in memory: read once, written back once.
        r += fill(n, item, b);
        r.basis = "sort in memory: read once, written once";
        return r;
    }
    r += s;
    // The final merge writes the output between its reads of the runs, which lie past the vector.
    io_prediction out = fill(n, item, b);
    out.streams.front().jump = out.write_bytes;
    r += out;
    return r;
}

//! The priority queue's constants (priority_queue.hpp's constructor): an arena of about 3/4 of
//! M - 2 Bw for internal runs, reader slots of one Br (plus one prefetched) per external array,
//! merges of half the slots.
struct pq_plan {
    std::uint64_t arena_items = 0;
    std::uint64_t heap_items = 0;
    std::uint64_t max_arrays = 0;
    std::uint64_t fan_in = 0;
};
inline pq_plan plan_priority_queue(std::uint64_t item, std::uint64_t memory, const block_sizes& b) {
    pq_plan p;
    const std::uint64_t rest = sorter_usable(memory) - 2 * b.bw;
    const std::uint64_t prefetch = rest / 4 / (2 * b.br) >= 16 ? 1 : 0;
    const std::uint64_t slot = (prefetch + 1) * b.br;
    const std::uint64_t arena_bytes = std::max<std::uint64_t>(std::min(rest / 4 * 3, rest - 4 * slot), 8192);
    p.arena_items = std::max<std::uint64_t>(arena_bytes / item, 1);
    p.heap_items = std::min<std::uint64_t>(
        p.arena_items, std::max<std::uint64_t>(std::min<std::uint64_t>(p.arena_items / 64, 65536), 64));
    p.max_arrays = (rest - p.arena_items * item) / slot;
    p.fan_in = std::max<std::uint64_t>(2, p.max_arrays / 2);
    return p;
}

//! n pushes, then n pops, of a merge-only priority queue (seeds/001 Section 3.2: it only merges,
//! O(log_{M/Br}(N/M)) transfers per item). Items stay in the arena until it is full; each
//! spill writes the arena's items as one external array; when the reader slots run out the
//! fan_in smallest arrays are merged (read and written once more); the pops read every array
//! back once. The arrays' sizes follow from the constants alone (a size-tiered merge).
inline io_prediction priority_queue_push_pop(std::uint64_t n, std::uint64_t item, std::uint64_t memory,
                                             const block_sizes& b) {
    const pq_plan p = plan_priority_queue(item, memory, b);
    io_prediction r;
    std::vector<std::uint64_t> arrays; // items of each external array
    std::uint64_t used = 0, merges = 0;
    const std::uint64_t seals = n == 0 ? 0 : (n - 1) / p.heap_items; // a full heap is sealed at the next push
    for (std::uint64_t s = 0; s < seals; ++s) {
        used += p.heap_items;
        if (used + p.heap_items <= p.arena_items) continue;
        if (arrays.size() + 1 > p.max_arrays) { // merge the fan_in smallest
            std::sort(arrays.begin(), arrays.end());
            const std::size_t take = std::min<std::size_t>(arrays.size(), p.fan_in);
            std::uint64_t merged = 0;
            double merged_bytes = 0;
            for (std::size_t i = 0; i < take; ++i) {
                merged_bytes += block_bytes(arrays[i], item, b);
                merged += arrays[i];
            }
            arrays.erase(arrays.begin(), arrays.begin() + std::ptrdiff_t(take));
            arrays.push_back(merged);
            // Read jumping between the merged arrays, written in order beside them.
            r.add_spread(io_op::read, merged_bytes, merged_bytes);
            r.add(io_op::write, block_bytes(merged, item, b), merged_bytes);
            ++merges;
        }
        arrays.push_back(used);
        r.add(io_op::write, block_bytes(used, item, b), 0);
        used = 0;
    }
    double popped = 0; // the pops merge every array
    for (std::uint64_t a : arrays)
        popped += block_bytes(a, item, b);
    r.add_spread(io_op::read, popped, popped);
    r.basis = "pq: " + std::to_string(arrays.size()) + " arrays, " + std::to_string(merges) + " merges";
    return r;
}

//! n pushes in all of a monotone use (time-forward processing, Dijkstra: every key pushed is at
//! least the last one popped), pops in between, the rest drained at the end. An upper bound, not
//! an estimate: every spill writes a full arena as in n pushes then n pops, so there are no
//! more of them and never more arrays at once; a merge reads only what the pops left of its
//! arrays. How far below it a run stays depends on how soon the pushed keys come out again.
inline io_prediction priority_queue_monotone_bound(std::uint64_t n, std::uint64_t item, std::uint64_t memory,
                                                   const block_sizes& b) {
    io_prediction r = priority_queue_push_pop(n, item, memory, b);
    r.bound = true;
    r.basis = "monotone pq, bounded by n pushes then n pops (" + r.basis + ")";
    return r;
}

//! n pushes, then n pops, of flashxxl::stack: two halves of Bw in memory; every push that finds
//! both full writes one half (one Bw write), every spilled half is read back once (Bw / Br reads).
inline io_prediction stack_push_pop(std::uint64_t n, std::uint64_t item, const block_sizes& b) {
    const std::uint64_t half = b.reads_per_write() * items_per_block(item, b);
    const std::uint64_t spills = n > 2 * half ? (n - 1) / half - 1 : 0;
    const double bytes = double(spills) * double(b.bw);
    io_prediction r;
    r.basis = "stack: " + std::to_string(spills) + " halves spilled and read back";
    // Halves are written in order and read back last first: a half's first Br read jumps back
    // from the half read before it, the others follow in order.
    const double first = bytes / double(b.reads_per_write());
    return r.add(io_op::write, bytes, 0)
        .add(io_op::read, bytes - first, 0)
        .add(io_op::read, first, double(b.bw));
}

//! n pushes, then n pops, of flashxxl::queue: a full Bw buffer is written at the next push (one
//! Bw write) and read back once in Br blocks; the last buffer stays in memory.
inline io_prediction queue_push_pop(std::uint64_t n, std::uint64_t item, const block_sizes& b) {
    const std::uint64_t buffer = b.reads_per_write() * items_per_block(item, b);
    const std::uint64_t writes = n == 0 ? 0 : (n - 1) / buffer;
    const double bytes = double(writes) * double(b.bw);
    io_prediction r;
    r.basis = "queue: " + std::to_string(writes) + " buffers written and read back";
    return r.add(io_op::write, bytes, 0).add(io_op::read, bytes, 0); // both in order
}

} // namespace predict
} // namespace flashxxl
