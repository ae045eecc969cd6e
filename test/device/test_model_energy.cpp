// Tests of the device models' energy: op counts times seeds/004 Table 2, HDD power, unknown figures.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/reproduce/grupp_chip_experiment.hpp"
#include "flashxxl/reproduce/grupp_paper.hpp"

using namespace flashxxl;
using namespace flashxxl::reproduce;

namespace {
//! An emulated device of `preset` (`capacity` bytes, in memory) on the virtual clock `clock`.
std::unique_ptr<emulated_file> emulated(const std::string& preset, std::uint64_t capacity,
                                        modelled_clock& clock) {
    static int queue = 5 << 20;
    auto f = std::make_unique<emulated_file>(preset, std::make_unique<sparse_memory_file>(capacity),
                                             make_model(preset), capacity, queue++);
    f->set_clock(&clock);
    return f;
}

//! A 4 KiB-aligned buffer of `n` bytes.
struct io_buffer {
    explicit io_buffer(std::size_t n) : data(static_cast<char*>(::operator new(n, std::align_val_t(4096)))) {}
    ~io_buffer() { ::operator delete(data, std::align_val_t(4096)); }
    io_buffer(const io_buffer&) = delete;
    io_buffer& operator=(const io_buffer&) = delete;
    char* data;
};

//! |a - b| <= share * |b|.
::testing::AssertionResult within(double a, double b, double share) {
    if (std::fabs(a - b) <= share * std::fabs(b)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << a << " is not within " << share * 100 << "% of " << b;
}
} // namespace

TEST(ModelEnergy, SequentialWriteOnSlcCostsProgramEnergyPerBitPlusItsErases) {
    // V = twice the logical capacity, written sequentially: every page programmed once per pass,
    // and the second pass makes GC erase the blocks the first one filled (no valid page to copy).
    auto m = small_chip_model("chip-a-slc2", 64);
    const flash_energy& e = m->energy();
    const std::uint64_t V = 2 * m->capacity();
    const std::uint64_t request = m->cfg().page * m->cfg().units; // divides the capacity
    for (std::uint64_t off = 0; off < V; off += request)
        m->service(io_op::write, off % m->capacity(), request);
    const model_counters k = m->counters();
    EXPECT_GT(k.erases, 0u);
    EXPECT_EQ(k.gc_page_copies, 0u);
    const double expected = double(V) * 8 * e.e_prog_nj_per_bit * 1e-9 +
                            double(k.erases) * double(m->cfg().block) * 8 * e.e_erase_nj_per_bit * 1e-9;
    EXPECT_TRUE(within(k.energy.total_j(), expected, 0.05));
    EXPECT_EQ(k.energy.read_j, 0.0);
}

TEST(ModelEnergy, PerOperationEnergiesRecomputedFromOpCountsMatchTable2) {
    for (const grupp_table2_chip& paper : grupp_table2()) {
        if (!paper.preset) continue;
        const chip_energy_measure r = measure_chip_energy(paper.preset);
        SCOPED_TRACE(paper.chip);
        EXPECT_GT(r.pages_read, 0u);
        EXPECT_GT(r.erases, 0u);
        EXPECT_TRUE(within(r.read_nj_per_bit, paper.read_nj_per_bit, 0.05));
        EXPECT_TRUE(within(r.prog_nj_per_bit, paper.prog_nj_per_bit, 0.05));
        EXPECT_TRUE(within(r.erase_nj_per_bit, paper.erase_nj_per_bit, 0.05));
        if (paper.mlc) {
            EXPECT_GT(r.slow_pages, 0u);
            EXPECT_TRUE(within(r.prog_slow_nj_per_bit, paper.prog_slow_nj_per_bit, 0.05));
        } else {
            EXPECT_EQ(r.slow_pages, 0u);
        }
    }
}

TEST(ModelEnergy, IsDeterministic) {
    EXPECT_EQ(measure_chip_energy("chip-c-mlc64").total_j, measure_chip_energy("chip-c-mlc64").total_j);
}

TEST(ModelEnergy, HddChargesSeekAndActivePower) {
    auto m = make_model("barracuda-7200.11");
    auto& hdd = dynamic_cast<hdd_model&>(*m);
    ASSERT_TRUE(m->has_energy());
    double t = 0;
    t += m->service(io_op::read, 0, MiB);                     // from the head's start: no seek
    t += m->service(io_op::read, 200 * GiB, 64 * KiB);        // a long seek
    t += m->service(io_op::write, 200 * GiB + 64 * KiB, MiB); // sequential
    const model_counters k = m->counters();
    EXPECT_GT(k.seek_s, 0.0);
    const double expected = k.seek_s * hdd.energy().p_seek_w + (t - k.seek_s) * hdd.energy().p_active_w;
    EXPECT_NEAR(k.energy.total_j(), expected, 1e-12);
    EXPECT_DOUBLE_EQ(m->idle_power_w(), 7.5);
}

TEST(ModelEnergy, ModelsWithoutFiguresSayUnknownAndChargeNothing) {
    for (const char* preset : {"nvme-gen4", "hdd-modern"}) {
        auto m = make_model(preset);
        EXPECT_FALSE(m->has_energy()) << preset;
        m->service(io_op::write, 0, MiB);
        EXPECT_EQ(m->counters().energy.total_j(), 0.0) << preset;
    }
    for (const char* preset : {"hama-ssd-2009", "barracuda-7200.11", "chip-a-slc2", "chip-c-mlc64"})
        EXPECT_TRUE(make_model(preset)->has_energy()) << preset;
    // Figures given as overrides make a model's energy known; they change no time.
    auto plain = make_model("nvme-gen4", {{"capacity", "1GiB"}, {"units", "8"}});
    auto with = make_model("nvme-gen4", {{"capacity", "1GiB"},
                                         {"units", "8"},
                                         {"e_read_nj_per_bit", "0.1"},
                                         {"e_prog_nj_per_bit", "1"},
                                         {"e_erase_nj_per_bit", "0.05"}});
    EXPECT_TRUE(with->has_energy());
    EXPECT_EQ(plain->service(io_op::write, 0, MiB), with->service(io_op::write, 0, MiB));
    EXPECT_EQ(plain->service(io_op::read, 0, MiB), with->service(io_op::read, 0, MiB));
    EXPECT_GT(with->counters().energy.total_j(), 0.0);
}

TEST(ModelEnergy, BlockMappedMergeCostsTheChunksReadsProgramsAndOneErase) {
    auto m = make_model("hama-ssd-2009-block-mapped", {{"capacity", "64MiB"}});
    auto& ssd = dynamic_cast<block_mapped_ssd&>(*m);
    m->service(io_op::write, 4 * KiB, 4 * KiB); // mid-chunk: a merge
    const model_counters k = m->counters();
    ASSERT_EQ(k.merges, 1u);
    const std::uint64_t C = ssd.cfg().chunk, P = ssd.cfg().page;
    EXPECT_EQ(k.pages_read, C / P);
    EXPECT_EQ(k.pages_programmed, C / P);
    EXPECT_EQ(k.erases, 1u);
    const flash_energy& e = ssd.energy();
    const double expected =
        double(C) * 8e-9 * (e.e_read_nj_per_bit + e.e_prog_nj_per_bit + e.e_erase_nj_per_bit);
    EXPECT_TRUE(within(k.energy.total_j(), expected, 1e-9));
}

TEST(ModelEnergy, EmulatedFileChargesEachRoleItsRequestsAndTheIdleGapBeforeThem) {
    modelled_clock clock;
    auto hdd = emulated("barracuda-7200.11", 1 * GiB, clock);
    io_buffer buf(1 * MiB);
    std::memset(buf.data, 1, 1 * MiB);
    hdd->submit(io_op::write, buf.data, 0, 1 * MiB, role::scratch)->wait(false);
    clock.wait_until(hdd->free_at_s());
    const double first = hdd->stats().total.modelled_energy_j;
    const double after_first = hdd->model()->counters().energy.total_j();
    EXPECT_DOUBLE_EQ(first, after_first); // no idle before the first request at host time 0
    clock.compute(2.0);                   // the host computes: the disk idles 2 s
    hdd->submit(io_op::read, buf.data, 0, 1 * MiB, role::stream)->wait(false);
    const device_stats s = hdd->stats();
    const double ops = hdd->model()->counters().energy.total_j();
    EXPECT_NEAR(s.total.modelled_energy_j, ops + 2.0 * 7.5, 1e-9);
    EXPECT_NEAR(s.of(role::stream).modelled_energy_j, ops - after_first + 2.0 * 7.5, 1e-9);
    EXPECT_NEAR(s.of(role::scratch).modelled_energy_j, first, 1e-12);
    EXPECT_TRUE(s.total.energy_known && s.of(role::hot).energy_known);
    // A model without figures: every slot says unknown, and sums with it stay unknown.
    auto nvme = emulated("nvme-gen4", 64 * MiB, clock);
    nvme->submit(io_op::write, buf.data, 0, 1 * MiB, role::scratch)->wait(false);
    const device_stats n = nvme->stats();
    EXPECT_FALSE(n.total.energy_known || n.of(role::scratch).energy_known || n.internal.energy_known);
    EXPECT_EQ(n.total.modelled_energy_j, 0.0);
    EXPECT_FALSE(machine_total({s, n}).energy_known);
    EXPECT_TRUE(machine_total({s, s}).energy_known);
    EXPECT_NEAR(machine_total({s, s}).modelled_energy_j, 2 * s.total.modelled_energy_j, 1e-9);
}
