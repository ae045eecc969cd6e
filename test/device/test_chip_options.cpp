// Tests of the page-mapped model's chip-level options on modelled time: fast/slow pages, wear, water marks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <string>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/reproduce/grupp_chip_experiment.hpp"
#include "flashxxl/reproduce/grupp_paper.hpp"

using namespace flashxxl;
using namespace flashxxl::reproduce;

TEST(ChipOptions, MlcSlowPagesFollowThePaperPattern) {
    const fast_slow_measure b = measure_fast_slow("chip-b-mlc32");
    EXPECT_NEAR(b.slow_over_fast(), grupp_b_mlc32_slow_over_fast, 1e-9);
    EXPECT_EQ(b.fast_pages, 66u); // pages 0-3, then every other pair of the remaining 124
    EXPECT_EQ(b.slow_pages, 62u);
    const fast_slow_measure c = measure_fast_slow("chip-c-mlc64");
    EXPECT_EQ(c.fast_pages, c.slow_pages); // every other page
    EXPECT_GT(c.slow_over_fast(), 3.0);
    const fast_slow_measure slc = measure_fast_slow("chip-a-slc2");
    EXPECT_EQ(slc.slow_pages, 0u);
    EXPECT_EQ(slc.slow_over_fast(), 1.0);
    auto m = make_model("chip-b-mlc32");
    auto& chip = dynamic_cast<page_mapped_ssd&>(*m);
    for (std::uint32_t pos : {0u, 1u, 2u, 3u, 6u, 7u, 10u})
        EXPECT_FALSE(chip.is_slow_page(pos)) << pos;
    for (std::uint32_t pos : {4u, 5u, 8u, 9u, 124u, 125u})
        EXPECT_TRUE(chip.is_slow_page(pos)) << pos;
}

TEST(ChipOptions, SlowPagesCostSlowEnergyAndSlowTimeOnTheHostClock) {
    // One request per page of one unit: a write-through chip's service time is its program time.
    auto m = small_chip_model("chip-c-mlc64", 32);
    const page_mapped_ssd::config& c = m->cfg();
    const double fast = m->service(io_op::write, 0, c.page);
    const double slow = m->service(io_op::write, c.units * c.page, c.page);
    EXPECT_NEAR(fast, c.t_prog_us * 1e-6, 1e-12);
    EXPECT_NEAR(slow, c.t_prog_slow_us * 1e-6, 1e-12);
    const model_counters k = m->counters();
    EXPECT_EQ(k.slow_pages_programmed, 1u);
    EXPECT_NEAR(k.energy.program_slow_j / k.energy.program_j, 2.86 / 0.67, 1e-9);
}

TEST(ChipOptions, ProgramTimeFallsWithWear) {
    const double fresh = program_us_at_wear("chip-a-slc2", 0);
    EXPECT_NEAR(program_us_at_wear("chip-a-slc2", 50000) / fresh, 0.75, 1e-9);
    EXPECT_NEAR(program_us_at_wear("chip-a-slc2", 100000) / fresh, 1 - grupp_slc_wear_speedup, 1e-9);
    EXPECT_NEAR(program_us_at_wear("chip-a-slc2", 400000) / fresh, 1 - grupp_slc_wear_speedup, 1e-9);
    const double mlc = program_us_at_wear("chip-c-mlc64", 10000) / program_us_at_wear("chip-c-mlc64", 0);
    EXPECT_GE(1 - mlc, grupp_mlc_wear_speedup_lo);
    EXPECT_LE(1 - mlc, grupp_mlc_wear_speedup_hi);
    // Wear comes from the model's own erases as well: after overwriting, blocks are faster.
    auto m = small_chip_model("chip-a-slc2", 32, {{"rated_cycles", "4"}});
    const std::uint64_t page = m->cfg().page;
    const double first = m->service(io_op::write, 0, page);
    for (int pass = 0; pass < 6; ++pass)
        for (std::uint64_t off = 0; off < m->capacity(); off += m->cfg().units * page)
            m->service(io_op::write, off, m->cfg().units * page);
    EXPECT_GT(m->counters().erases, 0u);
    EXPECT_LT(m->service(io_op::write, 0, page), first);
}

namespace {
//! Random single-page overwrites of the whole device; returns the fewest free blocks unit 0 had
//! after any request and the number of erases.
std::pair<std::uint32_t, std::uint64_t> overwrite(page_mapped_ssd& m, int rounds) {
    std::mt19937_64 rng(4);
    const std::uint64_t page = m.cfg().page, pages = m.capacity() / page;
    std::uniform_int_distribution<std::uint64_t> pick(0, pages - 1);
    for (std::uint64_t p = 0; p < pages; ++p)
        m.service(io_op::write, p * page, page);
    std::uint32_t fewest = m.free_blocks(0);
    for (int i = 0; i < rounds; ++i) {
        m.service(io_op::write, pick(rng) * page, page);
        fewest = std::min(fewest, m.free_blocks(0));
    }
    return {fewest, m.counters().erases};
}
} // namespace

TEST(ChipOptions, WaterMarksKeepFreeBlocksAboveTheLowMark) {
    auto plain = small_chip_model("chip-a-slc2", 64, {}, 28);
    auto marked =
        small_chip_model("chip-a-slc2", 64, {{"gc_low_blocks", "4"}, {"gc_medium_blocks", "6"}}, 28);
    const auto [plain_fewest, plain_erases] = overwrite(*plain, 20000);
    const auto [marked_fewest, marked_erases] = overwrite(*marked, 20000);
    EXPECT_EQ(plain_fewest, 1u);  // greedy on demand: down to the one reserve block
    EXPECT_GE(marked_fewest, 3u); // low - 1 after taking a block
    EXPECT_GT(plain_erases, 0u);
    EXPECT_GT(marked_erases, 0u);
    // The marks are ordered and the medium one is reachable (at most the spare blocks).
    EXPECT_THROW(small_chip_model("chip-a-slc2", 64, {{"gc_medium_blocks", "5"}}, 28), config_error);
    EXPECT_THROW(small_chip_model("chip-a-slc2", 64, {{"gc_low_blocks", "5"}, {"gc_medium_blocks", "4"}}, 28),
                 config_error);
    EXPECT_THROW(
        small_chip_model("chip-a-slc2", 64, {{"gc_low_blocks", "5"}, {"gc_medium_blocks", "40"}}, 28),
        config_error);
}

TEST(ChipOptions, IdleTimeCleansUpToTheHighMark) {
    // A-SLC4 has one unit: written through, it is never idle while the host keeps it busy, so
    // only the host's idle time (device_model::idle) lets it clean in the background.
    const model_params marks{{"gc_low_blocks", "2"}, {"gc_medium_blocks", "2"}, {"gc_high_blocks", "8"}};
    auto m = small_chip_model("chip-a-slc4", 64, marks, 28);
    ASSERT_EQ(m->cfg().units, 1u);
    overwrite(*m, 20000);
    const std::uint64_t erases = m->counters().erases;
    ASSERT_LT(m->free_blocks(0), 8u);
    m->idle(1.0);
    EXPECT_GE(m->free_blocks(0), 8u);
    EXPECT_GT(m->counters().erases, erases);
    // With two units, one cleans while the other programs the host's page.
    auto two = small_chip_model("chip-a-slc2", 64, marks, 28);
    ASSERT_EQ(two->cfg().units, 2u);
    overwrite(*two, 20000);
    EXPECT_GE(two->free_blocks(0), 7u);
    // Without a high mark idle time does nothing.
    auto plain = small_chip_model("chip-a-slc4", 64, {}, 28);
    overwrite(*plain, 20000);
    const std::uint64_t plain_erases = plain->counters().erases;
    plain->idle(1.0);
    EXPECT_EQ(plain->counters().erases, plain_erases);
}

TEST(ChipOptions, TheEmulatedFileGivesTheModelTheHostsIdleTime) {
    // Random page overwrites through the emulated file fill the chip; host compute time between
    // two requests is idle time in which a unit with a high water mark cleans.
    const model_params marks{{"gc_low_blocks", "2"}, {"gc_medium_blocks", "2"}, {"gc_high_blocks", "8"}};
    auto model = small_chip_model("chip-a-slc4", 64, marks, 28);
    const std::uint64_t capacity = model->capacity(), page = 4 * KiB; // two of the chip's pages
    const page_mapped_ssd* chip = model.get();
    modelled_clock clock;
    emulated_file f("chip", std::make_unique<sparse_memory_file>(capacity), std::move(model), capacity,
                    (6 << 20) + 1);
    f.set_clock(&clock);
    char* buf = static_cast<char*>(::operator new(page, std::align_val_t(4096)));
    std::memset(buf, 7, page);
    std::mt19937_64 rng(4);
    std::uniform_int_distribution<std::uint64_t> pick(0, capacity / page - 1);
    auto write = [&](std::uint64_t p) {
        f.submit(io_op::write, buf, p * page, page, role::scratch)->wait(false);
        clock.wait_until(f.free_at_s());
    };
    for (std::uint64_t p = 0; p < capacity / page; ++p)
        write(p);
    for (int i = 0; i < 20000; ++i)
        write(pick(rng));
    const std::uint64_t erases = chip->counters().erases;
    const std::uint32_t before = chip->free_blocks(0);
    ASSERT_LT(before, 6u);
    write(0); // no idle time: only the low mark could make it collect
    EXPECT_LE(chip->free_blocks(0), before);
    clock.compute(1.0);
    write(1);
    EXPECT_GE(chip->free_blocks(0), 7u); // cleaned to 8, then the write may open one
    EXPECT_GT(chip->counters().erases, erases);
    ::operator delete(buf, std::align_val_t(4096));
}
