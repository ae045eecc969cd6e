// Steady state (uFLIP start-up / period), recovery after bursts and summary statistics on hand-made series.
#include <gtest/gtest.h>

#include <vector>

#include "flashxxl/characterize/latency_summary.hpp"
#include "flashxxl/characterize/phase_detection.hpp"
#include "flashxxl/characterize/recovery.hpp"

namespace ch = flashxxl::characterize;

TEST(characterize_phases, uflip_example_cheap_startup_then_oscillation) {
    // seeds/003 Section 4.2: 128 cheap writes (0.4 ms), then alternating 0.4 ms / 27 ms.
    std::vector<double> t(128, 0.4e-3);
    for (int i = 0; i < 1024; ++i)
        t.push_back(i % 2 ? 27e-3 : 0.4e-3);
    ch::phase_info p = ch::detect_phases(t);
    EXPECT_EQ(p.period, 2u);
    EXPECT_GE(p.startup, 120u);
    EXPECT_LE(p.startup, 136u);
    EXPECT_NEAR(p.running_mean_s, (27e-3 + 0.4e-3) / 2, 1e-4);
}

TEST(characterize_phases, longer_period_and_no_startup) {
    std::vector<double> t;
    for (int i = 0; i < 2000; ++i)
        t.push_back(i % 8 == 7 ? 10e-3 : 1e-3);
    ch::phase_info p = ch::detect_phases(t);
    EXPECT_EQ(p.period, 8u);
    EXPECT_EQ(p.startup, 0u);
}

TEST(characterize_phases, constant_series_has_period_one) {
    std::vector<double> t(500, 2e-3);
    ch::phase_info p = ch::detect_phases(t);
    EXPECT_EQ(p.period, 1u);
    EXPECT_EQ(p.startup, 0u);
}

// A brief dip late in the run (the running phase) erased the start-up phase: startup was 0.
TEST(characterize_phases, a_late_dip_keeps_the_startup_phase) {
    std::vector<double> t(1000, 1.0);
    for (int i = 0; i < 100; ++i)
        t[i] = 0.1;
    for (int i = 700; i < 720; ++i)
        t[i] = 0.1;
    ch::phase_info p = ch::detect_phases(t);
    EXPECT_GE(p.startup, 100u);
    EXPECT_LE(p.startup, 110u);
}

TEST(characterize_recovery, time_to_sixty_percent_of_the_median) {
    // windows of 4 s: slow for three windows, then back to ~10 MiB/s; median of the 10 = 10
    std::vector<double> w = {2, 3, 5.9, 6.1, 10, 10, 10, 10, 10, 10};
    ch::recovery_info r = ch::compute_recovery(w, 4.0);
    EXPECT_DOUBLE_EQ(r.median_mib_s, 10.0);
    EXPECT_TRUE(r.recovered);
    EXPECT_EQ(r.first_recovered_window, 3u);
    EXPECT_DOUBLE_EQ(r.recovery_s, 12.0);
}

TEST(characterize_recovery, immediate_and_even_median) {
    std::vector<double> w = {8, 4, 12, 10};
    ch::recovery_info r = ch::compute_recovery(w, 4.0);
    EXPECT_DOUBLE_EQ(r.median_mib_s, 9.0);
    EXPECT_DOUBLE_EQ(r.recovery_s, 0.0);
    ch::recovery_info strict = ch::compute_recovery(w, 4.0, 1.0);
    EXPECT_EQ(strict.first_recovered_window, 2u);
    EXPECT_DOUBLE_EQ(strict.recovery_s, 8.0);
}

TEST(characterize_latency, summary_statistics) {
    std::vector<double> t;
    for (int i = 1; i <= 1000; ++i)
        t.push_back(i * 1e-3);
    ch::latency_summary s = ch::summarize(t);
    EXPECT_EQ(s.count, 1000u);
    EXPECT_DOUBLE_EQ(s.min_s, 1e-3);
    EXPECT_DOUBLE_EQ(s.max_s, 1.0);
    EXPECT_NEAR(s.mean_s, 0.5005, 1e-12);
    EXPECT_NEAR(s.stddev_s, 0.288819, 1e-6);
    EXPECT_DOUBLE_EQ(s.p50_s, 0.5);
    EXPECT_DOUBLE_EQ(s.p99_s, 0.99);
    EXPECT_DOUBLE_EQ(s.p999_s, 0.999);
    ch::latency_summary tail = ch::summarize(t, 900); // IOIgnore = 900
    EXPECT_EQ(tail.count, 100u);
    EXPECT_DOUBLE_EQ(tail.min_s, 0.901);
}
