// The characterization I/O buffer: huge-page aligned above one page, cyclic contents, backing reported.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "flashxxl/characterize/pattern_buffer.hpp"
#include "flashxxl/characterize/page_backing.hpp"

namespace ch = flashxxl::characterize;

namespace {
std::string transparent_huge_page_mode() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
bool transparent_huge_pages_on() {
    std::string mode = transparent_huge_page_mode();
    return mode.find("[always]") != std::string::npos || mode.find("[madvise]") != std::string::npos;
}
} // namespace

TEST(pattern_buffer, one_page_stays_one_page) {
    ch::pattern_buffer b;
    std::uint8_t* p = b.get(4096);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 4096, 0u);
    EXPECT_EQ(b.size(), 4096u);
    EXPECT_EQ(b.backing(), ch::page_backing::base_pages);
    for (std::size_t i = 0; i < 4096; ++i)
        ASSERT_EQ(p[i], std::uint8_t(i & 0xff)) << i;
}

TEST(pattern_buffer, larger_buffers_start_at_a_huge_page_and_cover_whole_huge_pages) {
    const std::size_t huge = ch::huge_page_bytes();
    ASSERT_GE(huge, 4096u);
    ASSERT_EQ(huge & (huge - 1), 0u);
    ch::pattern_buffer b;
    for (std::size_t bytes : {std::size_t(8192), std::size_t(1) << 20, huge + 4096}) {
        std::uint8_t* p = b.get(bytes);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % huge, 0u) << bytes;
        EXPECT_EQ(b.size() % huge, 0u) << bytes;
        EXPECT_GE(b.size(), bytes);
        EXPECT_EQ(p[bytes - 1], std::uint8_t((bytes - 1) & 0xff));
        // what the kernel gave is read back from smaps, not assumed
        EXPECT_NE(b.backing(), ch::page_backing::unknown) << "/proc/self/smaps has no entry for the buffer";
        EXPECT_EQ(b.backing(), ch::backing_of(p, b.size()));
    }
    EXPECT_EQ(b.size(), 2 * huge);
    if (!transparent_huge_pages_on()) {
        EXPECT_EQ(b.backing(), ch::page_backing::base_pages);
    }
    // smaller requests reuse the buffer
    std::uint8_t* again = b.get(4096);
    EXPECT_EQ(b.size(), 2 * huge);
    EXPECT_EQ(again[0], 0u);
}

TEST(pattern_buffer, smaps_tells_base_pages_from_huge_ones) {
    // a 64 KiB heap block is not in huge pages unless THP backs every mapping ("always")
    void* p = std::malloc(64 * 1024);
    ASSERT_NE(p, nullptr);
    static_cast<char*>(p)[0] = 1;
    ch::page_backing heap = ch::backing_of(p, 64 * 1024);
    EXPECT_NE(heap, ch::page_backing::unknown);
    if (transparent_huge_page_mode().find("[always]") == std::string::npos) {
        EXPECT_EQ(heap, ch::page_backing::base_pages);
    }
    std::free(p);
    EXPECT_STREQ(ch::to_string(ch::page_backing::huge_pages), "huge pages");
    EXPECT_STREQ(ch::to_string(ch::page_backing::base_pages), "base pages");
}

// A real target's reads land apart from its writes: what a read returned never goes out in a write.
TEST(characterize_request_buffers, writes_keep_the_pattern_whatever_was_read) {
    ch::request_buffers b;
    EXPECT_EQ(b.backing(), ch::page_backing::unknown);
    std::uint8_t* w = b.get(flashxxl::io_op::write, 8192);
    std::uint8_t* r = b.get(flashxxl::io_op::read, 8192);
    EXPECT_NE(w, r);
    for (std::size_t i = 0; i < 8192; ++i)
        r[i] = 0; // as a read of a hole would leave it
    w = b.get(flashxxl::io_op::write, 4096);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < 8192; ++i)
        bad += w[i] != (i & 0xff);
    EXPECT_EQ(bad, 0u);
    EXPECT_NE(b.backing(), ch::page_backing::unknown); // the write buffer's, the latest used
}
