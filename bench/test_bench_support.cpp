// Tests of the benchmarks' option parser (bench_args.hpp) and JSON document (bench_json.hpp).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "bench_json.hpp"

namespace {

using flashxxl::GiB;
using flashxxl::KiB;
using flashxxl::MiB;

//! Options of every kind, bound to their defaults, and a parse of `words` (argv without argv[0]).
struct fixture {
    std::uint64_t memory = 64 * MiB, items = 10;
    double share = 0;
    std::string part = "both", dir = "work";
    bool quiet = false;
    std::ostringstream out, err;
    flashxxl::bench::arg_parser args{"bench_test", "bench_test: the parser under test"};

    fixture() {
        args.size("--memory", memory, "memory M");
        args.count("--items", items, "items", 1);
        args.number("--share", share, "a share", 0, 1);
        args.choice("--part", part, {"model", "real", "both"}, "which part");
        args.text("--dir", dir, "a folder");
        args.flag("--quiet", quiet, "no table");
    }
    int parse(std::vector<std::string> words) {
        words.insert(words.begin(), "bench_test");
        std::vector<char*> argv;
        for (std::string& w : words)
            argv.push_back(w.data());
        return args.parse(int(argv.size()), argv.data(), out, err);
    }
};

TEST(bench_args, defaults_stay_without_options) {
    fixture f;
    EXPECT_EQ(f.parse({}), -1);
    EXPECT_EQ(f.memory, 64 * MiB);
    EXPECT_EQ(f.items, 10u);
    EXPECT_EQ(f.part, "both");
    EXPECT_FALSE(f.quiet);
}

TEST(bench_args, takes_both_spellings_and_iec_sizes) {
    fixture f;
    EXPECT_EQ(
        f.parse({"--memory", "2GiB", "--items=7", "--share", "0.5", "--part=real", "--dir", "d", "--quiet"}),
        -1)
        << f.err.str();
    EXPECT_EQ(f.memory, 2 * GiB);
    EXPECT_EQ(f.items, 7u);
    EXPECT_EQ(f.share, 0.5);
    EXPECT_EQ(f.part, "real");
    EXPECT_EQ(f.dir, "d");
    EXPECT_TRUE(f.quiet);
}

TEST(bench_args, the_last_of_a_repeated_option_counts) {
    fixture f;
    EXPECT_EQ(f.parse({"--memory", "4KiB", "--memory", "8KiB"}), -1) << f.err.str();
    EXPECT_EQ(f.memory, 8 * KiB);
}

TEST(bench_args, a_bad_size_is_refused_naming_the_option) {
    fixture f;
    EXPECT_EQ(f.parse({"--memory", "64M"}), 2);
    EXPECT_NE(f.err.str().find("--memory: '64M' is not a size"), std::string::npos) << f.err.str();
    EXPECT_NE(f.err.str().find("expected a size in IEC units"), std::string::npos) << f.err.str();
    EXPECT_EQ(f.memory, 64 * MiB);
}

TEST(bench_args, a_bad_number_or_choice_is_refused_naming_the_option) {
    fixture a, b, c, d;
    EXPECT_EQ(a.parse({"--items", "-3"}), 2);
    EXPECT_NE(a.err.str().find("--items: '-3' is not accepted; expected a whole number from 1"),
              std::string::npos)
        << a.err.str();
    EXPECT_EQ(b.parse({"--items", "0"}), 2);
    EXPECT_NE(b.err.str().find("--items: '0' is out of range"), std::string::npos) << b.err.str();
    EXPECT_EQ(c.parse({"--part", "all"}), 2);
    EXPECT_NE(c.err.str().find("--part: 'all' is not accepted; expected model, real or both"),
              std::string::npos)
        << c.err.str();
    EXPECT_EQ(d.parse({"--share", "2"}), 2);
    EXPECT_NE(d.err.str().find("--share: '2' is out of range; expected a finite number from 0 to 1"),
              std::string::npos)
        << d.err.str();
}

TEST(bench_args, an_unknown_option_is_refused_with_a_suggestion) {
    fixture f;
    EXPECT_EQ(f.parse({"--memroy", "4KiB"}), 2);
    EXPECT_NE(f.err.str().find("--memroy"), std::string::npos) << f.err.str();
    EXPECT_NE(f.err.str().find("did you mean --memory for --memroy?"), std::string::npos) << f.err.str();
    fixture g;
    EXPECT_EQ(g.parse({"stray"}), 2);
    EXPECT_NE(g.err.str().find("stray"), std::string::npos) << g.err.str();
}

TEST(bench_args, a_missing_value_is_refused) {
    fixture f;
    EXPECT_EQ(f.parse({"--memory"}), 2);
    EXPECT_NE(f.err.str().find("--memory"), std::string::npos) << f.err.str();
}

TEST(bench_args, bare_key_value_only_when_allowed) {
    fixture f;
    EXPECT_EQ(f.parse({"items=5"}), 2);
    fixture g;
    g.args.allow_bare_key_value();
    EXPECT_EQ(g.parse({"items=5", "memory=1MiB"}), -1) << g.err.str();
    EXPECT_EQ(g.items, 5u);
    EXPECT_EQ(g.memory, MiB);
}

TEST(bench_args, help_lists_the_options_with_their_defaults) {
    fixture f;
    EXPECT_EQ(f.parse({"--help"}), 0);
    const std::string help = f.out.str();
    for (const char* name : {"--memory", "--items", "--share", "--part", "--dir", "--quiet"})
        EXPECT_NE(help.find(name), std::string::npos) << name << " in\n" << help;
    EXPECT_NE(help.find("64MiB"), std::string::npos) << help;
    EXPECT_TRUE(f.err.str().empty()) << f.err.str();
}

TEST(bench_json, the_document_has_the_envelope_keys) {
    fixture f;
    ASSERT_EQ(f.parse({"--items", "3"}), -1);
    const nlohmann::json j = flashxxl::bench::document("bench_test");
    for (const char* key : {"version", "command_line", "timestamp", "benchmark", "host"})
        EXPECT_TRUE(j.contains(key)) << key << " in " << j.dump();
    EXPECT_EQ(j["benchmark"], "bench_test");
    EXPECT_EQ(j["command_line"], nlohmann::json({"bench_test", "--items", "3"}));
    const std::string stamp = j["timestamp"];
    EXPECT_EQ(stamp.size(), 20u) << stamp; // 2026-11-23T03:41:52Z
    EXPECT_EQ(stamp.back(), 'Z') << stamp;
    EXPECT_GE(j["host"]["cores"].get<unsigned>(), 1u);
    EXPECT_GT(j["host"]["memory_bytes"].get<std::uint64_t>(), 0u);
}

TEST(bench_json, text_pairs_keep_strings_and_write_the_rest_as_json) {
    const auto pairs = flashxxl::bench::as_text_pairs({{"benchmark", "b"}, {"host", {{"cores", 2}}}});
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_EQ(pairs[0], std::make_pair(std::string("benchmark"), std::string("b")));
    EXPECT_EQ(pairs[1], std::make_pair(std::string("host"), std::string(R"({"cores":2})")));
}

TEST(bench_json, an_unwritable_path_is_found_before_the_runs) {
    EXPECT_FALSE(flashxxl::bench::why_unwritable("/no/such/folder/out.json").empty());
    EXPECT_FALSE(flashxxl::bench::check_writable("/no/such/folder/out.json"));
    EXPECT_TRUE(flashxxl::bench::check_writable(""));
}

} // namespace
