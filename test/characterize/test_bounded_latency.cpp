// Bounded-memory response-time records: histogram percentiles against exact ones, phases on a digest against
// the full series.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "flashxxl/characterize/latency_accumulator.hpp"
#include "flashxxl/characterize/latency_summary.hpp"
#include "flashxxl/characterize/latency_trace.hpp"
#include "flashxxl/characterize/log_histogram.hpp"
#include "flashxxl/characterize/phase_detection.hpp"
#include "flashxxl/characterize/response_recorder.hpp"

namespace ch = flashxxl::characterize;

namespace {

double rel(double a, double b) { return std::abs(a - b) / std::abs(b); }

// the stated bound, with room for the rounding of log() at a bucket boundary
constexpr double bound = 0.005 * (1 + 1e-9);

ch::recorded_run record(const std::vector<double>& t, std::uint64_t ignore, bool automatic,
                        const ch::recorder_limits& l = {}) {
    ch::response_recorder r(l, ignore, automatic, true);
    for (double x : t)
        r.add(x);
    return r.finish();
}

// uFLIP-like: `cheap` requests of 0.4 ms, then 0.4 ms / 27 ms alternating, with a little noise
std::vector<double> startup_then_period_two(std::size_t n, std::size_t cheap, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> noise(0.98, 1.02);
    std::vector<double> t(n);
    for (std::size_t i = 0; i < n; ++i)
        t[i] = (i < cheap || i % 2 == 0 ? 0.4e-3 : 27e-3) * noise(rng);
    return t;
}

} // namespace

TEST(characterize_histogram, percentiles_within_half_a_percent_of_the_exact_ones) {
    // heavy-tailed response times from about 1 us to 10 s, and a run of identical values
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> dist(std::log(1e-4), 2.0);
    std::vector<double> v(200000);
    for (auto& x : v)
        x = dist(rng);
    std::fill(v.begin(), v.begin() + 5000, 2.5e-3);
    ch::latency_accumulator acc;
    for (double x : v)
        acc.add(x);
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    double worst = 0;
    for (std::uint64_t rank = 1; rank <= v.size(); rank += 97) {
        double e = rel(acc.value_at_rank(rank), sorted[rank - 1]);
        worst = std::max(worst, e);
        ASSERT_LE(e, bound) << "rank " << rank;
    }
    EXPECT_GT(worst, 0.0); // the values really came from buckets
    for (double q : {0.0, 0.001, 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0})
        EXPECT_LE(rel(acc.percentile(q), ch::percentile_sorted(sorted, q)), bound) << "q " << q;
    ch::latency_summary exact = ch::summarize(v), approx = acc.summary();
    EXPECT_TRUE(exact.exact);
    EXPECT_FALSE(approx.exact);
    EXPECT_EQ(approx.count, exact.count);
    EXPECT_EQ(approx.min_s, exact.min_s);
    EXPECT_EQ(approx.max_s, exact.max_s);
    EXPECT_LE(rel(approx.mean_s, exact.mean_s), 1e-12);
    EXPECT_LE(rel(approx.stddev_s, exact.stddev_s), 1e-9);
    EXPECT_LE(rel(approx.p50_s, exact.p50_s), bound);
    EXPECT_LE(rel(approx.p99_s, exact.p99_s), bound);
    EXPECT_LE(rel(approx.p999_s, exact.p999_s), bound);
    // fixed size: what it holds does not depend on how many values it saw
    ch::latency_accumulator few;
    few.add(1e-3);
    EXPECT_EQ(few.memory_usage(), acc.memory_usage());
    EXPECT_EQ(acc.memory_usage(), ch::latency_accumulator::heap_bytes());
}

TEST(characterize_histogram, merged_accumulators_equal_one_over_everything) {
    std::mt19937_64 rng(3);
    std::exponential_distribution<double> dist(1000.0);
    ch::latency_accumulator all, a, b;
    for (int i = 0; i < 30000; ++i) {
        double x = dist(rng);
        all.add(x);
        (i % 3 ? a : b).add(x);
    }
    a.merge(b);
    EXPECT_EQ(a.count(), all.count());
    EXPECT_EQ(a.min(), all.min());
    EXPECT_EQ(a.max(), all.max());
    EXPECT_LE(rel(a.sum(), all.sum()), 1e-14);
    EXPECT_LE(rel(a.summary().stddev_s, all.summary().stddev_s), 1e-12);
    for (std::uint64_t rank : {1u, 100u, 15000u, 29999u, 30000u})
        EXPECT_EQ(a.value_at_rank(rank), all.value_at_rank(rank));
}

TEST(characterize_histogram, values_outside_its_range_stay_within_the_range_bounds) {
    ch::latency_accumulator acc; // 1 ns .. 1e6 s
    acc.add(0.0);
    acc.add(0.5e-9);
    acc.add(0.7e-9);
    acc.add(2e7);
    acc.add(3e7);
    EXPECT_EQ(acc.value_at_rank(1), 0.0);  // the exact minimum
    EXPECT_LE(acc.value_at_rank(2), 1e-9); // within 1 ns absolute below 1 ns
    EXPECT_GE(acc.value_at_rank(2), 0.0);
    EXPECT_EQ(acc.value_at_rank(4), 1e6); // above the range: the range's end ...
    EXPECT_EQ(acc.value_at_rank(5), 3e7); // ... but the maximum is exact
    EXPECT_EQ(acc.summary().max_s, 3e7);
    EXPECT_THROW(ch::log_histogram(0.0), std::invalid_argument);
}

TEST(characterize_recorder, runs_within_the_exact_limit_get_what_the_full_series_gave) {
    auto t = startup_then_period_two(5000, 128, 11);
    for (bool automatic : {true, false}) {
        ch::recorded_run r = record(t, 300, automatic);
        ch::phase_info p = ch::detect_phases(t);
        std::uint64_t ignored = automatic ? p.startup : 300;
        ch::latency_summary l = ch::summarize(t, ignored);
        double seconds = 0;
        for (std::size_t i = ignored; i < t.size(); ++i)
            seconds += t[i];
        EXPECT_EQ(r.ios, t.size());
        EXPECT_EQ(r.ignored, ignored);
        EXPECT_EQ(r.phases.startup, p.startup);
        EXPECT_EQ(r.phases.period, p.period);
        EXPECT_EQ(r.phases.running_mean_s, p.running_mean_s);
        EXPECT_EQ(r.seconds, seconds); // bit for bit: the same sums in the same order
        EXPECT_TRUE(r.latency.exact);
        EXPECT_EQ(r.latency.count, l.count);
        EXPECT_EQ(r.latency.mean_s, l.mean_s);
        EXPECT_EQ(r.latency.stddev_s, l.stddev_s);
        EXPECT_EQ(r.latency.p50_s, l.p50_s);
        EXPECT_EQ(r.latency.p99_s, l.p99_s);
        EXPECT_EQ(r.latency.p999_s, l.p999_s);
    }
    EXPECT_EQ(record(t, 0, true).phases.period, 2u);
}

TEST(characterize_recorder, a_long_run_agrees_with_the_full_series) {
    const std::size_t n = 1000000;
    auto t = startup_then_period_two(n, 300, 5);
    ch::phase_info p = ch::detect_phases(t);
    ASSERT_EQ(p.period, 2u);
    ASSERT_GE(p.startup, 290u);
    ch::recorded_run r = record(t, 0, true);
    EXPECT_EQ(r.ios, n);
    EXPECT_EQ(r.phases.period, p.period);   // the same tail, the same search
    EXPECT_EQ(r.phases.startup, p.startup); // the start-up phase ends in the exact prefix
    // the segment holding request n/2 counts pro rata: off by a share of one segment's deviation
    EXPECT_LE(rel(r.phases.running_mean_s, p.running_mean_s), 1e-4);
    EXPECT_EQ(r.ignored, p.startup);
    ch::latency_summary l = ch::summarize(t, p.startup);
    EXPECT_FALSE(r.latency.exact);
    EXPECT_EQ(r.latency.count, l.count);
    EXPECT_EQ(r.latency.min_s, l.min_s);
    EXPECT_EQ(r.latency.max_s, l.max_s);
    EXPECT_LE(rel(r.latency.mean_s, l.mean_s), 1e-12);
    EXPECT_LE(rel(r.latency.stddev_s, l.stddev_s), 1e-9);
    EXPECT_LE(rel(r.latency.p50_s, l.p50_s), bound);
    EXPECT_LE(rel(r.latency.p99_s, l.p99_s), bound);
    EXPECT_LE(rel(r.latency.p999_s, l.p999_s), bound);
    double seconds = 0;
    for (std::size_t i = p.startup; i < n; ++i)
        seconds += t[i];
    EXPECT_LE(rel(r.seconds, seconds), 1e-12);
    // explicit IOIgnore beyond the exact prefix is exact too
    ch::recorded_run fixed = record(t, 400000, false);
    ch::latency_summary lf = ch::summarize(t, 400000);
    EXPECT_EQ(fixed.ignored, 400000u);
    EXPECT_EQ(fixed.latency.count, lf.count);
    EXPECT_EQ(fixed.latency.min_s, lf.min_s);
    EXPECT_LE(rel(fixed.latency.mean_s, lf.mean_s), 1e-12);
    EXPECT_LE(rel(fixed.latency.p99_s, lf.p99_s), bound);
}

TEST(characterize_recorder, a_start_up_phase_past_the_prefix_is_found_to_the_segment) {
    const std::size_t n = 1000000, cheap = 300000;
    std::vector<double> t(n);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> noise(0.9, 1.1);
    for (std::size_t i = 0; i < n; ++i)
        t[i] = (i < cheap ? 0.1e-3 : 1e-3) * noise(rng);
    ch::phase_info p = ch::detect_phases(t);
    ASSERT_GE(p.startup, cheap);
    ASSERT_LE(p.startup, cheap + 16);
    ch::recorder_limits l;
    ch::recorded_run r = record(t, 0, true, l);
    const std::uint64_t widest = (n - l.exact_requests) / (l.max_segments / 2); // segments after merging
    EXPECT_LE(r.phases.startup > p.startup ? r.phases.startup - p.startup : p.startup - r.phases.startup,
              widest);
    EXPECT_GT(r.phases.startup, l.exact_requests);
    EXPECT_EQ(r.phases.period, p.period);
    // the ignored prefix is the reported start-up phase, and the statistics are over the rest
    EXPECT_EQ(r.ignored, r.phases.startup);
    ch::latency_summary exact = ch::summarize(t, r.ignored);
    EXPECT_EQ(r.latency.count, exact.count);
    EXPECT_EQ(r.latency.min_s, exact.min_s);
    EXPECT_EQ(r.latency.max_s, exact.max_s);
    EXPECT_LE(rel(r.latency.mean_s, exact.mean_s), 1e-12);
    EXPECT_LE(rel(r.latency.p50_s, exact.p50_s), bound);
    EXPECT_LE(rel(r.latency.p999_s, exact.p999_s), bound);
}

// test_analysis.cpp's series (uFLIP's example and the others), through a recorder that keeps
// only 512 requests exactly and a 256-request tail: the digest path gives the same answers.
TEST(characterize_recorder, the_phase_examples_give_the_same_answers_from_a_digest) {
    ch::recorder_limits small;
    small.exact_requests = 512;
    small.phases.max_sample = 256;
    small.first_segment = 16;
    {
        std::vector<double> t(128, 0.4e-3);
        for (int i = 0; i < 1024; ++i)
            t.push_back(i % 2 ? 27e-3 : 0.4e-3);
        ch::recorded_run r = record(t, 0, true, small);
        EXPECT_FALSE(r.latency.exact);
        EXPECT_EQ(r.phases.period, 2u);
        EXPECT_GE(r.phases.startup, 120u);
        EXPECT_LE(r.phases.startup, 136u);
        EXPECT_NEAR(r.phases.running_mean_s, (27e-3 + 0.4e-3) / 2, 1e-4);
    }
    {
        std::vector<double> t;
        for (int i = 0; i < 2000; ++i)
            t.push_back(i % 8 == 7 ? 10e-3 : 1e-3);
        ch::recorded_run r = record(t, 0, true, small);
        EXPECT_EQ(r.phases.period, 8u);
        EXPECT_EQ(r.phases.startup, 0u);
    }
    {
        ch::recorded_run r = record(std::vector<double>(700, 2e-3), 0, true, small);
        EXPECT_EQ(r.phases.period, 1u);
        EXPECT_EQ(r.phases.startup, 0u);
    }
    {
        std::vector<double> t(1000, 1.0);
        for (int i = 0; i < 100; ++i)
            t[i] = 0.1;
        for (int i = 700; i < 720; ++i)
            t[i] = 0.1;
        ch::recorded_run r = record(t, 0, true, small);
        EXPECT_GE(r.phases.startup, 100u);
        EXPECT_LE(r.phases.startup, 110u);
    }
}

TEST(characterize_recorder, limits_that_do_not_fit_together_are_refused) {
    ch::recorder_limits l;
    l.exact_requests = l.phases.max_sample - 1; // the tail for the period search would not come from it
    EXPECT_THROW(ch::response_recorder(l, 0, false, false), std::invalid_argument);
}

TEST(characterize_trace, min_and_max_per_bucket_keep_a_spike_visible) {
    ch::latency_trace tr(64);
    for (int i = 0; i < 10000; ++i)
        tr.add(i == 7777 ? 0.1 : 1e-3);
    EXPECT_EQ(tr.count(), 10000u);
    EXPECT_EQ(tr.width(), 256u); // 10000 / 64 rounded up to a power of two
    ASSERT_EQ(tr.buckets().size(), (10000u + 255) / 256);
    EXPECT_FLOAT_EQ(tr.buckets()[7777 / 256].max_s, 0.1f);
    EXPECT_FLOAT_EQ(tr.buckets()[7777 / 256].min_s, 1e-3f);
    EXPECT_FLOAT_EQ(tr.buckets()[7777 / 256 + 1].max_s, 1e-3f);
    EXPECT_LE(tr.memory_usage(), 64 * sizeof(ch::trace_bucket));
    ch::latency_trace exact(64);
    for (int i = 0; i < 64; ++i)
        exact.add(i * 1e-3);
    EXPECT_EQ(exact.width(), 1u); // the series itself while it fits
    EXPECT_FLOAT_EQ(exact.buckets()[63].min_s, 63e-3f);
}
