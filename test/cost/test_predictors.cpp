// The closed-form predictors against measured volumes: sizes and block pairs chosen here, not tuned to fit.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/container/map.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/cost/predict_containers.hpp"
#include "flashxxl/cost/predict_map.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

machine memory_machine() {
    return machine::from_config_text(
        "name=cost\nflash=memory,640MiB,memory name=ssd\nplacement=single device=ssd\n", "predictor-test");
}

//! Read and write bytes of machine `m` since `before`.
struct measured {
    double read_bytes = 0, write_bytes = 0;
};
measured since(const machine& m, const io_counters& before) {
    const io_counters now = m.dev(0).stats().total - before;
    return {double(now.read_bytes), double(now.write_bytes)};
}

//! measured / predicted within 10 % on reads and writes (both 0 counts as a match).
void expect_within(const measured& got, const io_prediction& want, const std::string& what) {
    auto check = [&](double g, double w, const char* which) {
        if (w == 0) {
            EXPECT_EQ(g, 0) << what << " " << which;
            return;
        }
        EXPECT_NEAR(g / w, 1.0, 0.10)
            << what << " " << which << ": measured " << g << ", predicted " << w << " (" << want.basis << ")";
    };
    check(got.read_bytes, want.read_bytes, "reads");
    check(got.write_bytes, want.write_bytes, "writes");
}

std::uint64_t random_key(std::mt19937_64& rng) { return rng() >> 1; }

} // namespace

TEST(Predictors, ScanAndFillOfAVector) {
    machine m = memory_machine();
    for (const block_sizes b : {block_sizes(16 * KiB, 64 * KiB), block_sizes(64 * KiB, 512 * KiB)}) {
        for (std::uint64_t n : {1000u, 123457u, 1000000u}) {
            vector<std::uint64_t> v(m, 4 * MiB, b);
            io_counters before = m.dev(0).stats().total;
            {
                vector<std::uint64_t>::stream_writer w(v);
                for (std::uint64_t i = 0; i < n; ++i)
                    w.push(i);
            }
            expect_within(since(m, before), predict::fill(n, 8, b), "fill " + std::to_string(n));
            before = m.dev(0).stats().total;
            std::uint64_t count = 0;
            for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r)
                ++count;
            EXPECT_EQ(count, n);
            expect_within(since(m, before), predict::scan(n, 8, b), "scan " + std::to_string(n));
        }
    }
}

TEST(Predictors, SorterFromNoneToThreeIntermediatePasses) {
    machine m = memory_machine();
    const block_sizes b(64 * KiB, 128 * KiB);
    const std::uint64_t M = 640 * KiB;
    std::uint64_t levels_seen = 0;
    for (std::uint64_t mib : {2u, 8u, 20u, 70u}) {
        const std::uint64_t n = mib * MiB / 8;
        const predict::sorter_plan plan = predict::plan_sorter(n, 8, M, b);
        sorter<std::uint64_t> s(m, M, b);
        EXPECT_EQ(s.run_capacity(), plan.run_items);
        EXPECT_EQ(s.fan_in(), plan.fan_in);
        EXPECT_EQ(s.final_fan_in(), plan.final_fan_in);
        const io_counters before = m.dev(0).stats().total;
        std::mt19937_64 rng(mib);
        for (std::uint64_t i = 0; i < n; ++i)
            s.push(random_key(rng));
        s.sort();
        std::uint64_t previous = 0, count = 0;
        for (; !s.empty(); ++s, ++count) {
            ASSERT_LE(previous, *s);
            previous = *s;
        }
        EXPECT_EQ(count, n);
        EXPECT_EQ(s.passes(), plan.merge_levels + 1) << mib << " MiB";
        levels_seen |= std::uint64_t(1) << plan.merge_levels;
        expect_within(since(m, before), predict::sorter(n, 8, M, b),
                      "sorter " + std::to_string(mib) + " MiB");
    }
    EXPECT_EQ(levels_seen, 0xfu); // 0, 1, 2 and 3 intermediate passes were all checked
}

TEST(Predictors, SortOfAVectorAcrossBlockPairs) {
    machine m = memory_machine();
    for (const auto& [b, M] :
         std::vector<std::pair<block_sizes, std::uint64_t>>{{block_sizes(32 * KiB, 256 * KiB), 3 * MiB},
                                                            {block_sizes(128 * KiB, 128 * KiB), 2 * MiB},
                                                            {block_sizes(16 * KiB, 1 * MiB), 5 * MiB}}) {
        for (std::uint64_t n : {300000u, 2500000u}) {
            vector<std::uint64_t> v(m, 4 * MiB, b);
            {
                vector<std::uint64_t>::stream_writer w(v);
                std::mt19937_64 rng(n);
                for (std::uint64_t i = 0; i < n; ++i)
                    w.push(random_key(rng));
            }
            const io_counters before = m.dev(0).stats().total;
            flashxxl::sort(v, std::less<std::uint64_t>(), M);
            expect_within(since(m, before), predict::sort(n, 8, M, b),
                          "sort " + std::to_string(n) + " with " + b.describe());
        }
    }
}

TEST(Predictors, PriorityQueuePushThenPopWithAndWithoutMerges) {
    machine m = memory_machine();
    for (const auto& [b, M] : std::vector<std::pair<block_sizes, std::uint64_t>>{
             {block_sizes(16 * KiB, 64 * KiB), 1 * MiB}, {block_sizes(32 * KiB, 256 * KiB), 3 * MiB}}) {
        for (std::uint64_t n : {50000u, 700000u, 4000000u}) {
            priority_queue<std::uint64_t, std::greater<std::uint64_t>> pq(m, M, b);
            const io_counters before = m.dev(0).stats().total;
            std::mt19937_64 rng(n);
            for (std::uint64_t i = 0; i < n; ++i)
                pq.push(random_key(rng));
            std::uint64_t previous = 0;
            for (std::uint64_t i = 0; i < n; ++i) {
                ASSERT_LE(previous, pq.top());
                previous = pq.top();
                pq.pop();
            }
            expect_within(since(m, before), predict::priority_queue_push_pop(n, 8, M, b),
                          "pq " + std::to_string(n) + " with " + b.describe());
        }
    }
}

TEST(Predictors, StackAndQueuePushThenPop) {
    machine m = memory_machine();
    for (const block_sizes b : {block_sizes(16 * KiB, 64 * KiB), block_sizes(8 * KiB, 256 * KiB)}) {
        for (std::uint64_t n : {5000u, 100001u, 1500000u}) {
            {
                stack<std::uint64_t> s(m, 4 * MiB, b);
                const io_counters before = m.dev(0).stats().total;
                for (std::uint64_t i = 0; i < n; ++i)
                    s.push(i);
                for (std::uint64_t i = n; i-- > 0;) {
                    ASSERT_EQ(s.top(), i);
                    s.pop();
                }
                expect_within(since(m, before), predict::stack_push_pop(n, 8, b),
                              "stack " + std::to_string(n));
            }
            {
                queue<std::uint64_t> q(m, 4 * MiB, b);
                const io_counters before = m.dev(0).stats().total;
                for (std::uint64_t i = 0; i < n; ++i)
                    q.push(i);
                for (std::uint64_t i = 0; i < n; ++i) {
                    ASSERT_EQ(q.front(), i);
                    q.pop();
                }
                expect_within(since(m, before), predict::queue_push_pop(n, 8, b),
                              "queue " + std::to_string(n));
            }
        }
    }
}

TEST(Predictors, MapBulkLoadAndRandomFinds) {
    machine m = memory_machine();
    using tree = map<std::uint64_t, std::uint64_t>;
    for (const auto& [b, M] :
         std::vector<std::pair<block_sizes, std::uint64_t>>{{block_sizes(16 * KiB, 256 * KiB), 4 * MiB},
                                                            {block_sizes(8 * KiB, 64 * KiB), 2 * MiB},
                                                            {block_sizes(4 * KiB, 128 * KiB), 3 * MiB}}) {
        for (std::uint64_t n : {200000u, 3000000u}) {
            tree t(m, M, b);
            std::vector<std::pair<std::uint64_t, std::uint64_t>> items;
            items.reserve(n);
            for (std::uint64_t i = 0; i < n; ++i)
                items.emplace_back(4 * i, i);
            io_counters before = m.dev(0).stats().total;
            t.bulk_load(items.begin(), items.end());
            expect_within(since(m, before), predict::map_bulk_load<std::uint64_t, std::uint64_t>(n, b),
                          "bulk load " + std::to_string(n) + " with " + b.describe());
            items.clear();
            items.shrink_to_fit();
            t.drop_cache();
            const std::uint64_t finds = 4000;
            std::mt19937_64 rng(n);
            before = m.dev(0).stats().total;
            std::uint64_t hits = 0;
            for (std::uint64_t i = 0; i < finds; ++i)
                hits += t.find(rng() % (4 * n)) != t.end() ? 1 : 0;
            EXPECT_GT(hits, finds / 8);
            expect_within(since(m, before), predict::map_finds<std::uint64_t, std::uint64_t>(n, finds, M, b),
                          "finds in " + std::to_string(n) + " with " + b.describe());
        }
    }
}
