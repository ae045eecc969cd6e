// seeds/001 Section 4's DFS experiment, scaled: Bw's read volume over Br's, and the translation layer against
// Br.
#include <cstdint>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "flashxxl/reproduce/dfs_experiment.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;
using namespace flashxxl::reproduce;

//! seeds/001 Section 4, separate marks, scaled (docs/reproduce.md): with a random node layout
//! and graph caches far below the graph, nearly every adjacency access misses with Br and Bw
//! alike, so block size Bw reads about Bw / Br times Br's volume (the paper: 46 TB against
//! 336 GB at Bw / Br = 128). Target: at least half the block ratio. Counted I/O.
TEST(dfs_experiment, bw_reads_at_least_half_the_block_ratio_more_than_br) {
    dfs_experiment_options o;
    o.side = 128;
    o.br = 4 * KiB;
    o.bw = 32 * KiB;
    o.memory = 4 * MiB;
    o.graph_cache = 48 * KiB;
    o.device_bytes = 256 * MiB;
    dfs_experiment_row br = run_dfs_column("Br", o), bw = run_dfs_column("Bw", o);
    ASSERT_TRUE(br.ran) << br.why_not;
    ASSERT_TRUE(bw.ran) << bw.why_not;
    EXPECT_EQ(br.visited, o.side * o.side);
    EXPECT_EQ(bw.visited, o.side * o.side);
    const double block_ratio = double(o.bw) / double(o.br);
    const double volume_ratio = double(bw.read_bytes) / double(br.read_bytes);
    EXPECT_GE(volume_ratio, 0.5 * block_ratio)
        << "Br " << br.read_bytes << " B, Bw " << bw.read_bytes << " B";
    EXPECT_LE(volume_ratio, 1.5 * block_ratio);
    // The separate marks stay cached: little is written (the paper: under 300 MB).
    EXPECT_LT(br.write_bytes, br.read_bytes / 100);
}

//! seeds/001 Section 4, marks with the nodes and every cache at most half its structure: the
//! translation layer beats block size Br (the paper: 6 064 s against 11 352 s), since Br's
//! random Br-sized write-backs cost the 2009 SSD merges (a unit merge on the log-block model,
//! batched; a chunk merge each on the block-mapped one) while the layer writes
//! whole segments; and block size Bw cannot be set up (the paper could not run it either).
//! The layer's segment buffers and maps are charged to M. Modelled time.
TEST(dfs_experiment, translation_layer_beats_br_with_marks_in_nodes_and_half_caches) {
    dfs_experiment_options o;
    o.side = 128;
    o.br = 4 * KiB;
    o.bw = 32 * KiB;
    o.memory = 4 * MiB;
    o.bw = 128 * KiB; // a third of the 384 KiB of node records, as 16 MiB is of the paper's 48 MiB
    o.graph_cache = 1 * MiB;
    o.device_bytes = 256 * MiB;
    o.marks = dfs_marks::with_nodes;
    o.cache_share = 0.5;
    dfs_experiment_row tl = run_dfs_column("TL", o), br = run_dfs_column("Br", o),
                       bw = run_dfs_column("Bw", o);
    ASSERT_TRUE(tl.ran) << tl.why_not;
    ASSERT_TRUE(br.ran) << br.why_not;
    EXPECT_FALSE(bw.ran);
    EXPECT_NE(bw.why_not.find("below"), std::string::npos) << bw.why_not;
    // The marks' cache is half the 24-byte records, whatever M leaves.
    EXPECT_EQ(br.marks_cache, o.side * o.side * 24 / 2);
    EXPECT_EQ(tl.marks_cache, o.side * o.side * 24 / 2);
    EXPECT_GT(tl.tl_memory, 2 * o.bw); // two segment buffers and the maps
    EXPECT_EQ(br.tl_memory, 0u);
    EXPECT_LT(tl.modelled_s, br.modelled_s);
    // The layer serves some reads from its open segment: it reads less than Br.
    EXPECT_LE(tl.read_bytes, br.read_bytes);
}

//! The device scaled with the blocks (dfs_experiment_options::device_scale): the log-block
//! model's unit and pool (the block-mapped model's chunk) 32 times smaller and per-command times
//! 32 times shorter, so that a random 4 KiB write-back costs a merge as the paper's 128 KiB ones did. With
//! the marks in the nodes the translation layer's advantage over Br shrinks toward the paper's (TL / Br
//! 0.53).
TEST(dfs_experiment, device_scaled_with_the_blocks) {
    dfs_experiment_options o;
    o.side = 128;
    o.br = 4 * KiB;
    o.bw = 128 * KiB;
    o.memory = 4 * MiB;
    o.graph_cache = 1 * MiB;
    o.device_bytes = 256 * MiB;
    o.marks = dfs_marks::with_nodes;
    o.cache_share = 0.5;
    const std::string config = flashxxl::reproduce::detail::dfs_machine_config(o, false);
    EXPECT_EQ(config.find("unit="), std::string::npos);
    o.device_scale = 32;
    // The log-block model (the default): unit, erase block, pool and batch over 32.
    EXPECT_NE(flashxxl::reproduce::detail::dfs_machine_config(o, false).find(
                  "model=hama-ssd-2009 unit=262144B erase_block=262144B log_pages=96 batch_pages=64 c_r_ms="),
              std::string::npos)
        << flashxxl::reproduce::detail::dfs_machine_config(o, false);
    // The block-mapped model: its chunk over 32.
    dfs_experiment_options bm = o;
    bm.preset = "hama-ssd-2009-block-mapped";
    EXPECT_NE(flashxxl::reproduce::detail::dfs_machine_config(bm, false).find("chunk=16384B c_r_ms="),
              std::string::npos)
        << flashxxl::reproduce::detail::dfs_machine_config(bm, false);
    const dfs_experiment_row tl = run_dfs_column("TL", o), br = run_dfs_column("Br", o);
    ASSERT_TRUE(tl.ran) << tl.why_not;
    ASSERT_TRUE(br.ran) << br.why_not;
    std::printf("scaled device: TL %.3f s, Br %.3f s, TL / Br %.3f\n", tl.modelled_s, br.modelled_s,
                tl.modelled_s / br.modelled_s);
    EXPECT_LT(tl.modelled_s, br.modelled_s);
}

} // namespace
