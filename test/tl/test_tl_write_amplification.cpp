// The translation layer's write amplification under uniform random page overwrites stays within the FIFO
// bound.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "flashxxl/device/lambert_w.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "tl/tl_test_support.hpp"

using namespace flashxxl;
using namespace flashxxl::testing;

namespace {

constexpr std::uint64_t page = 4 * KiB;
constexpr std::uint64_t segment = 128 * KiB; // 32 pages
constexpr std::uint64_t capacity = 32 * MiB; // 256 segments, 8192 pages

//! WA of single-page uniform random overwrites of `live` pages (after one sequential fill),
//! measured over `rounds` physical capacities of writes.
double measured_wa(std::uint64_t live_pages, cleaning_policy policy, double rounds) {
    tl_config c;
    c.page_bytes = page;
    c.segment_bytes = segment;
    c.policy = policy;
    // Logical capacity = the working set, so alpha = physical / live exactly.
    c.spare_bytes = capacity - live_pages * page;
    recording_file lower(capacity, test_queue_id(1));
    translation_layer tl(lower, capacity, c, "ssd0", test_queue_id(2));
    aligned_buffer buf(page);
    // serve() directly: synchronous, without the queue hop per page (the queued path is tested elsewhere).
    for (std::uint64_t p = 0; p < live_pages; ++p)
        tl.serve(buf.data, p * page, page, stxxl::request::WRITE);
    // Warm up (one physical capacity) to reach the steady state, then measure.
    std::mt19937_64 rng(7);
    const std::uint64_t physical_pages = capacity / page;
    for (std::uint64_t i = 0; i < physical_pages; ++i)
        tl.serve(buf.data, (rng() % live_pages) * page, page, stxxl::request::WRITE);
    const tl_stats before = tl.stats();
    const std::uint64_t n = std::uint64_t(rounds * double(physical_pages));
    for (std::uint64_t i = 0; i < n; ++i)
        tl.serve(buf.data, (rng() % live_pages) * page, page, stxxl::request::WRITE);
    const tl_stats after = tl.stats();
    return double(after.device_bytes_written - before.device_bytes_written) /
           double(after.host_bytes_written - before.host_bytes_written);
}

} // namespace

class tl_write_amplification : public ::testing::TestWithParam<double> {};

TEST_P(tl_write_amplification, greedy_is_within_the_fifo_bound_plus_5_percent) {
    const double utilization = GetParam(); // live / physical
    const std::uint64_t live = std::uint64_t(utilization * double(capacity / page)) / 32 * 32;
    const double alpha = double(capacity / page) / double(live);
    const double bound = fifo_gc_write_amplification(alpha);
    const double wa = measured_wa(live, cleaning_policy::greedy, 4.0);
    std::printf("utilization %.2f alpha %.3f: greedy WA %.3f, FIFO bound %.3f\n", utilization, alpha, wa,
                bound);
    EXPECT_LE(wa, bound * 1.05);
    EXPECT_GE(wa, 1.0);
    // Not trivially satisfied: above 50% utilization cleaning must copy something.
    if (utilization >= 0.75) {
        EXPECT_GT(wa, 1.05);
    }
}

INSTANTIATE_TEST_SUITE_P(utilizations, tl_write_amplification, ::testing::Values(0.5, 0.75, 0.85, 0.9));

TEST(tl_write_amplification, cost_benefit_is_also_bounded_under_uniform_writes) {
    const std::uint64_t live = 6144; // 75%
    const double bound = fifo_gc_write_amplification(8192.0 / double(live));
    const double wa = measured_wa(live, cleaning_policy::cost_benefit, 3.0);
    std::printf("cost-benefit at 75%%: WA %.3f, FIFO bound %.3f\n", wa, bound);
    EXPECT_LE(wa, bound * 1.05);
}
