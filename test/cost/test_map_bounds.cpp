// The map's inserts and range scans against their upper bounds (cost/predict_map.hpp), cold caches.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/container/map.hpp"
#include "flashxxl/cost/predict_map.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

using tree = map<std::uint64_t, std::uint64_t>;

io_counters since(const machine& m, const io_counters& before) { return m.dev(0).stats().total - before; }

void expect_below(const io_counters& got, const io_prediction& bound, const std::string& what) {
    ASSERT_TRUE(bound.bound) << what;
    EXPECT_GT(got.read_bytes + got.write_bytes, 0u) << what << ": nothing moved, the check would be vacuous";
    EXPECT_LE(double(got.read_bytes), bound.read_bytes) << what << " (" << bound.basis << ")";
    EXPECT_LE(double(got.write_bytes), bound.write_bytes) << what << " (" << bound.basis << ")";
}

} // namespace

TEST(MapBounds, InsertsAndRangeScansStayBelowTheirBounds) {
    for (const block_sizes b : {block_sizes(4 * KiB, 32 * KiB), block_sizes(8 * KiB, 128 * KiB)})
        for (std::uint64_t n : {50000u, 400000u}) {
            machine m = machine::from_config_text(
                "name=map\nflash=memory,512MiB,memory name=ssd\nplacement=single device=ssd\n",
                "map-bounds-test");
            const std::uint64_t memory = tree::min_memory(b) + 256 * KiB, inserts = 300, scans = 20,
                                length = 3000;
            tree t(m, memory, b);
            std::vector<std::pair<std::uint64_t, std::uint64_t>> items;
            for (std::uint64_t i = 0; i < n; ++i)
                items.emplace_back(4 * i, i);
            t.bulk_load(items.begin(), items.end());
            t.drop_cache();
            const std::string what = b.describe() + ", " + std::to_string(n) + " items";
            std::mt19937_64 rng(n);
            io_counters before = m.dev(0).stats().total;
            for (std::uint64_t i = 0; i < inserts; ++i) {
                const std::uint64_t k = 4 * (rng() % n) + 1 + i % 3;
                t.insert({k, k});
            }
            t.flush();
            expect_below(since(m, before),
                         predict::map_inserts_bound<std::uint64_t, std::uint64_t>(n, inserts, b),
                         "inserts, " + what);
            t.drop_cache();
            before = m.dev(0).stats().total;
            std::uint64_t seen_total = 0;
            for (std::uint64_t s = 0; s < scans; ++s) {
                std::uint64_t seen = 0;
                for (auto it = t.lower_bound(rng() % (4 * n)); it != t.end() && seen < length; ++it)
                    ++seen;
                seen_total += seen;
            }
            EXPECT_GT(seen_total, 0u);
            expect_below(
                since(m, before),
                predict::map_range_scans_bound<std::uint64_t, std::uint64_t>(n + inserts, scans, length, b),
                "range scans, " + what);
        }
}
