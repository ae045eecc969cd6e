// Tests of io/: block_writer writes one Bw per extent, block_reader reads Br blocks with prefetch.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/blocks.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {

constexpr std::size_t br = 4096, bw = 16384;

template <std::size_t Bytes>
void roundtrip(std::uint64_t n, std::size_t prefetch) {
    machine m = flashxxl_test::tiny_machine();
    using T = item<Bytes>;
    using layout = block_layout<T, br>;
    std::uint64_t counter = 0;
    memory_account acc;
    std::vector<segment> segs;
    {
        block_writer<T, br, bw> w(m, role::scratch, counter, &acc, 2);
        for (std::uint64_t i = 0; i < n; ++i) w.push(T(std::uint32_t(i * 7), std::uint32_t(i * 7)));
        EXPECT_EQ(w.size(), n);
        segs = w.finish();
    }
    EXPECT_EQ(acc.peak(), (block_writer<T, br, bw>::memory_usage(2)));
    device_stats s = flashxxl_test::total_stats(m);
    std::uint64_t per_seg = block_writer<T, br, bw>::items_per_segment;
    std::uint64_t full = n / per_seg, rest = n % per_seg;
    EXPECT_EQ(s.of(role::scratch).write_ops, full + (rest ? 1 : 0));
    EXPECT_EQ(s.of(role::scratch).write_bytes, full * bw + layout::bytes_for(rest));
    EXPECT_EQ(segs.size(), full + (rest ? 1 : 0));

    memory_account racc;
    {
        block_reader<T, br> r(m, role::scratch, true, &racc, prefetch);
        r.add_all(segs);
        EXPECT_EQ(r.size(), n);
        for (std::uint64_t i = 0; i < n; ++i) {
            ASSERT_FALSE(r.empty());
            ASSERT_TRUE(r.front() == T(std::uint32_t(i * 7), std::uint32_t(i * 7))) << i;
            r.pop();
        }
        EXPECT_TRUE(r.empty());
    }
    EXPECT_EQ(racc.peak(), (block_reader<T, br>::memory_usage(prefetch)));
    device_stats s2 = flashxxl_test::total_stats(m) - s;
    EXPECT_EQ(s2.of(role::scratch).read_ops, layout::blocks_for(n));
    EXPECT_EQ(s2.of(role::scratch).read_bytes, s2.of(role::scratch).read_ops * br);
    // The owning reader released every extent.
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

} // namespace

TEST(blocks, constants) {
    using b = blocks<128 * 1024, 16 * 1024 * 1024>;
    EXPECT_EQ(b::read_block, 128u * 1024);
    EXPECT_EQ(b::reads_per_write, 128u);
}

TEST(aligned_buffer, aligned_and_accounted) {
    memory_account acc;
    {
        aligned_buffer a(3 * 4096, &acc);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 4096, 0u);
        EXPECT_EQ(acc.current(), 3u * 4096);
        aligned_buffer b = std::move(a);
        EXPECT_EQ(acc.current(), 3u * 4096);
        EXPECT_EQ(a.data(), nullptr);
    }
    EXPECT_EQ(acc.current(), 0u);
    EXPECT_EQ(acc.peak(), 3u * 4096);
}

TEST(block_io, roundtrip_4_bytes) { roundtrip<4>(100000, 1); }
TEST(block_io, roundtrip_8_bytes_exact_segments) { roundtrip<8>(4 * bw / 8, 2); }
TEST(block_io, roundtrip_16_bytes_no_prefetch) { roundtrip<16>(12345, 0); }
TEST(block_io, roundtrip_40_bytes_deep_prefetch) { roundtrip<40>(54321, 5); }
TEST(block_io, empty_stream) { roundtrip<8>(0, 1); }
TEST(block_io, one_item) { roundtrip<40>(1, 1); }

TEST(block_io, reader_with_skips_and_late_segments) {
    machine m = flashxxl_test::tiny_machine();
    using T = item<8>;
    std::uint64_t counter = 0;
    std::vector<segment> segs;
    {
        block_writer<T, br, bw> w(m, role::hot, counter);
        for (std::uint32_t i = 0; i < 10000; ++i) w.push(T(i, i));
        segs = w.finish();
    }
    ASSERT_GE(segs.size(), 3u);
    segs[0].skip = 1000;  // the reader starts inside the first segment, in its third block
    segs[1].skip = segs[1].items;  // nothing left of the second
    block_reader<T, br> r(m, role::hot, true, nullptr, 2);
    r.add(segs[0]);
    r.add(segs[1]);
    std::vector<std::uint32_t> got;
    while (!r.empty()) {  // drain the first segment, then add the rest late
        got.push_back(r.front().key);
        r.pop();
    }
    for (std::size_t i = 2; i < segs.size(); ++i) r.add(segs[i]);
    while (!r.empty()) {
        got.push_back(r.front().key);
        r.pop();
    }
    std::vector<std::uint32_t> want;
    for (std::uint32_t i = 1000; i < segs[0].items; ++i) want.push_back(i);
    for (std::uint32_t i = std::uint32_t(segs[0].items + segs[1].items); i < 10000; ++i) want.push_back(i);
    EXPECT_EQ(got, want);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(block_io, writer_out_of_space_releases_everything) {
    machine m = flashxxl_test::tiny_machine("64KiB");
    using T = item<8>;
    std::uint64_t counter = 0;
    bool thrown = false;
    try {
        block_writer<T, br, bw> w(m, role::scratch, counter);
        for (std::uint32_t i = 0; i < 100000; ++i) w.push(T(i));
    } catch (const out_of_space& e) {
        thrown = true;
        EXPECT_NE(std::string(e.what()).find("ssd"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(thrown);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    // The device is still usable afterwards.
    block_writer<T, br, bw> w(m, role::scratch, counter);
    for (std::uint32_t i = 0; i < 1000; ++i) w.push(T(i));
    auto segs = w.finish();
    block_reader<T, br> r(m, role::scratch, true);
    r.add_all(segs);
    for (std::uint32_t i = 0; i < 1000; ++i, r.pop()) ASSERT_EQ(r.front().key, i);
}
