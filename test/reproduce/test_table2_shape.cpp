// seeds/001 Table 2's shape in modelled time: MM_BFS on grids with Br, Bw and the translation layer, scaled
// down.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "flashxxl/reproduce/table2_experiment.hpp"
#include "flashxxl/reproduce/table2_host_model.hpp"
#include "flashxxl/reproduce/table2_paper.hpp"
#include "support/sanitizer_build.hpp"

using namespace flashxxl;
using namespace flashxxl::reproduce;

using flashxxl_test::sanitized_build;

namespace {

void print(const table2_run& r) {
    std::printf(
        "side %5llu %s: pp %8.2f s bfs %8.2f s | pp R %7.1f W %7.1f MiB | bfs R %7.1f W %7.3f MiB | mu %llu "
        "K %llu loaded %llu reads %llu max pool %llu cache %.1f MiB evicted %llu | TL buffer R %.1f MiB\n",
        (unsigned long long)r.side, to_string(r.config), r.preprocessing_s, r.bfs_s,
        r.preprocessing_read_bytes / 1048576.0, r.preprocessing_write_bytes / 1048576.0,
        r.bfs_read_bytes / 1048576.0, r.bfs_write_bytes / 1048576.0, (unsigned long long)r.result.mu,
        (unsigned long long)r.result.clusters, (unsigned long long)r.result.clusters_loaded,
        (unsigned long long)r.result.cluster_reads, (unsigned long long)r.result.max_pool_records,
        r.result.cache_peak_bytes / 1048576.0, (unsigned long long)r.result.clusters_evicted,
        r.tl_buffer_read_bytes / 1048576.0);
    const phase_stats* pre = r.result.phase("preprocessing");
    std::printf("      pp rounds %llu, by role:", (unsigned long long)r.result.growth_rounds);
    for (role x : {role::static_data, role::scratch, role::stream})
        std::printf(" %s R %.1f W %.1f MiB", to_string(x), pre->of(x).read_bytes / 1048576.0,
                    pre->of(x).write_bytes / 1048576.0);
    std::printf("\n");
}

} // namespace

TEST(Table2Shape, PaperBlockSizesFitTheDocumentedMemory) {
    // bench/graph/bench_bfs_table2.sh runs Br = Bw = 16 MiB with M = 512 MiB.
    const block_sizes bw(16 * MiB, 16 * MiB);
    EXPECT_LE(bfs_experiment_min_memory(bw), 512 * MiB);
    table2_options o;
    EXPECT_LE(bfs_experiment_min_memory(block_sizes(o.bw(), o.bw())), o.memory());
}

// The paper's configuration scaled down 32 times (Br 4 KiB, Bw 512 KiB, M 16 MiB): on the
// 128 x 128 grid Bw's cluster file (2 MiB) fits in memory, so its few large reads win; on the
// 1448 x 1448 grid (2^21 nodes, the paper's 2^26) the file is 96 MiB, the clusters a Bw read
// brings along fill the idle part of M, ranked by nearness to the frontier, and the frontier
// still needs blocks that no longer fit: Bw loses (paper 2.75, ours 1.15). In between, on the
// 2^19 grid (the paper's 2^24, where its Bw lost 2.01), our ranked cache holds the frontier's
// band of clusters and Bw wins, 0.62 (docs/bfs.md). TL is run on 128^2 and 362^2. About half a
// minute, deterministic (modelled time only).
TEST(Table2Shape, BwWinsTheBfsPhaseOnSmallGridsAndLosesOnLargeOnes) {
    if (sanitized_build)
        GTEST_SKIP() << "seven grid BFS runs up to 2 096 704 nodes: run in the release build only";
    table2_options o;
    double br_total = 0, tl_total = 0;
    for (std::uint64_t side : {128, 362, 1448}) {
        SCOPED_TRACE("side " + std::to_string(side));
        const table2_run br = run_table2(side, table2_block_config::br, o);
        print(br);
        EXPECT_EQ(br.result.levels(), 2 * side - 1);
        // The BFS phase writes almost nothing (paper: 0.009 GB against 0.56 GB).
        EXPECT_LE(double(br.bfs_write_bytes), 0.05 * double(br.preprocessing_write_bytes));
        if (side != 362) {
            const table2_run bw = run_table2(side, table2_block_config::bw, o);
            print(bw);
            EXPECT_EQ(br.result.level_sizes, bw.result.level_sizes);
            // Fewer random reads win while Bw's file fits in M; past that, Bw re-reads blocks.
            if (side == 128) {
                EXPECT_LT(bw.bfs_s / br.bfs_s, 1.0);
            } else {
                EXPECT_GT(bw.bfs_s / br.bfs_s, 1.0);
                EXPECT_LT(bw.bfs_s / br.bfs_s, 4.0)
                    << "the paper's 2.75, not the 9.2 of a cache ranked near / far";
            }
            // Bw too: its pool proper stays in memory, and the clusters a read brings along
            // unasked are dropped rather than spilled when room is short (cluster_cache).
            EXPECT_LE(double(bw.bfs_write_bytes), 0.05 * double(bw.preprocessing_write_bytes));
        }
        if (side != 1448) {
            const table2_run tl = run_table2(side, table2_block_config::tl, o);
            print(tl);
            EXPECT_EQ(br.result.level_sizes, tl.result.level_sizes);
            EXPECT_LE(double(tl.bfs_write_bytes), 0.05 * double(tl.preprocessing_write_bytes));
            // Every byte Br reads, TL reads from the SSD or answers from its open segment
            // buffer: the layer's whole read advantage is those buffer hits.
            EXPECT_EQ(tl.run_read_bytes + tl.tl_buffer_read_bytes, br.run_read_bytes);
            EXPECT_GT(tl.tl_buffer_read_bytes, 0u);
            EXPECT_EQ(br.tl_buffer_read_bytes, 0u);
            br_total += br.total_s();
            tl_total += tl.total_s();
        }
    }
    // The translation layer: the paper measured it within 4 % of Br. Here it is faster, by 11 %
    // at this scale: its Bw segment writes beat the 4 KiB writes the scaled Br makes (the
    // device's command overhead; see the next test and docs/bfs.md).
    EXPECT_LE(tl_total, 1.0 * br_total);
    EXPECT_GE(tl_total, 0.85 * br_total);
}

// The translation layer's lead over Br at scale 32 is the 2009 SSD's command overhead, which
// the scaling leaves at its fitted value: a 4 KiB write pays 0.08 ms on 0.16 ms of transfer
// (a 128 KiB one in the paper 0.08 ms on 5.1 ms). Divide the per-command times by the scale as
// well and TL comes within 10 % of Br in total, as in the paper (0.99 on this 2^17-node grid).
// TL's M is less the layer's two Bw segment buffers (table2_tl_buffer_memory).
TEST(Table2Shape, WithTheDeviceScaledTooTheLayerIsWithinTenPercentOfBr) {
    if (sanitized_build)
        GTEST_SKIP() << "three grid BFS runs of 131 044 nodes: run in the release build only";
    table2_options o;
    o.scale_device = true;
    const table2_run br = run_table2(362, table2_block_config::br, o);
    const table2_run tl = run_table2(362, table2_block_config::tl, o);
    print(br);
    print(tl);
    EXPECT_EQ(br.result.level_sizes, tl.result.level_sizes);
    // The layer's two segment buffers come out of TL's M: its hot pool gets less.
    EXPECT_EQ(tl.tl_memory, table2_tl_buffer_memory(o));
    EXPECT_EQ(br.tl_memory, 0u);
    EXPECT_LT(tl.result.pool_memory_bytes, br.result.pool_memory_bytes);
    EXPECT_LE(tl.total_s(), 1.10 * br.total_s());
    EXPECT_GE(tl.total_s(), 0.90 * br.total_s());
    // With the fitted preset the same grid gives TL / Br = 0.89: the overhead is the gap.
    o.scale_device = false;
    const table2_run br_fitted = run_table2(362, table2_block_config::br, o);
    EXPECT_GT(br_fitted.total_s(), 1.2 * br.total_s());
}

// The full report's scale (4: Br 32 KiB, Bw 4 MiB, M 128 MiB), where the SSD's command overhead
// is 6 % of a Br write's transfer instead of 50 % at scale 32: on its second row (1024^2 = 2^20
// nodes, the paper's 2^22) TL is within 10 % of Br in total, as in the paper (0.96 here, paper
// 0.98), and its lead is again only the reads its open segment answered. About 6 s.
TEST(Table2Shape, AtScaleFourTheLayerIsWithinTenPercentOfBr) {
    if (sanitized_build)
        GTEST_SKIP() << "two grid BFS runs of 1 048 576 nodes: run in the release build only";
    table2_options o;
    o.scale = 4;
    const table2_run br = run_table2(1024, table2_block_config::br, o);
    const table2_run tl = run_table2(1024, table2_block_config::tl, o);
    print(br);
    print(tl);
    EXPECT_EQ(br.result.level_sizes, tl.result.level_sizes);
    EXPECT_EQ(tl.run_read_bytes + tl.tl_buffer_read_bytes, br.run_read_bytes);
    EXPECT_LE(tl.total_s(), 1.10 * br.total_s());
    EXPECT_GE(tl.total_s(), 0.90 * br.total_s());
    EXPECT_LE(double(tl.bfs_write_bytes), 0.05 * double(tl.preprocessing_write_bytes));
}

// The quick report's first row (scale 8: Br 16 KiB, Bw 2 MiB, M 64 MiB; 362^2 = 2^17 nodes, the
// paper's 2^20). In I/O alone TL is 0.80 of Br: its open segment buffer answers a fifth of Br's
// reads. The paper's times are mostly host time (reproduce/table2_host_model.hpp: 0.342 s per BFS
// level, fitted on the paper's Br BFS phase of this row); the same host time, scaled as the
// data, added to both brings TL within 10 % of Br, as in the paper (0.96). About 5 s.
TEST(Table2Shape, OnTheFirstRowTheLayerIsWithinTenPercentOfBrWithThePapersHostTime) {
    if (sanitized_build) GTEST_SKIP() << "two grid BFS runs of 131 044 nodes: run in the release build only";
    table2_options o;
    o.scale = 8;
    const std::uint64_t side = 362;
    const table2_run br = run_table2(side, table2_block_config::br, o);
    const table2_run tl = run_table2(side, table2_block_config::tl, o);
    print(br);
    print(tl);
    ASSERT_EQ(br.result.level_sizes, tl.result.level_sizes);
    EXPECT_EQ(br.result.levels(), grid_corner_bfs_levels(side));
    const double io_only = tl.total_s() / br.total_s();
    EXPECT_LT(io_only, 0.90)
        << "the layer's buffer no longer answers a fifth of the reads: update docs/bfs.md";
    const double host = table2_host_model::fitted_to_paper().host_s(br.result.levels(), o.scale);
    // 1/8 of the paper's host time on 2^20 (about 700 s).
    EXPECT_NEAR(host, 700.0 / 8, 2.0);
    const double with_host = (tl.total_s() + host) / (br.total_s() + host);
    std::printf("TL / Br: I/O only %.3f, with %.1f s of host time %.3f (paper %.3f)\n", io_only, host,
                with_host, table2_paper()[0].tl_total_s / table2_paper()[0].br_total_s());
    EXPECT_GE(with_host, 0.90);
    EXPECT_LE(with_host, 1.10);
}

TEST(Table2Shape, SweepForDocs) {
    const char* sides = std::getenv("TABLE2_SIDES");
    if (!sides) GTEST_SKIP() << "set TABLE2_SIDES=\"s1 s2 ...\" to print a sweep";
    table2_options o;
    if (const char* sc = std::getenv("TABLE2_SCALE")) o.scale = std::strtoull(sc, nullptr, 10);
    if (const char* sd = std::getenv("TABLE2_SCALE_DEVICE")) o.scale_device = std::string(sd) == "1";
    for (const char* p = sides; *p;) {
        char* end = nullptr;
        std::uint64_t side = std::strtoull(p, &end, 10);
        if (end == p) break;
        p = end;
        const char* only = std::getenv("TABLE2_CONFIGS"); // e.g. "bw" or "br,tl"; all three when unset
        for (auto c : {table2_block_config::br, table2_block_config::bw, table2_block_config::tl})
            if (!only || std::string(only).find(to_string(c)) != std::string::npos)
                print(run_table2(side, c, o));
    }
}
