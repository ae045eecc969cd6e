// Tests of the HDD model: golden numbers of the Barracuda preset, seek oracle, zones, monotonicity, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "device/model_measure.hpp"
#include "flashxxl/device/hdd_model.hpp"
#include "flashxxl/device/model_presets.hpp"

using namespace flashxxl;
using flashxxl::test::throughput;

namespace {

constexpr std::uint64_t span = 120000000000ull; // the paper's random tests fit the first ~120 GB

std::unique_ptr<device_model> barracuda(model_params p = {}) {
    return make_model("barracuda-7200.11", std::move(p));
}

double rel_err(double got, double want) { return std::fabs(got - want) / want; }

} // namespace

TEST(HddModel, GoldenNumbersOfThePaper) {
    // seeds/000 Table 3.1, Barracuda 7200.11, MiB/s: within 5%, random 2 MiB reads within 10%.
    struct row {
        io_op op;
        std::uint64_t bs;
        bool rnd;
        double paper;
        double tol;
    };
    const row rows[] = {{io_op::read, 512, false, 6.2, 0.05},  {io_op::read, 2 * MiB, false, 87.5, 0.05},
                        {io_op::read, 512, true, 0.063, 0.05}, {io_op::read, 2 * MiB, true, 69.6, 0.10},
                        {io_op::write, 512, false, 5.1, 0.05}, {io_op::write, 2 * MiB, false, 88.1, 0.05},
                        {io_op::write, 512, true, 0.12, 0.05}, {io_op::write, 2 * MiB, true, 71.7, 0.05}};
    auto m = barracuda();
    for (const auto& r : rows) {
        const double got = throughput(*m, r.op, r.bs, r.rnd, r.bs == 512 ? 20000 : 2000, span, 512, 2);
        EXPECT_LT(rel_err(got, r.paper), r.tol) << to_string(r.op) << (r.rnd ? " random " : " sequential ")
                                                << r.bs << " B: model " << got << " MiB/s, paper " << r.paper;
    }
}

TEST(HddModel, RandomEightByteRead) {
    // seeds/000 Table 2.1: 11.3 ms on the device; the fitted model gives 11.18 ms over the whole disk.
    auto m = barracuda();
    std::mt19937_64 rng(2);
    std::uniform_int_distribution<std::uint64_t> slot(0, 499000000000ull / 512 - 1);
    double total = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i)
        total += m->service(io_op::read, slot(rng) * 512 + 7, 8);
    const double ms = total / n * 1e3;
    EXPECT_NEAR(ms, 11.18, 0.15);
    EXPECT_LT(rel_err(ms, 11.3), 0.05);
}

TEST(HddModel, SeekCurveAndOracle) {
    hdd_model m(hdd_model::config{});
    EXPECT_EQ(m.seek_seconds(0), 0.0);
    double prev = 0;
    for (double d = 0.001; d <= 1.0; d += 0.01) {
        EXPECT_GT(m.seek_seconds(d), prev);
        prev = m.seek_seconds(d);
    }
    EXPECT_NEAR(m.seek_seconds(1.0), (0.8 + 11.72) * 1e-3, 1e-12);
    // Mean seek between uniformly random radial positions = t1 + 8a/15.
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> y(0, 1);
    double total = 0;
    const int n = 400000;
    for (int i = 0; i < n; ++i)
        total += m.seek_seconds(std::fabs(y(rng) - y(rng)));
    EXPECT_NEAR(total / n, (0.8 + 8 * 11.72 / 15) * 1e-3, 0.01 * (0.8 + 8 * 11.72 / 15) * 1e-3);
}

TEST(HddModel, SeekThroughServiceMatchesTheOracle) {
    // Same oracle through service(): offsets whose radial positions are uniform; a write pays
    // c_w + seek + T / (n_ws + 1) + transfer, so subtracting the rest leaves the seek.
    hdd_model m(hdd_model::config{});
    const double rho = 0.5, cap = 500e9;
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> y(0, 1);
    double total = 0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        const double r = 1 - y(rng) * (1 - rho); // radius of a uniform radial position
        const double x = (1 - r * r) / (1 - rho * rho);
        const auto off =
            std::min<std::uint64_t>(static_cast<std::uint64_t>(x * cap) / 512 * 512, 499999999488ull);
        const double t = m.service(io_op::write, off, 512);
        total += t - 0.090e-3 - m.revolution_seconds() / 15 - 512 / m.rate_bytes_per_s(off);
    }
    EXPECT_NEAR(total / n, (0.8 + 8 * 11.72 / 15) * 1e-3, 0.02 * (0.8 + 8 * 11.72 / 15) * 1e-3);
}

TEST(HddModel, ZonesAndSequentialContinuation) {
    hdd_model m(hdd_model::config{});
    EXPECT_NEAR(m.rate_bytes_per_s(0), 87.8 * double(MiB), 1e-6);
    EXPECT_NEAR(m.rate_bytes_per_s(m.capacity()), 0.5 * 87.8 * double(MiB), 1e-3);
    EXPECT_EQ(m.radial_position(0), 0.0);
    EXPECT_NEAR(m.radial_position(m.capacity()), 1.0, 1e-12);
    EXPECT_GT(m.rate_bytes_per_s(1000), m.rate_bytes_per_s(400000000000ull));
    // The first request from the parked head at 0 pays no seek, only rotation.
    const double T = m.revolution_seconds();
    EXPECT_NEAR(T, 8.333e-3, 1e-6);
    const double first = m.service(io_op::read, 0, 4096);
    const double track = m.rate_bytes_per_s(0) * T;
    const double p = 4096 / track;
    EXPECT_NEAR(first, 0.073e-3 + T / 2 - T * p * p / 2 + 4096 / m.rate_bytes_per_s(0), 1e-12);
    // A request starting where the previous ended pays only overhead and transfer.
    EXPECT_NEAR(m.service(io_op::read, 4096, 4096), 0.073e-3 + 4096 / m.rate_bytes_per_s(4096), 1e-12);
    EXPECT_NEAR(m.service(io_op::write, 8192, 4096), 0.090e-3 + 4096 / m.rate_bytes_per_s(8192), 1e-12);
    // A whole-track read from a random position costs no rotation (p = 1).
    const auto far = static_cast<std::uint64_t>(track) * 1000;
    const double whole =
        m.service(io_op::read, far, static_cast<std::uint64_t>(m.rate_bytes_per_s(far) * T) + 1);
    EXPECT_LT(whole, 0.073e-3 + m.seek_seconds(1) + 1.01 * T);
}

TEST(HddModel, Monotonic) {
    auto m = barracuda();
    for (io_op op : {io_op::read, io_op::write}) {
        double prev_t = 0, prev_tp = 0;
        for (int i = 0; i < 16; ++i) {
            const std::uint64_t bs = 512ull << i;
            auto fresh = m->clone_fresh();
            fresh->service(op, 0, 512);
            const double t = fresh->service(op, 100000000000ull, bs);
            EXPECT_GE(t, prev_t) << to_string(op) << " " << bs;
            prev_t = t;
            const double tp = throughput(*m, op, bs, false, 100, span);
            EXPECT_GE(tp, prev_tp) << to_string(op) << " " << bs;
            prev_tp = tp;
            EXPECT_GT(tp, throughput(*m, op, bs, true, 100, span)) << to_string(op) << " " << bs;
        }
    }
    // Sequential throughput falls towards the inner zones.
    auto inner = m->clone_fresh();
    inner->service(io_op::read, 400000000000ull, 512);
    const double t_inner = inner->service(io_op::read, 400000000512ull, MiB);
    auto outer = m->clone_fresh();
    outer->service(io_op::read, 0, 512);
    EXPECT_LT(outer->service(io_op::read, 512, MiB), t_inner);
}

TEST(HddModel, DeterministicResetCloneAndOverrides) {
    auto m = barracuda();
    auto run = [](device_model& d) {
        std::mt19937_64 rng(4);
        std::uniform_int_distribution<std::uint64_t> off(0, 400000000000ull / 512);
        double total = 0;
        for (int i = 0; i < 1000; ++i)
            total += d.service(i % 2 ? io_op::write : io_op::read, off(rng) * 512, 4096);
        return total;
    };
    const double first = run(*m);
    EXPECT_EQ(run(*m->clone_fresh()), first);
    m->reset();
    EXPECT_EQ(run(*m), first);
    EXPECT_EQ(m->counters().host_bytes_written, 500u * 4096u);
    // A faster spindle shortens the rotational delay, a bigger a lengthens seeks.
    auto fast = barracuda({{"rpm", "15000"}});
    EXPECT_LT(run(*fast), first);
    auto slow_seek = barracuda({{"seek_a_ms", "20"}});
    EXPECT_GT(run(*slow_seek), first);
}

TEST(HddModel, RejectsBadRequestsAndParameters) {
    auto m = barracuda();
    EXPECT_THROW(m->service(io_op::write, 0, 0), invalid_request);
    try {
        m->service(io_op::read, 500000000000ull, 1);
        FAIL() << "expected invalid_request";
    } catch (const invalid_request& e) {
        EXPECT_NE(std::string(e.what()).find("barracuda-7200.11"), std::string::npos) << e.what();
    }
    EXPECT_THROW(barracuda({{"rho", "1"}}), config_error);
    EXPECT_THROW(barracuda({{"r_od_mibps", "0"}}), config_error);
    EXPECT_THROW(barracuda({{"rpm", "-1"}}), config_error);
    EXPECT_THROW(barracuda({{"seek_t1_ms", "x"}}), config_error);
}

// n_ws, the write cache's segments, has a stated range: a drive has tens of them, and the
// T / (n_ws + 1) of a write would divide by zero once n_ws + 1 wrapped.
TEST(HddModel, WriteSegmentsRangeIsStated) {
    try {
        barracuda({{"n_ws", "100000"}});
        ADD_FAILURE() << "n_ws=100000 accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "parameter 'n_ws': '100000' is out of range; expected a whole number from 0 to 1024"),
                  std::string::npos)
            << e.what();
    }
    try {
        barracuda({{"n_ws", "18446744073709551615"}});
        ADD_FAILURE() << "n_ws=2^64 - 1 accepted";
    } catch (const config_error& e) {
        EXPECT_NE(
            std::string(e.what()).find("parameter 'n_ws': '18446744073709551615' is out of range; expected a "
                                       "whole number from 0 to 1024"),
            std::string::npos)
            << e.what();
    }
    EXPECT_NO_THROW(barracuda({{"n_ws", "1024"}}));
}
