// JSON, CSV, per-IO log and gnuplot outputs of a characterization on the Hama model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "flashxxl/characterize/csv_report.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/gnuplot_report.hpp"
#include "flashxxl/characterize/io_log.hpp"
#include "flashxxl/characterize/json_report.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/device/model_presets.hpp"

namespace ch = flashxxl::characterize;

namespace {
ch::characterization small_run(ch::request_observer* observer = nullptr) {
    ch::model_target t(flashxxl::make_model("hama-ssd-2009-block-mapped"), "hama-ssd-2009-block-mapped");
    ch::runner_options o;
    o.observer = observer;
    ch::runner r(t, o);
    return r.run(ch::parse_experiments(
        "sweep patterns=SR,RR,SW,RW,RW@4KiB from=64KiB to=1MiB selfscale=no repeat=2 count=20 span=1GiB\n"
        "burst burst_block=4KiB burst_time=1 seq_block=64KiB windows=5 window=0.5 fill=none span=64MiB\n"
        "run op=write order=rand block=512KiB shift=2KiB count=10 span=1GiB\n"
        "run op=write order=rand block=512KiB count=10 span=1GiB\n"
        "stride block=4KiB length=4 stride=64KiB repeat=5\n",
        "t"));
}
} // namespace

TEST(characterize_reports, json_has_units_in_keys_and_the_recommendation) {
    auto c = small_run();
    auto rec = ch::recommend(c);
    auto j = ch::to_json(c, rec, ch::config_snippet(rec, "/x", 1 << 30, "ssd", true));
    EXPECT_EQ(j["target"]["capacity_bytes"].get<std::uint64_t>(), c.capacity);
    EXPECT_TRUE(j["totals"].contains("modelled_device_s"));
    EXPECT_EQ(j["totals"]["written_bytes"].get<std::uint64_t>(), c.bytes_written); // not bytes_written
    EXPECT_EQ(j["totals"]["read_bytes"].get<std::uint64_t>(), c.bytes_read);
    EXPECT_EQ(j["runs"][0]["transferred_bytes"].get<std::uint64_t>(), c.runs[0].bytes); // not bytes
    EXPECT_EQ(j["runs"][0]["device_s"].get<double>(), c.runs[0].seconds);               // not seconds
    EXPECT_EQ(j["recommendation"]["bw_block_aligned_bytes"].get<std::uint64_t>(), 512u * 1024);
    EXPECT_TRUE(j["recommendation"]["bw_4k_granular_bytes"].is_null()); // sweep stopped at 1 MiB
    EXPECT_EQ(j["runs"].size(), c.runs.size());
    EXPECT_TRUE(j["runs"][0]["latency"].contains("p999_s"));
    EXPECT_EQ(j["bursts"][0]["window_mib_s"].size(), 5u);
    ASSERT_EQ(j["misalignment"].size(), 1u);
    EXPECT_LT(j["misalignment"][0]["ratio_to_aligned"].get<double>(), 0.5); // a merge per write
    EXPECT_EQ(j["strides"][0]["in_order"]["count"].get<std::size_t>(), 5u);
    // every numeric key of a run names its unit (or is a count)
    for (auto it = j["runs"][0].begin(); it != j["runs"][0].end(); ++it) {
        const std::string k = it.key();
        if (!it.value().is_number() || k == "line" || k == "repeat") continue;
        bool unit = k.find("_bytes") != std::string::npos || k.find("_s") != std::string::npos ||
                    k.find("_ios") != std::string::npos || k == "ios";
        EXPECT_TRUE(unit) << k;
    }
}

TEST(characterize_reports, csv_has_one_row_per_run_and_the_io_log_one_per_request) {
    std::ostringstream csv, log;
    ch::io_log_writer writer(log, 0);
    auto c = small_run(&writer); // the log streams while the plan runs
    ch::write_csv(csv, c);
    std::string s = csv.str();
    EXPECT_EQ(std::size_t(std::count(s.begin(), s.end(), '\n')), c.runs.size() + 1);
    EXPECT_EQ(s.rfind("experiment,line,pattern,mix,ratio,repeat,block_bytes", 0), 0u);
    std::string l = log.str();
    std::size_t requests = 0;
    for (const auto& r : c.runs)
        requests += r.ios;
    EXPECT_GT(requests, 0u);
    EXPECT_EQ(writer.rows(), requests);
    EXPECT_EQ(std::size_t(std::count(l.begin(), l.end(), '\n')), requests + 1);
    EXPECT_EQ(l.rfind(ch::io_log_header, 0), 0u);
    EXPECT_NE(l.find(",write,"), std::string::npos);
    // every row names its run and carries an offset (the old log left it empty unless asked for)
    std::istringstream in(l);
    std::string row;
    std::getline(in, row);
    std::size_t rows = 0;
    while (std::getline(in, row)) {
        ++rows;
        EXPECT_EQ(std::count(row.begin(), row.end(), ','), 8) << row;
        EXPECT_EQ(row.find(",,"), std::string::npos) << row;
    }
    EXPECT_EQ(rows, requests);
}

TEST(characterize_reports, gnuplot_script_marks_br_and_bw) {
    auto c = small_run();
    auto rec = ch::recommend(c);
    char tmpl[] = "./characterize-plot-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;
    auto files = ch::write_gnuplot(dir + "/p", c, rec, "svg");
    std::ifstream gp(files.script);
    std::stringstream ss;
    ss << gp.rdbuf();
    std::string script = ss.str();
    EXPECT_NE(script.find("set logscale xy 2"), std::string::npos);
    EXPECT_NE(script.find("Bw=512KiB"), std::string::npos);
    EXPECT_NE(script.find("p-throughput.dat"), std::string::npos);
    EXPECT_NE(script.find("p-recovery.dat"), std::string::npos);
    EXPECT_NE(script.find("p-cdf.dat"), std::string::npos);
    EXPECT_EQ(files.images.size(), 4u);
    std::string cmd = "rm -rf '" + dir + "'";
    (void)std::system(cmd.c_str());
}
