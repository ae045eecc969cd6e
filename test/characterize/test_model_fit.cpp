// Model fits: characterize each emulated preset, fit its kind, recover its parameters and throughputs.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/model_fit.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/device/model_presets.hpp"

namespace ch = flashxxl::characterize;

namespace {

// Small plans that show every fitted parameter, from 512 B (where a read's command overhead and
// its page read time tell apart). Flash: the baseline patterns to 1 MiB (past the Hama's 512 KiB
// chunk and the 256 KiB a read of all 64 NVMe units covers), 64 requests each, over 128 MiB after
// a fill. Disks: sequential patterns to 4 MiB for the rate; random ones to 64 KiB only (a larger
// read covers much of a track, and what it waits then depends on where in the track it starts,
// which a change of the spindle speed reshuffles), over the papers' 112 GiB and over 1 MiB, where
// seeks are short, so the seek time and the rotation tell apart.
const char* flash_plan = "fill block=1MiB span=128MiB\n"
                         "sweep patterns=SR,RR,SW,RW from=512 to=1MiB selfscale=no count=64 span=128MiB\n";
const char* disk_plan = "sweep patterns=SR,SW from=512 to=4MiB selfscale=no count=100 span=112GiB\n"
                        "sweep patterns=RR,RW from=512 to=64KiB selfscale=no count=300 span=112GiB\n"
                        "sweep patterns=RR,RW from=4KiB to=16KiB selfscale=no count=300 span=1MiB\n";

// The one-chip presets: a chip's few units are all busy by 64 KiB, so the sweep stops there and
// spans 16 MiB (a chip moves about 30 MiB/s; the flash plan's 128 MiB would only slow the replays).
const char* chip_plan = "fill block=1MiB span=16MiB\n"
                        "sweep patterns=SR,RR,SW,RW from=512 to=64KiB selfscale=no count=64 span=16MiB\n";

struct measured_run {
    ch::characterization c;
    std::vector<ch::experiment_step> checked;
};

measured_run characterize(const std::string& preset, const std::string& plan) {
    ch::model_target t(flashxxl::make_model(preset), preset);
    measured_run m;
    m.checked = ch::parse_experiments(plan, "test");
    ch::check_experiments(m.checked, t.capacity(), t.alignment());
    ch::runner r(t);
    m.c = r.run(m.checked);
    return m;
}

// A parameter's value: a number, or a size in IEC units.
double value_of(const std::string& text) {
    try {
        return flashxxl::parse_number(text);
    } catch (const flashxxl::config_error&) {
        return double(flashxxl::parse_size(text));
    }
}

std::map<std::string, std::string> preset_values(const std::string& preset) {
    std::map<std::string, std::string> v;
    for (const auto& kv : flashxxl::make_model(preset)->parameters())
        v[kv.first] = kv.second;
    return v;
}

// The fit of `preset`'s own measurements: every determined parameter within 5 % of the preset's
// (within `zero_slack` of a parameter that is 0), every experiment's throughput within 5 %.
ch::model_fit round_trip(const std::string& preset, const std::string& plan, double zero_slack) {
    measured_run m = characterize(preset, plan);
    ch::fit_options o;
    o.model = preset;
    ch::model_fit f = ch::fit_model(m.c, m.checked, o);
    EXPECT_EQ(f.kind, flashxxl::make_model(preset)->kind());
    const auto truth = preset_values(preset);
    for (const auto& p : f.parameters) {
        if (!p.determined) continue;
        const double want = value_of(truth.at(p.key));
        const double got = value_of(p.value);
        const double slack = want == 0 ? zero_slack : 0.05 * want;
        EXPECT_NEAR(got, want, slack) << preset << ": " << p.key;
    }
    for (const auto& e : f.experiments)
        EXPECT_LT(e.error(), 0.05) << preset << ": " << e.measured.code << " " << e.measured.block
                                   << " measured " << e.measured.mib_s() << " fitted " << e.fitted_mib_s;
    EXPECT_LT(f.median_error, 0.01) << preset;
    EXPECT_LT(f.holdout_median_error, 0.05) << preset;
    for (const auto& p : f.parameters)
        std::cout << "  " << p.key << "=" << p.value << " (preset " << truth.at(p.key) << ")"
                  << (p.fitted ? (p.determined ? " fitted" : " fitted, not determined") : "") << "\n";
    std::cout << "  median error " << f.median_error << ", held out " << f.holdout_median_error << ", "
              << f.evaluations << " replays, " << f.cpu_seconds << " s\n";
    return f;
}

std::vector<std::string> undetermined(const ch::model_fit& f) {
    std::vector<std::string> keys;
    for (const auto& p : f.parameters)
        if (p.fitted && !p.determined) keys.push_back(p.key);
    return keys;
}

} // namespace

TEST(characterize_model_fit, hama_ssd_round_trip) {
    ch::model_fit f = round_trip("hama-ssd-2009-block-mapped", flash_plan, 1e-3);
    EXPECT_TRUE(undetermined(f).empty());
}

TEST(characterize_model_fit, hama_log_block_round_trip) {
    // The log-block Hama (the hama-ssd-2009 preset): rates, overheads, the unit and the merge's
    // costs from the same small flash plan; its log pool keeps the preset's size.
    ch::model_fit f = round_trip("hama-ssd-2009", flash_plan, 1e-3);
    EXPECT_EQ(f.kind, "ssd-log-block");
}

TEST(characterize_model_fit, nvme_gen4_round_trip) {
    ch::model_fit f = round_trip("nvme-gen4", flash_plan, 1.0);
    // 64 units of 45 us reads move 5.8 GB/s, below the 7.45 GB/s cap: no experiment shows bw_r,
    // and the fit says so instead of claiming a value.
    EXPECT_EQ(undetermined(f), std::vector<std::string>{"bw_r_mibps"});
}

TEST(characterize_model_fit, barracuda_round_trip) {
    ch::model_fit f = round_trip("barracuda-7200.11", disk_plan, 1e-3);
    EXPECT_TRUE(undetermined(f).empty());
}

TEST(characterize_model_fit, hdd_modern_round_trip) {
    ch::model_fit f = round_trip("hdd-modern", disk_plan, 1e-3);
    EXPECT_TRUE(undetermined(f).empty());
}

// The seeds/004 one-chip presets write through: a write ends when its pages are programmed, so
// their own t_prog (from the chip's data sheet) is searched, not derived from a cache rate.
class chip_round_trip : public ::testing::TestWithParam<std::string> {};

TEST_P(chip_round_trip, recovers_the_chip) {
    ch::model_fit f = round_trip(GetParam(), chip_plan, 1.0);
    EXPECT_EQ(f.kind, "ssd-page-mapped");
    bool searched_t_prog = false, bus_follows_reads = false;
    for (const auto& p : f.parameters) {
        if (p.key == "t_prog_us") searched_t_prog = p.fitted && p.determined;
        if (p.key == "bw_w_mibps") bus_follows_reads = p.derived && !p.fitted;
    }
    EXPECT_TRUE(searched_t_prog) << GetParam();
    EXPECT_TRUE(bus_follows_reads) << GetParam() << ": bw_w_mibps is set from bw_r_mibps";
}

std::vector<std::string> chip_presets() {
    std::vector<std::string> chips;
    for (const auto& name : flashxxl::model_preset_names())
        if (name.rfind("chip-", 0) == 0) chips.push_back(name);
    return chips;
}

INSTANTIATE_TEST_SUITE_P(seeds004, chip_round_trip, ::testing::ValuesIn(chip_presets()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                             std::string n = i.param;
                             for (char& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

TEST(characterize_model_fit, every_seeds004_chip_is_round_tripped) {
    EXPECT_EQ(chip_presets().size(), 8u); // Table 2's eight chips, each a preset
}

TEST(characterize_model_fit, auto_on_flash_picks_the_kind_that_fits_and_its_line_builds_it) {
    measured_run m = characterize("hama-ssd-2009-block-mapped", flash_plan);
    ch::fit_options o;
    o.klass = flashxxl::device_class::flash;
    ch::model_fit f = ch::fit_model(m.c, m.checked, o);
    EXPECT_EQ(f.kind, "ssd-block-mapped");
    ASSERT_EQ(f.family_errors.size(), 3u); // the three SSD kinds tried, no disk
    EXPECT_EQ(f.family_errors[0].first, "ssd-block-mapped");
    EXPECT_LT(f.family_errors[0].second, 0.01);
    EXPECT_EQ(f.family_errors[2].first, "ssd-page-mapped");
    EXPECT_GT(f.family_errors[2].second, 0.05); // a page-mapped FTL cannot show the merges
    // The config line's overrides build the fitted model: same parameters, same predictions.
    const std::string line = f.config_line("/data/ssd.img", 128 * flashxxl::MiB, "ssd");
    EXPECT_EQ(
        line.rfind(
            "flash=/data/ssd.img,128MiB,syscall name=ssd model=hama-ssd-2009-block-mapped capacity=32GiB", 0),
        0u)
        << line;
    auto rebuilt = flashxxl::make_model(f.preset, f.overrides)->parameters();
    ASSERT_EQ(rebuilt.size(), f.parameters.size());
    for (std::size_t i = 0; i < rebuilt.size(); ++i)
        EXPECT_EQ(rebuilt[i].second, f.parameters[i].value) << rebuilt[i].first;
    EXPECT_GT(f.holdout_count, 0u);
}

TEST(characterize_model_fit, auto_on_the_log_block_hama_picks_the_log_block_kind) {
    measured_run m = characterize("hama-ssd-2009", flash_plan);
    ch::fit_options o;
    o.klass = flashxxl::device_class::flash;
    ch::model_fit f = ch::fit_model(m.c, m.checked, o);
    EXPECT_EQ(f.kind, "ssd-log-block");
    EXPECT_EQ(f.preset, "hama-ssd-2009");
    EXPECT_LT(f.median_error, 0.01);
}

TEST(characterize_model_fit, a_holdout_that_leaves_nothing_out_is_refused) {
    measured_run m = characterize("hama-ssd-2009-block-mapped",
                                  "sweep patterns=SR,RW from=4KiB to=64KiB selfscale=no count=20 "
                                  "span=64MiB\n");
    ch::fit_options o;
    o.model = "block-mapped";
    o.holdout = "large";
    try {
        ch::fit_model(m.c, m.checked, o);
        FAIL() << "no experiment above 128 KiB to hold out";
    } catch (const flashxxl::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("no experiment is left to hold out"), std::string::npos)
            << e.what();
    }
    o.model = "ssd-flux-capacitor";
    o.holdout = "alternate";
    EXPECT_THROW(ch::fit_model(m.c, m.checked, o), flashxxl::config_error);
}
