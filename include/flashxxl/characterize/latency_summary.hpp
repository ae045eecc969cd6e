// Summary statistics of per-request response times: min / max / mean / stddev / percentiles.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace flashxxl::characterize {

//! What uFLIP reports per run (min, max, mean, standard deviation; seeds/003 Section 3.2) plus
//! the percentiles a tail-latency reader wants. Seconds. summarize() computes it exactly from a
//! stored series; a run longer than its recorder keeps exactly (response_recorder.hpp) gets it
//! from a latency_accumulator: percentiles within 0.5 % (relative), the rest exact up to rounding.
struct latency_summary {
    std::size_t count = 0;
    double min_s = 0, max_s = 0, mean_s = 0, stddev_s = 0, p50_s = 0, p99_s = 0, p999_s = 0;
    bool exact = true; //!< percentiles exact; false: from a log_histogram, within its relative error
};

//! Nearest-rank percentile (q in [0, 1]) of an ascending sorted series.
inline double percentile_sorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    double rank = std::ceil(q * static_cast<double>(sorted.size()));
    std::size_t i = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
    return sorted[std::min(i, sorted.size() - 1)];
}

//! Statistics of times[first, end).
inline latency_summary summarize(const std::vector<double>& times, std::size_t first = 0) {
    latency_summary s;
    if (first >= times.size()) return s;
    std::vector<double> v(times.begin() + static_cast<std::ptrdiff_t>(first), times.end());
    std::sort(v.begin(), v.end());
    s.count = v.size();
    s.min_s = v.front();
    s.max_s = v.back();
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean_s = sum / static_cast<double>(v.size());
    double sq = 0;
    for (double x : v)
        sq += (x - s.mean_s) * (x - s.mean_s);
    s.stddev_s = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0;
    s.p50_s = percentile_sorted(v, 0.5);
    s.p99_s = percentile_sorted(v, 0.99);
    s.p999_s = percentile_sorted(v, 0.999);
    return s;
}

//! Median of a series (average of the two middle values for an even count).
inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace flashxxl::characterize
