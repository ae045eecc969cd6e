// Lower-device failures under the translation layer: what the host is told, and what the layer's
// bookkeeping (live pages, free segments, stats) looks like afterwards.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/machine/io_failure_message.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "tl/tl_test_support.hpp"

using namespace flashxxl;
using namespace flashxxl::testing;

namespace {

using small_layer::capacity;
using small_layer::page;
using small_layer::segment;

tl_config small_config() { return small_layer::config(); }

struct fixture {
    recording_file lower{capacity, test_queue_id(30)};
    translation_layer tl{lower, capacity, small_config(), "ssd0", test_queue_id(31)};
};

void write_page(translation_layer& tl, std::uint64_t p, std::uint64_t version) {
    aligned_buffer buf(page);
    fill_page(buf.data, page, p, version);
    tl.awrite(buf.data, p * page, page)->wait();
}

bool read_matches(translation_layer& tl, std::uint64_t p, std::uint64_t version) {
    aligned_buffer buf(page);
    tl.aread(buf.data, p * page, page)->wait();
    return page_matches(buf.data, page, p, version);
}

//! Expects `text` to contain every one of `parts`.
void expect_parts(const std::string& text, std::initializer_list<std::string> parts) {
    for (const std::string& p : parts)
        EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' not in: " << text;
}

} // namespace

// A layer's explanation before STXXL's "Error in ..." is kept; STXXL's call details go.
TEST(tl_failures, io_error_reason_keeps_the_layers_explanation) {
    const std::string stxxl =
        "Error in virtual void stxxl::syscall_file::serve(...) : this=0x55 call=::pread(fd,buf,bytes,offset) "
        "path=/x/ssd.img rc=-1 : Input/output error: iostream error";
    EXPECT_EQ(io_error_reason(stxxl), "Input/output error");
    EXPECT_EQ(
        io_error_reason(
            "device 'ssd' (translation layer): reading 65536 bytes at physical offset 131072 of the "
            "lower file (cleaning segment 2) failed: " +
            stxxl + ": iostream error"),
        "device 'ssd' (translation layer): reading 65536 bytes at physical offset 131072 of the lower file "
        "(cleaning segment 2) failed: Input/output error");
}

// The review's case: a cleaning read fails under a host write. The host's message used to be
// "writing 4 KiB at byte offset ... failed: Input/output error", as if the page write had failed.
TEST(tl_failures, a_failing_cleaning_read_is_reported_with_the_layers_explanation) {
    fixture f;
    std::mt19937_64 rng(3);
    std::vector<std::uint64_t> version(900, 1);
    for (std::uint64_t p = 0; p < 900; ++p)
        write_page(f.tl, p, 1);
    while (f.tl.stats().segments_cleaned == 0) {
        const std::uint64_t p = rng() % 900;
        write_page(f.tl, p, ++version[p]);
    }
    f.lower.fail_reads = true;
    std::string raw;
    std::uint64_t failed_offset = 0;
    for (int i = 0; i < 5000 && raw.empty(); ++i) {
        const std::uint64_t p = rng() % 900;
        try {
            write_page(f.tl, p, version[p] + 1);
            ++version[p];
        } catch (const stxxl::io_error& e) {
            raw = e.what();
            failed_offset = p * page;
            // the page was not written: it still holds its old version (checked below)
        }
    }
    f.lower.fail_reads = false;
    ASSERT_FALSE(raw.empty()) << "no write failed although every lower read did";
    expect_parts(raw, {"device 'ssd0' (translation layer): reading ", " of the lower file (cleaning segment ",
                       ") failed: Error in virtual void stxxl::syscall_file::serve"});

    failed_request r{"ssd0", "m.cfg:1", "/x/ssd.img", true, failed_offset, page, "scratch"};
    const std::string msg = io_failure_message(r, raw);
    expect_parts(msg,
                 {"device 'ssd0' (m.cfg:1), backing file '/x/ssd.img': writing 4 KiB at byte offset " +
                      std::to_string(failed_offset) + " for role scratch failed: translation layer: reading ",
                  " bytes at physical offset ", " of the lower file (cleaning segment ",
                  ") failed: Input/output error; the storage under '/x/ssd.img' reported an I/O error"});
    EXPECT_EQ(msg.find("Error in"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("iostream error"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("device 'ssd0' (translation layer)"), std::string::npos) << msg;

    for (std::uint64_t p = 0; p < 900; ++p)
        ASSERT_TRUE(read_matches(f.tl, p, version[p])) << p;
}

TEST(tl_failures, a_failing_host_read_names_the_lower_read) {
    fixture f;
    for (std::uint64_t p = 0; p < 16; ++p)
        write_page(f.tl, p, 1); // segment 0, sealed
    f.lower.fail_reads = true;
    try {
        read_matches(f.tl, 5, 1);
        FAIL() << "no error";
    } catch (const stxxl::io_error& e) {
        failed_request r{"ssd0", "m.cfg:1", "/x/ssd.img", false, 5 * page, page, "scratch"};
        expect_parts(
            io_failure_message(r, e.what()),
            {"reading 4 KiB at byte offset 20480 for role scratch failed: translation layer: reading 4096 "
             "bytes at physical offset 20480 of the lower file (for a host read) failed: Input/output "
             "error; "});
    }
}

// A read served partly from the segment buffer and failing on the lower device counts nothing
// (buffer_bytes_read used to grow without host_bytes_read).
TEST(tl_failures, a_read_failing_part_way_counts_no_bytes) {
    fixture f;
    for (std::uint64_t p = 1; p <= 16; ++p)
        write_page(f.tl, p, 1); // segment 0, sealed
    write_page(f.tl, 0, 1);     // in the open segment's buffer
    aligned_buffer buf(2 * page);
    f.lower.fail_reads = true;
    EXPECT_THROW(f.tl.aread(buf.data, 0, 2 * page)->wait(), stxxl::io_error); // page 0 buffered, page 1 not
    EXPECT_EQ(f.tl.stats().buffer_bytes_read, 0u);
    EXPECT_EQ(f.tl.stats().host_bytes_read, 0u);
    f.lower.fail_reads = false;
    f.tl.aread(buf.data, 0, 2 * page)->wait();
    EXPECT_TRUE(page_matches(buf.data, page, 0, 1));
    EXPECT_TRUE(page_matches(buf.data + page, page, 1, 1));
    EXPECT_EQ(f.tl.stats().buffer_bytes_read, page);
    EXPECT_EQ(f.tl.stats().host_bytes_read, 2 * page);
}

// TRIM is the last step of freeing a segment and best effort: a lower file refusing it is
// counted, and neither the caller nor the counters see more of it (live_pages drifted, and
// discard() threw half done).
TEST(tl_failures, a_failed_trim_is_counted_and_changes_nothing_else) {
    fixture f;
    for (std::uint64_t p = 0; p < 32; ++p)
        write_page(f.tl, p, 1); // segments 0 and 1, sealed
    ASSERT_EQ(f.tl.stats().free_segments, 62u);
    f.lower.fail_discards = true;
    EXPECT_NO_THROW(f.tl.discard(0, 16 * page)); // empties segment 0
    tl_stats s = f.tl.stats();
    EXPECT_EQ(s.discard_failures, 1u);
    EXPECT_EQ(s.segments_emptied, 1u);
    EXPECT_EQ(s.pages_discarded, 16u);
    EXPECT_EQ(s.live_pages, 16u);
    EXPECT_EQ(s.free_segments, 63u);
    EXPECT_EQ(f.lower.discards(), 0u);
    for (std::uint64_t p = 16; p < 32; ++p)
        EXPECT_NO_THROW(write_page(f.tl, p, 2)); // empties segment 1
    s = f.tl.stats();
    EXPECT_EQ(s.discard_failures, 2u);
    EXPECT_EQ(s.segments_emptied, 2u);
    EXPECT_EQ(s.live_pages, 16u);
    EXPECT_EQ(s.free_segments, 63u); // 1 free again; 0, freed before, holds the new versions
    aligned_buffer buf(page);
    EXPECT_THROW(f.tl.aread(buf.data, 0, page)->wait(), stxxl::io_error);
    for (std::uint64_t p = 16; p < 32; ++p)
        EXPECT_TRUE(read_matches(f.tl, p, 2)) << p;
}

// A full open segment whose seal failed and whose pages were then all discarded is freed
// without being written at the next write. With a failing TRIM it used to be freed again at
// every later write (twice on the free list, then handed out twice).
TEST(tl_failures, a_garbage_segment_whose_trim_fails_is_freed_once_and_counted) {
    fixture f;
    for (std::uint64_t p = 0; p < 15; ++p)
        write_page(f.tl, p, 1);
    f.lower.fail_writes = true;
    EXPECT_THROW(write_page(f.tl, 15, 1), stxxl::io_error); // fills segment 0; its write fails
    f.tl.discard(0, 16 * page);                             // segment 0 (open, full) holds garbage only
    f.lower.fail_writes = false;
    f.lower.fail_discards = true;
    EXPECT_NO_THROW(write_page(f.tl, 100, 1)); // frees segment 0 unwritten (TRIM fails), opens one
    tl_stats s = f.tl.stats();
    EXPECT_EQ(s.discard_failures, 1u);
    EXPECT_EQ(s.segments_emptied, 1u);
    EXPECT_EQ(s.segments_sealed, 0u);
    EXPECT_EQ(s.free_segments, 63u);
    EXPECT_EQ(s.live_pages, 1u);
    f.lower.fail_discards = false;
    for (std::uint64_t p = 200; p < 400; ++p)
        write_page(f.tl, p, 1);
    s = f.tl.stats();
    EXPECT_EQ(s.live_pages, 201u);
    EXPECT_EQ(s.free_segments, 64u - 13u); // 201 pages: 12 sealed segments and an open one
    EXPECT_EQ(s.segments_sealed, 12u);
    EXPECT_TRUE(read_matches(f.tl, 100, 1));
    for (std::uint64_t p = 200; p < 400; ++p)
        ASSERT_TRUE(read_matches(f.tl, p, 1)) << p;
}

// Random writes, discards and reads against a reference while 5% of TRIMs fail: every read
// returns the last write, and live_pages stays exact.
TEST(tl_failures, randomized_with_failing_trims) {
    fixture f;
    const std::uint64_t pages = f.tl.size() / page * 9 / 10;
    std::vector<std::int64_t> ref(pages, -1);
    std::uint64_t live = 0;
    std::mt19937_64 rng(17);
    aligned_buffer buf(8 * page);
    std::int64_t version = 0;
    for (int op = 0; op < 20000; ++op) {
        f.lower.fail_discards = rng() % 20 == 0;
        const int kind = int(rng() % 100);
        const std::uint64_t n = 1 + rng() % 8, first = rng() % (pages - n + 1);
        if (kind < 60) {
            ++version;
            for (std::uint64_t i = 0; i < n; ++i)
                fill_page(buf.data + i * page, page, first + i, std::uint64_t(version));
            ASSERT_NO_THROW(f.tl.awrite(buf.data, first * page, n * page)->wait()) << "op " << op;
            for (std::uint64_t i = 0; i < n; ++i) {
                live += ref[first + i] < 0;
                ref[first + i] = version;
            }
        } else if (kind < 85) {
            ASSERT_NO_THROW(f.tl.discard(first * page, n * page)) << "op " << op;
            for (std::uint64_t i = 0; i < n; ++i) {
                live -= ref[first + i] >= 0;
                ref[first + i] = -1;
            }
        } else {
            const std::uint64_t p = first;
            if (ref[p] < 0) continue;
            f.tl.aread(buf.data, p * page, page)->wait();
            ASSERT_TRUE(page_matches(buf.data, page, p, std::uint64_t(ref[p])))
                << "op " << op << " page " << p;
        }
        ASSERT_EQ(f.tl.stats().live_pages, live) << "op " << op;
        ASSERT_LE(f.tl.stats().free_segments, f.tl.segment_count()) << "op " << op;
    }
    f.lower.fail_discards = false;
    const tl_stats s = f.tl.stats();
    EXPECT_GT(s.discard_failures, 10u);
    EXPECT_GT(s.segments_cleaned, 10u);
    for (std::uint64_t p = 0; p < pages; ++p) {
        if (ref[p] >= 0) {
            ASSERT_TRUE(read_matches(f.tl, p, std::uint64_t(ref[p]))) << p;
        }
    }
}
