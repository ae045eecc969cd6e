// Br / Bw recommendations on the model presets: the papers' knees, both alignments, changed chunks.
#include <gtest/gtest.h>

#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/plans.hpp"
#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/machine/machine_config.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/device/model_presets.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::GiB;
using flashxxl::KiB;
using flashxxl::MiB;

namespace {

// The method of shared/DEVICE-MODELS.md: random offsets over the first 8 GiB of the SSD.
ch::characterization sweep(const std::string& preset, flashxxl::model_params params,
                           const std::string& plan_text) {
    ch::model_target t(flashxxl::make_model(preset, std::move(params)), preset);
    ch::runner r(t);
    return r.run(ch::parse_experiments(plan_text, "test"));
}

std::string sweep_line(std::uint64_t span, std::uint64_t from, const std::string& extra = "") {
    return "sweep patterns=SR,RR,SW,RW,RW@4KiB from=" + std::to_string(from) +
           " to=16MiB max=64MiB selfscale=yes repeat=1 time=600 count=300 span=" + std::to_string(span) +
           extra + "\n";
}

} // namespace

TEST(characterize_recommendation, hama_ssd_knees_match_the_papers_and_the_chunk) {
    auto c = sweep("hama-ssd-2009-block-mapped", {}, sweep_line(8 * GiB, 512));
    ch::recommendation rec = ch::recommend(c);
    ASSERT_TRUE(rec.br && rec.bw_aligned && rec.bw_unaligned);
    EXPECT_EQ(*rec.br, 128 * KiB);          // seeds/001: Br = 128 KiB (95.6% of peak at 128 KiB)
    EXPECT_EQ(*rec.bw_aligned, 512 * KiB);  // the chunk size: a whole-chunk write needs no merge
    EXPECT_EQ(*rec.bw_unaligned, 16 * MiB); // seeds/001: Bw = 16 MiB (90.5% at 4 KiB-granular offsets)
    // the shape of DEVICE-MODELS.md: aligned 256 KiB random writes reach only ~22% of sequential
    EXPECT_LT(rec.at("RW", 256 * KiB), 0.3 * rec.peak_seq_write_mib_s);
    EXPECT_GT(rec.at("RW", 512 * KiB), 0.98 * rec.peak_seq_write_mib_s);
    // 512 B: random writes ~400x slower than sequential (paper: 0.012 vs 4.89 MiB/s)
    EXPECT_GT(rec.at("SW", 512) / rec.at("RW", 512), 200.0);
    EXPECT_NEAR(rec.at("RR", 512), 2.18, 0.15);
}

TEST(characterize_recommendation, changed_chunk_moves_the_aligned_write_knee) {
    auto c = sweep("hama-ssd-2009-block-mapped", {{"chunk", "256KiB"}}, sweep_line(8 * GiB, 4 * KiB));
    ch::recommendation rec = ch::recommend(c);
    ASSERT_TRUE(rec.bw_aligned && rec.br);
    EXPECT_EQ(*rec.bw_aligned, 256 * KiB);
    EXPECT_EQ(*rec.br, 128 * KiB); // reads do not care about the chunk
    // smaller chunks: cheaper merges, so unaligned random writes get closer to sequential
    auto c512 = sweep("hama-ssd-2009-block-mapped", {}, sweep_line(8 * GiB, 4 * KiB));
    ch::recommendation rec512 = ch::recommend(c512);
    EXPECT_GT(rec.at("RW@4KiB", 2 * MiB), 1.15 * rec512.at("RW@4KiB", 2 * MiB));
    EXPECT_EQ(*rec512.bw_aligned, 512 * KiB);
}

TEST(characterize_recommendation, thresholds_are_options) {
    auto c = sweep("hama-ssd-2009-block-mapped", {}, sweep_line(8 * GiB, 4 * KiB));
    ch::recommendation_options o;
    o.read_share = 0.90;
    ch::recommendation rec = ch::recommend(c, o);
    ASSERT_TRUE(rec.br);
    EXPECT_EQ(*rec.br, 64 * KiB); // 91.5% of peak at 64 KiB
}

TEST(characterize_recommendation, barracuda_reads_randomly_far_slower_and_has_no_flash_write_penalty) {
    auto c = sweep("barracuda-7200.11", {}, sweep_line(112 * GiB, 4 * KiB));
    ch::recommendation rec = ch::recommend(c);
    // seeds/000 Table 3.1: random 512 B reads 0.063 vs sequential 6.2 MiB/s; at 4 KiB the gap stays ~100x
    EXPECT_GT(rec.at("SR", 4 * KiB), 30 * rec.at("RR", 4 * KiB));
    EXPECT_GT(rec.at("SR", 64 * KiB), 5 * rec.at("RR", 64 * KiB));
    // no flash-like write penalty: random writes are not slower than random reads (the write cache
    // hides part of the rotation), and block-aligned vs 4 KiB-granular offsets do not matter
    for (std::uint64_t b : {4 * KiB, 64 * KiB, 1 * MiB}) {
        EXPECT_GE(rec.at("RW", b), 0.9 * rec.at("RR", b)) << b;
        EXPECT_NEAR(rec.at("RW@4KiB", b) / rec.at("RW", b), 1.0, 0.15) << b;
    }
    // an HDD's sequential writes run near its peak from small blocks on; no merge cost anywhere
    EXPECT_GT(rec.peak_seq_write_mib_s, 80.0);
}

TEST(characterize_recommendation, quick_plan_recommends_the_same_on_hama) {
    ch::plan_options o;
    o.span = 8 * GiB;
    o.time_s = 600;
    o.count = 300;
    o.repeats = 1;
    auto c = sweep("hama-ssd-2009-block-mapped", {}, ch::quick_plan(o));
    ch::recommendation rec = ch::recommend(c);
    ASSERT_TRUE(rec.br && rec.bw_aligned && rec.bw_unaligned);
    EXPECT_EQ(*rec.br, 128 * KiB);
    EXPECT_EQ(*rec.bw_aligned, 512 * KiB);
    EXPECT_EQ(*rec.bw_unaligned, 16 * MiB);
    EXPECT_FALSE(c.self_scaling.empty());
    std::string snippet = ch::config_snippet(rec, "/dev/sdx", 32 * GiB, "ssd", true);
    EXPECT_NE(snippet.find("# recommended: Br=128KiB Bw=512KiB"), std::string::npos) << snippet;
    EXPECT_NE(snippet.find("flash=/dev/sdx,32GiB,syscall name=ssd br=128KiB bw=512KiB\n"), std::string::npos)
        << snippet;
    EXPECT_EQ(snippet.find(", not "), std::string::npos) << "Bw was not raised: " << snippet;
    // The snippet is a config line the machine parser takes as it is, block sizes included.
    flashxxl::machine_spec spec = flashxxl::parse_machine_config(snippet, "snippet");
    ASSERT_EQ(spec.devices.size(), 1u);
    EXPECT_EQ(spec.devices[0].br, 128 * KiB);
    EXPECT_EQ(spec.devices[0].bw, 512 * KiB);
}

TEST(characterize_recommendation, snippet_raises_bw_to_a_multiple_of_br) {
    ch::recommendation rec;
    rec.br = 192 * KiB;
    rec.bw_aligned = 512 * KiB; // not a multiple of Br: the device line states 576 KiB
    std::string snippet = ch::config_snippet(rec, "/x.img", GiB, "ssd", true);
    EXPECT_NE(snippet.find(" br=192KiB bw=576KiB\n"), std::string::npos) << snippet;
    EXPECT_NE(snippet.find("# bw=576KiB, not 512KiB: a write block holds whole read blocks"),
              std::string::npos)
        << snippet;
    EXPECT_EQ(flashxxl::parse_machine_config(snippet, "snippet").devices.at(0).bw, 576 * KiB);
    rec.br.reset(); // Br not measured (an HDD whose random reads never level off): only bw= stated
    snippet = ch::config_snippet(rec, "/x.img", GiB, "ssd", true);
    EXPECT_EQ(snippet.find(" br="), std::string::npos) << snippet;
    EXPECT_NE(snippet.find(" bw=512KiB\n"), std::string::npos) << snippet;
}
