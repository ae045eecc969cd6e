// uFLIP's two-phase model of a run: a cheap start-up phase, then a running phase with a period.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace flashxxl::characterize {

//! Start-up length and oscillation period of a response-time series (seeds/003 Section 4.2:
//! "start-up defines the number of IOs for the start-up phase, and period the number of IOs in
//! one oscillation in the running phase").
struct phase_info {
    std::size_t startup = 0;   //!< requests before the running phase (0: no start-up phase)
    std::size_t period = 0;    //!< requests per oscillation in the running phase (0: none found)
    double running_mean_s = 0; //!< mean response time of the running phase
};

//! Options of detect_phases().
struct phase_options {
    double autocorrelation = 0.5;   //!< a lag is a period when the autocorrelation reaches this
    double tolerance = 0.25;        //!< start-up windows are cheaper than (1 - tolerance) x running mean
    std::size_t min_window = 8;     //!< smallest sliding window, in requests
    std::size_t max_sample = 65536; //!< the period search uses at most this many requests
    std::size_t max_lag = 1024;     //!< longest period looked for
};

namespace detail {
//! The period search of detect_phases() on the values t[0, len) (the end of the running phase):
//! the smallest lag up to min(len / 4, max_lag) whose autocorrelation is a local maximum
//! reaching o.autocorrelation, 1 for a constant series, 0 when none.
inline std::size_t find_period(const double* t, std::size_t len, const phase_options& o) {
    double amean = 0;
    for (std::size_t i = 0; i < len; ++i)
        amean += t[i];
    amean /= static_cast<double>(len);
    double var = 0;
    for (std::size_t i = 0; i < len; ++i)
        var += (t[i] - amean) * (t[i] - amean);
    if (var <= 1e-12 * amean * amean * static_cast<double>(len)) return 1;
    std::size_t max_lag = std::min(len / 4, o.max_lag);
    auto ac = [&](std::size_t lag) {
        double c = 0;
        for (std::size_t i = 0; i + lag < len; ++i)
            c += (t[i] - amean) * (t[i + lag] - amean);
        return c / var;
    };
    double prev = -1.0, cur = max_lag >= 1 ? ac(1) : 0.0;
    for (std::size_t lag = 1; lag <= max_lag; ++lag) {
        double next = ac(lag + 1);
        if (cur >= o.autocorrelation && cur >= prev && cur >= next) return lag;
        prev = cur;
        cur = next;
    }
    return 0;
}
} // namespace detail

//! Detects the phases. The second half of the series is taken as running phase; its period is
//! the smallest lag (up to a quarter of that half, at most max_lag, measured on at most the last
//! max_sample requests) whose autocorrelation is a local maximum
//! reaching `autocorrelation`, or 1 for a constant series. The start-up phase ends at the first
//! request from which every window of max(min_window, 4 x period) requests that starts in the
//! first half has a mean of at least (1 - tolerance) x the running mean (at most half the series).
inline phase_info detect_phases(const std::vector<double>& t, const phase_options& o = {}) {
    phase_info r;
    std::size_t n = t.size();
    if (n < 4) return r;
    std::size_t h = n / 2;
    double mean = 0;
    for (std::size_t i = h; i < n; ++i)
        mean += t[i];
    mean /= static_cast<double>(n - h);
    r.running_mean_s = mean;
    // The period search looks at the last max_sample requests only, at lags up to max_lag, so a
    // run of a million requests costs O(max_sample x max_lag), not O(n^2).
    std::size_t a = std::max(h, n - std::min(n - h, o.max_sample));
    r.period = detail::find_period(t.data() + a, n - a, o);
    std::size_t w = std::max(o.min_window, 4 * std::max<std::size_t>(r.period, 1));
    if (w > h) w = h;
    double floor_mean = (1 - o.tolerance) * mean;
    // prefix sums for window means
    std::vector<double> pre(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        pre[i + 1] = pre[i] + t[i];
    // Only windows starting in the first half count: the second half is the running phase by
    // definition, and a brief dip there must not erase the start-up phase found before it.
    std::size_t last_bad = 0;
    bool any_bad = false;
    for (std::size_t s = 0; s < h && s + w <= n; ++s) {
        double m = (pre[s + w] - pre[s]) / static_cast<double>(w);
        if (m < floor_mean) {
            last_bad = s;
            any_bad = true;
        }
    }
    if (any_bad) r.startup = last_bad + w;
    if (r.startup > h) r.startup = h;
    return r;
}

//! A response-time series of n requests kept in bounded memory (response_recorder.hpp): its
//! first prefix.size() values exactly, then the sums of consecutive segments of segment_width
//! requests (the last segment may hold fewer: segment_counts), and its last tail.size() values
//! in issue order.
struct series_digest {
    std::uint64_t n = 0;                       //!< requests in the series
    std::vector<double> prefix;                //!< the first values, exactly
    std::uint64_t segment_width = 1;           //!< requests per segment after the prefix
    std::vector<double> segment_sums;          //!< response-time sum of each segment
    std::vector<std::uint64_t> segment_counts; //!< requests of each segment (segment_width but the last)
    std::vector<double> tail;                  //!< the last values, in issue order
};

//! detect_phases() on a digest, for a series longer than its exact prefix: the same rules, with
//! the same answer where the series is kept exactly, and at segment resolution where it is not.
//! Period: exactly as on the full series (the tail holds the last min(n - n/2, max_sample)
//! requests it looks at). Running mean: the second half's, with the segment that holds request
//! n/2 counted pro rata. Start-up: windows of max(min_window, 4 x period) requests inside the
//! prefix exactly, then windows of whole segments (as many as cover that length); so a start-up
//! phase that ends in the prefix is found to the request, a longer one to the segment, and it is
//! then always a segment boundary (or n/2 when that lies in the prefix). Windows that start in
//! the last window length of the prefix are not looked at. Throws std::invalid_argument when the
//! digest is inconsistent.
inline phase_info detect_phases(const series_digest& d, const phase_options& o = {}) {
    const std::uint64_t E = d.prefix.size(), n = d.n;
    if (n == E) return detect_phases(d.prefix, o);
    std::uint64_t in_segments = 0;
    for (auto c : d.segment_counts)
        in_segments += c;
    const std::size_t segs = d.segment_sums.size();
    if (n < E || in_segments != n - E || d.segment_counts.size() != segs || d.segment_width == 0 || n < 4)
        throw std::invalid_argument("detect_phases: the digest's prefix and segments do not add up to n");
    phase_info r;
    const std::uint64_t h = n / 2, sw = d.segment_width;
    const std::uint64_t a = std::max(h, n - std::min<std::uint64_t>(n - h, o.max_sample));
    if (d.tail.size() < n - a) throw std::invalid_argument("detect_phases: the digest's tail is too short");
    std::vector<double> pre(E + 1, 0.0);
    for (std::size_t i = 0; i < E; ++i)
        pre[i + 1] = pre[i] + d.prefix[i];
    std::vector<double> seg_pre(segs + 1, pre[E]);
    for (std::size_t k = 0; k < segs; ++k)
        seg_pre[k + 1] = seg_pre[k] + d.segment_sums[k];
    auto sum_to = [&](std::uint64_t x) { // sum of the first x values, pro rata inside a segment
        if (x <= E) return pre[x];
        std::uint64_t k = (x - E) / sw, rest = (x - E) % sw;
        if (k >= segs) return seg_pre[segs];
        return seg_pre[k] + (rest ? d.segment_sums[k] * double(rest) / double(d.segment_counts[k]) : 0.0);
    };
    const double mean = (seg_pre[segs] - sum_to(h)) / static_cast<double>(n - h);
    r.running_mean_s = mean;
    r.period = detail::find_period(d.tail.data() + (d.tail.size() - (n - a)), n - a, o);
    std::uint64_t w = std::max<std::uint64_t>(o.min_window, 4 * std::max<std::uint64_t>(r.period, 1));
    if (w > h) w = h;
    const double floor_mean = (1 - o.tolerance) * mean;
    std::uint64_t startup = 0;
    for (std::uint64_t s = 0; s < h && s + w <= E; ++s)
        if ((pre[s + w] - pre[s]) / static_cast<double>(w) < floor_mean) startup = s + w;
    const std::uint64_t per_window = (w + sw - 1) / sw; // segments per window
    for (std::uint64_t k = 0; k + per_window <= segs; ++k) {
        std::uint64_t start = E + k * sw, end = E + (k + per_window) * sw;
        if (start >= h || end > n) break;
        if ((seg_pre[k + per_window] - seg_pre[k]) / static_cast<double>(end - start) < floor_mean)
            startup = end;
    }
    if (startup > h) startup = h <= E ? h : E + (h - E) / sw * sw;
    r.startup = static_cast<std::size_t>(startup);
    return r;
}

} // namespace flashxxl::characterize
