// Tests of io/: block_writer writes one Bw per extent, block_reader reads Br blocks with prefetch, over
// run-time block sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/block_sizes.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/block_writer.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {

constexpr std::size_t br = 4096, bw = 16384;
const block_sizes small{br, bw};
const block_sizes odd{12 * 1024, 36 * 1024}; // no powers of two: 40-byte items leave padding

template <std::size_t Bytes>
void roundtrip(std::uint64_t n, std::size_t prefetch, const block_sizes& b = small) {
    machine m = flashxxl_test::tiny_machine();
    using T = item<Bytes>;
    const block_layout<T> layout(b.br);
    std::uint64_t counter = 0;
    memory_account acc;
    std::vector<segment> segs;
    {
        block_writer<T> w(m, role::scratch, b, counter, &acc, 2);
        EXPECT_EQ(w.blocks(), b);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(T(std::uint32_t(i * 7), std::uint32_t(i * 7)));
        EXPECT_EQ(w.size(), n);
        segs = w.finish();
    }
    EXPECT_EQ(acc.peak(), (block_writer<T>::memory_usage(b, 2)));
    EXPECT_EQ(acc.peak(), 2 * b.bw);
    device_stats s = flashxxl_test::total_stats(m);
    std::uint64_t per_seg = block_writer<T>::items_per_segment(b);
    EXPECT_EQ(per_seg, b.reads_per_write() * (b.br / sizeof(T)));
    std::uint64_t full = n / per_seg, rest = n % per_seg;
    EXPECT_EQ(s.of(role::scratch).write_ops, full + (rest ? 1 : 0));
    EXPECT_EQ(s.of(role::scratch).write_bytes, full * b.bw + layout.bytes_for(rest));
    EXPECT_EQ(segs.size(), full + (rest ? 1 : 0));
    for (const segment& g : segs) {
        EXPECT_EQ(g.ext->length, b.bw); // every segment owns one Bw extent
        EXPECT_EQ(g.skip, 0u);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), segs.size() * b.bw);

    memory_account racc;
    {
        block_reader<T> r(m, role::scratch, b, &racc, prefetch);
        r.add_all(segs);
        EXPECT_EQ(r.size(), n);
        for (std::uint64_t i = 0; i < n; ++i) {
            ASSERT_FALSE(r.empty());
            ASSERT_TRUE(r.front() == T(std::uint32_t(i * 7), std::uint32_t(i * 7))) << i;
            r.pop();
        }
        EXPECT_TRUE(r.empty());
    }
    EXPECT_EQ(racc.peak(), (block_reader<T>::memory_usage(b, prefetch)));
    EXPECT_EQ(racc.peak(), (prefetch + 1) * b.br);
    device_stats s2 = flashxxl_test::total_stats(m) - s;
    EXPECT_EQ(s2.of(role::scratch).read_ops, layout.blocks_for(n));
    EXPECT_EQ(s2.of(role::scratch).read_bytes, s2.of(role::scratch).read_ops * b.br);
    // The reader owned the segments (add) and gave every extent back.
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
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

// From one huge page on, a buffer is a mapping of its own at a huge-page boundary (advised
// MADV_HUGEPAGE); the account still counts exactly the requested bytes.
TEST(aligned_buffer, two_MiB_and_more_start_at_a_huge_page_and_count_what_was_asked) {
    const std::size_t huge = huge_page_bytes();
    ASSERT_GE(huge, 4096u);
    ASSERT_EQ(huge & (huge - 1), 0u);
    memory_account acc;
    {
        aligned_buffer small_one(huge - 4096, &acc);
        EXPECT_FALSE(small_one.huge_page_aligned());
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small_one.data()) % 4096, 0u);
        const std::size_t bytes = huge + 3 * 4096 + 100; // not even a multiple of 4 KiB
        aligned_buffer a(bytes, &acc);
        EXPECT_TRUE(a.huge_page_aligned());
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % huge, 0u);
        EXPECT_EQ(a.size(), bytes);
        EXPECT_EQ(acc.current(), bytes + huge - 4096);
        for (std::size_t i = 0; i < bytes; i += 512)
            a.data()[i] = char(i);
        a.data()[bytes - 1] = 7;
        aligned_buffer b = std::move(a);
        EXPECT_TRUE(b.huge_page_aligned());
        EXPECT_FALSE(a.huge_page_aligned());
        EXPECT_EQ(b.data()[bytes - 1], 7);
        EXPECT_EQ(b.data()[512], char(512));
        b = aligned_buffer(huge, &acc); // the old mapping goes, the new one counts
        EXPECT_EQ(acc.current(), huge + huge - 4096);
    }
    EXPECT_EQ(acc.current(), 0u);
    // the new buffer of the last assignment exists before the old one goes
    EXPECT_EQ(acc.peak(), (huge - 4096) + (huge + 3 * 4096 + 100) + huge);
}

TEST(block_sizes, rules_and_compile_time_spelling) {
    EXPECT_EQ(block_sizes(), block_sizes(128 * 1024, 16 * 1024 * 1024));
    block_sizes from_template = blocks<12 * 1024, 36 * 1024>();
    EXPECT_EQ(from_template, odd);
    EXPECT_EQ(odd.reads_per_write(), 3u);
    EXPECT_EQ(odd.describe(), "Br = 12KiB, Bw = 36KiB");
    try {
        block_sizes(12 * 1024, 40 * 1024);
        ADD_FAILURE() << "accepted Bw not a multiple of Br";
    } catch (const config_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("Br = 12KiB"), std::string::npos) << what;
        EXPECT_NE(what.find("Bw = 40KiB"), std::string::npos) << what;
    }
    // The reader, the writer and the layout reject what block_sizes rejects, and items larger
    // than Br.
    machine m = flashxxl_test::tiny_machine();
    block_sizes bad;
    bad.br = 8 * 1024;
    bad.bw = 12 * 1024;
    std::uint64_t counter = 0;
    EXPECT_THROW((block_writer<std::uint64_t>(m, role::scratch, bad, counter)), config_error);
    EXPECT_THROW((block_reader<std::uint64_t>(m, role::scratch, bad)), config_error);
    struct big {
        std::uint8_t bytes[5000];
    };
    EXPECT_THROW((block_writer<big>(m, role::scratch, small, counter)), config_error);
    EXPECT_NO_THROW((block_writer<big>(m, role::scratch, odd, counter)));
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(block_io, roundtrip_4_bytes) { roundtrip<4>(100000, 1); }
TEST(block_io, roundtrip_8_bytes_exact_segments) { roundtrip<8>(4 * bw / 8, 2); }
TEST(block_io, roundtrip_16_bytes_no_prefetch) { roundtrip<16>(12345, 0); }
TEST(block_io, roundtrip_40_bytes_deep_prefetch) { roundtrip<40>(54321, 5); }
TEST(block_io, empty_stream) { roundtrip<8>(0, 1); }
// 512 prefetched 4 KiB blocks: the reader's slots are one buffer of over 2 MiB (huge pages).
TEST(block_io, deep_prefetch_in_one_huge_page_buffer) { roundtrip<8>(300000, 520); }
TEST(block_io, one_item) { roundtrip<40>(1, 1); }

// A pair that is no power of two: 12 KiB reads, 36 KiB writes; 40-byte items pad each block.
TEST(block_io, roundtrip_12KiB_36KiB) {
    roundtrip<8>(100000, 1, odd);
    roundtrip<8>(3 * 36 * 1024 / 8, 2, odd); // exact segments
    roundtrip<40>(54321, 3, odd);
    roundtrip<16>(12345, 0, odd);
    roundtrip<4>(1, 1, odd);
    roundtrip<40>(0, 1, odd);
    roundtrip<8>(200000, 1, block_sizes(192 * 1024, 3 * 1024 * 1024));
}

TEST(block_io, reader_with_skips_and_late_segments) {
    machine m = flashxxl_test::tiny_machine();
    using T = item<8>;
    std::uint64_t counter = 0;
    std::vector<segment> segs;
    {
        block_writer<T> w(m, role::hot, small, counter);
        for (std::uint32_t i = 0; i < 10000; ++i)
            w.push(T(i, i));
        segs = w.finish();
    }
    ASSERT_GE(segs.size(), 3u);
    segs[0].skip = 1000;          // the reader starts inside the first segment, in its third block
    segs[1].skip = segs[1].items; // nothing left of the second
    const std::uint64_t items0 = segs[0].items, items1 = segs[1].items;
    block_reader<T> r(m, role::hot, small, nullptr, 2);
    r.add(std::move(segs[0]));
    r.add(std::move(segs[1])); // nothing to read: its extent goes back at once
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), (segs.size() - 1) * bw);
    std::vector<std::uint32_t> got;
    while (!r.empty()) { // drain the first segment, then add the rest late
        got.push_back(r.front().key);
        r.pop();
    }
    // The consumed first segment went back as soon as its last block was retired.
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), (segs.size() - 2) * bw);
    for (std::size_t i = 2; i < segs.size(); ++i)
        r.add(std::move(segs[i]));
    while (!r.empty()) {
        got.push_back(r.front().key);
        r.pop();
    }
    std::vector<std::uint32_t> want;
    for (std::uint32_t i = 1000; i < items0; ++i)
        want.push_back(i);
    for (std::uint32_t i = std::uint32_t(items0 + items1); i < 10000; ++i)
        want.push_back(i);
    EXPECT_EQ(got, want);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// add_borrowed() reads extents that stay with their owner (a vector's groups): reading them,
// even twice and with skips, gives nothing back; dropping the owners does. At 12 KiB / 36 KiB.
TEST(block_io, borrowed_extents_stay_with_their_owner) {
    machine m = flashxxl_test::tiny_machine();
    using T = item<40>;
    const block_layout<T> layout(odd.br);
    std::uint64_t counter = 0;
    std::vector<segment> segs;
    {
        block_writer<T> w(m, role::stream, odd, counter);
        for (std::uint32_t i = 0; i < 5000; ++i)
            w.push(T(i, i));
        segs = w.finish();
    }
    ASSERT_GE(segs.size(), 3u);
    const std::uint64_t used = m.dev(0).allocator().used_bytes();
    EXPECT_EQ(used, segs.size() * odd.bw);
    device_stats before = flashxxl_test::total_stats(m);
    for (int round = 0; round < 2; ++round) {
        block_reader<T> r(m, role::stream, odd, nullptr, 1);
        std::uint64_t skip = round == 0 ? 0 : 700; // round 1 starts in the third block
        std::uint64_t expected = 0;
        for (std::size_t j = 0; j < segs.size(); ++j) {
            r.add_borrowed(segs[j].ext.get(), segs[j].items, j == 0 ? skip : 0);
            expected += segs[j].items - (j == 0 ? skip : 0);
        }
        EXPECT_EQ(r.size(), expected);
        for (std::uint32_t i = std::uint32_t(skip); i < 5000; ++i, r.pop()) {
            ASSERT_FALSE(r.empty());
            ASSERT_TRUE(r.front() == T(i, i)) << i;
        }
        EXPECT_TRUE(r.empty());
        EXPECT_EQ(m.dev(0).allocator().used_bytes(), used);
    }
    io_counters c = (flashxxl_test::total_stats(m) - before).of(role::stream);
    std::uint64_t blocks = 0;
    for (const segment& g : segs)
        blocks += layout.blocks_for(g.items);
    EXPECT_EQ(c.read_ops, 2 * blocks - 700 / layout.items_per_block());
    EXPECT_EQ(c.read_bytes, c.read_ops * odd.br);
    segs.clear(); // the owners go: so do the extents
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
}

TEST(block_io, writer_out_of_space_releases_everything) {
    machine m = flashxxl_test::tiny_machine("64KiB");
    using T = item<8>;
    std::uint64_t counter = 0;
    bool thrown = false;
    try {
        block_writer<T> w(m, role::scratch, small, counter);
        for (std::uint32_t i = 0; i < 100000; ++i)
            w.push(T(i));
    } catch (const out_of_space& e) {
        thrown = true;
        EXPECT_NE(std::string(e.what()).find("ssd"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(thrown);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    // The device is still usable afterwards.
    block_writer<T> w(m, role::scratch, small, counter);
    for (std::uint32_t i = 0; i < 1000; ++i)
        w.push(T(i));
    auto segs = w.finish();
    block_reader<T> r(m, role::scratch, small);
    r.add_all(segs);
    for (std::uint32_t i = 0; i < 1000; ++i, r.pop())
        ASSERT_EQ(r.front().key, i);
}

// A write whose extent cannot be allocated loses its buffer. The writer latches the failure:
// later pushes stay in the current buffer (they used to write past it, into the other buffer,
// which may still be in flight) and finish() throws instead of writing a segment of more than
// Bw items and reporting success. The extents go back with the writer.
TEST(block_io, writer_refuses_finish_after_out_of_space) {
    machine m = flashxxl_test::tiny_machine("64KiB"); // four Bw extents
    using T = std::uint64_t;
    std::uint64_t counter = 0;
    const std::uint64_t per = block_writer<T>::items_per_segment(small);
    {
        owned_extent a = m.allocate(role::scratch, bw),
                     b = m.allocate(role::scratch, bw); // room for two segments
        block_writer<T> w(m, role::scratch, small, counter, nullptr, 2);
        std::uint64_t i = 0;
        EXPECT_THROW(
            {
                for (; i < 10 * per; ++i)
                    w.push(i);
            },
            out_of_space);
        EXPECT_EQ(i, 3 * per - 1); // the third buffer found no extent
        a.reset();                 // room again: the writer must still not go on as if nothing was lost
        b.reset();
        for (std::uint64_t k = 0; k < per / 2; ++k)
            w.push(k);
        try {
            w.finish();
            ADD_FAILURE() << "finish() succeeded after a lost buffer";
        } catch (const io_failure& e) {
            std::string what = e.what();
            EXPECT_NE(what.find("flashxxl::block_writer::finish: unusable since an earlier failure lost "
                                "items (out of space"),
                      std::string::npos)
                << what;
        }
        EXPECT_THROW(w.finish(), io_failure); // and again
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
}
