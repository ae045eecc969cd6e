// The translation layer over the emulated hama-ssd-2009-block-mapped: segment-sized device writes and a
// modelled speedup.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "tl/tl_test_support.hpp"

using namespace flashxxl;
using namespace flashxxl::testing;

namespace {

constexpr std::uint64_t page = 128 * KiB;
constexpr std::uint64_t segment = 4 * MiB; // 32 pages; a multiple of the 512 KiB chunk
constexpr std::uint64_t span = 64 * MiB;   // 16 segments

std::unique_ptr<emulated_file> make_ssd(int queue) {
    return std::make_unique<emulated_file>("ssd", std::make_unique<sparse_memory_file>(span),
                                           make_model("hama-ssd-2009-block-mapped"), span, queue);
}

} // namespace

TEST(tl_emulated, random_page_writes_become_segment_writes_and_run_faster_in_modelled_time) {
    tl_config cfg;
    cfg.page_bytes = page;
    cfg.segment_bytes = segment;
    cfg.spare_bytes = 4 * segment;     // logical 48 MiB = 384 pages
    const std::uint64_t working = 192; // 50% of the logical capacity
    const std::uint64_t writes = 1500;
    aligned_buffer buf(page);

    // (a) directly on the emulated SSD.
    double direct_s = 0;
    {
        auto ssd = make_ssd(test_queue_id(10));
        std::mt19937_64 rng(3);
        for (std::uint64_t i = 0; i < writes; ++i)
            ssd->awrite(buf.data, (rng() % working) * page, page)->wait();
        direct_s = ssd->busy_seconds();
    }
    // (b) through the layer.
    auto ssd = make_ssd(test_queue_id(11));
    translation_layer tl(*ssd, span, cfg, "ssd", test_queue_id(12));
    std::vector<std::uint64_t> version(working, 0);
    for (std::uint64_t p = 0; p < working; ++p) {
        fill_page(buf.data, page, p, 0);
        tl.awrite(buf.data, p * page, page)->wait();
    }
    const double t0 = ssd->busy_seconds();
    std::mt19937_64 rng(3);
    for (std::uint64_t i = 0; i < writes; ++i) {
        const std::uint64_t p = rng() % working;
        fill_page(buf.data, page, p, ++version[p]);
        tl.awrite(buf.data, p * page, page)->wait();
    }
    const double tl_s = ssd->busy_seconds() - t0;
    // On the block-mapped Hama every random page write merges a chunk. The log-block
    // hama-ssd-2009 absorbs them in its log pool and merges in batches: there the layer gains
    // only 1.14x on this pattern (10.8 s against 12.3 s, measured 2026-11-28).
    EXPECT_LT(tl_s * 4, direct_s) << "through the layer " << tl_s << " s, direct " << direct_s
                                  << " s (modelled)";

    // Every device write is a whole segment; the device counts it all as internal I/O.
    const device_stats ds = ssd->stats();
    const tl_stats ts = tl.stats();
    EXPECT_GT(ts.segments_cleaned, 0u);
    EXPECT_EQ(ds.internal.write_bytes, ts.device_bytes_written);
    EXPECT_EQ(ds.internal.write_bytes, ds.internal.write_ops * segment);
    EXPECT_EQ(ds.internal.read_bytes, ts.device_bytes_read);
    EXPECT_EQ(ds.total.write_bytes, ds.internal.write_bytes);

    // And the data is right.
    for (std::uint64_t p = 0; p < working; ++p) {
        tl.aread(buf.data, p * page, page)->wait();
        ASSERT_TRUE(page_matches(buf.data, page, p, version[p])) << p;
    }
}

// An emulated file with io_threads > 1 serves through extra STXXL queues in turn with its own:
// a layer given one of those ids is refused like one given the file's own id (it used to be
// accepted, and its I/O thread then waited for a lower request queued behind itself).
TEST(tl_emulated, a_queue_id_of_one_of_the_lower_files_extra_queues_is_rejected) {
    emulated_file lower("ssd", std::make_unique<sparse_memory_file>(span), nullptr, span, test_queue_id(13));
    lower.add_queues({test_queue_id(14)});
    lower.touch_queue();
    tl_config cfg;
    cfg.page_bytes = page;
    cfg.segment_bytes = segment;
    cfg.spare_bytes = 4 * segment;
    for (int shared : {test_queue_id(13), test_queue_id(14)}) {
        try {
            translation_layer tl(lower, span, cfg, "ssd", shared);
            ADD_FAILURE() << "queue id " << shared << " accepted";
        } catch (const config_error& e) {
            const std::string what = e.what();
            EXPECT_NE(
                what.find("queue id " + std::to_string(shared) + " is also a queue id of the lower file"),
                std::string::npos)
                << what;
            EXPECT_NE(what.find("(its queues: 1000013, 1000014)"), std::string::npos) << what;
        }
    }
    // A distinct id works, and the layer's I/O reaches the device through both of its queues.
    translation_layer tl(lower, span, cfg, "ssd", test_queue_id(15));
    aligned_buffer buf(page);
    for (std::uint64_t p = 0; p < 3 * segment / page; ++p) {
        fill_page(buf.data, page, p, 1);
        tl.awrite(buf.data, p * page, page)->wait();
    }
    for (std::uint64_t p = 0; p < 3 * segment / page; ++p) {
        tl.aread(buf.data, p * page, page)->wait();
        ASSERT_TRUE(page_matches(buf.data, page, p, 1)) << p;
    }
    EXPECT_EQ(tl.stats().segments_sealed, 3u);
}
