// Tests of the translation layer switched on from a machine config (tl=on, tl_page, tl_segment, ...).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include <stxxl/bits/common/aligned_alloc.h>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {
const char* kConfig = "flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on tl_page=16KiB "
                      "tl_segment=1MiB tl_spare=16MiB\n"
                      "disk=memory,64MiB,memory name=hdd model=barracuda-7200.11\n"
                      "placement=flash_aware\n";
}

TEST(MachineTranslationLayer, ConfigSwitchesItOnPerDevice) {
    machine m = machine::from_config_text(kConfig, "tl.cfg");
    ASSERT_TRUE(m.dev("ssd").has_translation_layer());
    EXPECT_FALSE(m.dev("hdd").has_translation_layer());
    EXPECT_EQ(m.dev("ssd").tl()->config().page_bytes, 16 * KiB);
    EXPECT_EQ(m.dev("ssd").tl()->config().segment_bytes, 1 * MiB);
    // logical capacity = physical - spare, and the allocator hands out exactly that
    EXPECT_EQ(m.dev("ssd").capacity(), 48 * MiB);
    EXPECT_EQ(m.dev("ssd").allocator().alignment(), 16 * KiB);
}

TEST(MachineTranslationLayer, RandomPageWritesReachTheDeviceAsWholeSegments) {
    machine m = machine::from_config_text(kConfig, "tl.cfg");
    device& ssd = m.dev("ssd");
    const std::uint64_t page = 16 * KiB, pages = 1024; // 16 MiB of logical data
    owned_extent owner = m.allocate(role::static_data, pages * page);
    const extent& e = owner.get();
    ASSERT_EQ(e.dev, &ssd);
    char* buf = static_cast<char*>(stxxl::aligned_alloc<4096>(page));
    std::vector<std::uint64_t> order(pages);
    for (std::uint64_t i = 0; i < pages; ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(3));
    for (std::uint64_t p : order) {
        std::memset(buf, static_cast<int>(p & 0xff), page);
        std::memcpy(buf, &p, sizeof p);
        ssd.wait(ssd.awrite(buf, e.offset + p * page, page, role::static_data), role::static_data);
    }
    ssd.tl()->flush();
    for (std::uint64_t p = 0; p < pages; p += 37) {
        ssd.wait(ssd.aread(buf, e.offset + p * page, page, role::static_data), role::static_data);
        std::uint64_t got;
        std::memcpy(&got, buf, sizeof got);
        ASSERT_EQ(got, p);
        ASSERT_EQ(static_cast<unsigned char>(buf[page - 1]), p & 0xff);
    }
    stxxl::aligned_dealloc<4096>(buf);
    device_stats s = ssd.stats();
    EXPECT_EQ(s.of(role::static_data).write_bytes, pages * page) << "host writes counted by role";
    EXPECT_EQ(s.internal.write_bytes, pages * page) << "one pass, no cleaning yet";
    EXPECT_EQ(s.internal.write_ops, pages * page / MiB) << "device writes are whole 1 MiB segments";
    // Random 16 KiB writes straight to the SSD would each cost a ~40 ms merge; through the
    // layer they are sequential segment writes at about 24.5 MiB/s.
    EXPECT_LT(ssd.busy_seconds(), 2.0 * double(pages * page) / (24.53 * MiB));
    // Dropping the owner discards the pages in the layer and frees the range.
    owner.reset();
    EXPECT_EQ(ssd.allocator().used_bytes(), 0u);
    EXPECT_EQ(ssd.tl()->stats().pages_discarded, pages);
    EXPECT_EQ(ssd.release_errors(), 0u);
}

TEST(MachineTranslationLayer, BadOptionsNameTheLineAndKey) {
    struct bad {
        const char* options;
        const char* mention;
    } cases[] = {
        {"tl=on tl_page=16KiB tl_segment=40KiB", "tl_segment"},
        {"tl=on tl_page=1000", "tl_page"},
        {"tl=on tl_page=16KiB tl_segment=1MiB tl_colour=red", "tl_colour"},
        {"tl=on tl_cleaning=lazy", "tl_cleaning"},
        {"tl=on tl_page=16KiB tl_segment=1MiB tl_spare=64MiB", "tl_spare"},
        {"tl=on tl_page=16KiB tl_segment=32MiB", "too small"},
        {"tl=on tl_low_watermark=2KiB",
         "expected a whole number of segments (e.g. 2; at most 18 digits), got '2KiB'"},
        {"tl=on tl_low_watermark=9223372036854775808", "tl_low_watermark"},
        // Br and Bw in whole TL pages: each was accepted, and every request then failed.
        {"tl=on tl_page=64KiB tl_segment=1MiB br=4KiB", "br=4KiB is not a multiple of tl_page=64KiB"},
        {"tl=on tl_page=64KiB tl_segment=1MiB bw=96KiB", "bw=96KiB is not a multiple of tl_page=64KiB"},
    };
    for (const bad& c : cases) {
        std::string text =
            std::string("disk=memory,64MiB,memory name=hdd\nflash=memory,64MiB,memory name=ssd "
                        "model=hama-ssd-2009 ") +
            c.options + "\n";
        try {
            machine::from_config_text(text, "tl.cfg");
            ADD_FAILURE() << "accepted: " << c.options;
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("tl.cfg:2"), std::string::npos) << msg;
            EXPECT_NE(msg.find(c.mention), std::string::npos) << msg;
        }
    }
}

// Without br=, a device under a translation layer derives Br in whole pages, also from a Bw
// whose largest power-of-two divisor is below the page (it used to pick 64 KiB under 96 KiB pages).
TEST(MachineTranslationLayer, DerivedBrIsWholePages) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on "
                                          "tl_page=96KiB tl_segment=960KiB bw=960KiB\n",
                                          "tl.cfg");
    EXPECT_EQ(m.dev(0).blocks().br, 96 * KiB);
    EXPECT_EQ(m.dev(0).blocks().bw, 960 * KiB);
    machine p = machine::from_config_text("flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on "
                                          "tl_page=4KiB tl_segment=1MiB bw=192KiB\n",
                                          "tl.cfg");
    EXPECT_EQ(p.dev(0).blocks().br,
              96 * KiB); // the largest divisor in whole pages up to 128 KiB, as without a layer
    EXPECT_EQ(p.dev(0).blocks().bw, 192 * KiB);
    machine q = machine::from_config_text("flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on "
                                          "tl_page=12KiB tl_segment=1200KiB bw=1200KiB\n",
                                          "tl.cfg");
    EXPECT_EQ(q.dev(0).blocks().br, 120 * KiB); // 10 pages: the largest divisor of 100 pages up to 128 KiB
    machine r = machine::from_config_text("flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on "
                                          "tl_page=256KiB tl_segment=4MiB bw=4MiB\n",
                                          "tl.cfg");
    EXPECT_EQ(r.dev(0).blocks().br, 256 * KiB); // a page above 128 KiB: one page
}

// A request the layer refuses (unaligned, out of range) is not I/O: the device's per-role
// stats do not count it (they used to, before the layer checked it).
TEST(MachineTranslationLayer, RefusedRequestsAreNotCounted) {
    machine m = machine::from_config_text(kConfig, "tl.cfg");
    device& ssd = m.dev("ssd");
    char* buf = static_cast<char*>(stxxl::aligned_alloc<4096>(16 * KiB));
    EXPECT_THROW(ssd.awrite(buf, 4 * KiB, 4 * KiB, role::scratch), invalid_request);        // not whole pages
    EXPECT_THROW(ssd.aread(buf, ssd.capacity(), 16 * KiB, role::scratch), invalid_request); // beyond the end
    ssd.wait(ssd.awrite(buf, 0, 16 * KiB, role::scratch), role::scratch);
    stxxl::aligned_dealloc<4096>(buf);
    const device_stats s = ssd.stats();
    const io_counters& c = s.of(role::scratch);
    EXPECT_EQ(c.write_ops, 1u);
    EXPECT_EQ(c.write_bytes, 16 * KiB);
    EXPECT_EQ(c.read_ops, 0u);
}
