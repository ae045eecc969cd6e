// The host's CPU time per item of the containers' and algorithms' inner loops, charged on the virtual clock.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! CPU seconds a host spends per unit of work. The containers charge them on their machine's
//! modelled_clock (modelled_clock::compute) at block or batch granularity, on the caller's
//! thread, between submitting requests and waiting for them: a stream's CPU on one block
//! overlaps the prefetched read of the next or the write-behind of the last, as on a real host,
//! and the figures stay independent of thread timing.
//!
//! - write_item_s: an item placed in a stream's write buffer (vector::stream_writer, every
//!   block_writer), charged once per Bw write.
//! - read_item_s: an item consumed from a stream's read block (block_reader: vector::stream_reader
//!   and the other Br readers), charged once per Br block retired. A merge's run reads are
//!   part of its sort pass instead.
//! - sort_item_s: an item through one pass of the merge sorter (run formation, each
//!   intermediate merge, the final merge or the in-memory sort), charged per run and per Bw or
//!   output batch.
//! - sort_compare_s: an item through one pass of the merge sorter per log2 of the items sorted
//!   together (a run formed in memory: its items; a merge: its fan-in), on top of sort_item_s:
//!   a comparison sort's n log n. The 2008 host has none (its sort cost was fitted flat per pass);
//!   `measured` has only this one, timed on a sort of 64 Ki items.
//! - bfs_level_s: a BFS level's fixed cost (its sorts, scans and bookkeeping beyond the items),
//!   charged once per level by mm_bfs and mr_bfs.
//!
//! `none` (the default) charges nothing: modelled elapsed time is I/O time, as before hosts
//! were modelled. `2008` is seeds/000's host, fitted on Table 2.1's HDD rows (CPU-bound) and
//! seeds/001 Table 2's 2^20-node Br BFS phase (host_model_2008() says how). `measured` times
//! small loops on the running machine: its figures vary from run to run and machine to machine.
struct host_model {
    std::string name = "none";
    double write_item_s = 0;
    double read_item_s = 0;
    double sort_item_s = 0;
    double sort_compare_s = 0;
    double bfs_level_s = 0;

    //! True when some cost is not zero (host=none charges nothing).
    bool charges() const {
        return write_item_s > 0 || read_item_s > 0 || sort_item_s > 0 || sort_compare_s > 0 ||
               bfs_level_s > 0;
    }
    //! True when a sort pass on T threads takes 1/T of its CPU time in wall time (`measured`: the
    //! sorter's threads run on this machine's cores). The 2008 host's costs are per pass as its
    //! paper timed them, whatever the thread count, so that its figures do not depend on the
    //! machine that computes them.
    bool sort_parallel = false;

    //! Wall seconds of one item through a sort pass that orders `together` items (a run's
    //! items, a merge's fan-in) on `threads` threads: sort_item_s + sort_compare_s
    //! log2(together), over `threads` when sort_parallel.
    double sort_pass_item_s(std::uint64_t together, std::size_t threads = 1) const {
        const double cpu =
            sort_item_s + sort_compare_s * std::log2(double(std::max<std::uint64_t>(together, 2)));
        return sort_parallel ? cpu / double(std::max<std::size_t>(threads, 1)) : cpu;
    }
};

//! Nothing charged: modelled time is I/O time.
inline host_model host_model_none() { return {}; }

//! seeds/000's 2008 host (Table 2.1 ran on it; seeds/001 used a host of the same generation).
//! Fitted cells, all of the HDD column of Table 2.1 (its rows are CPU-bound: 8 bytes at the
//! Barracuda's 88 MB/s take 0.09 us, less than any of them) plus one cell of seeds/001 Table 2:
//!
//! - write 0.2 us: "generating a random double and writing it" (the generation included: the
//!   paper times them together).
//! - read 0.3 us: "scanning (per double)".
//! - sort 0.18 us per item and pass: "external memory merge sort (per double)" 1.06 us is one
//!   input scan, two writes (runs, output) and two sort passes (run formation, one merge):
//!   (1.06 - 0.3 - 2 x 0.2) / 2.
//! - BFS level 0.342 s: seeds/001 Table 2, the Br BFS phase on 2^20 nodes less its reads'
//!   device time, over its 2047 levels (reproduce/table2_host_model.hpp). A level's cost at
//!   the paper's scale; a run scaled down by s in data should divide it by s (its levels are
//!   fewer by sqrt(s) on grids), which the experiments that scale say they do.
//!
//! The SSD column of Table 2.1 and seeds/000 Table 4.1's CPU share are predicted from these,
//! not fitted (`flashxxl reproduce`, docs/device-models.md "Host time").
inline host_model host_model_2008() {
    host_model h;
    h.name = "2008";
    h.write_item_s = 0.2e-6;
    h.read_item_s = 0.3e-6;
    h.sort_item_s = (1.06e-6 - 0.3e-6 - 2 * 0.2e-6) / 2;
    h.bfs_level_s = 0.342;
    return h;
}

namespace detail {

//! Seconds per item of `loop(items)`, the fastest of a few repeats.
template <class Loop> double seconds_per_item(std::uint64_t items, Loop&& loop) {
    double best = 1e9;
    for (int repeat = 0; repeat < 3; ++repeat) {
        const auto t0 = std::chrono::steady_clock::now();
        loop(items);
        const std::chrono::duration<double> d = std::chrono::steady_clock::now() - t0;
        best = std::min(best, d.count() / double(items));
    }
    return best;
}

} // namespace detail

//! The running machine, timed on small loops of 8-byte items (a few milliseconds): a write
//! (copy into a buffer), a read (sum a buffer), a sort (std::sort of 64 Ki items, per item and
//! per log2 of 64 Ki: sort_compare_s, so that a run of n items costs log2 n of it and a k-way
//! merge log2 k; a sort pass on T threads is charged 1/T of it). No BFS level cost: a level's
//! fixed cost has no small loop to time. Not deterministic: never in tests that assert numbers.
inline host_model host_model_measured() {
    constexpr std::uint64_t n = 64 * 1024;
    std::vector<std::uint64_t> in(n), out(n);
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (auto& x : in)
        x = (state = state * 6364136223846793005ull + 1442695040888963407ull) >> 11;
    volatile std::uint64_t sink = 0;
    host_model h;
    h.name = "measured";
    h.sort_parallel = true;
    h.write_item_s = detail::seconds_per_item(n, [&](std::uint64_t k) {
        for (std::uint64_t i = 0; i < k; ++i)
            out[i] = in[i] ^ i;
        sink = sink + out[k - 1];
    });
    h.read_item_s = detail::seconds_per_item(n, [&](std::uint64_t k) {
        std::uint64_t sum = 0;
        for (std::uint64_t i = 0; i < k; ++i)
            sum += out[i];
        sink = sink + sum;
    });
    h.sort_compare_s =
        detail::seconds_per_item(n,
                                 [&](std::uint64_t k) {
                                     std::copy(in.begin(), in.begin() + std::ptrdiff_t(k), out.begin());
                                     std::sort(out.begin(), out.begin() + std::ptrdiff_t(k));
                                     sink = sink + out[0];
                                 }) /
        std::log2(double(n));
    return h;
}

//! The names a config's host= accepts.
inline std::string host_model_names() { return "none, 2008, measured"; }

//! True when `name` is a host model make_host_model knows.
inline bool is_host_model_name(const std::string& name) {
    return name == "none" || name == "2008" || name == "measured";
}

//! The host named `name`; config_error naming `origin` and the accepted names otherwise.
inline host_model make_host_model(const std::string& name, const std::string& origin) {
    if (name == "none") return host_model_none();
    if (name == "2008") return host_model_2008();
    if (name == "measured") return host_model_measured();
    throw config_error(origin + ": host: unknown host '" + name +
                       "' (expected one of: " + host_model_names() + ")");
}

} // namespace flashxxl
