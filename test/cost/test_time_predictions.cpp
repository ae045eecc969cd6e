// Predicted against modelled time: the predictors' request streams priced on the device model
// (cost_model::block_s).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "flashxxl/container/map.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/cost/predict_containers.hpp"
#include "flashxxl/cost/predict_map.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

machine lone(const std::string& preset) {
    return machine::from_config_text("name=time\nflash=memory,512MiB,memory name=dev model=" + preset +
                                         "\nplacement=single device=dev\n",
                                     "time-prediction-test");
}

//! Runs `body` on `m` and checks its modelled time against `p` priced on the device, within `tolerance`.
void expect_time(machine& m, const block_sizes& b, const io_prediction& p, double tolerance,
                 const std::function<void()>& body, const std::string& what) {
    const modelled_time t0 = m.modelled();
    body();
    const double got = (m.modelled() - t0).elapsed_s;
    const double want = p.modelled_s(cost_model::for_device(m.dev(0), b));
    ASSERT_GT(want, 0) << what;
    EXPECT_NEAR(got / want, 1.0, tolerance)
        << what << ": modelled " << got << " s, predicted " << want << " s";
}

std::uint64_t key(std::mt19937_64& rng) { return rng() >> 1; }

//! The containers' workloads at sizes and block pairs of this test's own choosing (none of them
//! is a row of `flashxxl reproduce --tables seeds001_cost_time`), each checked within `tolerance`.
void check_containers(const std::string& preset, double tolerance) {
    const block_sizes b(24 * KiB, 192 * KiB);
    {
        machine m = lone(preset);
        const std::uint64_t n = 3 * MiB, memory = 1536 * KiB; // 24 MiB of 8-byte items, 2 merge passes
        expect_time(
            m, b, predict::sorter(n, 8, memory, b), tolerance,
            [&] {
                sorter<std::uint64_t> s(m, memory, b);
                std::mt19937_64 rng(3);
                for (std::uint64_t i = 0; i < n; ++i)
                    s.push(key(rng));
                s.sort();
                for (; !s.empty(); ++s) {
                }
            },
            preset + " sorter");
    }
    {
        machine m = lone(preset);
        const std::uint64_t n = 3 * MiB, memory = 5 * MiB;
        vector<std::uint64_t> v(m, 2 * MiB, b);
        {
            vector<std::uint64_t>::stream_writer w(v);
            std::mt19937_64 rng(5);
            for (std::uint64_t i = 0; i < n; ++i)
                w.push(key(rng));
        }
        expect_time(
            m, b, predict::sort(n, 8, memory, b), tolerance,
            [&] { flashxxl::sort(v, std::less<std::uint64_t>(), memory); }, preset + " sort");
        expect_time(
            m, b, predict::scan(n, 8, b), tolerance,
            [&] {
                for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r) {
                }
            },
            preset + " scan");
    }
    {
        machine m = lone(preset);
        const std::uint64_t n = 2 * MiB, memory = 3 * MiB;
        expect_time(
            m, b, predict::priority_queue_push_pop(n, 8, memory, b), tolerance,
            [&] {
                priority_queue<std::uint64_t, std::greater<std::uint64_t>> pq(m, memory, b);
                std::mt19937_64 rng(7);
                for (std::uint64_t i = 0; i < n; ++i)
                    pq.push(key(rng));
                while (!pq.empty())
                    pq.pop();
            },
            preset + " priority queue");
    }
    {
        machine m = lone(preset);
        const std::uint64_t n = 1500000;
        expect_time(
            m, b, predict::stack_push_pop(n, 8, b), tolerance,
            [&] {
                stack<std::uint64_t> s(m, stack<std::uint64_t>::min_memory(b), b);
                for (std::uint64_t i = 0; i < n; ++i)
                    s.push(i);
                while (!s.empty())
                    s.pop();
            },
            preset + " stack");
        expect_time(
            m, b, predict::queue_push_pop(n, 8, b), tolerance,
            [&] {
                queue<std::uint64_t> q(m, queue<std::uint64_t>::min_memory(b), b);
                for (std::uint64_t i = 0; i < n; ++i)
                    q.push(i);
                while (!q.empty())
                    q.pop();
            },
            preset + " queue");
    }
    {
        machine m = lone(preset);
        using tree = map<std::uint64_t, std::uint64_t>;
        const block_sizes tb(12 * KiB, 192 * KiB);
        const std::uint64_t n = 700000, memory = 2 * MiB, finds = 2000;
        tree t(m, memory, tb);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> items;
        for (std::uint64_t i = 0; i < n; ++i)
            items.emplace_back(3 * i, i);
        expect_time(
            m, tb, predict::map_bulk_load<std::uint64_t, std::uint64_t>(n, tb), tolerance,
            [&] { t.bulk_load(items.begin(), items.end()); }, preset + " map bulk load");
        t.drop_cache();
        std::mt19937_64 rng(11);
        expect_time(
            m, tb, predict::map_finds<std::uint64_t, std::uint64_t>(n, finds, memory, tb), tolerance,
            [&] {
                for (std::uint64_t i = 0; i < finds; ++i)
                    (void)t.find(rng() % (3 * n));
            },
            preset + " map finds");
    }
}

} // namespace

// issue 41's target: within 15 % where the device model is block-size-linear (a fixed cost per
// request and a transfer rate: the page-mapped NVMe model).
TEST(TimePredictions, WithinFifteenPercentOnABlockSizeLinearDevice) { check_containers("nvme-gen4", 0.15); }

// The HDD's time depends on the pattern (seeks); the streams carry it (measured 0.71-1.20 in the
// reproduce table, the priority queue at 64 KiB / 256 KiB the worst).
TEST(TimePredictions, WithinTwentyFivePercentOnTheBarracuda) { check_containers("barracuda-7200.11", 0.25); }

TEST(TimePredictions, AStreamInOrderCostsLessThanJumpsOnAnHdd) {
    machine m = lone("barracuda-7200.11");
    const block_sizes b(64 * KiB, 256 * KiB);
    const cost_model c = cost_model::for_device(m.dev(0), b);
    const double in_order = c.block_s({io_op::read, 1, 0, false});
    const double near = c.block_s({io_op::read, 1, double(MiB), false});
    const double spread = c.block_s({io_op::read, 1, double(256 * MiB), true});
    const double far = c.block_s({io_op::read, 1, double(256 * MiB), false});
    EXPECT_LT(in_order, near);
    EXPECT_LT(near, spread);
    EXPECT_LT(spread, far); // a uniform jump is mostly shorter than the whole span
    EXPECT_EQ(c.block_s({io_op::read, 1, request_stream::far, false}), c.read_block_s());
}

TEST(TimePredictions, UndescribedVolumeIsPricedAsLoneBlocks) {
    machine m = lone("nvme-gen4");
    const block_sizes b(32 * KiB, 128 * KiB);
    const cost_model c = cost_model::for_device(m.dev(0), b);
    io_prediction p;
    p.read_bytes = 10 * double(b.br);
    p.write_bytes = 4 * double(b.bw);
    EXPECT_DOUBLE_EQ(p.modelled_s(c), 10 * c.read_block_s() + 4 * c.write_block_s());
    io_prediction q = predict::scan(1000, 8, b);
    q += p; // the undescribed part keeps its pricing when joined to streams
    EXPECT_DOUBLE_EQ(q.read_bytes, p.read_bytes + double(b.br));
    EXPECT_EQ(q.streams.size(), 3u);
}
