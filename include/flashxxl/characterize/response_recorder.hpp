// Records one run's response times in memory bounded independently of its request count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "flashxxl/characterize/latency_accumulator.hpp"
#include "flashxxl/characterize/latency_summary.hpp"
#include "flashxxl/characterize/latency_trace.hpp"
#include "flashxxl/characterize/phase_detection.hpp"

namespace flashxxl::characterize {

//! What a response_recorder keeps; the defaults are what `flashxxl characterize` uses.
struct recorder_limits {
    //! Requests kept exactly: a run of at most this many gets every statistic exactly as from
    //! the full series (8 bytes each: 1 MiB). At least phases.max_sample.
    std::size_t exact_requests = 131072;
    //! Phase detection; its max_sample is also the tail kept for the period search.
    phase_options phases;
    //! Segments after the exact prefix (each: a latency_accumulator, 27 KiB); even, at least 2.
    std::size_t max_segments = 64;
    //! Requests per segment until the segments first merge.
    std::size_t first_segment = 4096;
    //! Relative error of percentiles once a run is longer than exact_requests.
    double relative_error = log_histogram::default_relative_error;
    std::size_t trace_buckets = 2048; //!< plot data: min / max buckets of the series (latency_trace)
    std::size_t cdf_points = 1024;    //!< plot data: CDF points when the trace is downsampled

    //! Throws std::invalid_argument when the limits do not fit together.
    void check() const {
        if (phases.max_sample < 1 || exact_requests < phases.max_sample || max_segments < 2 ||
            max_segments % 2 || first_segment < 1 || trace_buckets < 2 || cdf_points < 1)
            throw std::invalid_argument(
                "recorder_limits: need exact_requests >= phases.max_sample, an even "
                "max_segments >= 2, first_segment, trace_buckets >= 2 and cdf_points >= 1");
    }

    //! Upper bound of the heap bytes a recorder with these limits holds at any time, including
    //! what finish() allocates: independent of the request count.
    std::uint64_t working_bytes(bool plot_data) const {
        const std::uint64_t d = sizeof(double), acc = latency_accumulator::heap_bytes(relative_error);
        std::uint64_t b = 0;
        b += exact_requests * d * 3 / 2; // the prefix, while it grows (old and new array)
        b += (exact_requests + 1) * d;   // finish(): prefix sums / sorted copy / summary copy
        b += phases.max_sample * d;      // the tail
        b += (max_segments + 3) * (sizeof(latency_accumulator) + acc); // segments, counted, two in finish()
        b += max_segments * (2 * d + sizeof(std::uint64_t)) + 64 * d;  // the digest's segment arrays
        if (plot_data) b += trace_buckets * sizeof(trace_bucket) * 2 + (cdf_points + 2) * sizeof(cdf_point);
        return b + 4096; // small vectors and allocator rounding
    }
    //! Upper bound of the heap bytes of the plot data one finished run keeps (0 without plot data).
    std::uint64_t plot_bytes(bool plot_data) const {
        return plot_data ? trace_buckets * sizeof(trace_bucket) + (cdf_points + 2) * sizeof(cdf_point) : 0;
    }
};

//! What a finished run reports.
struct recorded_run {
    std::uint64_t ios = 0;      //!< requests recorded
    std::uint64_t ignored = 0;  //!< leading requests left out of `latency` and `seconds`
    double seconds = 0;         //!< summed response time of the counted requests
    latency_summary latency;    //!< of the counted requests
    phase_info phases;          //!< of the whole series
    latency_trace trace;        //!< plot data: the series, downsampled (empty without plot data)
    std::vector<cdf_point> cdf; //!< plot data: CDF of all requests when the trace is downsampled
};

//! Takes one run's response times as they come and keeps at most: the first exact_requests
//! exactly; after those, the last phases.max_sample (for the period search) and max_segments
//! segments of consecutive requests, each with its count, sum and a latency_accumulator (pairs
//! merge when more are needed, doubling the width); for ignore=N (not auto) one more
//! accumulator, of the requests from max(N, exact_requests) on; and with plot data a
//! latency_trace. So memory is bounded by recorder_limits::working_bytes() (4.82 MiB by
//! default), whatever the run's length.
//!
//! finish(): a run of at most exact_requests requests gets exactly what the full series gave
//! (detect_phases, summarize, the same sums). A longer one: phases from its series_digest
//! (detect_phases(const series_digest&)); ignore=N exact; ignore=auto exact when the start-up
//! phase ends in the prefix, else (a start-up phase longer than exact_requests) at the segment
//! boundary the phase detection reports; count / min / max exact, mean / stddev / seconds up to
//! rounding, percentiles within relative_error (latency_summary::exact false).
class response_recorder {
public:
    //! `ignore`: leading requests left out of the statistics (uFLIP IOIgnore), or the detected
    //! start-up phase when `ignore_auto`. `plot_data`: keep a trace and CDF points.
    response_recorder(const recorder_limits& limits, std::uint64_t ignore, bool ignore_auto, bool plot_data)
        : l_(limits), ignore_(ignore_auto ? 0 : ignore), auto_(ignore_auto) {
        l_.check();
        if (plot_data) trace_.emplace(l_.trace_buckets);
    }

    //! Records the next response time (seconds).
    void add(double t) {
        if (trace_) trace_->add(t);
        if (n_ < l_.exact_requests) {
            if (prefix_.size() == prefix_.capacity()) // grow by doubling, never past exact_requests
                prefix_.reserve(
                    std::min(l_.exact_requests, std::max<std::size_t>(64, 2 * prefix_.capacity())));
            prefix_.push_back(t);
            ++n_;
            return;
        }
        if (n_ == l_.exact_requests) start_streaming();
        tail_[tail_pos_] = t;
        if (++tail_pos_ == tail_.size()) tail_pos_ = 0;
        if (segments_.empty() || segments_.back().count() == width_) {
            if (segments_.size() == l_.max_segments) merge_segments();
            segments_.emplace_back(l_.relative_error);
        }
        segments_.back().add(t);
        if (counted_ && n_ >= ignore_) counted_->add(t);
        ++n_;
    }

    //! Requests recorded so far.
    std::uint64_t count() const { return n_; }
    //! Heap bytes held now (at most limits.working_bytes()).
    std::uint64_t memory_usage() const {
        std::uint64_t b = prefix_.capacity() * sizeof(double) + tail_.capacity() * sizeof(double) +
                          segments_.capacity() * sizeof(latency_accumulator);
        for (const auto& s : segments_)
            b += s.memory_usage();
        if (counted_) b += counted_->memory_usage();
        if (trace_) b += trace_->memory_usage();
        return b;
    }

    //! Phases, ignored requests, statistics and plot data of the run. Call once, at its end.
    recorded_run finish() {
        recorded_run r;
        r.ios = n_;
        if (n_ <= l_.exact_requests)
            finish_exact(r);
        else
            finish_streaming(r);
        if (trace_) {
            trace_->shrink();
            r.trace = std::move(*trace_);
        }
        return r;
    }

private:
    void start_streaming() {
        tail_.assign(prefix_.end() - static_cast<std::ptrdiff_t>(l_.phases.max_sample), prefix_.end());
        tail_pos_ = 0;
        width_ = l_.first_segment;
        segments_.reserve(l_.max_segments);
        if (!auto_) counted_.emplace(l_.relative_error);
    }
    void merge_segments() {
        std::size_t half = segments_.size() / 2;
        for (std::size_t i = 0; i < half; ++i) {
            if (i) segments_[i] = std::move(segments_[2 * i]);
            segments_[i].merge(segments_[2 * i + 1]);
        }
        segments_.erase(segments_.begin() + static_cast<std::ptrdiff_t>(half), segments_.end());
        width_ *= 2;
    }

    void finish_exact(recorded_run& r) {
        r.phases = detect_phases(prefix_, l_.phases);
        r.ignored = std::min<std::uint64_t>(auto_ ? r.phases.startup : ignore_, n_);
        r.latency = summarize(prefix_, static_cast<std::size_t>(r.ignored));
        for (std::size_t i = static_cast<std::size_t>(r.ignored); i < prefix_.size(); ++i)
            r.seconds += prefix_[i];
        if (trace_ && trace_->width() > 1) { // a downsampled trace: CDF points from the sorted series
            std::vector<double> v(prefix_);
            std::sort(v.begin(), v.end());
            std::uint64_t step = (n_ + l_.cdf_points - 1) / l_.cdf_points;
            r.cdf.reserve(static_cast<std::size_t>((n_ + step - 1) / step + 1));
            for (std::uint64_t i = 0; i < n_; i += step)
                r.cdf.push_back({static_cast<float>(v[i]), static_cast<float>(double(i + 1) / double(n_))});
            r.cdf.push_back({static_cast<float>(v.back()), 1.0f});
        }
        std::vector<double>().swap(prefix_);
    }

    void finish_streaming(recorded_run& r) {
        const std::uint64_t E = l_.exact_requests;
        {
            series_digest d;
            d.n = n_;
            d.prefix = std::move(prefix_);
            d.segment_width = width_;
            for (const auto& s : segments_) {
                d.segment_sums.push_back(s.sum());
                d.segment_counts.push_back(s.count());
            }
            std::rotate(tail_.begin(), tail_.begin() + static_cast<std::ptrdiff_t>(tail_pos_), tail_.end());
            d.tail = std::move(tail_);
            r.phases = detect_phases(d, l_.phases);
            prefix_ = std::move(d.prefix);
        }
        std::vector<double>().swap(tail_);
        latency_accumulator acc(l_.relative_error);
        if (auto_) {
            r.ignored = r.phases.startup;
            if (r.ignored <= E) {
                for (std::size_t i = static_cast<std::size_t>(r.ignored); i < E; ++i)
                    acc.add(prefix_[i]);
                for (const auto& s : segments_)
                    acc.merge(s);
            } else { // a segment boundary (detect_phases on a digest)
                for (std::size_t k = static_cast<std::size_t>((r.ignored - E) / width_); k < segments_.size();
                     ++k)
                    acc.merge(segments_[k]);
            }
        } else {
            r.ignored = std::min(ignore_, n_);
            for (std::size_t i = static_cast<std::size_t>(std::min(r.ignored, E)); i < E; ++i)
                acc.add(prefix_[i]);
            acc.merge(*counted_);
        }
        r.latency = acc.summary();
        r.seconds = acc.sum();
        if (trace_) { // CDF points of the whole run from the histograms
            latency_accumulator all(l_.relative_error);
            for (double t : prefix_)
                all.add(t);
            for (const auto& s : segments_)
                all.merge(s);
            std::uint64_t step = (n_ + l_.cdf_points - 1) / l_.cdf_points;
            r.cdf.reserve(static_cast<std::size_t>((n_ + step - 1) / step + 1));
            for (std::uint64_t i = 0; i < n_; i += step)
                r.cdf.push_back({static_cast<float>(all.value_at_rank(i + 1)),
                                 static_cast<float>(double(i + 1) / double(n_))});
            r.cdf.push_back({static_cast<float>(all.max()), 1.0f});
        }
        std::vector<double>().swap(prefix_);
        std::vector<latency_accumulator>().swap(segments_);
        counted_.reset();
    }

    recorder_limits l_;
    std::uint64_t ignore_;
    bool auto_;
    std::uint64_t n_ = 0;
    std::vector<double> prefix_;
    std::vector<double> tail_;
    std::size_t tail_pos_ = 0;
    std::uint64_t width_ = 1;
    std::vector<latency_accumulator> segments_;
    std::optional<latency_accumulator> counted_; // ignore=N: the requests from max(N, prefix end) on
    std::optional<latency_trace> trace_;
};

} // namespace flashxxl::characterize
