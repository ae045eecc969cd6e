// uFLIP's two-phase model of a run: a cheap start-up phase, then a running phase with a period.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace flashxxl::characterize {

//! Start-up length and oscillation period of a response-time series (seeds/003 Section 4.2:
//! "start-up defines the number of IOs for the start-up phase, and period the number of IOs in
//! one oscillation in the running phase").
struct phase_info {
    std::size_t startup = 0; //!< requests before the running phase (0: no start-up phase)
    std::size_t period = 0;  //!< requests per oscillation in the running phase (0: none found)
    double running_mean_s = 0; //!< mean response time of the running phase
};

//! Options of detect_phases().
struct phase_options {
    double autocorrelation = 0.5; //!< a lag is a period when the autocorrelation reaches this
    double tolerance = 0.25;      //!< start-up windows are cheaper than (1 - tolerance) x running mean
    std::size_t min_window = 8;   //!< smallest sliding window, in requests
    std::size_t max_sample = 65536; //!< the period search uses at most this many requests
    std::size_t max_lag = 1024;   //!< longest period looked for
};

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
    for (std::size_t i = h; i < n; ++i) mean += t[i];
    mean /= static_cast<double>(n - h);
    r.running_mean_s = mean;
    // The period search looks at the last max_sample requests only, at lags up to max_lag, so a
    // run of a million requests costs O(max_sample x max_lag), not O(n^2).
    std::size_t a = std::max(h, n - std::min(n - h, o.max_sample));
    double amean = 0;
    for (std::size_t i = a; i < n; ++i) amean += t[i];
    amean /= static_cast<double>(n - a);
    double var = 0;
    for (std::size_t i = a; i < n; ++i) var += (t[i] - amean) * (t[i] - amean);
    if (var <= 1e-12 * amean * amean * static_cast<double>(n - a)) {
        r.period = 1;
    } else {
        std::size_t max_lag = std::min((n - a) / 4, o.max_lag);
        auto ac = [&](std::size_t lag) {
            double c = 0;
            for (std::size_t i = a; i + lag < n; ++i) c += (t[i] - amean) * (t[i + lag] - amean);
            return c / var;
        };
        double prev = -1.0, cur = max_lag >= 1 ? ac(1) : 0.0;
        for (std::size_t lag = 1; lag <= max_lag; ++lag) {
            double next = ac(lag + 1);
            if (cur >= o.autocorrelation && cur >= prev && cur >= next) {
                r.period = lag;
                break;
            }
            prev = cur;
            cur = next;
        }
    }
    std::size_t w = std::max(o.min_window, 4 * std::max<std::size_t>(r.period, 1));
    if (w > h) w = h;
    double floor_mean = (1 - o.tolerance) * mean;
    // prefix sums for window means
    std::vector<double> pre(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i) pre[i + 1] = pre[i] + t[i];
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

} // namespace flashxxl::characterize
