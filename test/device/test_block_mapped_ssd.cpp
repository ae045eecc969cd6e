// Tests of the block-mapped SSD model: the golden numbers and shapes of DEVICE-MODELS.md, counters, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "device/model_measure.hpp"
#include "flashxxl/device/block_mapped_ssd.hpp"
#include "flashxxl/device/model_presets.hpp"

using namespace flashxxl;
using flashxxl::test::throughput;

namespace {

constexpr std::uint64_t span = 8 * GiB; // the fit measured random offsets over the first 8 GiB

std::unique_ptr<device_model> hama(model_params p = {}) {
    return make_model("hama-ssd-2009-block-mapped", std::move(p));
}

double rel_err(double got, double want) { return std::fabs(got - want) / want; }

// Peak sequential throughput over block sizes 512 B .. 32 MiB (the reference's normaliser).
double peak(const device_model& m, io_op op) {
    double best = 0;
    for (int i = 0; i < 17; ++i)
        best = std::max(best, throughput(m, op, 512ull << i, false, op == io_op::read ? 200 : 100, span));
    return best;
}

} // namespace

TEST(BlockMappedSsd, GoldenNumbersOfThePaper) {
    // seeds/000 Table 3.1, Hama SSD, MiB/s; the preset must land within 5%.
    struct row {
        io_op op;
        std::uint64_t bs;
        bool rnd;
        double paper;
    };
    const row rows[] = {{io_op::read, 512, false, 2.9},   {io_op::read, 2 * MiB, false, 28.03},
                        {io_op::read, 512, true, 2.18},   {io_op::read, 2 * MiB, true, 28.02},
                        {io_op::write, 512, false, 4.89}, {io_op::write, 2 * MiB, false, 24.5},
                        {io_op::write, 512, true, 0.012}, {io_op::write, 2 * MiB, true, 12.6}};
    auto m = hama();
    for (const auto& r : rows) {
        const double got = throughput(*m, r.op, r.bs, r.rnd, r.bs == 512 ? 3000 : 400, span);
        EXPECT_LT(rel_err(got, r.paper), 0.05) << to_string(r.op) << (r.rnd ? " random " : " sequential ")
                                               << r.bs << " B: model " << got << " MiB/s, paper " << r.paper;
    }
}

TEST(BlockMappedSsd, RandomWriteSlowdownShapes) {
    // Random writes 400x / 170x / 15x slower than sequential at 512 B / 4 KiB / 64 KiB.
    auto m = hama();
    const std::uint64_t sizes[] = {512, 4 * KiB, 64 * KiB};
    const double want[] = {400, 170, 15};
    const double tolerance[] = {0.05, 0.05, 0.2}; // the fit gives 17.4x at 64 KiB
    for (int i = 0; i < 3; ++i) {
        const double seq = throughput(*m, io_op::write, sizes[i], false, 2000, span);
        const double rnd = throughput(*m, io_op::write, sizes[i], true, 2000, span, 4096);
        EXPECT_LT(rel_err(seq / rnd, want[i]), tolerance[i]) << sizes[i] << " B: " << seq / rnd << "x";
    }
}

TEST(BlockMappedSsd, ReadAndWriteKnees) {
    auto m = hama();
    const double peak_read = peak(*m, io_op::read), peak_write = peak(*m, io_op::write);
    auto rr = [&](std::uint64_t bs) {
        return throughput(*m, io_op::read, bs, true, 300, span, 4096) / peak_read;
    };
    auto rw = [&](std::uint64_t bs, std::uint64_t g) {
        return throughput(*m, io_op::write, bs, true, bs < 4 * MiB ? 100 : 60, span, g) / peak_write;
    };
    // Random reads: 91.5% of peak at 64 KiB, 95.6% at 128 KiB: Br = 128 KiB.
    EXPECT_NEAR(rr(64 * KiB), 0.915, 0.01);
    EXPECT_NEAR(rr(128 * KiB), 0.956, 0.01);
    EXPECT_LT(rr(64 * KiB), 0.95);
    EXPECT_GE(rr(128 * KiB), 0.95);
    // The knee table of DEVICE-MODELS.md (share of peak sequential write), +-2.5 points.
    const std::uint64_t sizes[] = {128 * KiB, 256 * KiB, 512 * KiB, 2 * MiB, 8 * MiB, 16 * MiB};
    const double unaligned[] = {0.098, 0.167, 0.224, 0.536, 0.826, 0.905};
    const double aligned[] = {0.123, 0.223, 0.996, 0.999, 1.0, 1.0};
    for (int i = 0; i < 6; ++i) {
        EXPECT_NEAR(rw(sizes[i], 4096), unaligned[i], 0.025) << "4 KiB-granular " << sizes[i];
        EXPECT_NEAR(rw(sizes[i], 0), aligned[i], 0.025) << "block-aligned " << sizes[i];
    }
    // Knees: aligned at the chunk size (512 KiB), 4 KiB-granular at 16 MiB.
    EXPECT_LT(rw(256 * KiB, 0), 0.9);
    EXPECT_GE(rw(512 * KiB, 0), 0.9);
    EXPECT_LT(rw(8 * MiB, 4096), 0.88);
    EXPECT_GT(rw(16 * MiB, 4096), 0.88);
}

TEST(BlockMappedSsd, NoOpenLogsCollapsesSequentialSmallWrites) {
    // DEVICE-MODELS.md: with K = 0, sequential 512 B writes collapse to 0.012 MiB/s.
    auto m = hama({{"open_logs", "0"}});
    EXPECT_LT(rel_err(throughput(*m, io_op::write, 512, false, 300, span), 0.012), 0.05);
    // Whole-chunk writes need no log and stay at full speed.
    EXPECT_GT(throughput(*m, io_op::write, 512 * KiB, false, 20, span), 24.0);
}

TEST(BlockMappedSsd, SingleRequestCostsByHand) {
    block_mapped_ssd m(block_mapped_ssd::config{});
    const double mib = double(MiB);
    // First read: c_r + len / bw_r + t_R; a read continuing on the same page skips t_R.
    EXPECT_NEAR(m.service(io_op::read, 0, 512), 0.143e-3 + 512 / (28.07 * mib) + 0.0635e-3, 1e-12);
    EXPECT_NEAR(m.service(io_op::read, 512, 512), 0.143e-3 + 512 / (28.07 * mib), 1e-12);
    EXPECT_NEAR(m.service(io_op::read, 4096, 512), 0.143e-3 + 512 / (28.07 * mib) + 0.0635e-3, 1e-12);
    // One merge is about 40.6 ms.
    EXPECT_NEAR(m.merge_seconds(), 40.6e-3, 0.1e-3);
    // Write at chunk offset 0 opens the log (no merge), continuing it is a plain transfer.
    EXPECT_NEAR(m.service(io_op::write, 0, 4096), 0.080e-3 + 4096 / (24.53 * mib), 1e-12);
    EXPECT_NEAR(m.service(io_op::write, 4096, 4096), 0.080e-3 + 4096 / (24.53 * mib), 1e-12);
    EXPECT_EQ(m.counters().merges, 0u);
    // A write into the middle of another chunk: one merge, no separate transfer.
    EXPECT_NEAR(m.service(io_op::write, 512 * KiB + 8192, 4096), 0.080e-3 + m.merge_seconds(), 1e-12);
    EXPECT_EQ(m.counters().merges, 1u);
    // Opening a log for chunk 2 evicts chunk 0's log (K = 1): one more merge.
    EXPECT_NEAR(m.service(io_op::write, 1024 * KiB, 4096),
                0.080e-3 + m.merge_seconds() + 4096 / (24.53 * mib), 1e-12);
    EXPECT_EQ(m.counters().merges, 2u);
    EXPECT_EQ(m.counters().host_bytes_written, 4u * 4096u);
    EXPECT_EQ(m.counters().media_bytes_written, 3u * 4096u + 2u * 512u * KiB);
}

TEST(BlockMappedSsd, WriteAmplificationOneForSequentialAboveOneForRandom) {
    auto m = hama();
    for (std::uint64_t off = 0; off < 64 * MiB; off += 4096)
        m->service(io_op::write, off, 4096);
    EXPECT_EQ(m->counters().merges, 0u);
    EXPECT_DOUBLE_EQ(m->counters().write_amplification(), 1.0);
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<std::uint64_t> d(0, span / 4096 - 1);
    for (int i = 0; i < 200; ++i)
        m->service(io_op::write, d(rng) * 4096, 4096);
    EXPECT_GT(m->counters().merges, 150u);
    EXPECT_GT(m->counters().write_amplification(), 1.0);
}

TEST(BlockMappedSsd, MoreOpenLogsServeInterleavedStreams) {
    // Four interleaved sequential streams: K = 4 absorbs them, K = 1 merges constantly.
    auto run = [](const char* k) {
        auto m = make_model("hama-ssd-2009-block-mapped", {{"open_logs", k}});
        for (std::uint64_t i = 0; i < 256; ++i)
            for (std::uint64_t s = 0; s < 4; ++s)
                m->service(io_op::write, s * GiB + i * 4096, 4096);
        return m->counters().merges;
    };
    EXPECT_EQ(run("4"), 0u);
    EXPECT_GT(run("1"), 500u);
}

TEST(BlockMappedSsd, Monotonic) {
    auto m = hama();
    for (io_op op : {io_op::read, io_op::write}) {
        double prev_t = 0, prev_tp = 0;
        for (int i = 0; i < 16; ++i) {
            const std::uint64_t bs = 512ull << i;
            auto fresh = m->clone_fresh();
            const double t = fresh->service(op, 3 * 512 * KiB + 4096, bs);
            EXPECT_GE(t, prev_t) << to_string(op) << " " << bs;
            prev_t = t;
            const double tp = throughput(*m, op, bs, false, 50, span);
            EXPECT_GE(tp, prev_tp * (1 - 1e-12)) << to_string(op) << " " << bs;
            prev_tp = tp;
            EXPECT_GE(tp * (1 + 1e-12), throughput(*m, op, bs, true, 50, span)) << to_string(op) << " " << bs;
        }
    }
}

TEST(BlockMappedSsd, DeterministicResetAndCloneFresh) {
    auto m = hama();
    auto run = [](device_model& d) {
        std::mt19937_64 rng(11);
        std::uniform_int_distribution<std::uint64_t> off(0, span / 512 - 64);
        double total = 0;
        for (int i = 0; i < 500; ++i)
            total += d.service(i % 3 ? io_op::write : io_op::read, off(rng) * 512, 512 * (1 + i % 64));
        return total;
    };
    const double first = run(*m);
    const auto c = m->counters();
    auto clone = m->clone_fresh();
    EXPECT_EQ(run(*clone), first);
    m->reset();
    EXPECT_EQ(m->counters().merges, 0u);
    EXPECT_EQ(run(*m), first);
    EXPECT_EQ(m->counters().merges, c.merges);
    EXPECT_EQ(m->counters().media_bytes_written, c.media_bytes_written);
}

TEST(BlockMappedSsd, ChunkOverrideMovesTheAlignedKnee) {
    auto small = hama({{"chunk", "256KiB"}});
    auto base = hama();
    const double seq = throughput(*small, io_op::write, 2 * MiB, false, 50, span);
    EXPECT_GT(throughput(*small, io_op::write, 256 * KiB, true, 100, span, 0) / seq, 0.99);
    EXPECT_LT(throughput(*base, io_op::write, 256 * KiB, true, 100, span, 0) / seq, 0.3);
}

TEST(BlockMappedSsd, RejectsBadRequestsAndParameters) {
    auto m = hama();
    EXPECT_THROW(m->service(io_op::read, 0, 0), invalid_request);
    try {
        m->service(io_op::write, 32 * GiB - 4096, 8192);
        FAIL() << "expected invalid_request";
    } catch (const invalid_request& e) {
        EXPECT_NE(std::string(e.what()).find("hama-ssd-2009-block-mapped"), std::string::npos) << e.what();
    }
    EXPECT_THROW(m->service(io_op::read, ~0ull - 10, 100), invalid_request); // no wrap-around
    EXPECT_NO_THROW(m->service(io_op::read, 32 * GiB - 512, 512));
    try {
        hama({{"chunk", "6KiB"}});
        FAIL() << "expected config_error";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("'chunk'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(hama({{"bw_w_mibps", "0"}}), config_error);
    EXPECT_THROW(hama({{"bw_r_mibps", "-3"}}), config_error);
    EXPECT_THROW(hama({{"open_logs", "1.5"}}), config_error);
    EXPECT_THROW(hama({{"chunk", "512KB"}}), config_error); // decimal units are rejected
}

// An integer model parameter has a range that means something, stated in the error: more open
// logs than chunks (10^10 was accepted), and no exponent or wrap-around in a count.
TEST(BlockMappedSsd, OpenLogsRangeIsStated) {
    const auto refusal = [](const char* k) {
        try {
            hama({{"capacity", "16MiB"}, {"open_logs", k}});
        } catch (const config_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(refusal("10000000000")
                  .find("parameter 'open_logs' = 10000000000 must lie in [0, capacity / chunk = 32]"),
              std::string::npos)
        << refusal("10000000000");
    EXPECT_EQ(refusal("32"), "");
    EXPECT_EQ(refusal("0"), "");
    EXPECT_NE(refusal("33").find("must lie in [0, capacity / chunk = 32]"), std::string::npos);
    EXPECT_NE(refusal("1e30").find(
                  "parameter 'open_logs': '1e30' is not accepted; expected a whole number from 0 to "
                  "2^64 - 1"),
              std::string::npos)
        << refusal("1e30");
    EXPECT_NE(refusal("99999999999999999999").find("'99999999999999999999' overflows 64 bits"),
              std::string::npos);
}
