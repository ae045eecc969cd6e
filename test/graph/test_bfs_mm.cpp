// Tests of MM_BFS (Mehlhorn-Meyer): levels and parents equal Boost.Graph's; clusters and pool behave.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/cluster_cache.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;

//! `any_external`: the arc sort must go external only for graphs larger than the build budget
//! (with larger blocks the sorter's minimum holds the smallest graph); else for every graph.
void check_all_graphs(machine& m, const block_sizes& b, std::uint64_t memory, std::uint64_t mu,
                      bool two_sources = true, bool any_external = false) {
    for (const test_graph& tg : flashxxl::testing::test_graphs()) {
        SCOPED_TRACE(tg.name + " mu " + std::to_string(mu));
        flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
        // A small build budget: the arc sort runs external too.
        const std::uint64_t build_memory = csr_build_min_memory(b) + 32 * 1024;
        auto g = build_csr(m, build_memory, b, src);
        if (!any_external || 2 * tg.edges.size() * sizeof(bfs_arc) > build_memory) {
            EXPECT_GT(g->build_stats().passes, 0u);
        }
        std::vector<std::uint64_t> sources = {tg.n / 3};
        if (two_sources) sources.push_back(0);
        for (std::uint64_t source : sources) {
            // Twice: as designed (pool and levels in memory as far as M allows), and with no
            // memory for them, so that the external overflow pool and spilled levels are used.
            for (bool on_device : {false, true}) {
                SCOPED_TRACE(on_device ? "pool and levels on the device" : "pool in memory");
                bfs_level_recorder rec(tg.n);
                mm_bfs_options o;
                o.mu = mu;
                if (on_device) {
                    o.pool_memory = 0;
                    o.level_memory = 0;
                }
                bfs_result r = mm_bfs(m, *g, memory, b, source, rec, o);
                flashxxl::testing::expect_levels_match_boost(tg, source, rec);
                EXPECT_EQ(rec.level_sizes, r.level_sizes);
                ASSERT_EQ(r.phases.size(), 2u);
                EXPECT_EQ(r.phases[0].name, "preprocessing");
                EXPECT_EQ(r.phases[1].name, "bfs");
                // The BFS phase reads clusters (static_data) and rewrites the pool (hot), and never
                // writes static data.
                EXPECT_GT(r.phases[1].of(role::static_data).read_bytes, 0u);
                EXPECT_EQ(r.phases[1].of(role::static_data).write_bytes, 0u);
                EXPECT_GT(r.phases[0].of(role::static_data).write_bytes, 0u);
                EXPECT_LE(r.clusters_loaded, r.clusters);
                EXPECT_GE(r.clusters_loaded, 1u);
                if (on_device && r.reached > 100 &&
                    r.mu > 1) { // with mu = 1 a loaded cluster is used up at once
                    EXPECT_GT(r.phases[1].of(role::hot).write_bytes, 0u) << "the hot pool stayed in memory";
                }
                ASSERT_EQ(r.level_details.size(), r.level_sizes.size());
                std::uint64_t loaded = 0;
                for (std::size_t t = 0; t < r.level_details.size(); ++t) {
                    EXPECT_EQ(r.level_details[t].size, r.level_sizes[t]);
                    loaded += r.level_details[t].clusters_loaded;
                }
                EXPECT_EQ(loaded, r.clusters_loaded);
                // A read serves at least one loaded cluster; a cluster that straddles two Bw
                // segments costs two requests (at most one such cluster per segment boundary).
                EXPECT_LE(r.cluster_reads, r.clusters_loaded + r.cluster_file_bytes / b.bw);
                flashxxl::testing::expect_block_shapes(r.phases[0].total(), b, "preprocessing");
                flashxxl::testing::expect_block_shapes(r.phases[1].total(), b, "bfs");
            }
        }
    }
}

TEST(mm_bfs, levels_equal_boost_small_blocks_default_mu) {
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs(m, block_sizes(4096, 16384), 512 * 1024, 0);
}

TEST(mm_bfs, levels_equal_boost_small_blocks_several_mu) {
    machine m = flashxxl::testing::plain_machine();
    for (std::uint64_t mu : {1, 16})
        check_all_graphs(m, block_sizes(4096, 16384), 512 * 1024, mu, false);
}

TEST(mm_bfs, levels_equal_boost_larger_write_blocks) {
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs(m, block_sizes(4096, 65536), 1024 * 1024, 0, false);
    check_all_graphs(m, block_sizes(8192, 65536), 1536 * 1024, 5, false);
}

TEST(mm_bfs, levels_equal_boost_under_every_placement) {
    for (std::string p : {"random_striping seed=9", "flash_aware", "single device=hdd",
                          "per_role static_data=ssd hot=hdd scratch=ssd stream=hdd"}) {
        SCOPED_TRACE(p);
        machine m = flashxxl::testing::two_device_machine(p);
        for (const test_graph& tg : flashxxl::testing::test_graphs()) {
            flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
            const block_sizes b(4096, 16384);
            auto g = build_csr(m, 512 * 1024, b, src);
            bfs_level_recorder rec(tg.n);
            mm_bfs(m, *g, 512 * 1024, b, 2, rec);
            flashxxl::testing::expect_levels_match_boost(tg, 2, rec);
        }
    }
}

TEST(mm_bfs, clusters_are_loaded_once_and_the_pool_bound_holds) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(64));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 512 * 1024, b, src);
    mm_bfs_options o;
    o.mu = 8;
    bfs_level_recorder rec(tg.n);
    bfs_result r = mm_bfs(m, *g, 512 * 1024, b, 0, rec, o);
    EXPECT_EQ(r.reached, tg.n);
    // A connected graph: every cluster is loaded exactly once.
    EXPECT_EQ(r.clusters_loaded, r.clusters);
    EXPECT_GT(r.clusters, tg.n / 8 / 2);
    EXPECT_LT(r.clusters, tg.n / 8 * 2);
    // shared/BFS.md's sanity check: sum of |H| over the levels at most about mu x |F|, and far
    // below what MR_BFS-style rescans of the whole graph would give (levels x arcs).
    std::uint64_t records = g->arc_count();
    EXPECT_LT(r.pool_records_scanned, 4 * o.mu * records);
    EXPECT_LT(r.pool_records_scanned, r.levels() * records / 4);
    // The pool (at most a few thousand records here) fits its share of M: nothing is written
    // in the BFS phase, and the level report says so.
    EXPECT_LT(r.max_pool_records * sizeof(adjacency_record) * 3, r.pool_memory_bytes);
    EXPECT_EQ(r.phases[1].total().write_bytes, 0u);
    for (const bfs_level_detail& d : r.level_details)
        EXPECT_EQ(d.pool_device_records, 0u);
    // Neighbouring clusters come with the read blocks of requested ones: fewer reads.
    EXPECT_LT(r.cluster_reads, r.clusters_loaded);
}

//! TPIE's habit: what both phases allocate (preprocessing's sorters, streams and lists; the BFS
//! phase's sorters, streams, in-memory pool, level lists, request list and bitsets and the
//! cluster file's read buffer) stays within M, counted through one memory_account, whether the
//! pool fits in memory or overflows, at the minimum budget and above.
TEST(mm_bfs, both_phases_allocate_at_most_m) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(90));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 512 * 1024, b, src);
    for (std::uint64_t memory :
         {mm_bfs_min_memory(b), std::uint64_t(512 * 1024), std::uint64_t(4 * 1024 * 1024)}) {
        for (int variant = 0; variant < 3; ++variant) {
            SCOPED_TRACE("memory " + std::to_string(memory) + " variant " + std::to_string(variant));
            memory_account acc;
            mm_bfs_options o;
            o.mu = 8;
            o.account = &acc;
            if (variant == 1) o.pool_memory = 0;  // the overflow pool carries the load
            if (variant == 2) o.level_memory = 0; // every level spills
            bfs_level_recorder rec(tg.n);
            bfs_result r = mm_bfs(m, *g, memory, b, 0, rec, o);
            flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
            EXPECT_GT(acc.peak(), 0u);
            EXPECT_LE(acc.peak(), memory);
            EXPECT_EQ(acc.current(), 0u) << "everything charged is given back";
            if (variant == 1) {
                EXPECT_GT(r.phases[1].of(role::hot).write_bytes, 0u);
            }
            if (variant == 2) {
                EXPECT_GT(r.phases[1].of(role::scratch).write_bytes, 0u);
            }
        }
    }
}

//! A level that requests nearly every cluster stays within M: on a star with mu = 1 level 1
//! requests all 2^16 + 1 leaves' clusters. The split counts 4 bytes per cluster for the request
//! list; a list grown by doubling held 2^17 entries (8 bytes per cluster), old and new arrays
//! side by side while it moved, and passed M (714 906 bytes against 600 000).
TEST(mm_bfs, a_level_requesting_nearly_every_cluster_stays_within_m) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg;
    tg.name = "star";
    tg.n = (1u << 16) + 2;
    for (std::uint64_t v = 1; v < tg.n; ++v)
        tg.edges.push_back({0, v});
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 4 * 1024 * 1024, b, src);
    const std::uint64_t memory = 600000;
    memory_account acc;
    mm_bfs_options o;
    o.mu = 1;
    o.account = &acc;
    bfs_level_recorder rec(tg.n);
    bfs_result r = mm_bfs(m, *g, memory, b, 0, rec, o);
    flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
    ASSERT_EQ(r.clusters, tg.n) << "mu = 1: every node a cluster";
    ASSERT_EQ(r.level_details.size(), 2u);
    EXPECT_EQ(r.level_details[1].clusters_loaded, tg.n - 1) << "level 1 requests every leaf's cluster";
    EXPECT_LE(acc.peak(), memory);
    EXPECT_EQ(acc.current(), 0u);
}

//! The cluster file's own block sizes count against M: with a cluster Bw of 1 MiB over streams
//! of 4 KiB the minimum holds its 1 MiB read buffer (BFS phase) and its 2 x 1 MiB write buffers
//! (preprocessing), both phases stay within M at that minimum and above (the file's buffers
//! charged to the account), and a budget below it is a config_error naming both pairs of sizes.
TEST(mm_bfs, the_cluster_files_own_write_block_counts_against_m) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(100));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 4096), fb(4096, 1024 * 1024);
    auto g = build_csr(m, 512 * 1024, b, src);
    EXPECT_EQ(mm_bfs_phase_min_memory(b, fb), mm_bfs_phase_min_memory(b) - b.bw + fb.bw);
    EXPECT_EQ(mm_bfs_phase_min_memory(b, b), mm_bfs_phase_min_memory(b));
    EXPECT_EQ(clustering_min_memory(b, b), clustering_min_memory(b));
    EXPECT_GE(clustering_min_memory(b, fb), 2 * fb.bw);
    const std::uint64_t least = mm_bfs_min_memory(b, fb);
    for (std::uint64_t memory : {least, least + 256 * 1024}) {
        SCOPED_TRACE("memory " + std::to_string(memory));
        memory_account acc;
        mm_bfs_options o;
        o.mu = 16;
        o.cluster_blocks = fb;
        o.account = &acc;
        bfs_level_recorder rec(tg.n);
        bfs_result r = mm_bfs(m, *g, memory, b, 0, rec, o);
        flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
        EXPECT_GE(acc.peak(), 2 * fb.bw) << "the write buffers are charged";
        EXPECT_LE(acc.peak(), memory);
        EXPECT_EQ(acc.current(), 0u);
    }
    mm_bfs_options o;
    o.mu = 16;
    o.cluster_blocks = fb;
    bfs_level_recorder rec(tg.n);
    try {
        mm_bfs(m, *g, least - 1, b, 0, rec, o);
        ADD_FAILURE() << "a budget below the minimum was accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("cluster file: Br = 4KiB, Bw = 1MiB"), std::string::npos)
            << e.what();
    }
    // Each phase on its own: preprocessing below its minimum, the BFS phase below its.
    clustering_stats st;
    EXPECT_THROW(build_clusters(m, *g, clustering_min_memory(b, fb) - 1, b, 0, 16, 1, st, fb), config_error);
    auto file = build_clusters(m, *g, clustering_min_memory(b, fb), b, 0, 16, 1, st, fb);
    ASSERT_EQ(file->blocks(), fb);
    bfs_result r;
    EXPECT_THROW(mm_bfs_phase(m, *file, mm_bfs_phase_min_memory(b, fb) - 1, b, 0, rec, r, o), config_error);
}

//! Preprocessing keeps R (the remaining arcs) and the frontier lists in memory while they fit
//! their shares of M: with room for the arcs it writes nothing but the cluster file (no
//! scratch I/O at all); at the minimum budget R goes to the device. Both build the same
//! clusters, and the peak of what preprocessing allocates stays within M.
TEST(mm_bfs, preprocessing_keeps_temporaries_in_memory_while_they_fit) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(90));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 512 * 1024, b, src);
    const std::uint64_t arc_bytes = g->arc_count() * sizeof(bfs_arc);
    const std::uint64_t roomy = 8 * arc_bytes + clustering_min_memory(b);
    const clustering_memory_split at_min(clustering_min_memory(b), b, g->node_count(), g->arc_count());
    const clustering_memory_split with_room(roomy, b, g->node_count(), g->arc_count());
    ASSERT_EQ(with_room.remaining, arc_bytes);
    ASSERT_EQ(with_room.clusters, g->node_count() * sizeof(node_cluster));
    ASSERT_EQ(at_min.remaining, 0u);
    ASSERT_EQ(at_min.frontier, 0u);
    std::vector<std::uint64_t> records, clusters;
    for (std::uint64_t memory : {roomy, clustering_min_memory(b)}) {
        SCOPED_TRACE("memory " + std::to_string(memory));
        memory_account acc;
        clustering_stats st;
        phase_meter meter(m, "preprocessing");
        auto file = build_clusters(m, *g, memory, b, 0, 8, 1, st, std::nullopt, &acc);
        const phase_stats ph = meter.finish();
        EXPECT_LE(acc.peak(), memory);
        EXPECT_EQ(acc.current(), 0u);
        EXPECT_GT(st.rounds, 2u);
        EXPECT_EQ(st.clustered_nodes, tg.n);
        records.push_back(st.records);
        clusters.push_back(st.clusters);
        const std::uint64_t scratch_written = ph.of(role::scratch).write_bytes;
        if (memory == roomy) {
            EXPECT_EQ(scratch_written, 0u) << "R and the frontiers fit: no temporary reaches the device";
            EXPECT_EQ(ph.of(role::scratch).read_bytes, 0u);
        } else {
            EXPECT_GE(scratch_written, arc_bytes / 2) << "R is on the device at the minimum budget";
        }
    }
    EXPECT_EQ(records[0], records[1]);
    EXPECT_EQ(clusters[0], clusters[1]);
    EXPECT_EQ(records[0], g->arc_count());
}

//! Counted I/O: with the whole cluster file in one Br block and no in-memory pool (nothing is
//! cached), every level that needs clusters costs exactly one read request, however many it
//! needs; with merge_block_requests off, one per cluster.
TEST(mm_bfs, a_levels_requests_in_one_block_cost_one_read) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(48));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(256 * 1024, 256 * 1024);
    auto g = build_csr(m, 8 * 1024 * 1024, b, src);
    for (bool merge : {true, false}) {
        SCOPED_TRACE(merge ? "merged" : "one read per cluster");
        mm_bfs_options o;
        o.mu = 8;
        o.pool_memory = 0;
        o.merge_block_requests = merge;
        bfs_level_recorder rec(tg.n);
        bfs_result r = mm_bfs(m, *g, 8 * 1024 * 1024, b, 0, rec, o);
        flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
        ASSERT_LE(r.cluster_file_bytes, b.br) << "the test needs the file in one block";
        EXPECT_EQ(r.clusters_loaded, r.clusters);
        std::uint64_t levels_with_several = 0;
        for (const bfs_level_detail& d : r.level_details) {
            if (d.clusters_loaded == 0) {
                EXPECT_EQ(d.cluster_reads, 0u);
            } else {
                EXPECT_EQ(d.cluster_reads, merge ? 1u : d.clusters_loaded);
            }
            levels_with_several += d.clusters_loaded > 1;
        }
        EXPECT_GT(levels_with_several, 5u) << "the test needs levels that request several clusters";
        EXPECT_EQ(r.phases[1].of(role::static_data).read_ops, r.cluster_reads);
    }
}

//! Clusters cut by a read's first or last block boundary are not whole in it. While the cache
//! can hold the whole cluster file, the read takes the blocks that complete them
//! (complete_straddling_clusters), so the BFS phase reads its file about once; without, each
//! cut cluster later costs a read of both its blocks and the file is read over twice.
TEST(mm_bfs, clusters_cut_by_a_block_boundary_come_along_while_the_file_fits) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(96));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4 * 1024, 4 * 1024);
    const std::uint64_t memory = 8 * 1024 * 1024;
    auto g = build_csr(m, memory, b, src);
    std::uint64_t read_bytes[2] = {0, 0};
    for (bool complete : {false, true}) {
        SCOPED_TRACE(complete ? "completed" : "not completed");
        mm_bfs_options o;
        o.complete_straddling_clusters = complete;
        bfs_level_recorder rec(tg.n);
        bfs_result r = mm_bfs(m, *g, memory, b, 0, rec, o);
        flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
        EXPECT_EQ(r.clusters_loaded, r.clusters);
        EXPECT_EQ(r.clusters_evicted, 0u);
        ASSERT_LT(r.cluster_file_bytes * 4, memory) << "the test needs a file the cache can hold";
        ASSERT_GT(r.cluster_file_bytes, 50 * b.br) << "the test needs many block boundaries";
        read_bytes[complete] = r.phases[1].of(role::static_data).read_bytes;
        std::printf("%s: cluster file %llu bytes, BFS phase read %llu bytes in %llu requests\n",
                    complete ? "completed" : "not completed", (unsigned long long)r.cluster_file_bytes,
                    (unsigned long long)read_bytes[complete], (unsigned long long)r.cluster_reads);
        if (complete)
            EXPECT_LE(double(read_bytes[complete]), 1.6 * double(r.cluster_file_bytes));
        else
            EXPECT_GE(double(read_bytes[complete]), 2.0 * double(r.cluster_file_bytes));
    }
    EXPECT_LT(double(read_bytes[true]), 0.7 * double(read_bytes[false]));
}

//! The cache of unrequested clusters: admitted while they fit (records and per-entry overhead
//! charged), taken out whole, never more than its capacity.
TEST(mm_bfs, cluster_cache_admits_while_there_is_room) {
    memory_account acc;
    const std::uint64_t per = cluster_cache::entry_overhead + 10 * sizeof(adjacency_record);
    cluster_cache cache(2 * per + 5, &acc);
    auto fill = [&](bfs_node c, std::uint64_t n) {
        if (!cache.open(c, n)) return false;
        for (std::uint64_t i = 0; i < n; ++i)
            cache.append(adjacency_record{bfs_node(i), c, 0});
        return true;
    };
    EXPECT_TRUE(fill(3, 10));
    EXPECT_FALSE(cache.open(3, 1)) << "held already";
    EXPECT_TRUE(fill(7, 10));
    EXPECT_FALSE(fill(9, 1)) << "full: not admitted, nothing replaced";
    EXPECT_EQ(acc.current(), 2 * per);
    EXPECT_TRUE(cache.contains(3));
    EXPECT_FALSE(cache.contains(9));
    EXPECT_THROW(cache.append(adjacency_record{}), invalid_request) << "entry 7 is complete";
    std::vector<adjacency_record> got;
    cache.take(3, [&](const adjacency_record& r) { got.push_back(r); });
    ASSERT_EQ(got.size(), 10u);
    EXPECT_EQ(got[4].v, 4u);
    EXPECT_EQ(got[4].w, 3u);
    EXPECT_FALSE(cache.contains(3));
    EXPECT_EQ(cache.records(), 10u);
    EXPECT_EQ(acc.current(), per);
    EXPECT_TRUE(fill(9, 10)) << "room again";
    EXPECT_THROW(cache.take(3, [](const adjacency_record&) {}), invalid_request);
    EXPECT_LE(acc.peak(), cache.capacity());
}

//! The cache gives memory back at once: evict() drops the newest entries first (the first ones
//! admitted are kept), skips taken ones, ends an entry being filled; an account limit stops
//! admission.
TEST(mm_bfs, cluster_cache_gives_back_its_newest_entries_first) {
    memory_account acc;
    const std::uint64_t per = cluster_cache::entry_overhead + 10 * sizeof(adjacency_record);
    cluster_cache cache(100 * per, &acc, 4 * per);
    auto fill = [&](bfs_node c, std::uint64_t n) {
        if (!cache.open(c, n)) return false;
        for (std::uint64_t i = 0; i < n; ++i)
            cache.append(adjacency_record{bfs_node(i), c, 0});
        return true;
    };
    for (bfs_node c : {1u, 2u, 3u, 4u})
        EXPECT_TRUE(fill(c, 10));
    EXPECT_FALSE(fill(5, 10)) << "the account is at its limit";
    EXPECT_EQ(cache.evict(1), per) << "one entry frees at least one byte";
    EXPECT_FALSE(cache.contains(4)) << "the newest goes first";
    cache.take(3, [](const adjacency_record&) {});
    EXPECT_EQ(cache.evict(per + 1), 2 * per) << "3 was taken: 2 and 1 go";
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_EQ(cache.evicted(), 3u);
    EXPECT_EQ(acc.current(), 0u);
    EXPECT_EQ(cache.evict(1), 0u) << "nothing left";
    ASSERT_TRUE(cache.open(6, 10));
    cache.append(adjacency_record{0, 6, 0});
    EXPECT_EQ(cache.evict(1), per) << "the entry being filled can go too";
    EXPECT_NO_THROW(cache.append(adjacency_record{1, 6, 0})) << "its later records are dropped";
    EXPECT_FALSE(cache.contains(6));
    EXPECT_EQ(cache.records(), 0u);
    EXPECT_EQ(cache.peak_bytes(), 4 * per);
}

//! Near clusters (next to loaded ones) take the place of far ones when the cache is full, and
//! evict() gives back far entries first; promote() turns a held far entry near.
TEST(mm_bfs, cluster_cache_ranks_clusters_near_the_frontier_first) {
    memory_account acc;
    const std::uint64_t per = cluster_cache::entry_overhead + 10 * sizeof(adjacency_record);
    cluster_cache cache(3 * per, &acc);
    auto fill = [&](bfs_node c, bool near) {
        if (!cache.open(c, 10, near ? 0 : cluster_cache::far)) return false;
        for (std::uint64_t i = 0; i < 10; ++i)
            cache.append(adjacency_record{bfs_node(i), c, 0});
        return true;
    };
    EXPECT_TRUE(fill(1, false));
    EXPECT_TRUE(fill(2, false));
    EXPECT_TRUE(fill(3, false));
    EXPECT_FALSE(fill(4, false)) << "full: a far cluster is not admitted";
    cache.promote(1);
    EXPECT_TRUE(fill(5, true)) << "a near one takes the newest far entry's place";
    EXPECT_FALSE(cache.contains(3));
    EXPECT_TRUE(cache.contains(2));
    EXPECT_TRUE(fill(6, true));
    EXPECT_FALSE(cache.contains(2)) << "then the next far one's";
    EXPECT_TRUE(cache.contains(1)) << "1 was promoted: near, kept";
    EXPECT_FALSE(fill(7, true)) << "only near entries left: none is replaced";
    EXPECT_EQ(cache.evict(1), per);
    EXPECT_FALSE(cache.contains(6)) << "among near entries the newest goes first";
    EXPECT_TRUE(cache.contains(1));
    EXPECT_TRUE(cache.contains(5));
    EXPECT_EQ(cache.evicted(), 3u);
    EXPECT_LE(acc.peak(), 3 * per);
    EXPECT_EQ(acc.current(), cache.bytes());
}

//! Ranks beyond near / far: a newcomer takes the place of entries of higher rank only, evict()
//! goes from the highest rank down (newest first in each), rerank() only lowers, visit() shows a
//! held copy's records.
TEST(mm_bfs, cluster_cache_gives_back_the_highest_rank_first) {
    memory_account acc;
    const std::uint64_t per = cluster_cache::entry_overhead + 10 * sizeof(adjacency_record);
    cluster_cache cache(4 * per, &acc);
    auto fill = [&](bfs_node c, cluster_cache::rank_type rank) {
        if (!cache.open(c, 10, rank)) return false;
        for (std::uint64_t i = 0; i < 10; ++i)
            cache.append(adjacency_record{bfs_node(i), c, bfs_node(100 + i)});
        return true;
    };
    EXPECT_TRUE(fill(1, 3));
    EXPECT_TRUE(fill(2, 1));
    EXPECT_TRUE(fill(3, cluster_cache::far));
    EXPECT_TRUE(fill(4, 3));
    EXPECT_EQ(cache.rank(1), 3);
    EXPECT_EQ(cache.rank(3), cluster_cache::far);
    EXPECT_EQ(cache.rank(99), cluster_cache::far) << "not held";
    EXPECT_FALSE(fill(5, cluster_cache::far)) << "full: far does not replace far";
    EXPECT_TRUE(fill(5, 2)) << "rank 2 takes the far entry's place";
    EXPECT_FALSE(cache.contains(3));
    EXPECT_TRUE(fill(6, 2)) << "then the newest of rank 3";
    EXPECT_FALSE(cache.contains(4));
    EXPECT_TRUE(cache.contains(1));
    cache.rerank(1, 0);
    cache.rerank(1, 2);
    EXPECT_EQ(cache.rank(1), 0) << "rerank only lowers";
    EXPECT_FALSE(fill(7, 2)) << "no entry above rank 2 is left";
    std::vector<bfs_node> seen;
    EXPECT_TRUE(cache.visit(5, [&](const adjacency_record& r) { seen.push_back(r.cw); }));
    ASSERT_EQ(seen.size(), 10u);
    EXPECT_EQ(seen[9], 109u);
    EXPECT_FALSE(cache.visit(3, [](const adjacency_record&) {}));
    // Held now: 1 (rank 0), 2 (rank 1), 5 and 6 (rank 2, 6 newer).
    EXPECT_EQ(cache.evict(1), per);
    EXPECT_FALSE(cache.contains(6)) << "the highest rank's newest first";
    EXPECT_EQ(cache.evict(2 * per), 2 * per);
    EXPECT_FALSE(cache.contains(5));
    EXPECT_FALSE(cache.contains(2));
    EXPECT_TRUE(cache.contains(1)) << "rank 0 goes last";
    EXPECT_EQ(cache.evicted(), 5u);
    EXPECT_EQ(acc.current(), cache.bytes());
    EXPECT_LE(acc.peak(), 4 * per);
}

//! On a grid whose cluster file is several times the cache, ranking clusters by nearness to the
//! frontier saves reads of whole blocks, and more ranks save more (docs/bfs.md: on Table 2's 2^19
//! grid with Bw 466 reads first come, 252 near / far, 149 with 32 ranks); the levels are the
//! same every way.
TEST(mm_bfs, ranking_frontier_clusters_saves_block_reads) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(200));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 1024 * 1024, b, src);
    std::uint64_t reads[3] = {0, 0, 0};
    const unsigned ranks[3] = {0, 1, 32}; // 0: prefer_frontier_clusters off
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE("ranks " + std::to_string(ranks[i]));
        mm_bfs_options o;
        o.mu = 16;
        o.cluster_blocks = block_sizes(16384, 16384);
        o.prefer_frontier_clusters = ranks[i] > 0;
        o.frontier_ranks = std::max(1u, ranks[i]);
        memory_account acc;
        o.account = &acc;
        bfs_level_recorder rec(tg.n);
        bfs_result r = mm_bfs(m, *g, 384 * 1024, b, 0, rec, o);
        flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
        ASSERT_GT(r.cluster_file_bytes, 3 * r.cache_peak_bytes)
            << "the test needs a file several times the cache";
        EXPECT_LE(acc.peak(), 384u * 1024u) << "the ranks' byte per cluster is within M";
        reads[i] = r.cluster_reads;
    }
    std::cout << "cluster reads: first come " << reads[0] << ", near / far " << reads[1] << ", 32 ranks "
              << reads[2] << "\n";
    EXPECT_LT(double(reads[1]), 0.9 * double(reads[0]));
    EXPECT_LT(double(reads[2]), 0.9 * double(reads[1]));
}

//! The pool's records come before the cache's clean copies: with pool_memory unset the pool's
//! array grows into the cache's share of M (the cache gives memory back) instead of overflowing
//! to the device, which a pool capped at the split's kept share does.
TEST(mm_bfs, the_pool_grows_into_the_caches_share_before_it_overflows) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("random", random_graph_generator(20000, 60000, 5));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 1024 * 1024, b, src);
    const std::uint64_t memory = 3 * 1024 * 1024;
    auto on_device = [](const bfs_result& r) { // pool records on the device, summed over levels
        std::uint64_t n = 0;
        for (const bfs_level_detail& d : r.level_details)
            n += d.pool_device_records;
        return n;
    };
    mm_bfs_options o;
    o.mu = 8;
    memory_account acc;
    o.account = &acc;
    bfs_level_recorder rec(tg.n);
    const bfs_result r = mm_bfs(m, *g, memory, b, 0, rec, o);
    flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
    const mm_bfs_split split(memory, b, r.clusters, o);
    ASSERT_GT(r.max_pool_records * sizeof(adjacency_record), 4 * split.keep)
        << "the test needs a pool beyond its kept share";
    ASSERT_LT(r.max_pool_records * sizeof(adjacency_record), split.keep + split.cache);
    EXPECT_EQ(on_device(r), 0u) << "the pool stayed in memory";
    EXPECT_LE(acc.peak(), memory);
    EXPECT_EQ(acc.current(), 0u);
    // Capped at the split's kept share (the cache keeps its 7/8), the same pool overflows.
    memory_account capped_acc;
    o.account = &capped_acc;
    o.pool_memory = split.keep + split.cache;
    bfs_level_recorder capped_rec(tg.n);
    const bfs_result capped = mm_bfs(m, *g, memory, b, 0, capped_rec, o);
    flashxxl::testing::expect_levels_match_boost(tg, 0, capped_rec);
    EXPECT_GT(on_device(capped), 0u);
    EXPECT_LT(r.phases[1].total().write_bytes, capped.phases[1].total().write_bytes);
    EXPECT_LE(capped_acc.peak(), memory);
}

//! With pool_memory unset the cache fills memory the other structures leave idle (beyond the
//! pool's whole kept share, of which it is sure of 7/8 only while the pool is small) and gives
//! it back when they grow: on a random graph,
//! whose middle levels are large, the neighbour lists of those levels take memory the cache
//! held after the first levels. The BFS stays exact and within M.
TEST(mm_bfs, the_cache_fills_idle_memory_and_gives_it_back) {
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("random", random_graph_generator(20000, 60000, 5));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 1024 * 1024, b, src);
    const std::uint64_t memory = 1024 * 1024;
    memory_account acc;
    mm_bfs_options o;
    o.mu = 8;
    o.account = &acc;
    bfs_level_recorder rec(tg.n);
    bfs_result r = mm_bfs(m, *g, memory, b, 0, rec, o);
    flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
    const mm_bfs_split split(memory, b, r.clusters, o);
    EXPECT_GT(r.cache_peak_bytes, split.cache + split.keep) << "idle memory went to the cache";
    EXPECT_GT(r.clusters_evicted, 0u) << "and came back when the levels grew";
    std::uint64_t most_cached = 0;
    for (const bfs_level_detail& d : r.level_details)
        most_cached = std::max(most_cached, d.cache_records);
    EXPECT_GT(most_cached * sizeof(adjacency_record), split.cache) << "the per-level report shows it";
    EXPECT_LE(most_cached * sizeof(adjacency_record), r.cache_peak_bytes);
    EXPECT_EQ(r.level_details.back().cache_records, 0u) << "every cached cluster was taken or given back";
    EXPECT_LE(acc.peak(), memory);
    EXPECT_EQ(acc.current(), 0u);
    // Capped by pool_memory, it keeps to its share and gives nothing back.
    memory_account capped_acc;
    o.account = &capped_acc;
    o.pool_memory = split.keep + split.cache;
    bfs_level_recorder rec2(tg.n);
    bfs_result capped = mm_bfs(m, *g, memory, b, 0, rec2, o);
    EXPECT_EQ(rec2.level, rec.level);
    EXPECT_LE(capped.cache_peak_bytes, split.cache);
    EXPECT_LE(capped_acc.peak(), memory);
    EXPECT_GE(capped.cluster_reads, r.cluster_reads) << "a smaller cache reads at least as often";
}

TEST(mm_bfs, default_mu_follows_the_unit_cost_optimum) {
    EXPECT_EQ(default_mu(128 * 1024, std::uint64_t(1) << 20), 23u); // sqrt(131072 / (12 x 20))
    EXPECT_EQ(default_mu(4096, 4096), 5u);                          // sqrt(4096 / 144)
    EXPECT_EQ(default_mu(4096, std::uint64_t(1) << 40), 3u);        // sqrt(4096 / 480)
    EXPECT_GE(default_mu(4096, 2), 1u);
}

TEST(mm_bfs, masters_are_deterministic_with_rate_one_over_mu) {
    std::uint64_t count = 0;
    for (std::uint64_t v = 0; v < 100000; ++v)
        count += is_master(v, 1, 10);
    EXPECT_GT(count, 9000u);
    EXPECT_LT(count, 11000u);
    for (std::uint64_t v = 0; v < 100; ++v)
        EXPECT_EQ(is_master(v, 5, 7), is_master(v, 5, 7));
}

TEST(mm_bfs, isolated_source_and_bad_arguments) {
    machine m = flashxxl::testing::plain_machine();
    std::vector<edge> edges = {{0, 1}, {1, 2}};
    flashxxl::testing::vector_edge_source src(5, edges);
    const block_sizes b(4096, 16384);
    auto g = build_csr(m, 512 * 1024, b, src);
    bfs_level_recorder rec(5);
    bfs_result r = mm_bfs(m, *g, 512 * 1024, b, 4, rec);
    EXPECT_EQ(r.reached, 1u);
    EXPECT_EQ(rec.level[4], 0u);
    EXPECT_EQ(rec.level[0], no_node);
    // Every call in this file passes a bfs_level_recorder: one instantiation of mm_bfs keeps
    // the unit under 1.5 GB of compiler memory.
    EXPECT_THROW(mm_bfs(m, *g, 512 * 1024, b, 5, rec), config_error);
    EXPECT_THROW(mm_bfs(m, *g, 64 * 1024, b, 0, rec), config_error);
    for (unsigned ranks : {0u, 255u}) {
        mm_bfs_options o;
        o.frontier_ranks = ranks;
        try {
            mm_bfs(m, *g, 512 * 1024, b, 0, rec, o);
            ADD_FAILURE() << "frontier_ranks " << ranks << " was accepted";
        } catch (const config_error& e) {
            EXPECT_NE(
                std::string(e.what()).find("frontier_ranks " + std::to_string(ranks) + " is out of range"),
                std::string::npos)
                << e.what();
        }
        o.prefer_frontier_clusters = false;
        EXPECT_NO_THROW(mm_bfs(m, *g, 512 * 1024, b, 0, rec, o)) << "ranks are not used then";
    }
    flashxxl::testing::expect_invalid_pair_rejected(
        [&] { mm_bfs(m, *g, 512 * 1024, flashxxl::testing::invalid_pair(), 0, rec); });
}

//! MM_BFS at run-time block sizes (non-powers of two among them): the same oracle, the model's
//! I/O shapes, default mu from the run-time Br, and the memory minimum follows the sizes.
class mm_bfs_pairs : public ::testing::TestWithParam<block_sizes> {};

TEST_P(mm_bfs_pairs, levels_equal_boost) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    check_all_graphs(m, b, mm_bfs_min_memory(b) + 256 * 1024, 0, false, true);
}

TEST_P(mm_bfs_pairs, default_mu_and_budget_follow_the_sizes) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(40));
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, csr_build_min_memory(b) + 32 * 1024, b, src);
    EXPECT_EQ(g->blocks(), b);
    bfs_level_recorder rec(tg.n);
    EXPECT_THROW(mm_bfs(m, *g, mm_bfs_min_memory(b) - 1, b, 0, rec), config_error);
    bfs_result r = mm_bfs(m, *g, mm_bfs_min_memory(b), b, 0, rec);
    EXPECT_EQ(r.mu, default_mu(b.br, tg.n));
    EXPECT_EQ(r.clusters_loaded, r.clusters);
    flashxxl::testing::expect_levels_match_boost(tg, 0, rec);
}

INSTANTIATE_TEST_SUITE_P(runtime, mm_bfs_pairs, ::testing::ValuesIn(flashxxl::testing::runtime_block_pairs()),
                         [](const ::testing::TestParamInfo<block_sizes>& i) {
                             return flashxxl::testing::pair_name(i.param);
                         });

} // namespace
