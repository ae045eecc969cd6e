// measure_merge_ceiling: flashxxl's final merge over runs already in memory, timed per thread count.
#include "merge_ceiling.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <utility>

#include "flashxxl/container/parallel_run_merger.hpp"
#include "flashxxl/graph/splitmix64.hpp"

namespace bench_vs_stxxl {

namespace {
//! Sorted runs whose keys interleave at random: run r's i-th key is i * 4k + a random value
//! below 4k (k runs), so every run is increasing and the merge's comparisons are as
//! unpredictable as on random data. `chunks` points into the vector returned (a move keeps
//! its buffer, so the pointers stay valid).
std::vector<std::uint64_t>
make_runs(std::uint64_t items, std::size_t runs,
          std::vector<std::pair<const std::uint64_t*, const std::uint64_t*>>& chunks) {
    std::vector<std::uint64_t> data(items);
    const std::uint64_t spread = 4 * std::uint64_t(runs);
    flashxxl::splitmix64 random(12345);
    chunks.clear();
    for (std::size_t r = 0; r < runs; ++r) {
        std::uint64_t first = items * r / runs, last = items * (r + 1) / runs;
        for (std::uint64_t i = first; i < last; ++i)
            data[i] = (i - first) * spread + random() % spread;
        chunks.emplace_back(data.data() + first, data.data() + last);
    }
    return data;
}

//! One merge of every run on `threads` threads; returns seconds, and whether the output was
//! sorted and complete.
double merge_once(const std::vector<std::pair<const std::uint64_t*, const std::uint64_t*>>& chunks,
                  std::uint64_t items, std::uint64_t step_items, std::size_t threads, bool& ok) {
    std::vector<std::uint64_t> stage(step_items);
    auto t0 = std::chrono::steady_clock::now();
    flashxxl::parallel_run_merger<std::uint64_t, std::less<std::uint64_t>,
                                  flashxxl::chunk_source<std::uint64_t>>
        merger(flashxxl::chunk_source<std::uint64_t>{&chunks}, std::less<std::uint64_t>(), threads);
    merger.start(chunks.size());
    std::uint64_t seen = 0, previous = 0;
    bool sorted = true;
    while (!merger.empty()) {
        std::uint64_t got = merger.pop_into(stage.data(), step_items);
        // The consumer: one pass over the stage, as the sorter's caller reads *s / ++s.
        for (std::uint64_t i = 0; i < got; ++i) {
            sorted = sorted && previous <= stage[i];
            previous = stage[i];
        }
        seen += got;
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ok = sorted && seen == items;
    return s;
}
} // namespace

std::vector<ceiling_row> measure_merge_ceiling(std::uint64_t items, std::size_t runs,
                                               std::uint64_t step_items,
                                               const std::vector<std::size_t>& thread_counts,
                                               unsigned rounds) {
    std::vector<std::pair<const std::uint64_t*, const std::uint64_t*>> chunks;
    std::vector<std::uint64_t> data = make_runs(items, runs, chunks);
    std::vector<ceiling_row> rows(thread_counts.size());
    for (std::size_t t = 0; t < thread_counts.size(); ++t)
        rows[t].threads = thread_counts[t];
    for (unsigned round = 0; round < std::max(1u, rounds); ++round) {
        for (ceiling_row& row : rows) {
            bool ok = false;
            row.round_s.push_back(merge_once(chunks, items, step_items, row.threads, ok));
            row.ok = row.ok && ok;
        }
    }
    for (ceiling_row& row : rows) {
        std::vector<double> sorted = row.round_s;
        std::sort(sorted.begin(), sorted.end());
        row.seconds = sorted[sorted.size() / 2];
        row.items_per_s = row.seconds > 0 ? double(items) / row.seconds : 0;
        row.speedup = row.seconds > 0 ? rows.front().seconds / row.seconds : 0;
    }
    return rows;
}

} // namespace bench_vs_stxxl
