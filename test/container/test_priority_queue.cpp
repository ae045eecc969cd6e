// Tests of container/priority_queue.hpp vs std::priority_queue: many equal keys, interleaving, memory, I/O,
// run-time block sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/priority_queue.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {
constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>; // the compile-time spelling, for the compatibility test
const block_sizes small{br, bw};
constexpr std::uint64_t mem = 160 * 1024;

//! Keys from a tiny range (many equal keys: STXXL issue #20), tags unique; checks the key
//! order against std::priority_queue and that every pushed tag comes out exactly once.
template <class T, class Cmp>
void check_pq(std::uint32_t key_range, std::size_t n, int pop_percent_during, std::uint32_t seed, Cmp cmp,
              std::uint64_t memory = mem, const block_sizes& sizes = small, std::size_t threads = 0) {
    machine m = flashxxl_test::tiny_machine();
    std::mt19937 rng(seed);
    auto key_cmp = [&](const T& a, const T& b) { return cmp(a, b); };
    std::priority_queue<T, std::vector<T>, decltype(key_cmp)> ref(key_cmp);
    std::vector<std::uint8_t> seen(n, 0);
    std::uint64_t popped = 0;
    std::int64_t peak = 0;
    std::uint64_t merges = 0;
    std::uint64_t directory = 0; // the arrays' segment lists, allowed besides M
    std::uint64_t arrays_written = 0;
    {
        flashxxl_test::alloc_tracker::start();
        priority_queue<T, Cmp> pq(m, memory, sizes, cmp);
        pq.set_threads(threads);
        flashxxl_test::alloc_tracker::stop();
        EXPECT_EQ(pq.threads(), threads == 0 ? default_threads() : threads);
        EXPECT_EQ(pq.blocks(), sizes);
        auto check_pop = [&]() {
            ASSERT_FALSE(pq.empty());
            const T& got = pq.top();
            ASSERT_EQ(got.key, ref.top().key) << "pop " << popped;
            std::uint32_t tag = got.tag();
            ASSERT_LT(tag, n);
            ASSERT_EQ(seen[tag], 0) << "tag " << tag << " popped twice";
            seen[tag] = 1;
            ASSERT_TRUE(got == T(got.key, tag)) << "payload corrupted";
            pq.pop();
            ref.pop();
            ++popped;
        };
        for (std::uint32_t i = 0; i < n; ++i) {
            T x(std::uint32_t(rng() % key_range), i);
            flashxxl_test::alloc_tracker::tracking() = true;
            pq.push(x);
            flashxxl_test::alloc_tracker::tracking() = false;
            ref.push(x);
            if (int(rng() % 100) < pop_percent_during && !ref.empty()) {
                flashxxl_test::alloc_tracker::tracking() = true;
                check_pop();
                flashxxl_test::alloc_tracker::tracking() = false;
            }
            ASSERT_EQ(pq.size(), ref.size());
        }
        flashxxl_test::alloc_tracker::tracking() = true;
        while (!ref.empty())
            check_pop();
        flashxxl_test::alloc_tracker::tracking() = false;
        EXPECT_TRUE(pq.empty());
        EXPECT_LE(pq.account().peak(), memory);
        EXPECT_THROW(pq.pop(), invalid_request);
        merges = pq.merges();
        peak = flashxxl_test::alloc_tracker::peak();
        directory = pq.directory_memory(n);
        arrays_written = pq.arrays_written();
    }
    EXPECT_EQ(popped, n);
    EXPECT_LE(peak, std::int64_t(memory + directory)) << "heap allocations of the queue exceed M + directory";
    device_stats st = flashxxl_test::total_stats(m);
    const io_counters& c = st.of(role::hot);
    EXPECT_EQ(c.read_bytes, c.read_ops * sizes.br);
    if (n * sizeof(T) > 2 * memory) {
        EXPECT_GT(c.write_ops, 0u);
    }
    // Shapes: writes are whole Br blocks, all of Bw but at most the last of each external array
    // written; everything was popped, so every written Br block was read back exactly once.
    EXPECT_EQ(c.write_bytes % sizes.br, 0u);
    EXPECT_LE(c.write_bytes, c.write_ops * sizes.bw);
    EXPECT_GE(c.write_bytes, (c.write_ops - std::min(c.write_ops, arrays_written)) * sizes.bw);
    EXPECT_EQ(arrays_written > 0, c.write_ops > 0);
    EXPECT_EQ(c.read_ops, c.write_bytes / sizes.br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    (void)merges;
}

template <std::size_t Bytes> struct tagged : item<Bytes> {
    tagged(std::uint32_t k, std::uint32_t t) : item<Bytes>(k, t) { std::memcpy(this->payload, &t, 4); }
    std::uint32_t tag() const {
        std::uint32_t t;
        std::memcpy(&t, this->payload, 4);
        return t;
    }
};
template <std::size_t Bytes> bool operator==(const tagged<Bytes>& a, const tagged<Bytes>& b) {
    return static_cast<const item<Bytes>&>(a) == static_cast<const item<Bytes>&>(b);
}
// 4-byte items: the key is all there is, so the tag lives in the low bits of the key.
struct tagged4 {
    std::uint32_t key;
    tagged4(std::uint32_t k, std::uint32_t) : key(k) {}
    std::uint32_t tag() const { return 0; }
    friend bool operator==(const tagged4& a, const tagged4& b) { return a.key == b.key; }
};
struct key_less {
    template <class T> bool operator()(const T& a, const T& b) const { return a.key < b.key; }
};
struct key_greater {
    template <class T> bool operator()(const T& a, const T& b) const { return a.key > b.key; }
};
} // namespace

TEST(priority_queue, few_distinct_keys_push_all_then_pop_all) {
    check_pq<tagged<8>>(3, 200000, 0, 1, key_less());
}
TEST(priority_queue, all_equal_keys) { check_pq<tagged<16>>(1, 120000, 0, 2, key_less()); }
TEST(priority_queue, few_keys_interleaved) { check_pq<tagged<8>>(5, 250000, 40, 3, key_less()); }
TEST(priority_queue, random_keys_interleaved_40_bytes) {
    check_pq<tagged<40>>(1u << 30, 60000, 30, 4, key_less());
}
TEST(priority_queue, min_queue_with_greater) { check_pq<tagged<8>>(1000, 150000, 20, 5, key_greater()); }
TEST(priority_queue, lambda_comparator_and_small_sizes) {
    auto by_key = [](const tagged<16>& a, const tagged<16>& b) { return a.key < b.key; };
    check_pq<tagged<16>>(10, 0, 0, 6, by_key);
    check_pq<tagged<16>>(10, 1, 0, 6, by_key);
    check_pq<tagged<16>>(10, 1001, 50, 6, by_key);
}

TEST(priority_queue, four_byte_items) {
    machine m = flashxxl_test::tiny_machine();
    priority_queue<std::uint32_t> pq(m, mem, small);
    std::priority_queue<std::uint32_t> ref;
    std::mt19937 rng(9);
    for (int i = 0; i < 300000; ++i) {
        std::uint32_t k = rng() % 17;
        pq.push(k);
        ref.push(k);
        if (i % 3 == 0) {
            ASSERT_EQ(pq.top(), ref.top());
            pq.pop();
            ref.pop();
        }
    }
    std::vector<std::uint32_t> out;
    EXPECT_EQ(pq.pop_batch(std::back_inserter(out), ref.size() + 5),
              ref.size()); // asks for more than there is
    for (std::uint32_t k : out) {
        ASSERT_EQ(k, ref.top());
        ref.pop();
    }
    EXPECT_TRUE(pq.empty());
    EXPECT_GT(pq.merges(), 0u);
}

TEST(priority_queue, sawtooth_refills_and_drains_repeatedly) {
    machine m = flashxxl_test::tiny_machine();
    using PQ = priority_queue<std::uint64_t, std::greater<std::uint64_t>>;
    PQ pq(m, mem, small);
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>> ref;
    std::mt19937_64 rng(10);
    for (int round = 0; round < 6; ++round) {
        for (int i = 0; i < 60000; ++i) {
            std::uint64_t k = rng() % 100;
            pq.push(k);
            ref.push(k);
        }
        for (int i = 0; i < 50000; ++i) {
            ASSERT_EQ(pq.top(), ref.top()) << round << " " << i;
            pq.pop();
            ref.pop();
        }
    }
    while (!ref.empty()) {
        ASSERT_EQ(pq.top(), ref.top());
        pq.pop();
        ref.pop();
    }
    EXPECT_TRUE(pq.empty());
}

TEST(priority_queue, memory_too_small_and_out_of_space) {
    {
        machine m = flashxxl_test::tiny_machine();
        using PQ = priority_queue<std::uint64_t>;
        EXPECT_THROW(PQ(m, 32 * 1024, small), config_error);
        EXPECT_NO_THROW(PQ(m, PQ::min_memory(small), small));
        EXPECT_THROW(PQ(m, PQ::min_memory(small) / 2, small), config_error);
        try {
            PQ(m, 64 * 1024, block_sizes(12 * 1024, 36 * 1024));
            ADD_FAILURE() << "no config_error";
        } catch (const config_error& e) {
            std::string what = e.what();
            EXPECT_NE(what.find("Br = 12 KiB"), std::string::npos) << what;
            EXPECT_NE(what.find("Bw = 36 KiB"), std::string::npos) << what;
        }
    }
    machine m = flashxxl_test::tiny_machine("256KiB");
    {
        priority_queue<std::uint64_t> pq(m, mem, small);
        std::uint64_t pushed = 0;
        EXPECT_THROW(
            {
                for (; pushed < 10000000; ++pushed)
                    pq.push(pushed);
            },
            out_of_space);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// A larger budget: bigger insertion heap, dozens of internal runs per external array.
TEST(priority_queue, larger_budget_many_internal_runs) {
    check_pq<tagged<8>>(50, 2000000, 30, 7, key_less(), 8 * 1024 * 1024);
}

// ---- run-time block sizes --------------------------------------------------------------------

namespace {

//! One run-time pair with a budget scaled to it (about twice min_memory) and enough items to
//! spill and merge external arrays.
struct pq_pair_case {
    block_sizes blocks;
    std::uint64_t memory;
    std::size_t n;
};

std::string pq_pair_name(const ::testing::TestParamInfo<pq_pair_case>& info) {
    return "Br" + format_size(info.param.blocks.br) + "_Bw" + format_size(info.param.blocks.bw);
}

// Powers of two, the non-power-of-two 12 KiB / 36 KiB, and 192 KiB / 3 MiB as it is (M = 12 MiB)
// and scaled down by 16 (12 KiB / 192 KiB).
const pq_pair_case pq_pair_cases[] = {
    {block_sizes(4 * KiB, 4 * KiB), 160 * KiB, 200000},  {block_sizes(4 * KiB, 16 * KiB), 160 * KiB, 200000},
    {block_sizes(4 * KiB, 64 * KiB), 320 * KiB, 200000}, {block_sizes(12 * KiB, 36 * KiB), 320 * KiB, 200000},
    {block_sizes(12 * KiB, 192 * KiB), MiB, 400000},     {block_sizes(192 * KiB, 3 * MiB), 12 * MiB, 2500000},
};

class pq_pairs : public ::testing::TestWithParam<pq_pair_case> {};

} // namespace

INSTANTIATE_TEST_SUITE_P(run_time, pq_pairs, ::testing::ValuesIn(pq_pair_cases), pq_pair_name);

// The oracles of the tests above (order against std::priority_queue, every tag once, memory,
// I/O shapes) for every pair: few keys, interleaved pops, padded 40-byte items, a min-queue.
TEST_P(pq_pairs, same_oracles_as_the_default_pair) {
    const pq_pair_case& p = GetParam();
    check_pq<tagged<8>>(3, p.n, 0, 21, key_less(), p.memory, p.blocks);
    check_pq<tagged<8>>(1000, p.n, 35, 22, key_greater(), p.memory, p.blocks);
    check_pq<tagged<40>>(1u << 30, p.n / 4, 30, 23, key_less(), p.memory, p.blocks);
}

// Merges of external arrays happen at every pair once the reader slots run out.
TEST_P(pq_pairs, arrays_are_merged_when_slots_run_out) {
    const pq_pair_case& p = GetParam();
    machine m = flashxxl_test::tiny_machine();
    priority_queue<std::uint64_t> pq(m, p.memory, p.blocks);
    std::mt19937_64 rng(5);
    std::uint64_t n = std::uint64_t(pq.memory_capacity()) * (pq.max_arrays() + 3);
    for (std::uint64_t i = 0; i < n; ++i)
        pq.push(rng() >> 1);
    EXPECT_GT(pq.merges(), 0u);
    std::uint64_t prev = ~std::uint64_t(0), count = 0;
    for (; !pq.empty(); pq.pop(), ++count) {
        ASSERT_LE(pq.top(), prev);
        prev = pq.top();
    }
    EXPECT_EQ(count, n);
    const io_counters c = flashxxl_test::total_stats(m).of(role::hot);
    EXPECT_EQ(c.read_bytes, c.read_ops * p.blocks.br);
    EXPECT_EQ(c.read_ops, c.write_bytes / p.blocks.br);
    EXPECT_GE(c.write_bytes, (c.write_ops - std::min(c.write_ops, pq.arrays_written())) * p.blocks.bw);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// Spills of internal runs and merges of external arrays run on 1..8 threads: the same oracles
// (order, every item once, memory, I/O shapes), and with uint64 keys exactly the same pops and
// the same I/O as on one thread.
TEST(priority_queue, spills_and_merges_on_1_to_8_threads) {
    for (std::size_t threads : {1, 2, 3, 8}) {
        check_pq<tagged<8>>(1000, 200000, 20, 9, key_less(), mem, small, threads);
        check_pq<tagged<40>>(7, 40000, 0, 10, key_less(), mem, small, threads);
    }
    auto run = [](std::size_t threads, io_counters* io) {
        machine m = flashxxl_test::tiny_machine();
        std::vector<std::uint64_t> out;
        {
            priority_queue<std::uint64_t> pq(m, mem, small);
            pq.set_threads(threads);
            std::mt19937_64 rng(11);
            std::uint64_t n = std::uint64_t(pq.memory_capacity()) * (pq.max_arrays() + 3);
            for (std::uint64_t i = 0; i < n; ++i)
                pq.push(rng() >> 40); // many equal keys
            EXPECT_GT(pq.merges(), 0u);
            for (; !pq.empty(); pq.pop())
                out.push_back(pq.top());
            EXPECT_LE(pq.account().peak(), mem);
        }
        *io = flashxxl_test::total_stats(m).of(role::hot);
        EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
        return out;
    };
    io_counters io1, io;
    const std::vector<std::uint64_t> one = run(1, &io1);
    for (std::size_t threads : {2, 5, 8}) {
        EXPECT_EQ(run(threads, &io), one) << threads << " threads";
        EXPECT_EQ(io.read_ops, io1.read_ops);
        EXPECT_EQ(io.write_ops, io1.write_ops);
        EXPECT_EQ(io.write_bytes, io1.write_bytes);
    }
}

// push_batch / pop_batch against push / top / pop: one script of batches (empty, tiny, larger
// than the arena) run both ways must pop exactly the same key sequence, every item once, on
// 1..8 threads, within the budget (account and real allocations).
namespace {
struct batch_run {
    std::vector<std::uint32_t> keys; // popped keys, in order
    std::uint64_t account_peak = 0;
    std::int64_t alloc_peak = 0;
    std::uint64_t directory = 0;
    io_counters io;
    std::uint64_t bulk_steps = 0;
};
template <class T>
batch_run run_batch_script(bool batched, std::uint32_t key_range, std::uint32_t seed, std::size_t threads,
                           std::uint64_t items) {
    machine m = flashxxl_test::tiny_machine();
    batch_run res;
    std::vector<std::uint8_t> seen(items, 0);
    {
        flashxxl_test::alloc_tracker::start();
        priority_queue<T, key_less> pq(m, mem, small);
        pq.set_threads(threads);
        flashxxl_test::alloc_tracker::stop();
        std::mt19937 rng(seed);
        const std::uint64_t sizes[] = {0,
                                       1,
                                       2,
                                       3,
                                       17,
                                       1000,
                                       5000,
                                       pq.heap_capacity() - 1,
                                       pq.heap_capacity() + 1,
                                       pq.memory_capacity() + 123,
                                       3 * pq.memory_capacity()};
        std::uint64_t pushed = 0;
        std::vector<T> batch;
        std::vector<T> out;
        auto record = [&](const T& x) {
            res.keys.push_back(x.key);
            ASSERT_LT(x.tag(), items);
            ASSERT_EQ(seen[x.tag()], 0) << "tag " << x.tag() << " popped twice";
            seen[x.tag()] = 1;
            ASSERT_TRUE(x == T(x.key, x.tag())) << "payload corrupted";
        };
        std::mt19937 how(seed + 1);   // which container to pop into (the script's rng stays the same)
        auto tracked = [](auto&& f) { // counts the queue's allocations only
            flashxxl_test::alloc_tracker::tracking() = true;
            f();
            flashxxl_test::alloc_tracker::tracking() = false;
        };
        while (pushed < items || !pq.empty()) {
            std::uint64_t k = sizes[rng() % (sizeof sizes / sizeof sizes[0])];
            if (pushed < items && rng() % 3 != 0) { // push a batch
                k = std::min(k, items - pushed);
                batch.clear();
                for (std::uint64_t i = 0; i < k; ++i)
                    batch.emplace_back(std::uint32_t(rng() % key_range), std::uint32_t(pushed + i));
                pushed += k;
                if (batched) {
                    if (how() % 2)
                        tracked([&] { pq.push_batch(batch.begin(), batch.end()); });
                    else
                        tracked([&] { pq.push_batch(batch.data(), batch.data() + batch.size()); });
                } else {
                    tracked([&] {
                        for (const T& x : batch)
                            pq.push(x);
                    });
                }
            } else if (batched) { // pop a batch: into a vector, a raw array or a back_inserter
                out.clear();
                out.reserve(std::min<std::uint64_t>(k, pq.size()));
                std::uint64_t got = 0;
                switch (how() % 3) {
                case 0:
                    out.resize(std::min<std::uint64_t>(k, pq.size()), T(0, 0));
                    tracked([&] { got = pq.pop_batch(out.begin(), k); });
                    break;
                case 1:
                    out.resize(std::min<std::uint64_t>(k, pq.size()), T(0, 0));
                    tracked([&] { got = pq.pop_batch(out.data(), k); });
                    break;
                default:
                    tracked([&] { got = pq.pop_batch(std::back_inserter(out), k); });
                    break;
                }
                EXPECT_EQ(got, out.size());
                for (const T& x : out)
                    record(x);
            } else {
                for (std::uint64_t i = 0; i < k && !pq.empty(); ++i) {
                    record(pq.top());
                    tracked([&] { pq.pop(); });
                }
            }
        }
        flashxxl_test::alloc_tracker::stop();
        EXPECT_TRUE(pq.empty());
        res.account_peak = pq.account().peak();
        res.alloc_peak = flashxxl_test::alloc_tracker::peak();
        res.directory = pq.directory_memory(items);
        res.bulk_steps = pq.bulk_steps();
    }
    for (std::uint64_t i = 0; i < items; ++i)
        EXPECT_EQ(seen[i], 1) << "item " << i << " lost";
    res.io = flashxxl_test::total_stats(m).of(role::hot);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    return res;
}
} // namespace

TEST(priority_queue, batches_pop_the_same_keys_as_single_items) {
    struct cfg {
        std::uint32_t key_range;
        std::uint64_t items;
    };
    for (cfg c : {cfg{1u << 30, 150000}, cfg{5, 120000}, cfg{1, 60000}}) { // random, few distinct, all equal
        for (std::size_t threads : {1, 2, 3, 8}) {
            SCOPED_TRACE(std::to_string(c.key_range) + " keys, " + std::to_string(threads) + " threads");
            batch_run single = run_batch_script<tagged<16>>(false, c.key_range, 31, threads, c.items);
            batch_run batched = run_batch_script<tagged<16>>(true, c.key_range, 31, threads, c.items);
            ASSERT_EQ(single.keys.size(), c.items);
            EXPECT_TRUE(batched.keys == single.keys) << "batched pops differ from single pops";
            EXPECT_LE(batched.account_peak, mem);
            EXPECT_LE(batched.alloc_peak, std::int64_t(mem + batched.directory))
                << "heap allocations of the queue exceed M + directory";
            EXPECT_GT(batched.io.write_ops, 0u) << "the script should spill";
            EXPECT_GT(batched.bulk_steps, 0u) << "the script should pop in bulk";
            EXPECT_EQ(single.bulk_steps, 0u);
            EXPECT_EQ(batched.io.read_bytes, batched.io.read_ops * small.br);
            EXPECT_EQ(batched.io.read_ops, batched.io.write_bytes / small.br);
        }
    }
}

TEST(priority_queue, empty_and_tiny_batches) {
    machine m = flashxxl_test::tiny_machine();
    priority_queue<std::uint64_t> pq(m, mem, small);
    std::vector<std::uint64_t> none;
    pq.push_batch(none.begin(), none.end());
    EXPECT_TRUE(pq.empty());
    std::uint64_t out[4] = {0, 0, 0, 0};
    EXPECT_EQ(pq.pop_batch(out, 3), 0u);
    EXPECT_EQ(pq.pop_batch(out, 0), 0u);
    std::uint64_t one = 7;
    pq.push_batch(&one, &one + 1);
    pq.push(9);
    std::vector<std::uint64_t> two = {3, 8};
    pq.push_batch(two.begin(), two.end());
    EXPECT_EQ(pq.size(), 4u);
    EXPECT_EQ(pq.top(), 9u);
    EXPECT_EQ(pq.pop_batch(out, 0), 0u);
    EXPECT_EQ(pq.size(), 4u);
    EXPECT_EQ(pq.pop_batch(out, 2), 2u);
    EXPECT_EQ(out[0], 9u);
    EXPECT_EQ(out[1], 8u);
    EXPECT_EQ(pq.pop_batch(out, 4), 2u); // only two left
    EXPECT_EQ(out[0], 7u);
    EXPECT_EQ(out[1], 3u);
    EXPECT_TRUE(pq.empty());
    // an input-iterator range is pushed one at a time
    std::istringstream in("5 1 4");
    pq.push_batch(std::istream_iterator<std::uint64_t>(in), std::istream_iterator<std::uint64_t>());
    EXPECT_EQ(pq.size(), 3u);
    EXPECT_EQ(pq.top(), 5u);
}

TEST(priority_queue, invalid_block_sizes_are_a_config_error_naming_both) {
    machine m = flashxxl_test::tiny_machine();
    block_sizes b; // fields set by hand: block_sizes' own constructor would throw already
    b.br = 12 * KiB;
    b.bw = 20 * KiB;
    try {
        priority_queue<std::uint64_t> pq(m, 64 * MiB, b);
        ADD_FAILURE() << "accepted " << b.describe();
    } catch (const config_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("Br = 12KiB"), std::string::npos) << what;
        EXPECT_NE(what.find("Bw = 20KiB"), std::string::npos) << what;
    }
    EXPECT_THROW(block_sizes(12 * KiB, 20 * KiB), config_error);
    b.br = 8 * KiB;
    b.bw = 4 * KiB;
    EXPECT_THROW((priority_queue<std::uint64_t>(m, 64 * MiB, b)), config_error);
}

// Code written against blocks<Br, Bw> passes the value, which converts to block_sizes; without
// sizes a container takes those of the device the role (hot) is placed on.
TEST(priority_queue, compile_time_blocks_and_device_block_sizes) {
    machine m = flashxxl_test::tiny_machine();
    {
        priority_queue<std::uint64_t, std::less<std::uint64_t>> pq(m, mem, small_blocks{});
        EXPECT_EQ(pq.blocks(), small);
        EXPECT_EQ((priority_queue<std::uint64_t, std::less<std::uint64_t>>::min_memory(small_blocks{})),
                  priority_queue<std::uint64_t>::min_memory(small));
        for (std::uint64_t i = 0; i < 100000; ++i)
            pq.push(i * 7919 % 100003);
        EXPECT_GT(flashxxl_test::total_stats(m).total.write_ops, 0u);
        std::uint64_t prev = ~std::uint64_t(0);
        for (; !pq.empty(); pq.pop()) {
            ASSERT_LE(pq.top(), prev);
            prev = pq.top();
        }
    }
    EXPECT_EQ(priority_queue<std::uint64_t>::min_memory(),
              priority_queue<std::uint64_t>::min_memory(block_sizes()));
    EXPECT_EQ(priority_queue<std::uint64_t>(m, 64 * MiB).blocks(), block_sizes());
    machine odd = machine::from_config_text("name=odd\n"
                                            "flash=memory,256MiB,memory name=ssd br=12KiB bw=36KiB\n"
                                            "placement=single device=ssd\n",
                                            "odd-machine");
    priority_queue<std::uint64_t, std::greater<std::uint64_t>> pq(odd, 320 * KiB);
    EXPECT_EQ(pq.blocks(), block_sizes(12 * KiB, 36 * KiB));
    for (std::uint64_t i = 0; i < 200000; ++i)
        pq.push(i * 7919 % 200003);
    std::uint64_t prev = 0;
    for (; !pq.empty(); pq.pop()) {
        ASSERT_GE(pq.top(), prev);
        prev = pq.top();
    }
    const io_counters c = flashxxl_test::total_stats(odd).of(role::hot);
    EXPECT_GT(c.write_ops, 0u);
    EXPECT_EQ(c.read_bytes, c.read_ops * 12 * KiB);
    EXPECT_LE(c.write_bytes, c.write_ops * 36 * KiB);
}

// After an out_of_space in a merge of external arrays (the device holds max_arrays() of them,
// keys scattered so that the merge frees no block before it needs one) the arrays are half
// merged: the queue refuses every later use with io_failure naming the first failure, instead
// of handing out a stale selection or fewer items than size() says. (A failed spill of the
// internal runs keeps them: test_out_of_space_pq_map.cpp.)
TEST(priority_queue, unusable_after_a_failed_merge) {
    std::uint64_t spill_bytes = 0;
    std::size_t max_arrays = 0;
    {
        machine probe = flashxxl_test::tiny_machine();
        priority_queue<std::uint64_t> pq(probe, mem, small);
        for (std::uint64_t i = 0; pq.arrays() == 0; ++i)
            pq.push(i);
        spill_bytes = probe.dev(0).allocator().used_bytes();
        max_arrays = pq.max_arrays();
    }
    machine m = flashxxl_test::tiny_machine(std::to_string(max_arrays * spill_bytes) + "B");
    {
        priority_queue<std::uint64_t> pq(m, mem, small);
        std::uint64_t pushed = 0;
        try { // scattered keys: the merge draws on every input at once and frees no block early
            for (; pushed < 10000000; ++pushed)
                pq.push(pushed * 2654435761u % 1000003);
            FAIL() << "no out_of_space";
        } catch (const out_of_space&) {
        }
        EXPECT_EQ(pq.merges(), 0u) << "the merge failed";
        EXPECT_EQ(pq.size(), pushed); // the push that failed added nothing
        auto expect_refused = [](auto&& op, const char* name) {
            try {
                op();
                ADD_FAILURE() << name << " did not throw";
            } catch (const io_failure& e) {
                std::string what = e.what();
                EXPECT_NE(what.find(std::string("flashxxl::priority_queue::") + name +
                                    ": unusable since an earlier "
                                    "failure lost items (out of space on device 'ssd'"),
                          std::string::npos)
                    << what;
            }
        };
        expect_refused([&] { (void)pq.top(); }, "top");
        expect_refused([&] { pq.pop(); }, "pop");
        expect_refused([&] { pq.push(1); }, "push");
        std::vector<std::uint64_t> batch{1, 2, 3}, out(3);
        expect_refused([&] { pq.push_batch(batch.begin(), batch.end()); }, "push_batch");
        expect_refused([&] { pq.pop_batch(out.begin(), 3); }, "pop_batch");
        EXPECT_EQ(pq.size(), pushed);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
}
