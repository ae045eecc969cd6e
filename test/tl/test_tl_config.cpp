// Tests of tl_config::validate: every rejected configuration names the device and the key.
#include <gtest/gtest.h>

#include <string>

#include "flashxxl/tl/tl_config.hpp"

using namespace flashxxl;

namespace {

std::string error_of(const tl_config& c, std::uint64_t capacity) {
    try {
        c.validate(capacity, "ssd0");
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

tl_config small() {
    tl_config c;
    c.page_bytes = 4 * KiB;
    c.segment_bytes = 64 * KiB;
    c.spare_bytes = 256 * KiB;
    return c;
}

} // namespace

TEST(tl_config, accepts_a_sane_configuration) {
    EXPECT_EQ(error_of(small(), 8 * MiB), "");
    tl_config d; // defaults: 128 KiB pages, 16 MiB segments, automatic spare
    EXPECT_EQ(error_of(d, 64 * GiB), "");
    EXPECT_EQ(d.resolved_spare(64 * GiB), 8 * GiB);
    EXPECT_EQ(d.logical_bytes(64 * GiB), 56 * GiB);
}

TEST(tl_config, capacities_use_whole_segments) {
    tl_config c = small();
    // 8 MiB + 10 KiB: the tail that is no whole segment is not used.
    EXPECT_EQ(c.physical_bytes(8 * MiB + 10 * KiB), 8 * MiB);
    EXPECT_EQ(c.logical_bytes(8 * MiB + 10 * KiB), 8 * MiB - 256 * KiB);
    c.spare_bytes = 0; // automatic: max(3 segments, 1/8 of 8 MiB)
    EXPECT_EQ(c.resolved_spare(8 * MiB), 1 * MiB);
    EXPECT_EQ(c.resolved_spare(512 * KiB), 3 * 64 * KiB);
}

TEST(tl_config, segment_must_be_a_multiple_of_the_page) {
    tl_config c = small();
    c.segment_bytes = 24 * KiB;
    c.page_bytes = 16 * KiB;
    std::string e = error_of(c, 8 * MiB);
    EXPECT_NE(e.find("tl_segment"), std::string::npos) << e;
    EXPECT_NE(e.find("multiple of tl_page"), std::string::npos) << e;
    EXPECT_NE(e.find("ssd0"), std::string::npos) << e;
}

TEST(tl_config, sizes_must_be_multiples_of_4KiB) {
    tl_config c = small();
    c.page_bytes = 2048;
    std::string e = error_of(c, 8 * MiB);
    EXPECT_NE(e.find("tl_page"), std::string::npos) << e;
    EXPECT_NE(e.find("4 KiB"), std::string::npos) << e;
    c = small();
    c.segment_bytes = 0;
    EXPECT_NE(error_of(c, 8 * MiB).find("tl_segment"), std::string::npos);
}

TEST(tl_config, spare_too_small_to_clean) {
    tl_config c = small();
    c.spare_bytes = 128 * KiB; // 2 segments < (2 + 1)
    std::string e = error_of(c, 8 * MiB);
    EXPECT_NE(e.find("too small to clean"), std::string::npos) << e;
}

TEST(tl_config, spare_too_large) {
    tl_config c = small();
    c.spare_bytes = 8 * MiB;
    std::string e = error_of(c, 8 * MiB);
    EXPECT_NE(e.find("too large"), std::string::npos) << e;
}

TEST(tl_config, spare_must_be_whole_pages) {
    tl_config c = small();
    c.spare_bytes = 256 * KiB + 512;
    EXPECT_NE(error_of(c, 8 * MiB).find("tl_spare"), std::string::npos);
}

TEST(tl_config, device_too_small) {
    tl_config c = small();
    std::string e = error_of(c, 200 * KiB); // 3 segments
    EXPECT_NE(e.find("device too small"), std::string::npos) << e;
}

TEST(tl_config, low_watermark_of_at_least_two) {
    tl_config c = small();
    c.low_watermark_segments = 1;
    EXPECT_NE(error_of(c, 8 * MiB).find("tl_low_watermark"), std::string::npos);
}

TEST(tl_config, policy_names_round_trip) {
    EXPECT_EQ(parse_cleaning_policy(to_string(cleaning_policy::greedy)), cleaning_policy::greedy);
    EXPECT_EQ(parse_cleaning_policy(to_string(cleaning_policy::cost_benefit)), cleaning_policy::cost_benefit);
    EXPECT_THROW(parse_cleaning_policy("fifo"), config_error);
}

// Huge counts and sizes are refused by comparison, not let through by a product that wraps
// (a watermark of 2^63 made (watermark + 1) x segment one segment, and the cleaner then ran on
// every segment opened; a spare of 2^64 - 1 MiB plus a segment wrapped below the device).
TEST(tl_config, huge_watermark_or_spare_does_not_wrap) {
    for (std::uint64_t w :
         {std::uint64_t(1) << 63, ~std::uint64_t(0), std::uint64_t(128), std::uint64_t(127)}) {
        tl_config c = small();
        c.spare_bytes = 0;
        c.low_watermark_segments = w;
        std::string e = error_of(c, 8 * MiB); // 128 segments of 64 KiB
        EXPECT_NE(e.find("device too small"), std::string::npos) << w << ": " << e;
        EXPECT_NE(e.find("128 segments"), std::string::npos) << e;
    }
    tl_config ok = small();
    ok.spare_bytes = 0;
    ok.low_watermark_segments = 126; // 127 segments of spare, 1 of data
    EXPECT_EQ(error_of(ok, 8 * MiB), "");
    tl_config c = small();
    c.spare_bytes = ~std::uint64_t(0) - MiB + 1; // a multiple of the page
    c.spare_bytes -= c.spare_bytes % c.page_bytes;
    EXPECT_NE(error_of(c, 8 * MiB).find("tl_spare"), std::string::npos);
}
