// Tests of MM_BFS's cluster file at run-time block sizes: contents, one read per segment touched, Br/Bw
// shapes, owned extents.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/cluster_file.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;

//! The records of cluster c: c % 7 * 300 of them (0 for every seventh cluster), so that some
//! clusters cross Br blocks and Bw segments.
std::vector<adjacency_record> records_of(std::uint64_t c) {
    std::vector<adjacency_record> v;
    for (std::uint64_t i = 0; i < c % 7 * 300; ++i)
        v.push_back(adjacency_record{bfs_node(c * 1000 + i / 3), bfs_node(i), bfs_node(c)});
    return v;
}

class mm_bfs_cluster_file : public ::testing::TestWithParam<block_sizes> {};

TEST_P(mm_bfs_cluster_file, reads_back_every_cluster_with_block_shaped_io_and_returns_its_space) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    const std::uint64_t k = 40;
    std::uint64_t total = 0;
    {
        cluster_file f(m, k, b);
        EXPECT_EQ(f.blocks(), b);
        for (std::uint64_t c = 0; c < k; ++c)
            for (const adjacency_record& r : records_of(c))
                f.push(bfs_node(c), r);
        f.finish();
        for (std::uint64_t c = 0; c < k; ++c)
            total += f.cluster_records(c);
        EXPECT_EQ(f.records(), total);
        EXPECT_EQ(f.clusters(), k);
        const std::uint64_t per_segment = block_writer<adjacency_record>::items_per_segment(b);
        EXPECT_EQ(f.items_per_segment(), per_segment);
        const block_layout<adjacency_record> layout(b.br);
        EXPECT_EQ(f.bytes(), layout.bytes_for(total));
        // Written once with Bw writes, the last one partial (whole Br blocks).
        const io_counters written = m.stats()[0].of(role::static_data);
        const std::uint64_t full = total / per_segment, rest = total % per_segment;
        EXPECT_EQ(written.write_ops, full + (rest ? 1 : 0));
        EXPECT_EQ(written.write_bytes, full * b.bw + layout.bytes_for(rest));
        EXPECT_EQ(f.account().peak(), block_writer<adjacency_record>::memory_usage(b, 2));

        std::uint64_t expected_requests = 0, read = 0, non_empty = 0;
        for (std::uint64_t c = 0; c < k; ++c) {
            SCOPED_TRACE("cluster " + std::to_string(c));
            std::vector<adjacency_record> got;
            f.read(c, [&](const adjacency_record& r) { got.push_back(r); });
            std::vector<adjacency_record> want = records_of(c);
            ASSERT_EQ(got.size(), want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                ASSERT_EQ(got[i].v, want[i].v) << i;
                ASSERT_EQ(got[i].w, want[i].w) << i;
                ASSERT_EQ(got[i].cw, want[i].cw) << i;
            }
            if (!want.empty()) {
                ++non_empty;
                expected_requests += (read + want.size() - 1) / per_segment - read / per_segment + 1;
            }
            read += want.size();
        }
        EXPECT_EQ(f.read_requests(), expected_requests);
        EXPECT_GT(expected_requests, non_empty) << "some cluster should cross a segment";
        const io_counters reads = m.stats()[0].of(role::static_data);
        EXPECT_EQ(reads.read_ops, expected_requests);
        flashxxl::testing::expect_block_shapes(reads, b, "cluster file");
        EXPECT_LE(f.account().peak(), block_writer<adjacency_record>::memory_usage(b, 2));
    }
    // The file owned its segments: dropping it gave the space back.
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

//! block_span and clusters_in_blocks agree with the layout, and read_cluster_range names each
//! record's cluster: the ranges MM_BFS uses to serve a level's requests by block.
TEST_P(mm_bfs_cluster_file, block_spans_and_the_clusters_inside_them) {
    const block_sizes b = GetParam();
    machine m = flashxxl::testing::plain_machine();
    const std::uint64_t k = 40;
    cluster_file f(m, k, b);
    for (std::uint64_t c = 0; c < k; ++c)
        for (const adjacency_record& r : records_of(c))
            f.push(bfs_node(c), r);
    f.finish();
    const std::uint64_t per_block = block_layout<adjacency_record>(b.br).items_per_block();
    std::uint64_t first_record = 0;
    for (std::uint64_t c = 0; c < k; ++c) {
        SCOPED_TRACE("cluster " + std::to_string(c));
        const auto span = f.block_span(c);
        const std::uint64_t n = f.cluster_records(c);
        if (n == 0) {
            EXPECT_EQ(span.first, span.second);
        } else {
            EXPECT_EQ(span.first, first_record / per_block);
            EXPECT_EQ(span.second, (first_record + n - 1) / per_block + 1);
            // c lies wholly in its own blocks; every cluster reported there does too.
            const auto inside = f.clusters_in_blocks(span.first, span.second);
            EXPECT_LE(inside.first, c);
            EXPECT_GT(inside.second, c);
            for (std::uint64_t x = inside.first; x < inside.second; ++x) {
                const auto sx = f.block_span(x);
                EXPECT_GE(sx.first, span.first) << x;
                EXPECT_LE(sx.second, span.second) << x;
            }
            // One read of them names each record's cluster (w of records_of(c) is c's index i, v c * 1000 + i
            // / 3).
            const std::uint64_t before = f.read_requests();
            std::uint64_t seen = 0;
            f.read_cluster_range(inside.first, inside.second,
                                 [&](std::uint64_t x, const adjacency_record& r) {
                                     EXPECT_EQ(r.v / 1000, x);
                                     ++seen;
                                 });
            std::uint64_t want = 0;
            for (std::uint64_t x = inside.first; x < inside.second; ++x)
                want += f.cluster_records(x);
            EXPECT_EQ(seen, want);
            const std::uint64_t per_segment = f.items_per_segment();
            const bool straddles = first_record / per_segment != (first_record + n - 1) / per_segment;
            if (!straddles) {
                EXPECT_EQ(f.read_requests() - before, 1u);
            }
        }
        first_record += n;
    }
}

INSTANTIATE_TEST_SUITE_P(runtime, mm_bfs_cluster_file,
                         ::testing::Values(block_sizes(4 * KiB, 16 * KiB), block_sizes(12 * KiB, 36 * KiB),
                                           block_sizes(20 * KiB, 60 * KiB), block_sizes(4 * KiB, 64 * KiB)),
                         [](const ::testing::TestParamInfo<block_sizes>& i) {
                             return flashxxl::testing::pair_name(i.param);
                         });

TEST(mm_bfs_cluster_file_misuse, misuse_and_invalid_pairs_are_rejected) {
    machine m = flashxxl::testing::plain_machine();
    flashxxl::testing::expect_invalid_pair_rejected(
        [&] { cluster_file f(m, 3, flashxxl::testing::invalid_pair()); });
    cluster_file f(m, 3, block_sizes(4 * KiB, 16 * KiB));
    EXPECT_THROW(f.read(0, [](const adjacency_record&) {}), invalid_request);
    f.push(1, adjacency_record{1, 2, 1});
    EXPECT_THROW(f.push(0, adjacency_record{0, 1, 0}), invalid_request);
    EXPECT_THROW(f.push(3, adjacency_record{5, 1, 0}), invalid_request);
    f.finish();
    EXPECT_THROW(f.push(2, adjacency_record{3, 4, 2}), invalid_request);
    EXPECT_THROW(f.read(3, [](const adjacency_record&) {}), invalid_request);
    std::uint64_t n = 0;
    f.read(0, [&](const adjacency_record&) { ++n; });
    EXPECT_EQ(n, 0u);
    f.read(1, [&](const adjacency_record& r) {
        ++n;
        EXPECT_EQ(r.w, 2u);
    });
    EXPECT_EQ(n, 1u);
}

} // namespace
