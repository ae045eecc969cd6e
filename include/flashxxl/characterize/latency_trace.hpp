// What a run keeps of its response times for plots: a min / max downsample in issue order and CDF points,
// both bounded.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace flashxxl::characterize {

//! The smallest and largest response time (seconds, as float: plots need no more) of
//! `latency_trace::width()` consecutive requests.
struct trace_bucket {
    float min_s = 0, max_s = 0;
};

//! A response-time series in issue order, downsampled to at most `max_buckets` buckets: bucket i
//! holds min and max of requests [i w, (i + 1) w), w = width(), a power of two. While the series
//! has at most max_buckets requests w is 1 and the trace is the series itself (as float); when a
//! request would need bucket max_buckets + 1, neighbouring buckets merge pairwise and w doubles.
//! Min and max per bucket keep every spike visible, which keeping every w-th request would not.
//! Memory: at most max_buckets x 8 bytes.
class latency_trace {
public:
    //! At most `max_buckets` buckets (rounded up to an even number, at least 2).
    explicit latency_trace(std::size_t max_buckets = 2)
        : max_(max_buckets < 2 ? 2 : max_buckets + (max_buckets & 1)) {}

    //! Appends the next response time.
    void add(double t) {
        float x = static_cast<float>(t);
        ++count_;
        if (!buckets_.empty() && fill_ < width_) {
            trace_bucket& b = buckets_.back();
            b.min_s = std::min(b.min_s, x);
            b.max_s = std::max(b.max_s, x);
            ++fill_;
            return;
        }
        if (buckets_.size() == max_) {
            std::size_t half = buckets_.size() / 2;
            for (std::size_t i = 0; i < half; ++i) {
                trace_bucket a = buckets_[2 * i], b = buckets_[2 * i + 1];
                buckets_[i] = {std::min(a.min_s, b.min_s), std::max(a.max_s, b.max_s)};
            }
            buckets_.resize(half);
            width_ *= 2;
        }
        if (buckets_.size() == buckets_.capacity()) // grow by doubling, never past max_
            buckets_.reserve(std::min(max_, std::max<std::size_t>(16, 2 * buckets_.capacity())));
        buckets_.push_back({x, x});
        fill_ = 1;
    }

    //! Requests per bucket (1 while the trace is the series itself).
    std::uint64_t width() const { return width_; }
    //! Requests added.
    std::uint64_t count() const { return count_; }
    bool empty() const { return count_ == 0; }
    const std::vector<trace_bucket>& buckets() const { return buckets_; }
    //! Drops spare capacity (a finished run keeps exactly what it holds).
    void shrink() {
        if (buckets_.capacity() != buckets_.size()) std::vector<trace_bucket>(buckets_).swap(buckets_);
    }
    //! Heap bytes held.
    std::size_t memory_usage() const { return buckets_.capacity() * sizeof(trace_bucket); }

private:
    std::size_t max_;
    std::uint64_t width_ = 1, fill_ = 0, count_ = 0;
    std::vector<trace_bucket> buckets_;
};

//! One point of an empirical CDF: the response time of a rank and the share of requests up to it.
struct cdf_point {
    float time_s = 0;
    float fraction = 0;
};

} // namespace flashxxl::characterize
