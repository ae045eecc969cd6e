// The cost of what happened: cost_model figures, named phases, per-structure meters and their JSON document.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/cost_report.hpp"
#include "flashxxl/cost/named_structure.hpp"
#include "flashxxl/cost/phase.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

machine hama_machine() {
    return machine::from_config_text("name=hama\nflash=memory,256MiB,memory name=ssd model=hama-ssd-2009\n"
                                     "placement=single device=ssd\n",
                                     "cost-test");
}

//! Pushes `n` random keys into `s` and reads them back sorted; returns how many came out.
std::uint64_t sort_through(sorter<std::uint64_t>& s, std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (std::uint64_t i = 0; i < n; ++i)
        s.push(rng());
    s.sort();
    std::uint64_t out = 0;
    for (; !s.empty(); ++s)
        ++out;
    return out;
}

} // namespace

TEST(CostModel, FiguresAreReadsInBrWritesInBwAndTheirVolume) {
    io_counters c;
    c.read_bytes = 10 * 128 * KiB;
    c.write_bytes = 3 * MiB;
    c.modelled_s = 2.5;
    cost_figures f = cost_model{128 * KiB, MiB}.cost(c);
    EXPECT_DOUBLE_EQ(f.reads, 10);
    EXPECT_DOUBLE_EQ(f.writes, 3);
    EXPECT_DOUBLE_EQ(f.unit_cost_bytes, double(10 * 128 * KiB + 3 * MiB));
    EXPECT_DOUBLE_EQ(f.write_penalty, 1);
    EXPECT_DOUBLE_EQ(f.flash_cost, 13);
    EXPECT_DOUBLE_EQ(f.modelled_s, 2.5);
    EXPECT_DOUBLE_EQ(f.priced_modelled_s, 0); // no device model: no time per block
}

TEST(CostModel, TheDeviceModelGivesTheWritePenaltyAndTimePerBlock) {
    machine m = hama_machine();
    cost_model model = cost_model::for_device(m.dev(0), block_sizes(128 * KiB, 16 * MiB));
    EXPECT_GT(model.read_block_s(), 0);
    EXPECT_GT(model.write_block_s(), model.read_block_s()); // a 16 MiB write takes longer than a 128 KiB read
    EXPECT_NEAR(model.write_penalty(), model.write_block_s() / model.read_block_s(), 1e-12);
    io_counters c;
    c.read_bytes = 4 * 128 * KiB;
    c.write_bytes = 2 * 16 * MiB;
    cost_figures f = model.cost(c);
    EXPECT_NEAR(f.flash_cost, 4 + 2 * model.write_penalty(), 1e-9);
    EXPECT_NEAR(f.priced_modelled_s, 4 * model.read_block_s() + 2 * model.write_block_s(), 1e-12);
}

TEST(CostModel, TwoSortersOfOneRoleAreCountedApartByName) {
    machine m = hama_machine();
    const block_sizes b(64 * KiB, 256 * KiB);
    named_structure small("small sorter", 4 * MiB), large("large sorter", 4 * MiB);
    phase_log log;
    {
        phase whole(m, "both sorts", &log);
        sorter<std::uint64_t> s1(m, small.budget(), b);
        sorter<std::uint64_t> s2(m, large.budget(), b);
        EXPECT_EQ(sort_through(s1, 1 << 20, 1), 1u << 20); // 8 MiB: runs on the device
        EXPECT_EQ(sort_through(s2, 3 << 20, 2), 3u << 20); // 24 MiB
    }
    ASSERT_EQ(log.size(), 1u);
    const io_counters a = small.counters(), c = large.counters();
    // Each sorter wrote its input once at least (runs) and read it back.
    EXPECT_GE(a.write_bytes, 8 * MiB);
    EXPECT_GE(c.write_bytes, 24 * MiB);
    EXPECT_GE(a.read_bytes, 8 * MiB);
    EXPECT_GT(c.write_bytes, 2 * a.write_bytes);
    // Together they are all of the phase's scratch I/O, nothing lost or counted twice.
    const io_counters scratch = log[0].devices[0].of(role::scratch);
    EXPECT_EQ(a.read_bytes + c.read_bytes, scratch.read_bytes);
    EXPECT_EQ(a.write_bytes + c.write_bytes, scratch.write_bytes);
    EXPECT_EQ(a.read_ops + c.read_ops, scratch.read_ops);
    EXPECT_EQ(a.write_ops + c.write_ops, scratch.write_ops);
}

TEST(CostModel, APhaseRecordsOnlyItsOwnSpan) {
    machine m = hama_machine();
    const block_sizes b(64 * KiB, 256 * KiB);
    phase_log log;
    vector<std::uint64_t> v(m, 4 * MiB, b);
    {
        phase fill(m, "fill", &log);
        vector<std::uint64_t>::stream_writer w(v);
        for (std::uint64_t i = 0; i < (1 << 20); ++i)
            w.push(i);
    }
    {
        phase scan(m, "scan", &log);
        std::uint64_t sum = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r)
            sum += *r;
        EXPECT_EQ(sum, (std::uint64_t(1) << 20) * ((1 << 20) - 1) / 2);
    }
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[0].name, "fill");
    const cost_model model = cost_model::for_device(m.dev(0), b);
    const cost_figures fill = model.cost(log[0].devices), scan = model.cost(log[1].devices);
    EXPECT_EQ(fill.write_bytes, 8 * MiB);
    EXPECT_EQ(fill.read_bytes, 0u);
    EXPECT_EQ(scan.read_bytes, 8 * MiB);
    EXPECT_EQ(scan.write_bytes, 0u);
    EXPECT_DOUBLE_EQ(fill.writes, 32); // 8 MiB in 256 KiB blocks
    EXPECT_DOUBLE_EQ(scan.reads, 128); // 8 MiB in 64 KiB blocks
    EXPECT_GT(log[0].modelled.elapsed_s, 0);
    EXPECT_NEAR(scan.modelled_s, log[1].devices[0].total.modelled_s, 1e-12);
}

TEST(CostModel, OneJsonDocumentHoldsPhasesAndStructures) {
    machine m = hama_machine();
    const block_sizes b(64 * KiB, 256 * KiB);
    cost_report report(cost_model::for_device(m.dev(0), b));
    named_structure keys("keys", 4 * MiB);
    report.add(keys);
    {
        phase p(m, "sort keys", &report.phases());
        sorter<std::uint64_t> s(m, keys.budget(), b);
        sort_through(s, 1 << 19, 3);
    }
    nlohmann::json j = report.json();
    ASSERT_EQ(j["phases"].size(), 1u);
    ASSERT_EQ(j["structures"].size(), 1u);
    EXPECT_EQ(j["phases"][0]["name"], "sort keys");
    EXPECT_EQ(j["structures"][0]["name"], "keys");
    EXPECT_EQ(j["structures"][0]["wrv_bytes"].get<std::uint64_t>(), keys.counters().write_bytes);
    EXPECT_EQ(j["phases"][0]["wrv_bytes"].get<std::uint64_t>(), keys.counters().write_bytes);
    EXPECT_TRUE(j["phases"][0]["devices"].contains("ssd"));
    EXPECT_GT(j["phases"][0]["modelled_elapsed_s"].get<double>(), 0);
    EXPECT_GT(j["write_penalty"].get<double>(), 0);
}
