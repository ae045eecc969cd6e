// Tests of MM_BFS's BFS-phase parts one at a time: hot pool, requests, ranks, cluster loader, level writer.
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/mm_cluster_loader.hpp"
#include "flashxxl/graph/mm_cluster_requests.hpp"
#include "flashxxl/graph/mm_frontier_ranks.hpp"
#include "flashxxl/graph/mm_hot_pool.hpp"
#include "flashxxl/graph/mm_level_writer.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;

const block_sizes small_blocks(4 * KiB, 16 * KiB);

machine plain_machine() {
    return machine::from_config_text(
        "name=plain\nflash=memory,1GiB,memory name=ssd\nplacement=single device=ssd\n", "plain-machine");
}

//! A finished level of `nodes` (ascending), node v in cluster v / 10, its own parent.
std::unique_ptr<bfs_level_store> level_of(machine& m, memory_account& acc,
                                          const std::vector<bfs_node>& nodes) {
    auto l = std::make_unique<bfs_level_store>(m, small_blocks, 64 * KiB, acc);
    for (bfs_node v : nodes)
        l->push(level_record{v, bfs_node(v / 10), v});
    l->finish();
    return l;
}

//! Node v's list in the tests' pools: (v, w) for w = 1000 + 3 v + i, i < 3, c(w) = 7.
std::vector<adjacency_record> list_of(bfs_node v) {
    std::vector<adjacency_record> r;
    for (bfs_node i = 0; i < 3; ++i)
        r.push_back(adjacency_record{v, bfs_node(1000 + 3 * v + i), 7});
    return r;
}

//! What the pool hands out for the nodes `nodes`: (w, c(w), v) of their lists, in (v, w) order.
std::vector<level_record> found_for(const std::vector<bfs_node>& nodes) {
    std::vector<level_record> r;
    for (bfs_node v : nodes)
        for (const adjacency_record& a : list_of(v))
            r.push_back(level_record{a.w, a.cw, a.v});
    return r;
}

bool same(const std::vector<level_record>& a, const std::vector<level_record>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tie(a[i].v, a[i].c, a[i].parent) != std::tie(b[i].v, b[i].c, b[i].parent)) return false;
    return true;
}

//! Runs extract() for level `nodes`: what was found, and the nodes reported missing.
std::pair<std::vector<level_record>, std::vector<bfs_node>> extract(mm_hot_pool& pool,
                                                                    bfs_level_store& level) {
    std::vector<level_record> found;
    std::vector<bfs_node> missing;
    pool.extract(
        level, [&](const level_record& r) { found.push_back(r); },
        [&](const level_record& l) { missing.push_back(l.v); });
    return {found, missing};
}

//! Stages the lists of `nodes` (in the order given) for level `level` and settles them.
std::vector<level_record> stage_and_settle(mm_hot_pool& pool, bfs_level_store& level,
                                           const std::vector<bfs_node>& nodes) {
    std::vector<level_record> found;
    auto sink = [&](const level_record& r) { found.push_back(r); };
    for (bfs_node v : nodes)
        for (const adjacency_record& a : list_of(v))
            pool.stage(a, level, sink);
    pool.settle(level, sink);
    return found;
}

//! In memory: a staged cluster's lists of the current level's nodes leave at once, the rest
//! stays sorted, and each later level gets exactly its nodes' lists; nodes without one are
//! reported; nothing reaches the device.
TEST(mm_hot_pool, keeps_exactly_the_lists_of_the_unvisited_nodes) {
    machine m = plain_machine();
    memory_account acc;
    cluster_cache cache(0, &acc);
    mm_hot_pool pool(m, small_blocks, mm_hot_pool::sizes{1024 + 64, 1024, 64}, acc, acc.current() + MiB,
                     cache);
    EXPECT_EQ(acc.current(), (1024 + 64) * sizeof(adjacency_record)) << "the array's capacity is charged";

    auto l1 = level_of(m, acc, {1, 5});
    auto [found1, missing1] = extract(pool, *l1);
    EXPECT_TRUE(found1.empty());
    EXPECT_EQ(missing1, (std::vector<bfs_node>{1, 5}));
    // The loaded cluster holds nodes 1, 2, 3, 5, 7, staged out of order.
    EXPECT_TRUE(same(stage_and_settle(pool, *l1, {7, 5, 2, 1, 3}), found_for({1, 5})));
    EXPECT_EQ(pool.records(), 9u);
    EXPECT_EQ(pool.memory_records(), 9u);

    auto l2 = level_of(m, acc, {2, 4, 7});
    auto [found2, missing2] = extract(pool, *l2);
    EXPECT_TRUE(same(found2, found_for({2, 7})));
    EXPECT_EQ(missing2, (std::vector<bfs_node>{4}));
    EXPECT_EQ(pool.records(), 3u);

    auto l3 = level_of(m, acc, {3});
    auto [found3, missing3] = extract(pool, *l3);
    EXPECT_TRUE(same(found3, found_for({3})));
    EXPECT_TRUE(missing3.empty());
    EXPECT_EQ(pool.records(), 0u);
    EXPECT_EQ(pool.device_records(), 0u);
    EXPECT_EQ(m.stats()[0].of(role::hot).write_bytes, 0u) << "the pool stayed in memory";
}

//! With no room to keep records (keep 0, a staging area of 8), a full staging area spills to
//! the overflow and every level merge-scans it: the lists still come out whole and in order,
//! and the overflow is gone once empty.
TEST(mm_hot_pool, overflows_to_the_device_and_still_gives_each_level_its_lists) {
    machine m = plain_machine();
    memory_account acc;
    cluster_cache cache(0, &acc);
    mm_hot_pool pool(m, small_blocks, mm_hot_pool::sizes{8, 0, 8}, acc, acc.current() + MiB, cache);

    auto l1 = level_of(m, acc, {0});
    EXPECT_EQ(extract(pool, *l1).second, (std::vector<bfs_node>{0}));
    std::vector<bfs_node> loaded;
    for (bfs_node v = 19; v >= 10; --v)
        loaded.push_back(v);
    loaded.push_back(0);
    EXPECT_TRUE(same(stage_and_settle(pool, *l1, loaded), found_for({0})));
    EXPECT_EQ(pool.records(), 30u);
    EXPECT_GT(pool.device_records(), 0u) << "the staging area filled: spilled";
    EXPECT_GT(m.stats()[0].of(role::hot).write_bytes, 0u);

    auto l2 = level_of(m, acc, {12, 15, 40});
    auto [found2, missing2] = extract(pool, *l2);
    EXPECT_TRUE(same(found2, found_for({12, 15})));
    EXPECT_EQ(missing2, (std::vector<bfs_node>{40}));
    EXPECT_EQ(pool.records(), 24u);
    EXPECT_EQ(pool.memory_records(), 0u) << "keep 0: everything went to the new overflow";
    EXPECT_EQ(pool.device_records(), 24u);

    auto l3 = level_of(m, acc, {10, 11, 13, 14, 16, 17, 18, 19});
    auto [found3, missing3] = extract(pool, *l3);
    EXPECT_TRUE(same(found3, found_for({10, 11, 13, 14, 16, 17, 18, 19})));
    EXPECT_TRUE(missing3.empty());
    EXPECT_EQ(pool.records(), 0u);
    EXPECT_EQ(pool.device_records(), 0u);
}

//! The array grows towards keep + stage while the account stays within the limit, counting
//! the cache's bytes as free (it gives them back), and not past the limit.
TEST(mm_hot_pool, grows_while_the_account_has_room) {
    machine m = plain_machine();
    const std::uint64_t rec = sizeof(adjacency_record);
    for (bool room : {true, false}) {
        SCOPED_TRACE(room ? "room" : "no room");
        memory_account acc;
        cluster_cache cache(MiB, &acc);
        ASSERT_TRUE(cache.open(99, 100)); // clean copies: counted as free
        const std::uint64_t limit = room ? 20 * KiB : acc.current() + 64 * rec;
        mm_hot_pool pool(m, small_blocks, mm_hot_pool::sizes{64, 1024, 64}, acc, limit, cache);
        auto l = level_of(m, acc, {0});
        std::vector<bfs_node> nodes;
        for (bfs_node v = 1; v <= 100; ++v)
            nodes.push_back(v);
        stage_and_settle(pool, *l, nodes);
        EXPECT_EQ(pool.records(), 300u);
        if (room) {
            EXPECT_GE(pool.capacity(), 300u);
            EXPECT_LE(pool.capacity(), 1024u + 64u);
            EXPECT_EQ(pool.device_records(), 0u);
        } else {
            EXPECT_EQ(pool.capacity(), 64u);
            EXPECT_GT(pool.device_records(), 0u);
        }
    }
}

//! Each cluster is listed once per level however often it is asked for, never once loaded, and
//! the list comes out ascending; its memory is charged up front.
TEST(mm_cluster_requests, lists_each_cluster_once_in_ascending_order) {
    memory_account acc;
    {
        mm_cluster_requests q(100, acc);
        EXPECT_EQ(acc.current(), mm_cluster_requests::memory(100));
        EXPECT_TRUE(q.empty());
        EXPECT_TRUE(q.request(7));
        EXPECT_TRUE(q.request(3));
        EXPECT_FALSE(q.request(7));
        EXPECT_TRUE(q.request(50));
        EXPECT_FALSE(q.request(3));
        EXPECT_EQ(q.sorted(), (std::vector<bfs_node>{3, 7, 50}));
        EXPECT_TRUE(q.requested(7));
        q.mark_loaded(7);
        q.clear();
        EXPECT_TRUE(q.empty());
        EXPECT_FALSE(q.requested(3));
        EXPECT_FALSE(q.request(7)) << "loaded: never again";
        EXPECT_TRUE(q.request(3)) << "listed before, not loaded: again";
        EXPECT_EQ(acc.current(), mm_cluster_requests::memory(100)) << "the list never grows";
    }
    EXPECT_EQ(acc.current(), 0u);
}

//! Fills cache entry c with `n` records whose c(w) is `cw`.
void hold(cluster_cache& cache, bfs_node c, bfs_node cw, std::uint64_t n = 4) {
    ASSERT_TRUE(cache.open(c, n));
    for (std::uint64_t i = 0; i < n; ++i)
        cache.append(adjacency_record{bfs_node(c * 10 + i), bfs_node(i), cw});
}

//! A cluster next to a loaded one gets rank 0, the held clusters behind it one more per hop
//! (up to ranks - 1), and the cache's entries follow; loaded clusters are not ranked.
TEST(mm_frontier_ranks, ranks_fall_with_the_hops_from_loaded_clusters) {
    memory_account acc;
    cluster_cache cache(MiB, &acc);
    mm_cluster_requests q(10, acc);
    mm_frontier_ranks ranks(10, 3, q, cache, acc);
    hold(cache, 2, 3); // 2's records point to 3, 3's to 4, 4's to 5
    hold(cache, 3, 4);
    hold(cache, 4, 5);
    ranks.next_to_loaded(2);
    EXPECT_EQ(ranks[2], 0);
    EXPECT_EQ(ranks[3], 1);
    EXPECT_EQ(ranks[4], 2);
    EXPECT_EQ(ranks[5], cluster_cache::far) << "three ranks: 0, 1, 2";
    EXPECT_EQ(cache.rank(3), 1);
    // A cluster copied in next to a rank-0 one gets rank 1.
    hold(cache, 6, 2);
    ranks.cached(6);
    EXPECT_EQ(ranks[6], 1);
    EXPECT_EQ(cache.rank(6), 1);
    q.mark_loaded(8);
    ranks.next_to_loaded(8);
    EXPECT_EQ(ranks[8], cluster_cache::far) << "a loaded cluster is not ranked";
    mm_frontier_ranks off(10, 0, q, cache, acc);
    off.next_to_loaded(2);
    EXPECT_EQ(off[2], cluster_cache::far) << "ranking off";
}

//! A cluster file of 12 clusters of 100 records in 4 KiB blocks (341 records each): clusters
//! 0-2 lie in block 0, 3 straddles blocks 0 and 1, 4-5 lie in block 1, 6 straddles 1 and 2.
//! Cluster c's records: (100 c + i / 4, i, c + 1).
struct loader_fixture {
    machine m = plain_machine();
    memory_account acc;
    cluster_file file{m, 12, small_blocks};
    cluster_cache cache{MiB, &acc};
    mm_cluster_requests requests{12, acc};
    mm_frontier_ranks ranks{12, 32, requests, cache, acc};
    loader_fixture() {
        for (bfs_node c = 0; c < 12; ++c)
            for (bfs_node i = 0; i < 100; ++i)
                file.push(c, adjacency_record{100 * c + i / 4, i, c + 1});
        file.finish();
    }
    //! Loads the listed clusters: the clusters of the records staged, in order, and the counts.
    std::pair<std::vector<bfs_node>, mm_load_counts> load(mm_cluster_loader& loader) {
        std::vector<bfs_node> staged;
        const mm_load_counts n = loader.load([&](const adjacency_record& r) {
            if (staged.empty() || staged.back() != r.v / 100) staged.push_back(r.v / 100);
        });
        return {staged, n};
    }
};

//! Requests whose Br blocks overlap share one read, served in ascending order; a loaded
//! cluster is never requested again; with merging off, one read per cluster.
TEST(mm_cluster_loader, merges_requests_in_the_same_blocks_into_one_read) {
    for (bool merge : {true, false}) {
        SCOPED_TRACE(merge ? "merged" : "one read per cluster");
        loader_fixture f;
        mm_cluster_loader loader(f.file, f.cache, f.requests, f.ranks, mm_load_policy{merge, false, false});
        for (bfs_node c : {2u, 0u, 1u, 2u})
            f.requests.request(c);
        const std::vector<bfs_node> list = f.requests.sorted();
        const mm_cluster_read rd = loader.plan(list, 0, false);
        EXPECT_EQ(rd.end, merge ? 3u : 1u);
        EXPECT_EQ(rd.blocks, (std::pair<std::uint64_t, std::uint64_t>{0, 1}));
        EXPECT_EQ(rd.first, 0u);
        EXPECT_EQ(rd.last, merge ? 3u : 1u);
        auto [staged, n] = f.load(loader);
        EXPECT_EQ(staged, (std::vector<bfs_node>{0, 1, 2}));
        EXPECT_EQ(n.clusters_loaded, 3u);
        EXPECT_EQ(n.reads, merge ? 1u : 3u);
        EXPECT_TRUE(f.requests.empty());
        EXPECT_FALSE(f.requests.request(1)) << "loaded once";
        // 3 and 4 share block 1, 9 is in block 2 (its own read): 2 reads merged.
        for (bfs_node c : {9u, 4u, 3u})
            f.requests.request(c);
        auto [staged2, n2] = f.load(loader);
        EXPECT_EQ(staged2, (std::vector<bfs_node>{3, 4, 9}));
        EXPECT_EQ(n2.reads, merge ? 2u : 3u);
        EXPECT_EQ(f.cache.size(), 0u) << "no neighbours taken along";
    }
}

//! A read takes the unrequested clusters wholly in its blocks into the cache, which serves
//! them later without a read; with completion on, the cluster cut by the read's last block
//! boundary comes along too, with the clusters wholly in the block that completes it; without
//! it they do not.
TEST(mm_cluster_loader, takes_the_clusters_of_the_blocks_read_into_the_cache) {
    for (bool complete : {false, true}) {
        SCOPED_TRACE(complete ? "completing cut clusters" : "whole clusters only");
        loader_fixture f;
        mm_cluster_loader loader(f.file, f.cache, f.requests, f.ranks, mm_load_policy{true, true, complete});
        EXPECT_EQ(loader.completes_straddlers(), complete);
        f.requests.request(0);
        const mm_cluster_read rd = loader.plan(f.requests.sorted(), 0, loader.completes_straddlers());
        EXPECT_EQ(rd.blocks, (std::pair<std::uint64_t, std::uint64_t>{0, complete ? 2 : 1}));
        EXPECT_EQ(rd.last, complete ? 6u : 3u) << "3 completed: block 1 holds 4 and 5 whole";
        auto [staged, n] = f.load(loader);
        EXPECT_EQ(staged, (std::vector<bfs_node>{0}));
        EXPECT_EQ(n.reads, 1u);
        EXPECT_TRUE(f.cache.contains(1));
        EXPECT_TRUE(f.cache.contains(2));
        for (bfs_node c : {3u, 4u, 5u})
            EXPECT_EQ(f.cache.contains(c), complete) << c;
        EXPECT_FALSE(f.cache.contains(6)) << "cut by block 1's end: not completed twice";
        EXPECT_EQ(f.ranks[1], 0) << "a loaded record's c(w)";
        EXPECT_EQ(f.ranks[2], 1) << "one hop behind";
        f.requests.request(2);
        auto [staged2, n2] = f.load(loader);
        EXPECT_EQ(staged2, (std::vector<bfs_node>{2}));
        EXPECT_EQ(n2.reads, 0u) << "served by the cache";
        EXPECT_EQ(n2.clusters_loaded, 1u);
        EXPECT_FALSE(f.cache.contains(2));
    }
}

//! A sorted stream over a vector (subtract_sorted's protocol).
struct sorted_records {
    std::vector<level_record> v;
    std::size_t i = 0;
    bool empty() const { return i == v.size(); }
    const level_record& operator*() const { return v[i]; }
    sorted_records& operator++() {
        ++i;
        return *this;
    }
};

struct recording_visitor {
    std::vector<std::tuple<bfs_node, std::uint64_t, bfs_node>> discovered;
    std::uint64_t tree_edges = 0;
    void discover_vertex(std::uint64_t v, std::uint64_t level, std::uint64_t parent) {
        discovered.emplace_back(bfs_node(v), level, bfs_node(parent));
    }
    void tree_edge(std::uint64_t, std::uint64_t) { ++tree_edges; }
};

//! L(t) is the neighbours less L(t-1) and L(t-2), each node once with its first (smallest)
//! parent, told to the visitor; an empty level ends the search.
TEST(mm_level_writer, writes_the_neighbours_not_on_the_two_levels_before) {
    machine m = plain_machine();
    memory_account acc;
    mm_level_writer levels(m, small_blocks, 64 * KiB, acc, 5);
    recording_visitor vis;
    sorted_records n1{{{4, 0, 5}, {6, 0, 5}}};
    EXPECT_EQ(levels.write(n1, 1, vis), 2u);
    levels.advance();
    sorted_records n2{{{3, 0, 4}, {5, 0, 4}, {5, 0, 6}, {7, 0, 4}, {7, 0, 6}}};
    EXPECT_EQ(levels.write(n2, 2, vis), 2u) << "5 is L(0)";
    levels.advance();
    using d = std::tuple<bfs_node, std::uint64_t, bfs_node>;
    EXPECT_EQ(vis.discovered, (std::vector<d>{{4, 1, 5}, {6, 1, 5}, {3, 2, 4}, {7, 2, 4}}));
    EXPECT_EQ(vis.tree_edges, 4u);
    std::vector<bfs_node> previous;
    for (auto l = levels.previous().read(); !l.empty(); ++l)
        previous.push_back(l->v);
    EXPECT_EQ(previous, (std::vector<bfs_node>{3, 7}));
    sorted_records n3{{{4, 0, 3}, {6, 0, 7}, {7, 0, 6}}};
    EXPECT_EQ(levels.write(n3, 3, vis), 0u) << "4 and 6 are L(t-2), 7 is L(t-1)";
    EXPECT_THROW(levels.advance(), invalid_request);
}

} // namespace
