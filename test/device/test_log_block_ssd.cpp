// Tests of the hybrid log-block SSD model: merge kinds, batched merges, streams, waiting, state, determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/device/log_block_ssd.hpp"
#include "flashxxl/device/model_presets.hpp"

using namespace flashxxl;

namespace {

//! A small device: 64 units of 1 MiB, a pool of 512 pages (two units), batches of 256 pages.
log_block_ssd::config small_config() {
    log_block_ssd::config c;
    c.capacity = 64 * MiB;
    c.unit = 1 * MiB;
    c.page = 4 * KiB;
    c.erase_block = 256 * KiB;
    c.log_pages = 512;
    c.batch_pages = 256;
    c.streams = 2;
    return c;
}

//! The Hama preset's model (the class, for its stats).
log_block_ssd hama() {
    auto m = make_model("hama-ssd-2009");
    return *dynamic_cast<log_block_ssd*>(m.get());
}

//! Block-aligned random offsets of `bs` bytes in [0, span), seeded.
std::vector<std::uint64_t> random_offsets(std::size_t n, std::uint64_t bs, std::uint64_t span,
                                          std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint64_t> slot(0, span / bs - 1);
    std::vector<std::uint64_t> v(n);
    for (auto& o : v)
        o = slot(rng) * bs;
    return v;
}

} // namespace

TEST(LogBlockSsd, PresetIsRegistered) {
    auto m = make_model("hama-ssd-2009");
    EXPECT_EQ(m->kind(), "ssd-log-block");
    EXPECT_EQ(m->capacity(), 32 * GiB);
    EXPECT_TRUE(m->has_energy());
    auto custom = make_model("hama-ssd-2009", {{"unit", "4MiB"}, {"copy_mibps", "50"}});
    EXPECT_NE(custom->service(io_op::write, 0, 4 * KiB), 0.0);
}

TEST(LogBlockSsd, EachMergeKindIsCountedAndPricedAsItsCopies) {
    const auto c = small_config();
    log_block_ssd m(c);
    const double w = double(MiB) / (c.bw_w_mibps * double(MiB));
    const double erase = c.t_erase_ms * 1e-3, cw = c.c_w_ms * 1e-3;
    // A whole unit: a switch, no copy.
    EXPECT_DOUBLE_EQ(m.service(io_op::write, 0, MiB), cw + w + erase);
    EXPECT_EQ(m.stats().switch_merges, 1u);
    // A stream from offset 0 in four pieces: the last piece completes the unit by a switch.
    for (int i = 0; i < 4; ++i)
        m.service(io_op::write, MiB + i * 256 * KiB, 256 * KiB);
    EXPECT_EQ(m.stats().switch_merges, 2u);
    EXPECT_EQ(m.open_streams(), 0u);
    // A stream from the unit's middle: the first piece (out of order) lands in the pool, the
    // second continues it and opens the stream; at the unit's end the partial merge copies the
    // 768 KiB the stream did not write.
    const double first = m.service(io_op::write, 2 * MiB + 512 * KiB, 256 * KiB);
    const double last = m.service(io_op::write, 2 * MiB + 768 * KiB, 256 * KiB);
    EXPECT_EQ(m.stats().partial_merges, 1u);
    const double copy_rest = double(768 * KiB) / (c.copy_mibps * double(MiB));
    EXPECT_NEAR(last - first, copy_rest + erase, 1e-12);
    // Out-of-order writes go to the pool at no merge cost until it runs out.
    const auto before = m.stats();
    for (int i = 0; i < 8; ++i)
        m.service(io_op::write, (10 + 5 * i) * MiB + 4 * KiB * (i + 1), 4 * KiB);
    EXPECT_EQ(m.stats().full_merges, before.full_merges);
    EXPECT_EQ(m.log_pages_used(), 64u + 8u); // the stream's first piece stays until reclaimed
    EXPECT_EQ(m.counters().merges, 3u);
    EXPECT_GE(m.counters().write_amplification(), 1.0);
}

TEST(LogBlockSsd, PoolRunsOutIntoBatchesOfFullMerges) {
    const auto c = small_config();
    log_block_ssd m(c);
    // 4 KiB writes, each in a different unit than the one before and never at offset 0.
    std::vector<double> t;
    for (int i = 0; i < 1200; ++i)
        t.push_back(m.service(io_op::write, std::uint64_t(i % 64) * MiB + 4 * KiB * (1 + i % 200), 4 * KiB));
    // The first 512 writes fill the pool; write 513 reclaims 256 pages (a batch of full merges).
    for (int i = 0; i < 512; ++i)
        ASSERT_LT(t[i], 1e-3) << "write " << i;
    EXPECT_GT(t[512], 0.01);
    EXPECT_EQ(m.stats().batches, 1u + (1200 - 513) / 256);
    // That batch merged all 64 units, so the rest of the pool went stale: the next batch
    // reclaims it without a merge, the one after merges again.
    EXPECT_LT(t[512 + 256], 1e-3);
    EXPECT_GT(t[512 + 512], 0.01);
    EXPECT_GT(m.stats().full_merges, 0u);
    EXPECT_GT(m.counters().erases, 0u);
}

TEST(LogBlockSsd, HamaRandomSmallWritesSpikeAfterTheFirst3000ThenEvery2048) {
    // seeds/000 Figure 3.2: random small writes over an 8 GiB file; spikes after about 3000
    // writes, then regularly (every ~2000 in the paper).
    log_block_ssd m = hama();
    const auto offs = random_offsets(8000, 512, 8 * GiB, 3);
    std::vector<std::size_t> spikes;
    double spike_s = 0;
    for (std::size_t i = 0; i < offs.size(); ++i) {
        const double t = m.service(io_op::write, offs[i], 512);
        if (t > 1.0) {
            spikes.push_back(i);
            spike_s = t;
        } else {
            ASSERT_LT(t, 1e-3) << "write " << i;
        }
    }
    ASSERT_EQ(spikes.size(), 3u);
    EXPECT_EQ(spikes[0], 3072u); // the 3073rd write finds the pool full
    EXPECT_EQ(spikes[1] - spikes[0], 2048u);
    EXPECT_EQ(spikes[2] - spikes[1], 2048u);
    EXPECT_GT(spike_s, 5.0); // seconds, as the paper's reorganisations
}

TEST(LogBlockSsd, SequentialStreamFromMidUnitNeedsNoMergePerRequest) {
    log_block_ssd m = hama();
    const std::uint64_t start = 3 * m.cfg().unit + 12345 * 512; // mid-unit, 512 B aligned
    double seconds = 0;
    const int n = 40000; // about 19.5 MiB from 6 MiB into a unit: crosses three unit ends
    for (int i = 0; i < n; ++i)
        seconds += m.service(io_op::write, start + std::uint64_t(i) * 512, 512);
    EXPECT_EQ(m.stats().full_merges, 0u);
    EXPECT_EQ(m.stats().partial_merges, 1u); // the first unit, completed by copying its front
    EXPECT_EQ(m.stats().switch_merges, 2u);  // the next two, written whole in order
    const double mib_s = n * 512.0 / double(MiB) / seconds;
    EXPECT_NEAR(mib_s, 4.89, 0.1 * 4.89); // seeds/000 Table 3.1: SW 512 B
}

TEST(LogBlockSsd, ReadsArrivingDuringABackgroundMergeWaitForIt) {
    const auto c = small_config();
    log_block_ssd m(c);
    const double read_alone = log_block_ssd(c).service(io_op::read, 40 * MiB, 4 * KiB);
    for (int i = 0; i < 100; ++i)
        m.service(io_op::write, std::uint64_t(i % 50) * MiB + 8 * KiB, 4 * KiB);
    // A short idle gap starts a merge that does not finish in it.
    const double merge = m.full_merge_seconds();
    m.idle(merge / 4);
    EXPECT_NEAR(m.pending_seconds(), merge * 3 / 4, 1e-12);
    const double read = m.service(io_op::read, 40 * MiB, 4 * KiB);
    EXPECT_NEAR(read, read_alone + merge * 3 / 4, 1e-12);
    EXPECT_NEAR(m.stats().waited_s, merge * 3 / 4, 1e-12);
    EXPECT_EQ(m.pending_seconds(), 0.0);
    // A long gap cleans the whole pool in the background: no waiting afterwards.
    m.idle(1000);
    EXPECT_EQ(m.pending_seconds(), 0.0);
    EXPECT_EQ(m.log_pages_used(), 0u);
    EXPECT_GT(m.stats().idle_merges, 1u);
}

TEST(LogBlockSsd, BackgroundMergesStartOnlyAfterTheIdleThreshold) {
    auto c = small_config();
    c.idle_ms = 10;
    log_block_ssd m(c);
    for (int i = 0; i < 100; ++i)
        m.service(io_op::write, std::uint64_t(i % 50) * MiB + 8 * KiB, 4 * KiB);
    const std::uint64_t held = m.log_pages_used();
    // Gaps shorter than the threshold start nothing, however many of them there are.
    for (int i = 0; i < 1000; ++i)
        m.idle(9e-3);
    EXPECT_EQ(m.stats().idle_merges, 0u);
    EXPECT_EQ(m.log_pages_used(), held);
    // A gap of the threshold plus a quarter merge begins one merge; the next request waits for the rest.
    const double merge = m.full_merge_seconds();
    m.idle(10e-3 + merge / 4);
    EXPECT_EQ(m.stats().idle_merges, 1u);
    EXPECT_NEAR(m.pending_seconds(), merge * 3 / 4, 1e-12);
    // A merge already begun goes on in a short gap (it is the device's, not the idle detector's).
    m.idle(merge / 4);
    EXPECT_NEAR(m.pending_seconds(), merge / 2, 1e-12);
    EXPECT_EQ(m.stats().idle_merges, 1u);
    // Without the threshold (the preset's 0) the same short gaps merge the whole pool.
    log_block_ssd eager(small_config());
    for (int i = 0; i < 100; ++i)
        eager.service(io_op::write, std::uint64_t(i % 50) * MiB + 8 * KiB, 4 * KiB);
    for (int i = 0; i < 1000; ++i)
        eager.idle(9e-3);
    EXPECT_EQ(eager.log_pages_used(), 0u);
}

TEST(LogBlockSsd, StateLastsAcrossExperimentsAndAFillDrainsThePoolCheaply) {
    const auto c = small_config();
    log_block_ssd burst(c), filled(c);
    for (log_block_ssd* m : {&burst, &filled})
        for (int i = 0; i < 500; ++i)
            m->service(io_op::write, std::uint64_t(i % 64) * MiB + 4 * KiB * (1 + i % 200), 4 * KiB);
    // The burst's pages stay in the pool (state lasts): 12 more pages make it run out.
    EXPECT_EQ(burst.log_pages_used(), 500u);
    // A sequential 1 MiB fill rewrites every unit whole: the pool's pages go stale.
    for (std::uint64_t off = 0; off < c.capacity; off += MiB)
        filled.service(io_op::write, off, MiB);
    const auto merges_after_fill = filled.stats().full_merges;
    double t_burst = 0, t_filled = 0;
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t off = std::uint64_t(i % 64) * MiB + 4 * KiB * (3 + i % 100);
        t_burst += burst.service(io_op::write, off, 4 * KiB);
        t_filled += filled.service(io_op::write, off, 4 * KiB);
    }
    EXPECT_EQ(burst.stats().batches, 1u);
    EXPECT_EQ(filled.stats().batches, 1u);
    EXPECT_EQ(merges_after_fill, 0u);
    EXPECT_EQ(filled.stats().full_merges, 0u); // stale pages are reclaimed without a merge
    EXPECT_EQ(burst.stats().full_merges, 64u); // the burst's batch merges every unit it touched
    EXPECT_GT(t_burst, t_filled + 60 * burst.full_merge_seconds());
}

TEST(LogBlockSsd, DeterministicToTheLastBit) {
    auto a = make_model("hama-ssd-2009");
    auto b = a->clone_fresh();
    const auto offs = random_offsets(6000, 4 * KiB, 8 * GiB, 11);
    for (std::size_t i = 0; i < offs.size(); ++i) {
        const io_op op = i % 3 == 0 ? io_op::read : io_op::write;
        if (i % 500 == 0) {
            a->idle(0.05);
            b->idle(0.05);
        }
        const double ta = a->service(op, offs[i], 4 * KiB), tb = b->service(op, offs[i], 4 * KiB);
        ASSERT_EQ(ta, tb) << "request " << i; // bitwise equal, not just close
    }
    EXPECT_EQ(a->counters().merges, b->counters().merges);
    EXPECT_EQ(a->counters().energy.total_j(), b->counters().energy.total_j());
    a->reset();
    EXPECT_EQ(a->counters().merges, 0u);
}

TEST(LogBlockSsd, EnergyCountsCopiesAndErases) {
    log_block_ssd m = hama();
    const auto offs = random_offsets(3100, 512, 8 * GiB, 5);
    for (auto o : offs)
        m.service(io_op::write, o, 512);
    const auto k = m.counters();
    EXPECT_GT(k.energy.erase_j, 0.0);
    EXPECT_GT(k.energy.program_j, 0.0);
    EXPECT_GT(k.energy.read_j, 0.0); // merge copies read pages
    EXPECT_GT(k.write_amplification(), 100.0);
}

TEST(LogBlockSsd, BadParametersNameTheKey) {
    auto expect_error = [](model_params p, const std::string& key) {
        try {
            make_model("hama-ssd-2009", p);
            ADD_FAILURE() << "accepted " << key;
        } catch (const config_error& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    };
    expect_error({{"log_pages", "100"}}, "log_pages");
    expect_error({{"batch_pages", "5000"}}, "batch_pages");
    expect_error({{"unit", "700KiB"}}, "unit");
    expect_error({{"idle_clean", "2"}}, "idle_clean");
    expect_error({{"idle_ms", "-1"}}, "idle_ms");
    expect_error({{"open_logs", "1"}}, "open_logs");
}
