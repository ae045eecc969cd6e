// A fixed-size log-scale histogram of response times: quantiles within a stated relative error.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace flashxxl::characterize {

//! Counts of values in geometric buckets (DDSketch's scheme, Masson et al., VLDB 2019): with
//! gamma = (1 + e) / (1 - e), bucket i >= 1 holds the values in (lo gamma^(i-1), lo gamma^i] and
//! stands for 2 lo gamma^i / (gamma + 1), which is within e (relative) of every value in it; so
//! the value a rank falls in is within e of the exact value of that rank. Bucket 0 holds the
//! values <= lo (zero included) and stands for lo (within lo absolute); the last bucket holds the
//! values > hi and stands for hi. Defaults: e = 0.5 %, lo = 1 ns, hi = 10^6 s: 3456 buckets,
//! 27.0 KiB, whatever the number of values.
class log_histogram {
public:
    //! Relative error `e` in (0, 0.5], range (lo, hi] with 0 < lo < hi.
    explicit log_histogram(double relative_error = default_relative_error, double lo = default_lo,
                           double hi = default_hi)
        : e_(relative_error), lo_(lo), hi_(hi) {
        if (!(e_ > 0 && e_ <= 0.5) || !(lo_ > 0) || !(hi_ > lo_))
            throw std::invalid_argument("log_histogram: expected 0 < relative_error <= 0.5 and 0 < lo < hi");
        gamma_ = (1 + e_) / (1 - e_);
        log_gamma_ = std::log(gamma_);
        inner_ = inner_buckets(e_, lo_, hi_);
        counts_.assign(inner_ + 2, 0);
    }

    static constexpr double default_relative_error = 0.005; //!< 0.5 %
    static constexpr double default_lo = 1e-9;              //!< 1 ns
    static constexpr double default_hi = 1e6;               //!< 11.6 days

    //! Buckets between lo and hi (the histogram has two more: at or below lo, above hi).
    static std::size_t inner_buckets(double e, double lo, double hi) {
        double g = (1 + e) / (1 - e);
        return static_cast<std::size_t>(std::ceil(std::log(hi / lo) / std::log(g)));
    }
    //! Bytes one histogram holds on the heap with these parameters.
    static std::size_t heap_bytes(double e = default_relative_error, double lo = default_lo,
                                  double hi = default_hi) {
        return (inner_buckets(e, lo, hi) + 2) * sizeof(std::uint64_t);
    }

    //! Counts `x` (n times).
    void add(double x, std::uint64_t n = 1) {
        counts_[bucket(x)] += n;
        total_ += n;
    }
    //! Adds the counts of `o`, which must have the same parameters.
    void merge(const log_histogram& o) {
        if (o.counts_.size() != counts_.size() || o.e_ != e_ || o.lo_ != lo_)
            throw std::invalid_argument("log_histogram::merge: different parameters");
        for (std::size_t i = 0; i < counts_.size(); ++i)
            counts_[i] += o.counts_[i];
        total_ += o.total_;
    }
    //! Values counted.
    std::uint64_t count() const { return total_; }
    //! The relative error bound e.
    double relative_error() const { return e_; }

    //! The value standing for the `rank`-th smallest value counted (1-based, clamped to
    //! [1, count()]): within e (relative) of the exact one when that lies in (lo, hi]. 0 when empty.
    double value_at_rank(std::uint64_t rank) const {
        if (total_ == 0) return 0;
        rank = std::clamp<std::uint64_t>(rank, 1, total_);
        std::uint64_t seen = 0;
        for (std::size_t i = 0; i < counts_.size(); ++i) {
            seen += counts_[i];
            if (seen >= rank) return representative(i);
        }
        return representative(counts_.size() - 1);
    }

    //! Heap bytes held.
    std::size_t memory_usage() const { return counts_.capacity() * sizeof(std::uint64_t); }

private:
    std::size_t bucket(double x) const {
        if (!(x > lo_)) return 0; // also NaN
        if (x > hi_) return inner_ + 1;
        double i = std::ceil(std::log(x / lo_) / log_gamma_);
        return static_cast<std::size_t>(std::clamp(i, 1.0, static_cast<double>(inner_)));
    }
    double representative(std::size_t i) const {
        if (i == 0) return lo_;
        if (i > inner_) return hi_;
        return 2 * lo_ * std::pow(gamma_, static_cast<double>(i)) / (gamma_ + 1);
    }

    double e_, lo_, hi_, gamma_ = 0, log_gamma_ = 0;
    std::size_t inner_ = 0;
    std::vector<std::uint64_t> counts_;
    std::uint64_t total_ = 0;
};

} // namespace flashxxl::characterize
