// Queue depths: random reads with several requests in flight on a real file, refused on a model;
// io_threads is the smallest depth near the best, and the config snippet states it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "flashxxl/characterize/file_target.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/queue_depth.hpp"
#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/machine/machine_config.hpp"
#include "support/temp_dir.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::GiB;
using flashxxl::KiB;
using flashxxl::MiB;

namespace {

ch::queue_depth_point at(unsigned depth, double mib_s) {
    ch::queue_depth_point p;
    p.depth = depth;
    p.block = 128 * KiB;
    p.mib_s = mib_s;
    return p;
}

} // namespace

TEST(characterize_queue_depth, io_threads_is_the_smallest_depth_within_the_share_of_the_best) {
    EXPECT_EQ(ch::recommend_io_threads({at(1, 100), at(2, 170), at(4, 195), at(8, 200)}, 0.90), 4u);
    EXPECT_EQ(ch::recommend_io_threads({at(1, 100), at(2, 170), at(4, 195), at(8, 200)}, 0.99), 8u);
    // One request at a time is as fast as more: depth 1 (an HDD, or a disk without parallelism).
    EXPECT_EQ(ch::recommend_io_threads({at(1, 100), at(2, 96), at(4, 90)}, 0.90), 1u);
    // The depths need not come in order.
    EXPECT_EQ(ch::recommend_io_threads({at(16, 400), at(2, 150), at(8, 390)}, 0.95), 8u);
    EXPECT_FALSE(ch::recommend_io_threads({}, 0.90));
    EXPECT_FALSE(ch::recommend_io_threads({at(1, 0), at(2, 0)}, 0.90));
}

TEST(characterize_queue_depth, the_snippet_states_io_threads_and_the_parser_takes_it) {
    ch::recommendation rec;
    rec.br = 128 * KiB;
    rec.bw_aligned = 512 * KiB;
    rec.io_threads = 4;
    std::string snippet = ch::config_snippet(rec, "/dev/sdx", 32 * GiB, "ssd", true);
    EXPECT_NE(snippet.find("# recommended: Br=128KiB Bw=512KiB io_threads=4"), std::string::npos) << snippet;
    EXPECT_NE(snippet.find("syscall name=ssd br=128KiB bw=512KiB io_threads=4\n"), std::string::npos)
        << snippet;
    flashxxl::machine_spec spec = flashxxl::parse_machine_config(snippet, "snippet");
    ASSERT_EQ(spec.devices.size(), 1u);
    EXPECT_EQ(spec.devices[0].io_threads, 4u);
    // Not measured (a model): no io_threads= at all, the device's default (1) applies.
    rec.io_threads.reset();
    EXPECT_EQ(ch::config_snippet(rec, "/dev/sdx", 32 * GiB, "ssd", true).find("io_threads"),
              std::string::npos);
}

TEST(characterize_queue_depth, a_model_serves_one_request_at_a_time_and_is_refused) {
    ch::model_target t(flashxxl::make_model("hama-ssd-2009", {}), "hama-ssd-2009");
    ch::queue_depth_options o;
    o.depths = {1, 2};
    o.span = 64 * MiB;
    try {
        (void)ch::measure_queue_depths(t, o);
        FAIL() << "a model measured queue depths";
    } catch (const flashxxl::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("serves one request at a time"), std::string::npos) << e.what();
    }
}

TEST(characterize_queue_depth, bad_options_name_what_was_expected) {
    ch::model_target t(flashxxl::make_model("hama-ssd-2009", {}), "hama-ssd-2009");
    ch::queue_depth_options o;
    o.span = 64 * MiB;
    o.depths = {0};
    EXPECT_THROW((void)ch::measure_queue_depths(t, o), flashxxl::config_error);
    o.depths = {65};
    EXPECT_THROW((void)ch::measure_queue_depths(t, o), flashxxl::config_error);
    o.depths = {1};
    o.block = 6000; // not a multiple of the target's alignment
    EXPECT_THROW((void)ch::measure_queue_depths(t, o), flashxxl::config_error);
    o.block = 128 * MiB; // larger than the span
    EXPECT_THROW((void)ch::measure_queue_depths(t, o), flashxxl::config_error);
    // One buffer per request in flight: 64 x 32 MiB is over the 1 GiB bound, and the message says so.
    o.span = 8 * GiB;
    o.block = 32 * MiB;
    o.depths = {1, 64};
    try {
        (void)ch::measure_queue_depths(t, o);
        FAIL() << "2 GiB of buffers accepted";
    } catch (const flashxxl::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("depth 64 reads of 32MiB need 2GiB of buffers"),
                  std::string::npos)
            << e.what();
    }
}

TEST(characterize_queue_depth, a_file_is_read_with_several_requests_in_flight) {
    flashxxl::testing::temp_dir d("."); // the build tree's disk: /tmp may be tmpfs, which file targets refuse
    std::unique_ptr<ch::file_target> t;
    try {
        t = std::make_unique<ch::file_target>(d.file("t.img"), 4 * MiB);
    } catch (const flashxxl::io_failure& e) {
        GTEST_SKIP() << "no O_DIRECT file here: " << e.what();
    }
    ch::queue_depth_options o;
    o.depths = {1, 3};
    o.block = 64 * KiB;
    o.max_requests = 96;
    o.seconds_per_depth = 1e9; // no time limit: every request is read, whatever the machine's speed
    std::vector<double> progress;
    o.progress = [&](double f, const std::string&) { progress.push_back(f); };
    std::vector<ch::queue_depth_point> points = ch::measure_queue_depths(*t, o);
    ASSERT_EQ(points.size(), 2u);
    for (const auto& p : points) {
        EXPECT_EQ(p.requests, 96u) << "depth " << p.depth;
        EXPECT_EQ(p.block, 64 * KiB);
        EXPECT_GT(p.seconds, 0);
        EXPECT_GT(p.mib_s, 0);
    }
    EXPECT_EQ(points[0].depth, 1u);
    EXPECT_EQ(points[1].depth, 3u);
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), 1.0);
    // An offset outside the target is refused before anything is read.
    EXPECT_THROW((void)t->concurrent_reads({0, 4 * MiB}, 64 * KiB, 2, 1.0), flashxxl::invalid_request);
    // A time limit of (almost) nothing stops the readers early.
    std::optional<ch::concurrent_reads_result> r =
        t->concurrent_reads(std::vector<std::uint64_t>(100000, 0), 4 * KiB, 2, 1e-9);
    ASSERT_TRUE(r);
    EXPECT_LT(r->requests, 100000u);
}
