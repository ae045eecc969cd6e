// The experiment-file grammar: verbs, keys, comments, and errors that name the line and the key.
#include <gtest/gtest.h>

#include <string>

#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/experiment_file.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::KiB;
using flashxxl::MiB;

namespace {
std::string error_of(const std::string& text, std::uint64_t cap = 64 * MiB, std::uint64_t align = 4096) {
    try {
        auto steps = ch::parse_experiments(text, "exp.txt");
        ch::check_experiments(steps, cap, align);
    } catch (const flashxxl::config_error& e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST(characterize_experiment_file, parses_verbs_keys_and_comments) {
    auto steps = ch::parse_experiments(
        "# a plan\n"
        "fill block=1MiB span=32MiB\n"
        "\n"
        "run op=write order=rand block=16KiB granularity=4KiB count=100 time=2s repeat=3 ignore=auto # tail\n"
        "run op=read order=partitioned partitions=8 block=4KiB count=10 pause=100ms burst=5 mix=RW ratio=4\n"
        "sweep patterns=SR,RW@4KiB from=4KiB to=1MiB max=4MiB selfscale=no fill=none count=5\n"
        "burst burst_block=same burst_time=5 seq_block=64KiB windows=30 window=4\n"
        "stride block=4KiB length=16 stride=64KiB repeat=8\n"
        "pause time=250ms\n",
        "exp.txt");
    ASSERT_EQ(steps.size(), 7u);
    EXPECT_EQ(steps[0].kind, ch::step_kind::fill);
    EXPECT_EQ(steps[0].pattern.span, 32 * MiB);
    EXPECT_EQ(steps[1].line, 4u);
    EXPECT_EQ(steps[1].pattern.order, ch::address_order::random);
    EXPECT_EQ(steps[1].pattern.granularity, 4 * KiB);
    EXPECT_TRUE(steps[1].ignore_auto);
    EXPECT_DOUBLE_EQ(steps[1].time_s, 2.0);
    EXPECT_EQ(steps[1].pattern.code(), "RW@4KiB");
    EXPECT_EQ(steps[2].pattern.partitions, 8u);
    EXPECT_DOUBLE_EQ(steps[2].pause_s, 0.1);
    EXPECT_TRUE(steps[2].has_mix);
    EXPECT_EQ(steps[2].mix.op, flashxxl::io_op::write);
    EXPECT_EQ(steps[2].ratio, 4u);
    ASSERT_EQ(steps[3].sweep_patterns.size(), 2u);
    EXPECT_EQ(steps[3].sweep_patterns[1].granularity, 4 * KiB);
    EXPECT_FALSE(steps[3].self_scale);
    EXPECT_EQ(steps[4].burst_block, 0u);
    EXPECT_EQ(steps[5].stride, 64 * KiB);
    EXPECT_DOUBLE_EQ(steps[6].time_s, 0.25);
    ch::check_experiments(steps, 64 * MiB, 4096);
    EXPECT_EQ(steps[1].pattern.span, 64 * MiB); // span=all resolved
}

TEST(characterize_experiment_file, errors_name_the_line_and_the_key) {
    EXPECT_NE(error_of("\n\nfrobnicate block=4KiB\n").find("exp.txt:3"), std::string::npos);
    EXPECT_NE(error_of("\n\nfrobnicate block=4KiB\n").find("unknown verb"), std::string::npos);
    std::string e = error_of("run op=read count=1 colour=blue\n");
    EXPECT_NE(e.find("exp.txt:1"), std::string::npos) << e;
    EXPECT_NE(e.find("'colour'"), std::string::npos) << e;
    EXPECT_NE(e.find("unknown key"), std::string::npos) << e;
    e = error_of("# c\nrun op=read block=16M count=1\n");
    EXPECT_NE(e.find("exp.txt:2: field 'block'"), std::string::npos) << e;
    e = error_of("run op=read\n");
    EXPECT_NE(e.find("count"), std::string::npos) << e; // needs a limit
    e = error_of("run op=sideways count=1\n");
    EXPECT_NE(e.find("field 'op'"), std::string::npos) << e;
    e = error_of("run op=read block=4KiB count=1 count=2\n");
    EXPECT_NE(e.find("given twice"), std::string::npos) << e;
    e = error_of("run op=read block=512 count=1\n"); // below the target's 4 KiB alignment
    EXPECT_NE(e.find("field 'block'"), std::string::npos) << e;
    EXPECT_NE(e.find("alignment"), std::string::npos) << e;
    e = error_of("run op=read block=4KiB offset=60MiB span=8MiB count=1\n");
    EXPECT_NE(e.find("field 'span'"), std::string::npos) << e;
    e = error_of("stride block=4KiB length=100 stride=1MiB\n");
    EXPECT_NE(e.find("field 'length'"), std::string::npos) << e;
    e = error_of("run op=read block=4KiB count=1 justaword\n");
    EXPECT_NE(e.find("key=value"), std::string::npos) << e;
    e = error_of("sweep patterns=SR,QQ count=1\n");
    EXPECT_NE(e.find("field 'patterns'"), std::string::npos) << e;
    EXPECT_EQ(error_of("run op=read block=4KiB count=1\n"), "");
}

TEST(characterize_experiment_file, no_experiment_is_an_error_naming_the_file) {
    EXPECT_NE(error_of("").find("exp.txt: no experiments: the file is empty"), std::string::npos)
        << error_of("");
    std::string comments = error_of("# a plan\n\n   # nothing else\n");
    EXPECT_NE(comments.find("exp.txt: no experiments: its 3 lines are all blank or comments"),
              std::string::npos)
        << comments;
}

TEST(characterize_experiment_file, granularity_zero_names_line_and_field) {
    std::string e = error_of("fill block=1MiB\nrun op=read order=rand block=4KiB granularity=0 count=10\n");
    EXPECT_NE(e.find("exp.txt:2: field 'granularity': must be positive"), std::string::npos) << e;
    std::string sweep = error_of("sweep patterns=SR,RW@0 count=5\n");
    EXPECT_NE(sweep.find("exp.txt:1: field 'patterns'"), std::string::npos) << sweep;
}

TEST(characterize_experiment_file, nul_byte_names_line_and_column) {
    const char text[] = "fill block=1MiB\nrun op=read\0 count=1\n";
    try {
        ch::parse_experiments(std::string(text, sizeof text - 1), "nul.exp");
        FAIL() << "a NUL byte was accepted";
    } catch (const flashxxl::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("nul.exp:2: NUL byte at column 12"), std::string::npos)
            << e.what();
    }
}

TEST(characterize_experiment_file, a_directory_is_named_as_such) {
    try {
        ch::load_experiments("/tmp");
        FAIL() << "a directory was accepted";
    } catch (const flashxxl::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("'/tmp' is a directory"), std::string::npos) << e.what();
    }
}

// A sweep's count was not capped (a run's was): count=999999999999999999 grew memory without bound.
TEST(characterize_experiment_file, sweep_count_is_capped_like_run) {
    EXPECT_EQ(error_of("sweep patterns=SR from=4KiB to=4KiB count=1000000001 selfscale=no\n"),
              "exp.txt:1: field 'count': expected at most 1e9");
    EXPECT_EQ(error_of("sweep patterns=SR from=4KiB to=4KiB count=999999999999999999 selfscale=no\n"),
              "exp.txt:1: field 'count': expected at most 1e9");
    EXPECT_EQ(error_of("run op=read block=4KiB count=1000000001\n"),
              "exp.txt:1: field 'count': expected at most 1e9");
    EXPECT_EQ(error_of("sweep patterns=SR from=4KiB to=4KiB count=1000000000 selfscale=no\n"), "");
}
