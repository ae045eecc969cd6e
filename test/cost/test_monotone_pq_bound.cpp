// The monotone priority-queue use (time-forward processing) against its bound, n pushes then n pops.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/cost/predict_containers.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

//! Half of n pushed, then each pop followed by one or two pushes of keys at least the popped one
//! (spread `gap` above it) until n were pushed, then drained; returns the bytes read and written.
std::pair<double, double> monotone_run(std::uint64_t n, std::uint64_t memory, const block_sizes& b,
                                       std::uint64_t gap) {
    machine m = machine::from_config_text(
        "name=pq\nflash=memory,512MiB,memory name=ssd\nplacement=single device=ssd\n", "monotone-pq-test");
    priority_queue<std::uint64_t, std::greater<std::uint64_t>> pq(m, memory, b);
    std::mt19937_64 rng(n ^ gap);
    std::uint64_t pushed = 0, last = 0;
    for (; pushed < n / 2; ++pushed)
        pq.push(rng() >> 20);
    while (pushed < n) {
        const std::uint64_t k = pq.top();
        EXPECT_GE(k, last);
        last = k;
        pq.pop();
        for (std::uint64_t j = 0, more = 1 + (rng() & 1); j < more && pushed < n; ++j, ++pushed)
            pq.push(last + rng() % gap);
    }
    while (!pq.empty())
        pq.pop();
    const io_counters c = m.dev(0).stats().total;
    return {double(c.read_bytes), double(c.write_bytes)};
}

} // namespace

TEST(MonotonePriorityQueue, MeasuredAtOrBelowTheBoundWithAndWithoutMerges) {
    struct config {
        std::uint64_t n, memory;
        block_sizes b;
        std::uint64_t gap;
    };
    // Small gaps: pushed keys come out soon; a gap as wide as the keys: they stay like the first half.
    for (const config& c :
         {config{600000, MiB, block_sizes(16 * KiB, 64 * KiB), 1u << 10},
          config{600000, MiB, block_sizes(16 * KiB, 64 * KiB), std::uint64_t(1) << 44},
          config{1500000, 768 * KiB, block_sizes(8 * KiB, 32 * KiB), 1u << 20},
          config{1500000, 768 * KiB, block_sizes(8 * KiB, 32 * KiB), std::uint64_t(1) << 44}}) {
        const io_prediction bound = predict::priority_queue_monotone_bound(c.n, 8, c.memory, c.b);
        ASSERT_TRUE(bound.bound);
        ASSERT_GT(bound.write_bytes, 0);
        const auto [read, written] = monotone_run(c.n, c.memory, c.b, c.gap);
        const std::string what = std::to_string(c.n) + " items, gap " + std::to_string(c.gap);
        EXPECT_GT(written, 0) << what; // the queue did spill: the check is not vacuous
        EXPECT_LE(read, bound.read_bytes) << what << " (" << bound.basis << ")";
        EXPECT_LE(written, bound.write_bytes) << what << " (" << bound.basis << ")";
    }
}
