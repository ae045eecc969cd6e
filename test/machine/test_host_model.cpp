// Tests of host time on the virtual clock: the host= config line, the 2008 host's charges in streams and
// sorts, overlap with I/O, host=none leaving modelled time as it was, and determinism.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/device/host_model.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

//! A lone emulated device (`model`) on a machine with `host_line` ("" for none at all).
machine lone_device(const std::string& model, const std::string& host_line) {
    const std::string klass = model == "barracuda-7200.11" ? "disk" : "flash";
    return machine::from_config_text("name=host-test\n" + klass + "=memory,1GiB,memory name=dev model=" +
                                         model + "\n" + host_line + "\nplacement=single device=dev\n",
                                     "host test");
}

const block_sizes blocks(256 * KiB, 256 * KiB);

//! Writes `n` random 8-byte items to `v`.
void fill(vector<std::uint64_t>& v, std::uint64_t n) {
    vector<std::uint64_t>::stream_writer w(v);
    std::mt19937_64 rng(7);
    for (std::uint64_t i = 0; i < n; ++i)
        w.push(rng());
    w.finish();
}

//! Sums `v` with a stream reader.
std::uint64_t scan(vector<std::uint64_t>& v) {
    std::uint64_t sum = 0;
    for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r)
        sum += *r;
    return sum;
}

//! Modelled time of writing, scanning and sorting `n` items on `m` with budget `memory`.
struct workload_times {
    modelled_time write, scan, sort;
    std::uint64_t passes = 0;
};
workload_times run_workload(machine& m, std::uint64_t n, std::uint64_t memory) {
    workload_times t;
    vector<std::uint64_t> v(m, vector<std::uint64_t>::min_memory(blocks), blocks, role::stream);
    modelled_time t0 = m.modelled();
    fill(v, n);
    t.write = m.modelled() - t0;
    t0 = m.modelled();
    EXPECT_NE(scan(v), 0u);
    t.scan = m.modelled() - t0;
    t0 = m.modelled();
    t.passes = sort(v, std::less<std::uint64_t>(), memory).passes;
    t.sort = m.modelled() - t0;
    return t;
}

} // namespace

TEST(HostModel, PresetsAndNames) {
    EXPECT_FALSE(host_model_none().charges());
    const host_model h = host_model_2008();
    EXPECT_TRUE(h.charges());
    EXPECT_DOUBLE_EQ(h.write_item_s, 0.2e-6);
    EXPECT_DOUBLE_EQ(h.read_item_s, 0.3e-6);
    // seeds/000 Table 2.1's merge sort per double: one scan, two writes, two sort passes.
    EXPECT_NEAR(h.read_item_s + 2 * h.write_item_s + 2 * h.sort_item_s, 1.06e-6, 1e-15);
    EXPECT_TRUE(is_host_model_name("measured"));
    EXPECT_FALSE(is_host_model_name("2009"));
    const host_model measured = make_host_model("measured", "test");
    EXPECT_GT(measured.write_item_s, 0);
    EXPECT_GT(measured.sort_compare_s, 0);
    EXPECT_EQ(measured.sort_item_s, 0);
    // A sort pass grows with log2 of what it orders: a run of 2^20 items twice a 1024-way merge.
    EXPECT_DOUBLE_EQ(measured.sort_pass_item_s(1 << 20), 2 * measured.sort_pass_item_s(1024));
    EXPECT_DOUBLE_EQ(h.sort_pass_item_s(1 << 20), h.sort_item_s); // the 2008 host: flat per pass
    // The running machine's threads share a pass; the 2008 host's figures do not depend on them.
    EXPECT_TRUE(measured.sort_parallel);
    EXPECT_DOUBLE_EQ(measured.sort_pass_item_s(1 << 20, 4), measured.sort_pass_item_s(1 << 20) / 4);
    EXPECT_DOUBLE_EQ(h.sort_pass_item_s(1 << 20, 4), h.sort_item_s);
}

TEST(HostModel, ASortPassChargesNLogN) {
    // Sorting in memory on a host with only a per-comparison cost: 4x the items take more than
    // 4x the modelled CPU (log2 n grows), exactly by the log ratio.
    host_model h;
    h.name = "compare only";
    h.sort_compare_s = 1e-9;
    auto sort_cpu = [&](std::uint64_t n) {
        machine m = machine::from_config_text(
            "name=h\nflash=memory,256MiB,memory name=ssd\nplacement=single device=ssd\n", "host-test");
        m.set_host(h);
        sorter<std::uint64_t> s(m, 64 * MiB, block_sizes(64 * KiB, 256 * KiB));
        for (std::uint64_t i = 0; i < n; ++i)
            s.push(n - i);
        const modelled_time t0 = m.modelled();
        s.sort();
        for (; !s.empty(); ++s) {
        }
        return (m.modelled() - t0).elapsed_s;
    };
    const double small = sort_cpu(1 << 16), large = sort_cpu(1 << 18);
    EXPECT_NEAR(small, double(1 << 16) * 16e-9, 1e-12);
    EXPECT_NEAR(large / small, 4.0 * 18 / 16, 1e-9);
}

TEST(HostModel, ConfigLine) {
    EXPECT_EQ(parse_machine_config("disk=memory,1GiB,memory\n").host, "none");
    const machine_spec s = parse_machine_config("disk=memory,1GiB,memory\nhost=2008\n", "cfg");
    EXPECT_EQ(s.host, "2008");
    EXPECT_EQ(s.host_origin, "cfg:2");
    machine m = lone_device("barracuda-7200.11", "host=2008");
    EXPECT_EQ(m.host().name, "2008");
    struct bad_case {
        const char* text;
        const char* expected;
    };
    for (const bad_case& c :
         {bad_case{"disk=memory,1GiB,memory\nhost=2009\n", "cfg:2: field 'host': unknown host"},
          bad_case{"host=2008\nhost=none\ndisk=memory,1GiB,memory\n", "cfg:2: field 'host'"},
          bad_case{"host=2008 fast=on\ndisk=memory,1GiB,memory\n", "takes no options"}}) {
        try {
            parse_machine_config(c.text, "cfg");
            ADD_FAILURE() << c.text;
        } catch (const config_error& e) {
            EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
        }
    }
    machine_options o;
    o.host = "2008";
    EXPECT_EQ(preset_machine_spec("hybrid-2009", o).host, "2008");
    o.host = "fast";
    EXPECT_THROW(preset_machine_spec("hybrid-2009", o), config_error);
}

// host=none and no host line give the same modelled figures to the last bit: I/O time only.
TEST(HostModel, NoneLeavesModelledTimeAsItWas) {
    machine plain = lone_device("hama-ssd-2009", "");
    machine none = lone_device("hama-ssd-2009", "host=none");
    const workload_times a = run_workload(plain, 1 << 20, 8 * MiB);
    const workload_times b = run_workload(none, 1 << 20, 8 * MiB);
    EXPECT_EQ(a.write.elapsed_s, b.write.elapsed_s);
    EXPECT_EQ(a.scan.io_wait_s, b.scan.io_wait_s);
    EXPECT_EQ(a.sort.elapsed_s, a.sort.io_wait_s); // nothing but waiting moves the clock
    EXPECT_EQ(a.write.elapsed_s, a.write.io_wait_s);
}

// On the HDD the 2008 host is the bottleneck (seeds/000 Table 2.1's HDD rows): the clock moves by
// exactly the charged CPU plus the I/O wait, the CPU per item is the fitted cost, and most of the
// I/O hides behind it.
TEST(HostModel, HddStreamsAndSortAreCpuBound) {
    machine m = lone_device("barracuda-7200.11", "host=2008");
    const std::uint64_t n = 1 << 22; // 32 MiB of items, runs of at most 8 MiB: one merge pass
    const workload_times t = run_workload(m, n, 8 * MiB);
    ASSERT_EQ(t.passes, 2u); // the input read, then one merge pass
    const host_model h = host_model_2008();
    EXPECT_NEAR(t.write.elapsed_s - t.write.io_wait_s, double(n) * h.write_item_s, 1e-9);
    EXPECT_NEAR(t.scan.elapsed_s - t.scan.io_wait_s, double(n) * h.read_item_s, 1e-9);
    EXPECT_NEAR(t.sort.elapsed_s - t.sort.io_wait_s, double(n) * 1.06e-6, 1e-9);
    // CPU-bound: the I/O waits are a small part (32 MiB at ~88 MB/s is 0.38 s per pass, the
    // CPU 0.84 s to write and 1.26 s to scan).
    EXPECT_LT(t.write.io_wait_s, 0.25 * t.write.elapsed_s);
    EXPECT_LT(t.scan.io_wait_s, 0.25 * t.scan.elapsed_s);
    EXPECT_GT(t.sort.elapsed_s, t.sort.io_wait_s);
}

// On the SSD the writes take longer than the host's CPU; with write-behind the elapsed time is
// about the larger of the two, not their sum.
TEST(HostModel, CpuOverlapsWithIo) {
    machine cpu = lone_device("hama-ssd-2009", "host=2008");
    machine io_only = lone_device("hama-ssd-2009", "host=none");
    const std::uint64_t n = 1 << 21;
    const workload_times a = run_workload(cpu, n, 8 * MiB);
    const workload_times b = run_workload(io_only, n, 8 * MiB);
    const double cpu_write = double(n) * host_model_2008().write_item_s;
    EXPECT_GT(a.write.elapsed_s, b.write.elapsed_s);
    EXPECT_LT(a.write.elapsed_s, b.write.elapsed_s + 0.5 * cpu_write);
    EXPECT_GT(a.sort.elapsed_s, b.sort.elapsed_s);
    EXPECT_LT(a.sort.elapsed_s, b.sort.elapsed_s + double(n) * 1.06e-6);
}

// With a charging host the same run gives the same modelled figures to the last bit: the sort's
// threads never move the virtual clock. (host=none keeps the sorter's background run formation,
// whose writes can reach the device before or after the caller's reads: its sort figures may
// differ in the last digits from run to run, as before hosts were modelled.)
TEST(HostModel, Deterministic) {
    for (const char* host : {"host=2008"}) {
        machine a = lone_device("hama-ssd-2009", host);
        machine b = lone_device("hama-ssd-2009", host);
        const workload_times x = run_workload(a, 1 << 20, 8 * MiB);
        const workload_times y = run_workload(b, 1 << 20, 8 * MiB);
        EXPECT_EQ(x.sort.elapsed_s, y.sort.elapsed_s) << host;
        EXPECT_EQ(x.sort.io_wait_s, y.sort.io_wait_s) << host;
        EXPECT_EQ(x.scan.elapsed_s, y.scan.elapsed_s) << host;
    }
}
