// Streaming summary of response times in fixed memory: exact count / min / max / mean / stddev, percentiles
// from a histogram.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "flashxxl/characterize/latency_summary.hpp"
#include "flashxxl/characterize/log_histogram.hpp"

namespace flashxxl::characterize {

//! What summarize() computes from a stored series, computed as the values stream past in
//! O(1) memory (one log_histogram): count, min and max exactly; the sum with Neumaier's
//! compensation and the variance with Welford's update (Chan's formula to merge), so mean and
//! standard deviation equal the two-pass values up to rounding; p50 / p99 / p99.9 by nearest
//! rank from the histogram, within its relative error (0.5 %) of the exact ones and clamped to
//! [min, max] (ranks 1 and count() are the exact min and max).
class latency_accumulator {
public:
    explicit latency_accumulator(double relative_error = log_histogram::default_relative_error)
        : hist_(relative_error) {}

    //! Adds one response time (seconds).
    void add(double x) {
        ++n_;
        sum_add(x);
        double d = x - mean_;
        mean_ += d / static_cast<double>(n_);
        m2_ += d * (x - mean_);
        min_ = std::min(min_, x);
        max_ = std::max(max_, x);
        hist_.add(x);
    }
    //! Adds everything `o` saw (as if its values had been added here).
    void merge(const latency_accumulator& o) {
        if (o.n_ == 0) return;
        if (n_ == 0) {
            *this = o;
            return;
        }
        double na = static_cast<double>(n_), nb = static_cast<double>(o.n_), nt = na + nb;
        double d = o.mean_ - mean_;
        m2_ += o.m2_ + d * d * na * nb / nt;
        mean_ += d * nb / nt;
        n_ += o.n_;
        sum_add(o.sum_);
        sum_add(o.comp_);
        min_ = std::min(min_, o.min_);
        max_ = std::max(max_, o.max_);
        hist_.merge(o.hist_);
    }

    std::uint64_t count() const { return n_; }
    //! The compensated sum of the values.
    double sum() const { return sum_ + comp_; }
    double min() const { return n_ ? min_ : 0; }
    double max() const { return n_ ? max_ : 0; }
    //! The histogram of the values.
    const log_histogram& histogram() const { return hist_; }

    //! The `rank`-th smallest value (1-based): the exact min and max at ranks 1 and count(), in
    //! between from the histogram, clamped to [min, max].
    double value_at_rank(std::uint64_t rank) const {
        if (n_ == 0) return 0;
        if (rank <= 1) return min_;
        if (rank >= n_) return max_;
        return std::clamp(hist_.value_at_rank(rank), min_, max_);
    }
    //! Nearest-rank percentile (q in [0, 1]), the rank percentile_sorted() takes.
    double percentile(double q) const {
        double rank = std::ceil(q * static_cast<double>(n_));
        return value_at_rank(rank < 1 ? 1 : static_cast<std::uint64_t>(rank));
    }

    //! The summary, with `exact` false (percentiles from the histogram).
    latency_summary summary() const {
        latency_summary s;
        s.exact = false;
        if (n_ == 0) return s;
        s.count = n_;
        s.min_s = min_;
        s.max_s = max_;
        s.mean_s = sum() / static_cast<double>(n_);
        s.stddev_s = n_ > 1 ? std::sqrt(std::max(0.0, m2_) / static_cast<double>(n_ - 1)) : 0;
        s.p50_s = percentile(0.5);
        s.p99_s = percentile(0.99);
        s.p999_s = percentile(0.999);
        return s;
    }

    //! Heap bytes held (the histogram's counts).
    std::size_t memory_usage() const { return hist_.memory_usage(); }
    //! Heap bytes of one accumulator with this relative error.
    static std::size_t heap_bytes(double relative_error = log_histogram::default_relative_error) {
        return log_histogram::heap_bytes(relative_error);
    }

private:
    void sum_add(double x) { // Neumaier's compensated summation
        double t = sum_ + x;
        comp_ += std::abs(sum_) >= std::abs(x) ? (sum_ - t) + x : (x - t) + sum_;
        sum_ = t;
    }

    std::uint64_t n_ = 0;
    double sum_ = 0, comp_ = 0, mean_ = 0, m2_ = 0;
    double min_ = std::numeric_limits<double>::infinity(), max_ = -std::numeric_limits<double>::infinity();
    log_histogram hist_;
};

} // namespace flashxxl::characterize
