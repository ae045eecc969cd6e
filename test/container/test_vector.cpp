// Tests of container/vector.hpp: random access vs std::vector, Bw write-back, Br reads, streams, memory,
// block sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {
constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>;

//! The run-time pairs every test also runs with: the legacy pair, Bw = Br, powers of two and
//! not, and a large pair (its tests scale their operation counts down, see scaled()).
const std::vector<block_sizes>& pairs() {
    static const std::vector<block_sizes> p{{4 * KiB, 4 * KiB},
                                            {4 * KiB, 16 * KiB},
                                            {4 * KiB, 64 * KiB},
                                            {12 * KiB, 36 * KiB},
                                            {192 * KiB, 3 * MiB}};
    return p;
}

//! `ops` random operations for the legacy pair (4 KiB, 16 KiB), fewer where a random
//! write-back costs more (a Bw write and up to Bw / Br - 1 page reads), at least `floor`.
int scaled(int ops, const block_sizes& b, int floor = 300) {
    std::uint64_t n = std::uint64_t(ops);
    n = std::min<std::uint64_t>(n, std::uint64_t(ops) * 4 / b.reads_per_write());
    n = std::min<std::uint64_t>(n, std::uint64_t(ops) * 64 * KiB / b.bw);
    return std::max<int>(floor, int(n));
}

//! A vector with the sizes `b` (legacy: given as the compile-time value small_blocks{}, which
//! converts to block_sizes and must then be b).
template <class V>
V make_vector(machine& m, std::uint64_t memory, const block_sizes& b, bool legacy, role r = role::stream) {
    if (legacy) return V(m, memory, small_blocks{}, r);
    return V(m, memory, b, r);
}

//! A one-device machine of `bytes` (plain bytes: any multiple of 4 KiB).
machine machine_of(std::uint64_t bytes) {
    return flashxxl_test::tiny_machine(std::to_string(bytes) + "B");
} // a plain number would be MiB (STXXL)

template <class T, class V> void random_access_matches_std_vector(const block_sizes& b, bool legacy) {
    machine m = flashxxl_test::tiny_machine();
    const std::uint64_t br_ = b.br, bw_ = b.bw;
    const std::uint64_t memory = V::min_memory(b) + 4 * br_; // a handful of pages: mostly misses
    std::mt19937 rng(7);
    std::vector<T> ref;
    const std::uint64_t per_group = b.reads_per_write() * (br_ / sizeof(T));
    ref.reserve(24 * per_group + 17);
    flashxxl_test::alloc_tracker::start();
    std::int64_t peak = 0;
    std::uint64_t groups = 0;
    {
        V v = make_vector<V>(m, memory, b, legacy, role::hot);
        EXPECT_EQ(v.blocks(), b);
        EXPECT_EQ(v.items_per_group(), per_group);
        // Not a multiple of anything; more than the cache holds also when groups are small.
        const std::uint64_t groups_filled = v.pages_per_group() >= 4 ? 3 : 24 / v.pages_per_group();
        const std::uint64_t n = groups_filled * v.items_per_group() + 17;
        for (std::uint64_t i = 0; i < n; ++i) {
            v.push_back(T(std::uint32_t(i), std::uint32_t(i)));
            ref.push_back(T(std::uint32_t(i), std::uint32_t(i)));
        }
        const int ops = scaled(6000, b);
        for (int op = 0; op < ops; ++op) {
            std::uint64_t i = rng() % n;
            if (rng() % 3 == 0) {
                std::uint32_t k = std::uint32_t(rng());
                v[i] = T(k, k);
                ref[i] = T(k, k);
            } else {
                ASSERT_TRUE(v.get(i) == ref[i]) << i;
            }
        }
        ASSERT_EQ(v.size(), ref.size());
        std::uint64_t i = 0;
        for (auto it = v.cbegin(); it != v.cend(); ++it, ++i)
            ASSERT_TRUE(*it == ref[i]) << i;
        v.pop_back();
        ref.pop_back();
        EXPECT_TRUE(v.back() == ref.back());
        EXPECT_LE(v.account().peak(), memory);
        groups = (n + v.items_per_group() - 1) / v.items_per_group();
        peak = flashxxl_test::alloc_tracker::peak();
    }
    flashxxl_test::alloc_tracker::stop();
    // Everything the test thread allocated: M plus the group directory (an extent and a page
    // count per group, with vector slack).
    EXPECT_LE(peak, std::int64_t(memory + 4 * groups * (sizeof(owned_extent) + 4)));
    device_stats s = flashxxl_test::total_stats(m);
    const io_counters& c = s.of(role::hot);
    EXPECT_EQ(c.read_bytes, c.read_ops * br_);
    // Write-back is one write per group: Bw, except for the last (partial) group.
    EXPECT_GT(c.write_ops, 0u);
    EXPECT_LT(c.write_ops * bw_ - c.write_bytes, c.write_ops * bw_ / 2);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

template <class V> void every_write_back_is_bw_when_groups_are_full(const block_sizes& b, bool legacy) {
    using T = std::uint64_t;
    machine m = flashxxl_test::tiny_machine();
    V v = make_vector<V>(m, V::min_memory(b), b, legacy, role::hot);
    v.resize(4 * v.items_per_group(), 5);
    std::mt19937 rng(3);
    std::vector<T> ref(v.size(), 5);
    device_stats before = flashxxl_test::total_stats(m);
    const int ops = scaled(5000, b);
    for (int op = 0; op < ops; ++op) {
        std::uint64_t i = rng() % ref.size();
        v.set(i, op);
        ref[i] = op;
    }
    v.flush();
    device_stats d = flashxxl_test::total_stats(m) - before;
    EXPECT_GT(d.total.write_ops, std::uint64_t(ops / 50)); // 100 at 5000 operations
    EXPECT_EQ(d.total.write_bytes, d.total.write_ops * b.bw);
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
    for (std::uint64_t i = 0; i < ref.size(); ++i)
        ASSERT_EQ(v.get(i), ref[i]);
}

template <class V> void streams_roundtrip_and_append_to_partial_group(const block_sizes& b, bool legacy) {
    using T = item<40>;
    machine m = flashxxl_test::tiny_machine();
    V v = make_vector<V>(m, V::min_memory(b), b, legacy);
    std::uint64_t n1 = v.items_per_group() + 5, n2 = 2 * v.items_per_group() + 3;
    {
        typename V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n1; ++i)
            w.push(T(std::uint32_t(i), std::uint32_t(i)));
    }
    v.push_back(T(7, 7)); // through the cache, then another stream appends after it
    {
        typename V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n2; ++i)
            w.push(T(std::uint32_t(i + n1 + 1), std::uint32_t(i + n1 + 1)));
        w.finish();
    }
    ASSERT_EQ(v.size(), n1 + 1 + n2);
    std::uint64_t i = 0;
    for (typename V::stream_reader r(v); !r.empty(); ++r, ++i) {
        std::uint32_t want = i == n1 ? 7 : std::uint32_t(i);
        ASSERT_TRUE(*r == T(want, want)) << i;
    }
    EXPECT_EQ(i, v.size());
    // A sub-range starting inside a page.
    i = 10;
    for (typename V::stream_reader r(v, 10, n1); !r.empty(); ++r, ++i)
        ASSERT_EQ(r->key, std::uint32_t(i));
    EXPECT_EQ(i, n1);
    device_stats s = flashxxl_test::total_stats(m);
    EXPECT_EQ(s.total.read_bytes, s.total.read_ops * b.br);
}

template <class V> void resize_clear_and_errors(const block_sizes& b, bool legacy) {
    machine m = flashxxl_test::tiny_machine();
    EXPECT_THROW(make_vector<V>(m, 1024, b, legacy), config_error);
    V v = make_vector<V>(m, V::min_memory(b), b, legacy);
    EXPECT_TRUE(v.empty());
    EXPECT_THROW(v.pop_back(), invalid_request);
    v.resize(10000, 9);
    EXPECT_EQ(v.size(), 10000u);
    EXPECT_EQ(v.get(9999), 9u);
    EXPECT_THROW(v.get(10000), invalid_request);
    v.resize(20000, 4);
    EXPECT_EQ(v.get(9999), 9u);
    EXPECT_EQ(v.get(10000), 4u);
    v.resize(5);
    EXPECT_EQ(v.size(), 5u);
    std::vector<std::uint32_t> copy(v.cbegin(), v.cend());
    EXPECT_EQ(copy, std::vector<std::uint32_t>(5, 9));
    std::fill(v.begin(), v.end(), 3u);
    EXPECT_EQ(v.get(4), 3u);
    v.clear();
    EXPECT_EQ(v.size(), 0u);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

template <class V> void out_of_space_keeps_data_and_stays_destructible(const block_sizes& b, bool legacy) {
    machine m = machine_of(4 * b.bw); // four groups
    {
        V v = make_vector<V>(m, V::min_memory(b), b, legacy);
        bool thrown = false;
        std::uint64_t pushed = 0;
        try {
            for (; pushed < 5 * v.items_per_group(); ++pushed)
                v.push_back(pushed);
            v.flush();
        } catch (const out_of_space&) {
            thrown = true;
        }
        EXPECT_TRUE(thrown);
        EXPECT_EQ(v.size(), pushed); // a push_back that threw did not count its item
        // The pages that did not fit stay dirty in the cache (nothing is dropped silently);
        // shrinking to what fits lets the vector work on. When a group is a single page, the
        // two cached pages at the end belong to groups 3 and 4, and flush() (frame order) may
        // give the last extent to group 4: shrinking to three groups is what fits then.
        const std::uint64_t fits = v.pages_per_group() == 1 ? 3 : 4;
        v.resize(fits * v.items_per_group());
        // Items of the groups that were written are intact.
        for (std::uint64_t i = 0; i < fits * v.items_per_group(); ++i)
            ASSERT_EQ(v.get(i), i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

//! A stream_writer that runs out of space keeps the groups it wrote (size() says how many),
//! refuses every later item and finish(), and leaves a vector that reads back exactly.
template <class V> void stream_writer_out_of_space_keeps_written_groups(const block_sizes& b, bool legacy) {
    machine m = machine_of(2 * b.bw); // two groups
    {
        V v = make_vector<V>(m, V::min_memory(b), b, legacy);
        const std::uint64_t per_group = v.items_per_group();
        std::uint64_t pushed = 0;
        {
            typename V::stream_writer w(v);
            try {
                for (; pushed < 4 * per_group; ++pushed)
                    w.push(pushed);
                ADD_FAILURE() << "no out_of_space";
            } catch (const out_of_space&) {
            }
            // The third group found no extent when it was full: its items are not stored.
            EXPECT_EQ(pushed, 3 * per_group - 1);
            EXPECT_EQ(v.size(), 2 * per_group);
            for (const char* op : {"push", "finish"}) {
                try {
                    if (std::string(op) == "push")
                        w.push(7);
                    else
                        w.finish();
                    ADD_FAILURE() << op << " after the failure did not throw";
                } catch (const io_failure& e) {
                    std::string what = e.what();
                    EXPECT_NE(
                        what.find(std::string("flashxxl::vector::stream_writer::") + op +
                                  ": unusable since an earlier failure lost items (out of space on device"),
                        std::string::npos)
                        << what;
                }
                EXPECT_EQ(v.size(), 2 * per_group);
            }
        }
        EXPECT_EQ(v.size(), 2 * per_group);
        std::uint64_t i = 0;
        for (typename V::stream_reader r(v); !r.empty(); ++r, ++i)
            ASSERT_EQ(*r, i);
        EXPECT_EQ(i, 2 * per_group);
        EXPECT_EQ(v.get(2 * per_group - 1), 2 * per_group - 1);
        EXPECT_THROW(v.get(2 * per_group), invalid_request);
        // The vector works on: room for the items it holds, not one more group.
        v.pop_back();
        v.push_back(42);
        EXPECT_EQ(v.back(), 42u);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

} // namespace

TEST(vector, stream_writer_out_of_space_keeps_written_groups) {
    stream_writer_out_of_space_keeps_written_groups<vector<std::uint64_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        stream_writer_out_of_space_keeps_written_groups<vector<std::uint64_t>>(b, false);
    }
}

template <class T> class vector_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(vector_typed, item_types);

TYPED_TEST(vector_typed, random_access_matches_std_vector) {
    using T = TypeParam;
    random_access_matches_std_vector<T, vector<T>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        random_access_matches_std_vector<T, vector<T>>(b, false);
    }
}

TEST(vector, every_write_back_is_bw_when_groups_are_full) {
    every_write_back_is_bw_when_groups_are_full<vector<std::uint64_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        every_write_back_is_bw_when_groups_are_full<vector<std::uint64_t>>(b, false);
    }
}

TEST(vector, streams_roundtrip_and_append_to_partial_group) {
    streams_roundtrip_and_append_to_partial_group<vector<item<40>>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        streams_roundtrip_and_append_to_partial_group<vector<item<40>>>(b, false);
    }
}

// A scan with deep read-ahead (600 blocks of 4 KiB: one buffer of over 2 MiB, in huge pages):
// every item in order, every block read exactly once with one Br read, memory as stated, and
// the same with a sub-range that starts and ends inside pages.
TEST(vector, deep_read_ahead_scan_reads_each_block_once) {
    machine m = flashxxl_test::tiny_machine();
    const block_sizes b{br, bw};
    using V = vector<std::uint64_t>;
    V v(m, V::min_memory(b), b);
    const std::uint64_t n = 300000;
    {
        V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(i * 3);
    }
    const std::size_t prefetch = 600;
    for (std::uint64_t first : {std::uint64_t(0), std::uint64_t(1000)}) {
        const std::uint64_t last = first == 0 ? n : n - 777;
        device_stats before = flashxxl_test::total_stats(m);
        memory_account acc;
        std::uint64_t i = first;
        {
            V::stream_reader r(v, first, last, prefetch, &acc);
            EXPECT_EQ(r.size(), last - first);
            for (; !r.empty(); ++r, ++i)
                ASSERT_EQ(*r, i * 3) << i;
        }
        EXPECT_EQ(i, last);
        EXPECT_EQ(acc.peak(), V::stream_reader::memory_usage(b, prefetch));
        EXPECT_EQ(acc.peak(), (prefetch + 1) * br);
        const io_counters c = (flashxxl_test::total_stats(m) - before).total;
        const std::uint64_t per_page = br / sizeof(std::uint64_t);
        EXPECT_EQ(c.read_ops, (last + per_page - 1) / per_page - first / per_page);
        EXPECT_EQ(c.read_bytes, c.read_ops * br);
    }
}

TEST(vector, resize_clear_and_errors) {
    resize_clear_and_errors<vector<std::uint32_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        resize_clear_and_errors<vector<std::uint32_t>>(b, false);
    }
}

TEST(vector, out_of_space_keeps_data_and_stays_destructible) {
    out_of_space_keeps_data_and_stays_destructible<vector<std::uint64_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        out_of_space_keeps_data_and_stays_destructible<vector<std::uint64_t>>(b, false);
    }
}

// The static helpers: with a pair (a blocks<Br, Bw> value converts to one), and the
// zero-argument forms (seeds/001's 128 KiB / 16 MiB).
TEST(vector, static_memory_helpers_follow_the_block_sizes) {
    using V = vector<std::uint64_t>;
    const block_sizes odd(12 * KiB, 36 * KiB), seeds;
    EXPECT_EQ(V::min_memory(odd), 36 * KiB + 2 * (12 * KiB + V::frame_overhead) + 4096);
    EXPECT_EQ(V::min_memory(), V::min_memory(seeds));
    EXPECT_EQ(V::min_memory(small_blocks{}), V::min_memory(block_sizes(br, bw)));
    EXPECT_EQ(V::stream_reader::memory_usage(odd, 3), 4 * 12 * KiB);
    EXPECT_EQ(V::stream_reader::memory_usage(odd), 2 * 12 * KiB);
    EXPECT_EQ(V::stream_reader::memory_usage(), 2 * seeds.br);
    EXPECT_EQ(V::stream_reader::memory_usage(small_blocks{}, 1), 2 * br);
    EXPECT_EQ(V::stream_writer::memory_usage(odd), 2 * 36 * KiB);
    EXPECT_EQ(V::stream_writer::memory_usage(), 2 * seeds.bw);
    EXPECT_EQ(V::stream_writer::memory_usage(small_blocks{}), 2 * bw);
    // The streams hold exactly what they state.
    machine m = flashxxl_test::tiny_machine();
    V v(m, V::min_memory(odd), odd);
    memory_account wa, ra;
    {
        V::stream_writer w(v, &wa);
        for (std::uint64_t i = 0; i < 3 * v.items_per_group() + 1; ++i)
            w.push(i);
    }
    EXPECT_EQ(wa.peak(), V::stream_writer::memory_usage(odd));
    {
        V::stream_reader r(v, 0, v.size(), 2, &ra);
        std::uint64_t i = 0;
        for (; !r.empty(); ++r, ++i)
            ASSERT_EQ(*r, i);
        EXPECT_EQ(i, v.size());
    }
    EXPECT_EQ(ra.peak(), V::stream_reader::memory_usage(odd, 2));
}

// Without sizes, a vector<T> takes those of the device its role is placed on; a blocks<> value wins.
TEST(vector, default_sizes_come_from_the_device_or_from_blocks) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd br=12KiB bw=36KiB\n"
                                          "placement=single device=ssd\n",
                                          "blocks.cfg");
    vector<std::uint64_t> v(m, vector<std::uint64_t>::min_memory(block_sizes(12 * KiB, 36 * KiB)), role::hot);
    EXPECT_EQ(v.blocks(), block_sizes(12 * KiB, 36 * KiB));
    EXPECT_EQ(v.items_per_page(), 12 * KiB / 8);
    EXPECT_EQ(v.pages_per_group(), 3u);
    vector<std::uint64_t> l(m, vector<std::uint64_t>::min_memory(small_blocks{}), small_blocks{});
    EXPECT_EQ(l.blocks(), block_sizes(br, bw));
    machine plain = flashxxl_test::tiny_machine();
    vector<std::uint64_t> d(plain, vector<std::uint64_t>::min_memory());
    EXPECT_EQ(d.blocks(), block_sizes()) << "a device without br= / bw= has seeds/001's pair";
}

// A pair that breaks a rule is refused with config_error naming both values; so is an item
// larger than Br.
TEST(vector, invalid_block_sizes_are_rejected_naming_both_values) {
    using V = vector<std::uint64_t>;
    machine m = flashxxl_test::tiny_machine();
    struct bad {
        block_sizes b;
        const char* br_text;
        const char* bw_text;
    };
    block_sizes not_multiple, smaller_bw, unaligned;
    not_multiple.br = 12 * KiB, not_multiple.bw = 32 * KiB;
    smaller_bw.br = 64 * KiB, smaller_bw.bw = 16 * KiB;
    unaligned.br = 6000, unaligned.bw = 12000;
    for (const bad& c : {bad{not_multiple, "12KiB", "32KiB"}, bad{smaller_bw, "64KiB", "16KiB"},
                         bad{unaligned, "6000", "12000"}}) {
        try {
            V v(m, 64 * MiB, c.b);
            ADD_FAILURE() << "accepted " << c.b.describe();
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find(c.br_text), std::string::npos) << msg;
            EXPECT_NE(msg.find(c.bw_text), std::string::npos) << msg;
        }
    }
    struct huge_item {
        char bytes[8 * KiB];
    };
    EXPECT_THROW((vector<huge_item>(m, 64 * MiB, block_sizes(4 * KiB, 4 * KiB))), config_error);
    EXPECT_NO_THROW((V(m, V::min_memory(block_sizes(12 * KiB, 36 * KiB)), block_sizes(12 * KiB, 36 * KiB))));
}

// I/O shapes at a pair that is not a power of two: every read is exactly Br (one page), every
// write exactly Bw, except the stream's final partial group (whole pages, less than Bw).
TEST(vector, io_shapes_at_a_non_power_of_two_pair) {
    using T = item<40>; // padded pages too: 12 KiB / 40 bytes leaves 8 bytes per page
    using V = vector<T>;
    const block_sizes b(12 * KiB, 36 * KiB);
    machine m = flashxxl_test::tiny_machine();
    V v(m, V::min_memory(b) + 3 * b.br, b, role::hot);
    ASSERT_TRUE(v.layout().padded());
    const std::uint64_t n = 5 * v.items_per_group() + v.items_per_page() + 7;
    {
        V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(T(std::uint32_t(i), std::uint32_t(i)));
    }
    device_stats s = flashxxl_test::total_stats(m);
    EXPECT_EQ(s.total.write_ops, 6u);
    EXPECT_EQ(s.total.write_bytes, 5 * b.bw + 2 * b.br) << "the last group: two whole pages";
    EXPECT_EQ(s.total.read_ops, 0u);
    // Random updates, one operation at a time: each reads whole Br pages and writes whole groups.
    std::mt19937 rng(5);
    std::uint64_t writes = 0, reads = 0;
    for (int op = 0; op < 3000; ++op) {
        device_stats before = flashxxl_test::total_stats(m);
        std::uint64_t i = rng() % (5 * v.items_per_group()); // the full groups
        if (op % 2)
            v.set(i, T(std::uint32_t(i), std::uint32_t(i)));
        else
            ASSERT_TRUE(v.get(i) == T(std::uint32_t(i), std::uint32_t(i))) << i;
        device_stats d = flashxxl_test::total_stats(m) - before;
        ASSERT_LE(d.total.write_ops, 1u);
        ASSERT_EQ(d.total.write_bytes, d.total.write_ops * b.bw) << op;
        ASSERT_EQ(d.total.read_bytes, d.total.read_ops * b.br) << op;
        writes += d.total.write_ops;
        reads += d.total.read_ops;
    }
    EXPECT_GT(writes, 100u);
    EXPECT_GT(reads, 1000u);
    // The stream reader: Br reads only, one per page.
    v.flush();
    device_stats before = flashxxl_test::total_stats(m);
    std::uint64_t i = 0;
    for (V::stream_reader r(v); !r.empty(); ++r, ++i)
        ASSERT_EQ(r->key, std::uint32_t(i));
    EXPECT_EQ(i, n);
    device_stats d = flashxxl_test::total_stats(m) - before;
    EXPECT_EQ(d.total.read_ops, v.layout().blocks_for(n));
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
}
