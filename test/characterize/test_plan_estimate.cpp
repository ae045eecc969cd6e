// The --dry-run write estimate is an upper bound of what the runner writes, and close to it on fast devices.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/file_target.hpp"
#include "flashxxl/characterize/plan_estimate.hpp"
#include "flashxxl/characterize/plans.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/characterize/target.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::GiB;
using flashxxl::KiB;
using flashxxl::MiB;

namespace {

//! A "real" (measured) target that does no I/O: each request takes latency + length / rate
//! seconds, pauses take no time. Counts the bytes written.
class timed_target : public ch::target {
public:
    timed_target(std::uint64_t capacity, double bytes_per_s, double latency_s)
        : guard_("timed", capacity, 4096), rate_(bytes_per_s), latency_(latency_s) {}
    std::uint64_t written = 0;
    std::string name() const override { return "timed"; }
    std::string kind() const override { return "test"; }
    bool modelled() const override { return false; }

protected:
    const ch::io_guard& guard() const override { return guard_; }
    double do_io(flashxxl::io_op op, std::uint64_t, std::uint64_t length) override {
        if (op == flashxxl::io_op::write) written += length;
        return latency_ + double(length) / rate_;
    }

private:
    ch::io_guard guard_;
    double rate_, latency_;
};

//! The plan the CLI runs on a real target (`--plan NAME`), spans resolved.
std::vector<ch::experiment_step> cli_plan(const std::string& name, std::uint64_t capacity, double time_s) {
    ch::plan_options po;
    po.alignment = 4096;
    po.span = capacity;
    if (name == "quick") po.repeats = 1;
    po.time_s = time_s;
    po.between_s = 0;
    po.burst_window_s = time_s;
    po.burst_windows = 3;
    auto steps = ch::parse_experiments(ch::plan_text(name, po), "plan " + name);
    ch::check_experiments(steps, capacity, 4096);
    return steps;
}

struct measured {
    std::uint64_t estimate, actual;
};
measured run(const std::vector<ch::experiment_step>& steps, ch::target& t, const std::uint64_t& written) {
    measured m{ch::estimate_plan(steps).bytes_written, 0};
    ch::runner r(t);
    ch::characterization c = r.run(steps);
    m.actual = c.bytes_written;
    EXPECT_EQ(m.actual, written) << "the runner's byte count disagrees with the target's";
    return m;
}

} // namespace

// The reported case: the quick plan on a 256 MiB file of a fast SSD. The old estimate assumed
// 100 MiB/s for time-limited writes and left out self-scaling sizes: 1.71 GiB estimated,
// 73.5 GiB written (here at 3 GB/s: 1.71 GiB estimated, 40.1 GiB written). Now each
// time-limited point writes at most one span and the estimate bounds what is written.
TEST(plan_estimate, quick_plan_on_a_fast_device_is_bounded_and_close) {
    const std::uint64_t cap = 256 * MiB;
    timed_target t(cap, 3e9, 10e-6);
    measured m = run(cli_plan("quick", cap, 0.5), t, t.written);
    std::printf("quick, 256 MiB, 3 GB/s: estimate %.2f GiB, written %.2f GiB\n", double(m.estimate) / GiB,
                double(m.actual) / GiB);
    EXPECT_GE(m.estimate, m.actual);
    // the estimate counts every size up to max=128MiB; self-scaling stopped earlier here
    EXPECT_LE(double(m.estimate), 1.5 * double(m.actual)) << "estimate far above the actual writes";
    EXPECT_LE(m.estimate, 49 * cap) << "the quick plan may write more than fill + 48 points x one span";
}

// A slow device: the time limits end the runs first; the estimate is still an upper bound.
TEST(plan_estimate, every_plan_on_a_slow_device_is_bounded) {
    for (const std::string name : {"quick", "ajwani", "stride"}) {
        const std::uint64_t cap = 16 * MiB;
        timed_target t(cap, 50e6, 200e-6);
        measured m = run(cli_plan(name, cap, 0.01), t, t.written);
        EXPECT_GE(m.estimate, m.actual) << name;
        EXPECT_GT(m.actual, 0u) << name;
    }
}

// Every plan on a fast device: bounded, and time-limited writes stay within a few spans.
TEST(plan_estimate, every_plan_on_a_fast_device_is_bounded) {
    for (const std::string name : {"quick", "ajwani", "stride"}) {
        const std::uint64_t cap = 16 * MiB;
        timed_target t(cap, 4e9, 5e-6);
        measured m = run(cli_plan(name, cap, 0.05), t, t.written);
        EXPECT_GE(m.estimate, m.actual) << name;
        EXPECT_LE(double(m.estimate), 1.25 * double(m.actual)) << name;
    }
}

// Count-limited runs, mixes, fills, random-state, bursts and write-then-read in one file: exact
// or bounded.
TEST(plan_estimate, experiment_file_steps_are_bounded) {
    const std::uint64_t cap = 8 * MiB;
    std::string text =
        "fill block=1MiB\n"
        "random_state min=4KiB max=64KiB bytes=1MiB\n"
        "run op=write order=rand block=16KiB count=100\n"
        "run op=read order=seq block=8KiB mix=RW ratio=3 count=101\n"
        "run op=write order=seq block=64KiB time=0.5 repeat=2\n"
        "run op=read order=rand block=4KiB mix=SW ratio=1 time=0.5\n"
        "sweep patterns=SW,RW@8KiB from=4KiB to=64KiB max=1MiB selfscale=no fill=1MiB time=0.5\n"
        "burst burst_block=8KiB burst_time=0.5 seq_block=64KiB windows=4 window=0.5 fill=1MiB\n"
        "write_read block=4KiB length=4 stride=64KiB repeat=8\n";
    auto steps = ch::parse_experiments(text, "t.txt");
    ch::check_experiments(steps, cap, 4096);
    timed_target t(cap, 4e9, 5e-6);
    measured m = run(steps, t, t.written);
    EXPECT_GE(m.estimate, m.actual);
    EXPECT_LE(double(m.estimate), 1.1 * double(m.actual));
}

// A real (small) file target: what reaches the file is what the estimate bounds.
TEST(plan_estimate, quick_plan_on_a_small_file_is_bounded) {
    std::string path = ::testing::TempDir() + "flashxxl_estimate_target.img";
    std::remove(path.c_str());
    const std::uint64_t cap = 4 * MiB;
    std::unique_ptr<ch::file_target> f;
    try {
        f = std::make_unique<ch::file_target>(path, cap);
    } catch (const flashxxl::io_failure& e) {
        GTEST_SKIP() << "no O_DIRECT file system for the temp dir: " << e.what();
    }
    f->remove_on_close(true);
    auto steps = cli_plan("quick", cap, 0.02);
    std::uint64_t estimate = ch::estimate_plan(steps).bytes_written;
    ch::runner r(*f);
    ch::characterization c = r.run(steps);
    std::printf("quick, 4 MiB file, 0.02 s: estimate %.1f MiB, written %.1f MiB\n", double(estimate) / MiB,
                double(c.bytes_written) / MiB);
    EXPECT_GE(estimate, c.bytes_written);
}

// The write-volume limit: 64 x the target by default (--force lifts it), --max-write instead.
TEST(plan_estimate, write_volume_limit_names_estimate_size_multiple_and_the_way_out) {
    const std::uint64_t cap = 256 * MiB;
    EXPECT_NO_THROW(ch::check_write_volume(64 * cap, cap, "t.img", std::nullopt, false));
    try {
        ch::check_write_volume(64 * cap + 4096, cap, "t.img", std::nullopt, false);
        FAIL() << "65 x the target accepted";
    } catch (const flashxxl::config_error& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("'t.img'"), std::string::npos) << m;
        EXPECT_NE(m.find("64.0 x its size of 256 MiB"), std::string::npos) << m;
        EXPECT_NE(m.find("default limit of 64 x the target (16 GiB)"), std::string::npos) << m;
        EXPECT_NE(m.find("--max-write SIZE"), std::string::npos) << m;
        EXPECT_NE(m.find("--force"), std::string::npos) << m;
    }
    EXPECT_NO_THROW(ch::check_write_volume(1000 * cap, cap, "t.img", std::nullopt, true));
    EXPECT_NO_THROW(ch::check_write_volume(1000 * cap, cap, "t.img", 1000 * cap, false));
    EXPECT_THROW(ch::check_write_volume(2 * MiB, cap, "t.img", 1 * MiB, true), flashxxl::config_error)
        << "--force lifted an explicit --max-write";
}

// Counts x blocks x repeats beyond 64 bits saturate instead of wrapping to a small bound that
// passed the 64 x limit (reported: 2 x 512 repeats of 2^29 writes of 32 MiB, plus 2 GiB,
// estimated "at most 2 GiB"; one run of 2^29 writes of 32 GiB estimated 0 B).
TEST(plan_estimate, bounds_beyond_64_bits_saturate_and_exceed_every_limit) {
    const std::uint64_t cap = 1 * GiB;
    auto wrapped = ch::parse_experiments("run op=write order=seq block=32MiB count=536870912 repeat=512\n"
                                         "run op=write order=seq block=32MiB count=536870912 repeat=512\n"
                                         "run op=write order=seq block=32MiB count=64\n",
                                         "ovf4.txt");
    ch::check_experiments(wrapped, cap, 4096);
    const std::uint64_t all_ones = std::numeric_limits<std::uint64_t>::max();
    ch::plan_cost c = ch::estimate_plan(wrapped);
    EXPECT_EQ(c.bytes_written, all_ones);
    EXPECT_THROW(ch::check_write_volume(c.bytes_written, cap, "t.img", std::nullopt, false),
                 flashxxl::config_error);
    EXPECT_THROW(ch::check_write_volume(c.bytes_written, cap, "t.img", all_ones - 1, false),
                 flashxxl::config_error);
    try {
        ch::check_write_volume(c.bytes_written, cap, "t.img", std::nullopt, false);
    } catch (const flashxxl::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("beyond 64-bit arithmetic"), std::string::npos) << e.what();
    }

    // a single run whose product is exactly 2^64, and reads of the same size
    const std::uint64_t big = 64 * GiB;
    for (const char* op : {"write", "read"}) {
        auto one = ch::parse_experiments(
            std::string("run op=") + op + " order=seq block=32GiB count=536870912\n", "ovf.txt");
        ch::check_experiments(one, big, 4096);
        ch::plan_cost o = ch::estimate_plan(one);
        EXPECT_EQ(std::string(op) == "write" ? o.bytes_written : o.bytes_read, all_ones) << op;
        EXPECT_GT(o.seconds, 1e6) << op;
    }
}

TEST(plan_estimate, saturating_helpers) {
    EXPECT_EQ(ch::format_bound(ch::saturated_bytes).rfind("more than ", 0), 0u)
        << ch::format_bound(ch::saturated_bytes);
    EXPECT_EQ(ch::format_bound(2 * GiB), "2 GiB");
    EXPECT_EQ(ch::saturating_add(ch::saturated_bytes - 1, 2), ch::saturated_bytes);
    EXPECT_EQ(ch::saturating_mul(std::uint64_t(1) << 32, std::uint64_t(1) << 32), ch::saturated_bytes);
    EXPECT_EQ(ch::saturating_mul(3, 5), 15u);
    EXPECT_EQ(ch::saturating_bytes(1e30), ch::saturated_bytes);
}
