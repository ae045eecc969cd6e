// Tests of io/forecast_prefetcher.hpp: a merge fed from a shared Br buffer pool gets every item once, each
// block read once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/range_merger.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/forecast_prefetcher.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {

constexpr std::size_t br = 4096, bw = 16384;
const block_sizes small{br, bw};
const block_sizes odd{12 * 1024, 36 * 1024}; // no powers of two: 40-byte items leave padding

template <class T> struct before_less {
    bool operator()(const T& a, const T& b) const { return a < b; }
};

template <class T> using pool_type = forecast_prefetcher<T, before_less<T>>;

template <class T> struct pool_ranges {
    pool_type<T>* pool;
    bool operator()(std::size_t i, const T*& cur, const T*& end, bool consumed) const {
        return pool->next_range(i, cur, end, consumed);
    }
};

struct merge_result {
    std::uint64_t misses = 0;
    std::uint64_t peak = 0;
};

//! Writes `runs` sorted runs (keys from `draw`), merges them through a pool of `buffers`
//! buffers and checks the output against std::sort, one read per written block, Br-sized
//! reads, and that every extent is given back.
template <class T, class Draw>
merge_result merge_runs(std::vector<std::size_t> lengths, std::size_t buffers, Draw draw,
                        std::size_t max_requests = pool_type<T>::default_max_requests,
                        const block_sizes& b = small) {
    const block_layout<T> layout(b.br);
    machine m = flashxxl_test::tiny_machine();
    std::uint64_t counter = 0, blocks = 0;
    std::vector<T> want;
    std::vector<std::vector<segment>> segs(lengths.size());
    std::vector<std::vector<T>> keys(lengths.size());
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        std::vector<T> run;
        for (std::size_t i = 0; i < lengths[r]; ++i)
            run.push_back(draw());
        std::sort(run.begin(), run.end());
        want.insert(want.end(), run.begin(), run.end());
        block_writer<T> w(m, role::scratch, b, counter, nullptr, 2);
        w.record_block_keys();
        w.push(run.data(), run.size());
        segs[r] = w.finish();
        keys[r] = w.take_block_keys();
        blocks += layout.blocks_for(lengths[r]);
        EXPECT_EQ(keys[r].size(), layout.blocks_for(lengths[r]));
        for (std::size_t k = 0; k < keys[r].size(); ++k) // the last item of each block
            EXPECT_TRUE(keys[r][k] ==
                        run[std::min<std::size_t>((k + 1) * layout.items_per_block(), run.size()) - 1]);
    }
    std::sort(want.begin(), want.end());
    device_stats before = flashxxl_test::total_stats(m);

    merge_result result;
    memory_account account;
    {
        pool_type<T> pool(m, role::scratch, b, before_less<T>(), buffers, &account, max_requests);
        for (std::size_t r = 0; r < lengths.size(); ++r)
            pool.add_run(std::move(segs[r]), std::move(keys[r]));
        pool.start();
        range_merger<T, before_less<T>, pool_ranges<T>> merger(before_less<T>(), pool_ranges<T>{&pool});
        merger.start(lengths.size());
        std::vector<T> got(want.size() + 1, T(0, 0));
        std::uint64_t n = merger.pop_into(got.data(), got.size());
        EXPECT_EQ(n, want.size());
        EXPECT_TRUE(merger.empty());
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            wrong += got[i] == want[i] ? 0 : 1;
        EXPECT_EQ(wrong, 0u) << "items out of place";
        result.misses = pool.forecast_misses();
    }
    result.peak = account.peak();
    EXPECT_EQ(result.peak, buffers * b.br);
    EXPECT_EQ(result.peak, pool_type<T>::memory_usage(b, buffers));
    io_counters c = (flashxxl_test::total_stats(m) - before).of(role::scratch);
    EXPECT_EQ(c.read_ops, blocks); // each block read once, misses included
    EXPECT_EQ(c.read_bytes, blocks * b.br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
    return result;
}

TEST(forecast_prefetcher, distinct_keys_are_all_prefetched_in_time) {
    std::mt19937_64 rng(7);
    std::uint64_t next = 0;
    std::vector<std::uint64_t> pool_keys;
    for (std::size_t i = 0; i < 200000; ++i)
        pool_keys.push_back(i);
    std::shuffle(pool_keys.begin(), pool_keys.end(), rng);
    auto draw = [&] { return item<8>(std::uint32_t(pool_keys[next++]), 0); };
    // 7 runs of different lengths (one empty), 3 spare buffers: the forecast is exact.
    merge_result r = merge_runs<item<8>>({30000, 1, 0, 51234, 4096, 25000, 9999}, 10, draw);
    EXPECT_EQ(r.misses, 0u);
}

TEST(forecast_prefetcher, a_pool_of_one_buffer_per_run_reads_on_demand) {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<std::uint32_t> d(0, 1u << 30);
    auto draw = [&] { return item<40>(d(rng), 0); };
    const block_layout<item<40>> layout(br);
    std::vector<std::size_t> lengths{5000, 3000, 4000};
    merge_result r = merge_runs<item<40>>(lengths, 3, draw);
    std::uint64_t later_blocks = 0;
    for (std::size_t n : lengths)
        later_blocks += layout.blocks_for(n) - 1;
    EXPECT_EQ(r.misses, later_blocks); // no spare buffer: every block after the first is a miss
    // The same at 12 KiB / 36 KiB, where 40-byte items leave padding in every block.
    const block_layout<item<40>> odd_layout(odd.br);
    merge_result o = merge_runs<item<40>>(lengths, 3, draw, pool_type<item<40>>::default_max_requests, odd);
    later_blocks = 0;
    for (std::size_t n : lengths)
        later_blocks += odd_layout.blocks_for(n) - 1;
    EXPECT_EQ(o.misses, later_blocks);
}

// A pair that is no power of two: every read is one 12 KiB block, each block read once, and
// distinct keys are all prefetched in time, with padded and unpadded items.
TEST(forecast_prefetcher, non_power_of_two_block_sizes) {
    std::mt19937_64 rng(13);
    std::uint64_t next = 0;
    std::vector<std::uint64_t> pool_keys;
    for (std::size_t i = 0; i < 200000; ++i)
        pool_keys.push_back(i);
    std::shuffle(pool_keys.begin(), pool_keys.end(), rng);
    auto draw8 = [&] { return item<8>(std::uint32_t(pool_keys[next++]), 0); };
    merge_result r = merge_runs<item<8>>({30000, 1, 0, 51234, 4609, 25000, 9999}, 10, draw8,
                                         pool_type<item<8>>::default_max_requests, odd);
    EXPECT_EQ(r.misses, 0u);
    next = 0;
    auto draw40 = [&] { return item<40>(std::uint32_t(pool_keys[next++]), 0); };
    merge_result p = merge_runs<item<40>>({3000, 1, 0, 5123, 922, 2500, 999}, 10, draw40,
                                          pool_type<item<40>>::default_max_requests, odd);
    EXPECT_EQ(p.misses, 0u);
    std::uniform_int_distribution<std::uint32_t> few(0, 3);
    auto dup = [&] { return item<16>(few(rng), 0); };
    merge_runs<item<16>>({20000, 1, 15000, 8000}, 12, dup, 2, odd);
    auto any = [&] { return item<8>(std::uint32_t(rng()), 0); };
    merge_runs<item<8>>({200000, 150000, 1}, 6, any, pool_type<item<8>>::default_max_requests,
                        block_sizes(192 * 1024, 3 * 1024 * 1024));
}

TEST(forecast_prefetcher, equal_keys_and_one_outstanding_request) {
    auto draw = [] { return item<16>(42, 0); };
    merge_result r = merge_runs<item<16>>({7000, 7000, 300, 12000}, 6, draw, 1);
    (void)r; // ties may cost misses; the merge must still be complete and read each block once
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<std::uint32_t> few(0, 3);
    auto dup = [&] { return item<8>(few(rng), 0); };
    merge_runs<item<8>>({20000, 1, 15000, 8000, 8000}, 40, dup);
}

TEST(forecast_prefetcher, bad_runs_are_rejected_and_released) {
    machine m = flashxxl_test::tiny_machine();
    std::uint64_t counter = 0;
    auto write = [&](std::size_t n, std::vector<std::uint64_t>* keys) {
        block_writer<std::uint64_t> w(m, role::scratch, small, counter, nullptr, 2);
        w.record_block_keys();
        for (std::size_t i = 0; i < n; ++i)
            w.push(std::uint64_t(i));
        std::vector<segment> segs = w.finish();
        *keys = w.take_block_keys();
        return segs;
    };
    {
        pool_type<std::uint64_t> pool(m, role::scratch, small, before_less<std::uint64_t>(), 4);
        std::vector<std::uint64_t> keys;
        std::vector<segment> segs = write(3000, &keys);
        keys.pop_back();
        EXPECT_THROW(pool.add_run(std::move(segs), keys), invalid_request); // a key per block is required
        // The refused run is not kept (start() read past its segments) and its extents are
        // back at once; the prefetcher goes on with the runs it accepts.
        EXPECT_EQ(pool.runs(), 0u);
        EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
        segs = write(3000, &keys);
        pool.add_run(std::move(segs), keys);
        EXPECT_EQ(pool.runs(), 1u);
        pool.start();
        const std::uint64_t *cur = nullptr, *end = nullptr;
        std::uint64_t next = 0;
        for (bool consumed = false; pool.next_range(0, cur, end, consumed); consumed = true)
            for (; cur != end; ++cur, ++next)
                ASSERT_EQ(*cur, next);
        EXPECT_EQ(next, 3000u);
        // A run that was never added is refused (it indexed past the run table), and the
        // refusal loses nothing: the prefetcher is still usable.
        EXPECT_THROW(pool.next_range(1, cur, end, true), invalid_request);
        EXPECT_THROW(pool.for_each_ready(7, [](const std::uint64_t*, const std::uint64_t*) { return true; }),
                     invalid_request);
        EXPECT_FALSE(pool.next_range(0, cur, end, true));
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    {
        pool_type<std::uint64_t> pool(m, role::scratch, small, before_less<std::uint64_t>(), 1);
        for (int r = 0; r < 2; ++r) {
            std::vector<std::uint64_t> keys;
            std::vector<segment> segs = write(100, &keys);
            pool.add_run(std::move(segs), keys);
        }
        EXPECT_THROW(pool.start(), invalid_request); // two runs, one buffer
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

} // namespace
