// Memory of a characterization: bounded independently of the request count, within estimate_memory(), and the
// per-IO log complete.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp" // replaces operator new: this is its one unit in this executable
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/io_log.hpp"
#include "flashxxl/characterize/json_report.hpp"
#include "flashxxl/characterize/memory_estimate.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/error.hpp"

namespace ch = flashxxl::characterize;
using tracker = flashxxl_test::alloc_tracker;

namespace {

//! Counts the characters and lines written to it and keeps none: a per-IO log of millions of
//! rows without holding them.
class counting_buf : public std::streambuf {
public:
    std::uint64_t lines = 0, chars = 0;

protected:
    int_type overflow(int_type c) override {
        if (c != traits_type::eof()) {
            ++chars;
            if (c == '\n') ++lines;
        }
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        for (std::streamsize i = 0; i < n; ++i)
            if (s[i] == '\n') ++lines;
        chars += std::uint64_t(n);
        return n;
    }
};

struct measured {
    std::uint64_t ios = 0;
    std::size_t records = 0;     // run records
    std::int64_t peak = 0;       // heap peak of the test thread while the plan ran
    std::int64_t live_after = 0; // heap still held when it returned: the results
    std::size_t reported = 0;    // characterization::memory_usage()
    ch::plan_memory bound;
    std::uint64_t log_rows = 0; // rows of the streamed per-IO log
};

std::string one_run(std::uint64_t count) {
    return "run op=read order=rand block=4KiB count=" + std::to_string(count) + " span=1GiB label=big\n";
}

//! A model target that counts the requests it serves.
class counting_target : public ch::model_target {
public:
    using ch::model_target::model_target;
    std::uint64_t requests = 0;

protected:
    double do_io(flashxxl::io_op op, std::uint64_t offset, std::uint64_t length) override {
        ++requests;
        return ch::model_target::do_io(op, offset, length);
    }
};

measured run_plan(const std::string& plan, bool plot_data, bool with_log) {
    measured m;
    ch::model_target t(flashxxl::make_model("hama-ssd-2009"), "hama-ssd-2009");
    auto steps = ch::parse_experiments(plan, "t");
    auto checked = steps;
    ch::check_experiments(checked, t.capacity(), t.alignment());
    m.bound = ch::estimate_memory(checked, ch::recorder_limits{}, plot_data);
    counting_buf buf;
    std::ostream sink(&buf);
    ch::io_log_writer writer(sink, 0);
    ch::runner_options o;
    o.plot_data = plot_data;
    if (with_log) o.observer = &writer;
    ch::runner r(t, o);
    tracker::start();
    {
        ch::characterization c = r.run(steps);
        m.live_after = tracker::live().load();
        tracker::stop();
        m.peak = tracker::peak().load();
        m.reported = c.memory_usage();
        for (const auto& run : c.runs)
            m.ios += run.ios;
        m.records = c.runs.size();
    }
    m.log_rows = buf.lines - 1; // less the header
    return m;
}

} // namespace

// The response times of one run no longer go into a vector of 8 bytes per request: 10^4 and 10^6
// requests run within the same bound, and so do 4 x 10^6 (where the old vector alone held 32 MB).
TEST(characterize_memory, one_run_does_not_grow_with_its_request_count) {
    measured small = run_plan(one_run(10000), true, false);
    measured large = run_plan(one_run(1000000), true, true);
    measured larger = run_plan(one_run(4000000), true, false);
    ASSERT_EQ(small.ios, 10000u);
    ASSERT_EQ(large.ios, 1000000u);
    ASSERT_EQ(larger.ios, 4000000u);
    // the bound does not depend on the count, and each run stays within it
    EXPECT_EQ(small.bound.total(), large.bound.total());
    const std::int64_t bound = std::int64_t(large.bound.results_bytes + large.bound.working_bytes);
    for (const measured* m : {&small, &large, &larger}) {
        EXPECT_LE(m->peak, bound) << m->ios << " requests";
        EXPECT_LE(std::uint64_t(m->live_after), m->bound.results_bytes) << m->ios << " requests";
        EXPECT_LE(m->reported, m->bound.results_bytes) << m->ios << " requests";
        EXPECT_LE(std::int64_t(m->reported), m->live_after) << m->ios << " requests";
    }
    EXPECT_LT(large.peak, 8 * 1000000); // what times_s alone held before
    // past the exact prefix, four times the requests take no more memory, but for the number of
    // live segments, which varies between max_segments / 2 and max_segments as they merge
    const ch::recorder_limits limits;
    EXPECT_LE(larger.peak,
              large.peak + std::int64_t(limits.max_segments / 2 * ch::latency_accumulator::heap_bytes()));
    EXPECT_EQ(larger.reported, large.reported); // plot data at its cap in both
    std::printf(
        "heap peak: 1e4 requests %.2f MiB, 1e6 %.2f MiB, 4e6 %.2f MiB; results %zu / %zu / %zu bytes; "
        "bound %.2f MiB\n",
        small.peak / 1048576.0, large.peak / 1048576.0, larger.peak / 1048576.0, small.reported,
        large.reported, larger.reported, bound / 1048576.0);
    // the per-IO log streamed while the run went: one row per request
    EXPECT_EQ(large.log_rows, large.ios);
}

TEST(characterize_memory, without_plot_data_a_record_keeps_only_its_statistics) {
    measured m = run_plan(one_run(300000), false, false);
    EXPECT_EQ(m.reported, std::size_t(m.bound.results_bytes - ch::fixed_results_bytes))
        << "one record, no heap";
    EXPECT_LE(m.peak, std::int64_t(m.bound.results_bytes + m.bound.working_bytes));
}

TEST(characterize_memory, many_records_stay_within_the_estimate_and_the_log_is_complete) {
    std::string plan =
        "sweep patterns=SR,RR,SW,RW,RW@4KiB from=4KiB to=1MiB selfscale=no repeat=2 count=3000 span=1GiB\n"
        "burst burst_block=4KiB burst_time=1 seq_block=64KiB windows=5 window=0.5 fill=none span=64MiB\n"
        "run op=write order=rand block=512KiB shift=2KiB count=200000 ignore=auto span=1GiB "
        "label=a-label-longer-than-sso\n"
        "run op=read order=seq mix=RW ratio=3 block=64KiB count=5000 repeat=3 ignore=100 span=1GiB\n"
        "stride block=4KiB length=4 stride=64KiB repeat=500\n";
    measured m = run_plan(plan, true, true);
    EXPECT_EQ(m.bound.run_records, 5u * 9 * 2 + 1 + 3); // 9 sizes x 5 patterns x 2, the runs
    EXPECT_LE(m.peak, std::int64_t(m.bound.results_bytes + m.bound.working_bytes));
    EXPECT_LE(std::uint64_t(m.live_after), m.bound.results_bytes);
    EXPECT_EQ(m.log_rows, m.ios);
    EXPECT_EQ(m.records, m.bound.run_records); // no self-scaling: the bound is the count
}

TEST(characterize_memory, a_plan_beyond_the_budget_is_refused_before_any_request) {
    counting_target t(flashxxl::make_model("hama-ssd-2009"), "hama-ssd-2009");
    std::string plan;
    for (int i = 0; i < 50; ++i)
        plan += "run op=read order=rand block=4KiB count=1000000000 repeat=1000\n";
    auto steps = ch::parse_experiments(plan, "t");
    ch::runner_options o;
    o.memory_bytes = 64 * flashxxl::MiB;
    ch::runner r(t, o);
    try {
        r.run(steps);
        FAIL() << "50000 run records fit 64 MiB?";
    } catch (const flashxxl::config_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("--memory 64 MiB"), std::string::npos) << what;
        EXPECT_NE(what.find("50000 run records"), std::string::npos) << what;
    }
    EXPECT_EQ(t.requests, 0u) << "no request before the refusal";
    // the request count alone does not matter: one run of 10^9 requests fits the default budget
    auto one = ch::parse_experiments("run op=read order=rand block=4KiB count=1000000000\n", "t");
    ch::check_experiments(one, t.capacity(), t.alignment());
    EXPECT_LT(ch::estimate_memory(one).total(), ch::default_memory_budget / 16);
    EXPECT_NO_THROW(ch::check_memory(ch::estimate_memory(one), ch::default_memory_budget));
}

// The JSON report is the one part of the results that is built after the run: it stays within
// report_bytes_per_record per record.
TEST(characterize_memory, the_report_stays_within_its_allowance_per_record) {
    ch::model_target t(flashxxl::make_model("hama-ssd-2009"), "hama-ssd-2009");
    auto steps = ch::parse_experiments(
        "sweep patterns=SR,RR,SW,RW,RW@4KiB from=4KiB to=1MiB selfscale=no repeat=20 count=20 span=1GiB "
        "label=a-sweep-label-of-some-length\n"
        "stride block=4KiB length=4 stride=64KiB repeat=500\n",
        "t");
    auto checked = steps;
    ch::check_experiments(checked, t.capacity(), t.alignment());
    ch::plan_memory bound = ch::estimate_memory(checked);
    ch::runner r(t);
    ch::characterization c = r.run(steps);
    ch::recommendation rec = ch::recommend(c);
    tracker::start();
    std::size_t text_size = 0;
    {
        nlohmann::json j = ch::to_json(c, rec, ch::config_snippet(rec, "/x", 1 << 30, "ssd", true));
        std::string text = ch::to_json_text(j);
        text_size = text.size();
    }
    tracker::stop();
    const std::int64_t peak = tracker::peak().load();
    const std::uint64_t records = c.runs.size() + c.strides.size();
    EXPECT_GT(text_size, 0u);
    EXPECT_LE(std::uint64_t(peak), bound.report_bytes);
    EXPECT_LE(std::uint64_t(peak) / records, ch::report_bytes_per_record);
    std::printf("report: %llu records, heap peak %.1f KiB per record (allowance %llu KiB)\n",
                (unsigned long long)records, double(peak) / 1024.0 / double(records),
                (unsigned long long)(ch::report_bytes_per_record / 1024));
}
