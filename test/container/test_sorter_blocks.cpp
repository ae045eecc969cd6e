// Tests of container/sorter.hpp and sort.hpp over run-time block sizes, and of sort(vector&).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "container/sorter_checks.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;
using flashxxl_test::br;
using flashxxl_test::bw;
using flashxxl_test::check_sorter;
using flashxxl_test::item;
using flashxxl_test::mem;
using flashxxl_test::shape;
using flashxxl_test::small;
using flashxxl_test::small_blocks;

namespace {

// flashxxl::sort(vector&, cmp, M): the sorter takes the vector's block sizes.
template <class T>
void check_vector_sort(shape sh, std::size_t n, const block_sizes& b = small,
                       std::uint64_t vector_memory = 64 * 1024, std::uint64_t sort_memory = 192 * 1024) {
    machine m = flashxxl_test::tiny_machine();
    auto k = flashxxl_test::keys(sh, n, 99);
    vector<T> v(m, vector_memory, b, role::stream);
    ASSERT_EQ(v.blocks(), b);
    {
        typename vector<T>::stream_writer w(v);
        for (auto x : k)
            w.push(T(x, x));
    }
    ASSERT_EQ(v.size(), n);
    device_stats before = flashxxl_test::total_stats(m);
    sort_report rep = sort(v, std::less<T>(), sort_memory);
    device_stats d = flashxxl_test::total_stats(m) - before;
    EXPECT_LE(rep.peak_memory, sort_memory);
    std::vector<T> want;
    for (auto x : k)
        want.push_back(T(x, x));
    std::sort(want.begin(), want.end());
    ASSERT_EQ(v.size(), n);
    std::size_t i = 0;
    for (typename vector<T>::stream_reader r(v); !r.empty(); ++r, ++i)
        ASSERT_TRUE(*r == want[i]) << i;
    EXPECT_EQ(i, n);
    // Reads and writes: N x passes each (whole Br blocks, up to one block per run).
    std::uint64_t volume = block_layout<T>(b.br).bytes_for(n);
    EXPECT_GE(d.total.read_bytes, rep.passes * n * sizeof(T));
    EXPECT_LE(d.total.read_bytes, rep.passes * (volume + (rep.runs + 2) * b.br));
    EXPECT_GE(d.total.write_bytes, rep.passes * n * sizeof(T));
    EXPECT_LE(d.total.write_bytes, rep.passes * (volume + (rep.runs + 2) * b.br));
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
    EXPECT_EQ(d.total.write_bytes % b.br, 0u);
    EXPECT_LE(d.total.write_bytes, d.total.write_ops * b.bw);
    if (n > 0) {
        EXPECT_GE(rep.passes, 1u);
    }
}

} // namespace

TEST(sort_vector, random_8) { check_vector_sort<item<8>>(shape::random, 123457); }
TEST(sort_vector, duplicates_40) { check_vector_sort<item<40>>(shape::few_distinct, 23457); }
TEST(sort_vector, reversed_16) { check_vector_sort<item<16>>(shape::reversed, 33333); }
TEST(sort_vector, small_4) { check_vector_sort<item<4>>(shape::random, 100); }
TEST(sort_vector, empty) { check_vector_sort<item<8>>(shape::random, 0); }
// ---- run-time block sizes --------------------------------------------------------------------

namespace {

//! One run-time block-size pair with a budget M scaled to it (a few times min_memory) and an
//! input of several M, so that every pair sorts externally within a second or so.
struct pair_case {
    block_sizes blocks;
    std::uint64_t memory;     //!< sorter budget
    std::size_t n;            //!< 8-byte items sorted (others scaled from it)
    std::uint64_t vector_mem; //!< the vector's cache in sort(vector&)
    std::uint64_t sort_mem;   //!< sort(vector&)'s budget
};

std::string pair_name(const ::testing::TestParamInfo<pair_case>& info) {
    return "Br" + format_size(info.param.blocks.br) + "_Bw" + format_size(info.param.blocks.bw);
}

// The brief's pairs: powers of two (4 KiB / 4 KiB, 4 KiB / 64 KiB), non-powers of two
// (12 KiB / 36 KiB), and the measured pair 192 KiB / 3 MiB, both as it is (M = 12 MiB) and
// scaled down by 16 (12 KiB / 192 KiB).
const pair_case pair_cases[] = {
    {block_sizes(4 * KiB, 4 * KiB), 128 * KiB, 150001, 64 * KiB, 192 * KiB},
    {block_sizes(4 * KiB, 16 * KiB), 128 * KiB, 150001, 64 * KiB, 192 * KiB},
    {block_sizes(4 * KiB, 64 * KiB), 256 * KiB, 150001, 128 * KiB, 512 * KiB},
    {block_sizes(12 * KiB, 36 * KiB), 192 * KiB, 150001, 128 * KiB, 512 * KiB},
    {block_sizes(12 * KiB, 192 * KiB), 768 * KiB, 400001, 512 * KiB, 1536 * KiB},
    {block_sizes(192 * KiB, 3 * MiB), 12 * MiB, 3000017, 4 * MiB, 20 * MiB},
};

class sorter_pairs : public ::testing::TestWithParam<pair_case> {};

} // namespace

INSTANTIATE_TEST_SUITE_P(run_time, sorter_pairs, ::testing::ValuesIn(pair_cases), pair_name);

// The oracles of the typed tests (order, memory, I/O volume and shapes) for every pair, with
// padded (40-byte) and unpadded items, duplicates, and double-buffered run formation.
TEST_P(sorter_pairs, same_oracles_as_the_default_pair) {
    const pair_case& p = GetParam();
    check_sorter<item<8>>(shape::random, p.n, std::less<item<8>>(), p.memory, nullptr, p.blocks);
    check_sorter<item<40>>(shape::few_distinct, p.n / 5, std::less<item<40>>(), p.memory, nullptr, p.blocks);
    check_sorter<item<4>>(shape::reversed, p.n / 2, std::less<item<4>>(), p.memory, nullptr, p.blocks);
    check_sorter<item<16>>(shape::random, 777, std::less<item<16>>(), p.memory, nullptr, p.blocks);
    bool switched = false;
    check_sorter<item<8>>(shape::random, p.n / 2, std::less<item<8>>(), p.memory, &switched, p.blocks);
}

TEST_P(sorter_pairs, sort_vector_uses_the_vectors_block_sizes) {
    const pair_case& p = GetParam();
    check_vector_sort<item<8>>(shape::random, p.n, p.blocks, p.vector_mem, p.sort_mem);
    check_vector_sort<item<40>>(shape::few_distinct, p.n / 5, p.blocks, p.vector_mem, p.sort_mem);
}

// A pair that breaks a rule of block_sizes is rejected by the constructor (block_sizes'
// own constructor rejects it first), with both values in the message.
TEST(sorter, invalid_block_sizes_are_a_config_error_naming_both) {
    machine m = flashxxl_test::tiny_machine();
    auto expect_rejected = [&](std::uint64_t r, std::uint64_t w, const std::string& rs,
                               const std::string& ws) {
        block_sizes b; // set the fields by hand: the two-argument constructor would throw already
        b.br = r;
        b.bw = w;
        try {
            sorter<std::uint64_t> s(m, 64 * MiB, b);
            ADD_FAILURE() << "accepted " << b.describe();
        } catch (const config_error& e) {
            std::string what = e.what();
            EXPECT_NE(what.find("Br = " + rs), std::string::npos) << what;
            EXPECT_NE(what.find("Bw = " + ws), std::string::npos) << what;
        }
        EXPECT_THROW(block_sizes(r, w), config_error);
    };
    expect_rejected(12 * KiB, 20 * KiB, "12KiB", "20KiB"); // Bw not a multiple of Br
    expect_rejected(6000, 12000, "6000", "12000");         // not multiples of 4 KiB
    expect_rejected(64 * KiB, 16 * KiB, "64KiB", "16KiB"); // Br > Bw
    expect_rejected(0, 16 * KiB, "0", "16KiB");
    // An item larger than Br is a config_error too.
    struct big {
        std::uint8_t bytes[8192];
        bool operator<(const big& o) const { return bytes[0] < o.bytes[0]; }
    };
    EXPECT_THROW((sorter<big>(m, 64 * MiB, block_sizes(4 * KiB, 16 * KiB))), config_error);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// I/O shapes at a pair that is no power of two: with one merge pass the writes and reads follow
// from the run sizes exactly. Every run of k items is written as k / per_segment writes of Bw
// and one of bytes_for(k % per_segment); every read is one Br block, each written block read
// once. 40-byte items leave padding at the end of each 12 KiB block.
template <class T>
void check_exact_shapes(const block_sizes& b, std::uint64_t memory, std::uint64_t runs_wanted,
                        std::uint64_t extra) {
    machine m = flashxxl_test::tiny_machine();
    const block_layout<T> layout(b.br);
    const std::uint64_t per_segment = block_writer<T>::items_per_segment(b);
    sorter<T> s(m, memory, b);
    const std::uint64_t cap = s.run_capacity();
    const std::uint64_t n = (runs_wanted - 1) * cap + extra;
    ASSERT_LE(runs_wanted, s.final_fan_in());
    for (std::uint64_t i = 0; i < n; ++i)
        s.push(T(std::uint32_t((i * 2654435761u) % 1000003), std::uint32_t(i)));
    s.sort();
    std::uint64_t got = 0;
    for (; !s.empty(); ++s)
        ++got;
    EXPECT_EQ(got, n);
    EXPECT_EQ(s.passes(), 1u);
    EXPECT_EQ(s.runs_formed(), runs_wanted);
    std::uint64_t writes = 0, write_bytes = 0, reads = 0;
    for (std::uint64_t r = 0; r < runs_wanted; ++r) {
        std::uint64_t k = r + 1 < runs_wanted ? cap : extra;
        std::uint64_t full = k / per_segment, rest = k % per_segment;
        writes += full + (rest ? 1 : 0);
        write_bytes += full * b.bw + layout.bytes_for(rest);
        reads += full * b.reads_per_write() + layout.blocks_for(rest);
    }
    const io_counters c = flashxxl_test::total_stats(m).of(role::scratch);
    EXPECT_EQ(c.write_ops, writes);
    EXPECT_EQ(c.write_bytes, write_bytes);
    EXPECT_EQ(c.read_ops, reads);
    EXPECT_EQ(c.read_bytes, reads * b.br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(sorter, exact_io_shapes_at_12KiB_36KiB) {
    const block_sizes b(12 * KiB, 36 * KiB);
    check_exact_shapes<item<8>>(b, 192 * KiB, 5, 777);
    check_exact_shapes<item<40>>(b, 192 * KiB, 4, 1234);
    check_exact_shapes<item<16>>(b, 512 * KiB, 3, 1);
}

// Code written against blocks<Br, Bw> passes the value, which converts to block_sizes; without
// sizes a container takes those of the device the role is placed on.
TEST(sorter, compile_time_blocks_and_device_block_sizes) {
    machine m = flashxxl_test::tiny_machine();
    {
        sorter<std::uint64_t, std::less<std::uint64_t>> s(m, mem, small_blocks{});
        EXPECT_EQ(s.blocks(), small);
        EXPECT_EQ((sorter<std::uint64_t, std::less<std::uint64_t>>::min_memory(small_blocks{})),
                  sorter<std::uint64_t>::min_memory(small));
        for (std::uint64_t i = 0; i < 50000; ++i)
            s.push(50000 - i);
        s.sort();
        for (std::uint64_t i = 1; i <= 50000; ++i, ++s)
            ASSERT_EQ(*s, i);
        EXPECT_GE(s.passes(), 1u);
    }
    EXPECT_EQ(sorter<std::uint64_t>::min_memory(), sorter<std::uint64_t>::min_memory(block_sizes()));
    {
        sorter<std::uint64_t> s(m, 64 * MiB); // tiny_machine states no br= / bw=: seeds/001's pair
        EXPECT_EQ(s.blocks(), block_sizes());
    }
    machine odd = machine::from_config_text("name=odd\n"
                                            "flash=memory,256MiB,memory name=ssd br=12KiB bw=36KiB\n"
                                            "placement=single device=ssd\n",
                                            "odd-machine");
    sorter<item<8>> s(odd, 192 * KiB);
    EXPECT_EQ(s.blocks(), block_sizes(12 * KiB, 36 * KiB));
    for (std::uint32_t i = 0; i < 100000; ++i)
        s.push(item<8>(std::uint32_t((i * 2654435761u) % 1000003), i));
    s.sort();
    std::uint32_t prev = 0;
    for (; !s.empty(); ++s) {
        ASSERT_LE(prev, s->key);
        prev = s->key;
    }
    const io_counters c = flashxxl_test::total_stats(odd).of(role::scratch);
    EXPECT_GT(c.read_ops, 0u);
    EXPECT_EQ(c.read_bytes, c.read_ops * 12 * KiB);
    EXPECT_LE(c.write_bytes, c.write_ops * 36 * KiB);
}
