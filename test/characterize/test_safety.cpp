// Safety: no request leaves the target range or breaks alignment, whatever the experiment file says.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/plans.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/characterize/target.hpp"
#include "flashxxl/device/model_presets.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::KiB;
using flashxxl::MiB;

namespace {

//! Records every request that passed the guard; 0.1 ms + 1 ns per byte.
class recording_target : public ch::target {
public:
    recording_target(std::uint64_t capacity, std::uint64_t alignment)
        : guard_("recorder", capacity, alignment) {}
    struct req {
        flashxxl::io_op op;
        std::uint64_t offset, length;
    };
    std::vector<req> log;
    std::string name() const override { return "recorder"; }
    std::string kind() const override { return "test"; }
    bool modelled() const override { return true; }

protected:
    const ch::io_guard& guard() const override { return guard_; }
    double do_io(flashxxl::io_op op, std::uint64_t offset, std::uint64_t length) override {
        log.push_back({op, offset, length});
        return 1e-4 + double(length) * 1e-9;
    }

private:
    ch::io_guard guard_;
};

std::string pick(std::mt19937_64& rng, const std::vector<std::string>& v) { return v[rng() % v.size()]; }

std::string random_value(std::mt19937_64& rng) {
    static const std::vector<std::string> sizes = {"0",
                                                   "512",
                                                   "2KiB",
                                                   "4KiB",
                                                   "3000",
                                                   "12KiB",
                                                   "64KiB",
                                                   "1MiB",
                                                   "4MiB",
                                                   "15MiB",
                                                   "16MiB",
                                                   "17MiB",
                                                   "1GiB",
                                                   "all",
                                                   "-1",
                                                   "x",
                                                   "same",
                                                   "none",
                                                   "18446744073709551615",
                                                   "8EiB"};
    static const std::vector<std::string> numbers = {"0",  "1",  "2",   "3",   "5",  "16",   "33", "-1",
                                                     "-3", "64", "1e3", "yes", "no", "auto", "0.5"};
    static const std::vector<std::string> times = {"0", "0.001", "0.01", "1ms", "2ms", "-1", "abc", "0.005s"};
    static const std::vector<std::string> words = {
        "read", "write", "seq", "rand",    "reverse",    "inplace", "ordered", "partitioned", "SR",
        "RR",   "SW",    "RW",  "RW@4KiB", "SR,RW@8KiB", "RW@512",  "XX",      "yes",         "no"};
    switch (rng() % 4) {
    case 0:
        return pick(rng, sizes);
    case 1:
        return pick(rng, numbers);
    case 2:
        return pick(rng, times);
    default:
        return pick(rng, words);
    }
}

// Mostly plausible lines (keys the verb knows, values of the right kind, sometimes wrong ones),
// sometimes unknown verbs and keys: enough get through the checks to exercise the runner.
std::string random_line(std::mt19937_64& rng) {
    struct verb_keys {
        std::string verb;
        std::vector<std::pair<std::string, std::vector<std::string>>> keys;
    };
    const std::vector<std::string> sz = {"4KiB", "8KiB", "16KiB", "64KiB", "1MiB", "2MiB", "12KiB"};
    const std::vector<std::string> spans = {"all", "1MiB", "4MiB", "8MiB", "16MiB", "64KiB"};
    const std::vector<std::string> offs = {"0", "4KiB", "1MiB", "8MiB", "15MiB"};
    const std::vector<std::string> small = {"1", "2", "3", "4", "7", "16"};
    const std::vector<std::string> tm = {"0.001", "0.002", "1ms", "0"};
    static const std::vector<verb_keys> verbs = {
        {"fill", {{"block", sz}, {"span", spans}, {"offset", offs}}},
        {"random_state",
         {{"span", spans},
          {"offset", offs},
          {"min", {"4KiB", "8KiB"}},
          {"max", {"16KiB", "128KiB"}},
          {"bytes", {"64KiB", "1MiB"}}}},
        {"run",
         {{"op", {"read", "write"}},
          {"order", {"seq", "rand", "reverse", "inplace", "ordered", "partitioned"}},
          {"block", sz},
          {"span", spans},
          {"offset", offs},
          {"shift", {"0", "4KiB", "8KiB", "2KiB"}},
          {"granularity", {"4KiB", "8KiB"}},
          {"count", small},
          {"time", tm},
          {"repeat", {"1", "2"}},
          {"incr", {"-3", "-1", "0", "2", "17"}},
          {"partitions", {"1", "3", "8", "64"}},
          {"parallel", {"1", "2", "4", "16"}},
          {"ignore", {"0", "2", "auto"}},
          {"pause", {"0", "1ms"}},
          {"burst", {"0", "2"}},
          {"mix", {"SR", "RW", "RW@4KiB"}},
          {"ratio", {"1", "3"}},
          {"random_start", {"yes", "no"}}}},
        {"sweep",
         {{"patterns", {"SR,RR,SW,RW", "RW@4KiB", "SW,RW@8KiB"}},
          {"from", {"4KiB", "8KiB", "1MiB"}},
          {"to", {"16KiB", "1MiB", "4MiB"}},
          {"max", {"4MiB", "8MiB", "64MiB"}},
          {"span", spans},
          {"offset", offs},
          {"count", small},
          {"time", tm},
          {"selfscale", {"yes", "no"}},
          {"fill", {"none", "1MiB", "4KiB"}}}},
        {"burst",
         {{"burst_block", {"4KiB", "same", "8KiB"}},
          {"burst_time", tm},
          {"seq_block", sz},
          {"windows", {"1", "2", "3"}},
          {"window", {"0.001", "0.002"}},
          {"fill", {"none", "1MiB"}},
          {"span", spans},
          {"offset", offs}}},
        {"stride",
         {{"block", sz},
          {"length", small},
          {"stride", {"4KiB", "64KiB", "1MiB"}},
          {"repeat", small},
          {"span", spans},
          {"offset", offs}}},
        {"write_read",
         {{"block", sz},
          {"length", small},
          {"stride", {"4KiB", "64KiB", "1MiB"}},
          {"repeat", small},
          {"span", spans}}},
        {"pause", {{"time", tm}}},
    };
    static const std::vector<std::string> junk_keys = {"zzz", "colour", "count", "block", "op"};
    if (rng() % 20 == 0) return "bogus block=4KiB";
    const verb_keys& v = verbs[rng() % verbs.size()];
    std::string line = v.verb;
    std::vector<bool> used(v.keys.size(), false);
    int n = int(rng() % 6);
    for (int i = 0; i < n; ++i) {
        std::size_t k = rng() % v.keys.size();
        if (used[k]) continue;
        used[k] = true;
        std::string val = rng() % 8 == 0 ? random_value(rng) : pick(rng, v.keys[k].second);
        line += " " + v.keys[k].first + "=" + val;
    }
    if (rng() % 10 == 0) line += " " + pick(rng, junk_keys) + "=" + random_value(rng);
    if ((v.verb == "run" || v.verb == "sweep") && rng() % 4)
        line += " count=" + std::to_string(1 + rng() % 40);
    if (rng() % 5 == 0) line += " # comment";
    return line;
}

} // namespace

TEST(characterize_safety, guard_refuses_out_of_range_and_unaligned_requests) {
    recording_target t(1 * MiB, 4096);
    EXPECT_THROW(t.io(flashxxl::io_op::write, 1 * MiB, 4096), flashxxl::invalid_request);
    EXPECT_THROW(t.io(flashxxl::io_op::write, 1 * MiB - 4096, 8192), flashxxl::invalid_request);
    EXPECT_THROW(t.io(flashxxl::io_op::write, 512, 4096), flashxxl::invalid_request);
    EXPECT_THROW(t.io(flashxxl::io_op::read, 0, 512), flashxxl::invalid_request);
    EXPECT_THROW(t.io(flashxxl::io_op::read, 0, 0), flashxxl::invalid_request);
    EXPECT_THROW(t.io(flashxxl::io_op::read, ~0ull - 4095, 8192), flashxxl::invalid_request); // overflow
    EXPECT_TRUE(t.log.empty());
    EXPECT_NO_THROW(t.io(flashxxl::io_op::read, 1 * MiB - 4096, 4096));
    EXPECT_EQ(t.log.size(), 1u);
}

TEST(characterize_safety, fuzzed_experiment_files_never_leave_the_range) {
    const std::uint64_t cap = 16 * MiB, align = 4096;
    std::mt19937_64 rng(20261122);
    int accepted = 0, rejected = 0;
    std::uint64_t requests = 0;
    for (int c = 0; c < 400; ++c) {
        std::string text;
        int lines = 1 + int(rng() % 3);
        for (int l = 0; l < lines; ++l)
            text += random_line(rng) + "\n";
        recording_target t(cap, align);
        ch::runner_options o;
        o.max_requests_per_run = 20000;
        ch::runner r(t, o);
        try {
            r.run(ch::parse_experiments(text, "fuzz"));
            ++accepted;
        } catch (const flashxxl::config_error& e) {
            ++rejected;
            // every rejection names the plan and the line
            EXPECT_NE(std::string(e.what()).find("fuzz:"), std::string::npos) << e.what();
        } catch (const flashxxl::invalid_request& e) {
            ADD_FAILURE() << "the guard had to stop a request (the checks missed it): " << e.what() << "\n"
                          << text;
        }
        for (const auto& q : t.log) {
            ASSERT_GT(q.length, 0u) << text;
            ASSERT_EQ(q.offset % align, 0u) << text;
            ASSERT_EQ(q.length % align, 0u) << text;
            ASSERT_LE(q.offset + q.length, cap) << text;
        }
        requests += t.log.size();
    }
    EXPECT_GT(accepted, 40); // the fuzzer reaches the runner, not only the parser
    EXPECT_GT(rejected, 40);
    EXPECT_GT(requests, 10000u);
}

TEST(characterize_safety, built_in_plans_respect_the_alignment_of_real_targets) {
    for (const auto& name : ch::plan_names()) {
        ch::plan_options o;
        o.alignment = 4096;
        o.span = 64 * MiB;
        auto steps = ch::parse_experiments(ch::plan_text(name, o), name);
        EXPECT_NO_THROW(ch::check_experiments(steps, 1024 * MiB, 4096)) << name;
        for (const auto& s : steps) {
            EXPECT_EQ(s.pattern.block % 4096, 0u) << name << ": " << s.text;
            EXPECT_EQ(s.pattern.shift % 4096, 0u) << name << ": " << s.text;
        }
    }
}

TEST(characterize_safety, every_built_in_plan_runs_on_a_recording_target) {
    for (const auto& name : ch::plan_names()) {
        ch::plan_options o;
        o.alignment = 4096;
        o.span = 16 * MiB;
        o.time_s = 0.002;
        o.count = 20;
        o.repeats = 1;
        o.uflip_count = 64;
        o.burst_window_s = 0.002;
        o.burst_windows = 3;
        o.random_state = true;
        recording_target t(32 * MiB, 4096);
        ch::runner r(t);
        ch::characterization c = r.run(ch::parse_experiments(ch::plan_text(name, o), name));
        EXPECT_GT(t.log.size(), 0u) << name;
        for (const auto& q : t.log)
            ASSERT_LE(q.offset + q.length, 16 * MiB) << name; // the span, not the capacity
        if (name == "uflip") {
            EXPECT_GT(c.runs.size(), 200u);
        }
        if (name == "stride") {
            EXPECT_GE(c.strides.size(), 20u); // combinations larger than the span are left out
        }
        if (name == "ajwani") {
            EXPECT_EQ(c.bursts.size(), 12u);
        }
    }
}
