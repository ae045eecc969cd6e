// Model-based randomized test of the translation layer against a reference map, also from several threads.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <stxxl/bits/io/request_operations.h>

#include "flashxxl/tl/translation_layer.hpp"
#include "tl/tl_test_support.hpp"

using namespace flashxxl;
using namespace flashxxl::testing;

namespace {

using small_layer::capacity;
using small_layer::page;
using small_layer::segment;

tl_config config_for(cleaning_policy policy) { return small_layer::config(policy); }

//! Reference: version of each logical page, -1 = unmapped.
using reference = std::vector<std::int64_t>;

void check_all(translation_layer& tl, const reference& ref, std::uint64_t working_set) {
    aligned_buffer buf(page);
    for (std::uint64_t p = 0; p < working_set; ++p) {
        if (ref[p] < 0) continue;
        tl.aread(buf.data, p * page, page)->wait();
        ASSERT_TRUE(page_matches(buf.data, page, p, std::uint64_t(ref[p]))) << "page " << p;
    }
}

} // namespace

class tl_randomized : public ::testing::TestWithParam<std::tuple<double, cleaning_policy>> {};

TEST_P(tl_randomized, every_read_returns_the_last_write) {
    const double utilization = std::get<0>(GetParam());
    const cleaning_policy policy = std::get<1>(GetParam());
    recording_file lower(capacity, test_queue_id(1));
    translation_layer tl(lower, capacity, config_for(policy), "ssd0", test_queue_id(2));
    const std::uint64_t logical_pages = tl.size() / page;
    const std::uint64_t working_set = std::uint64_t(utilization * double(logical_pages));
    reference ref(logical_pages, -1);
    std::mt19937_64 rng(42 + std::uint64_t(utilization * 100));
    const std::uint64_t k = 8;
    aligned_buffer buf(k * page);
    std::uint64_t version = 0;

    // Fill the working set, then random operations worth ~16 physical capacities of writes.
    for (std::uint64_t p = 0; p < working_set; p += k) {
        std::uint64_t n = std::min(k, working_set - p);
        ++version;
        for (std::uint64_t i = 0; i < n; ++i)
            fill_page(buf.data + i * page, page, p + i, version), ref[p + i] = std::int64_t(version);
        tl.awrite(buf.data, p * page, n * page)->wait();
    }
    const std::uint64_t target_pages = 16 * capacity / page;
    std::uint64_t written = 0, reads = 0, discards = 0;
    while (written < target_pages) {
        const std::uint64_t op = rng() % 100;
        const std::uint64_t n = 1 + rng() % k;
        const std::uint64_t p = rng() % (working_set - n + 1);
        if (op < 60) {
            ++version;
            for (std::uint64_t i = 0; i < n; ++i)
                fill_page(buf.data + i * page, page, p + i, version), ref[p + i] = std::int64_t(version);
            tl.awrite(buf.data, p * page, n * page)->wait();
            written += n;
        } else if (op < 88) {
            bool all_mapped = true;
            for (std::uint64_t i = 0; i < n; ++i)
                all_mapped = all_mapped && ref[p + i] >= 0;
            if (!all_mapped) {
                EXPECT_THROW(tl.aread(buf.data, p * page, n * page)->wait(), stxxl::io_error);
                continue;
            }
            tl.aread(buf.data, p * page, n * page)->wait();
            ++reads;
            for (std::uint64_t i = 0; i < n; ++i)
                ASSERT_TRUE(page_matches(buf.data + i * page, page, p + i, std::uint64_t(ref[p + i])))
                    << "page " << p + i << " after " << written << " page writes";
        } else if (op < 98) {
            tl.discard(p * page, n * page);
            for (std::uint64_t i = 0; i < n; ++i)
                ref[p + i] = -1;
            ++discards;
        } else {
            tl.flush();
        }
    }
    check_all(tl, ref, working_set);
    tl_stats s = tl.stats();
    std::uint64_t live = 0;
    for (auto v : ref)
        live += v >= 0;
    EXPECT_EQ(s.live_pages, live);
    EXPECT_GT(reads, 1000u);
    RecordProperty("segments_cleaned", std::to_string(s.segments_cleaned));
    std::printf("utilization %.2f %s: WA %.3f, %llu segments cleaned, %llu copies, %llu emptied\n",
                utilization, to_string(policy), s.write_amplification(),
                (unsigned long long)s.segments_cleaned, (unsigned long long)s.cleaning_page_copies,
                (unsigned long long)s.segments_emptied);
    EXPECT_GT(discards, 100u);
    // Many cleaning rounds (segments reclaimed by copying), more at higher utilization.
    EXPECT_GT(s.segments_cleaned, utilization > 0.6 ? 200u : 20u) << "copies " << s.cleaning_page_copies;
    EXPECT_GE(s.write_amplification(), 1.0);
    // The segment writes below are all exactly Bw and aligned, except flushes and the tails after them.
    for (const auto& r : lower.records()) {
        EXPECT_EQ(r.offset % page, 0u);
        if (!r.write) continue; // reads of adjacent pages may span segments
        EXPECT_LE(r.offset % segment + r.bytes, segment);
    }
}

INSTANTIATE_TEST_SUITE_P(utilizations, tl_randomized,
                         ::testing::Combine(::testing::Values(0.5, 0.75, 0.9),
                                            ::testing::Values(cleaning_policy::greedy,
                                                              cleaning_policy::cost_benefit)));

TEST(tl_async, several_threads_with_overlapping_requests_in_flight) {
    recording_file lower(capacity, test_queue_id(1));
    translation_layer tl(lower, capacity, config_for(cleaning_policy::greedy), "ssd0", test_queue_id(2));
    const std::uint64_t logical_pages = tl.size() / page;
    const int threads = 4;
    const std::uint64_t per_thread = logical_pages * 85 / 100 / threads; // 85% utilization
    std::atomic<bool> failed{false};
    std::atomic<bool> done{false};

    auto worker = [&](int t) {
        const std::uint64_t base = std::uint64_t(t) * per_thread;
        std::mt19937_64 rng(1000 + t);
        std::vector<std::int64_t> ref(per_thread, -1);
        const int batch = 8;
        std::vector<std::unique_ptr<aligned_buffer>> bufs;
        for (int i = 0; i < batch; ++i)
            bufs.push_back(std::make_unique<aligned_buffer>(2 * page));
        std::uint64_t version = 0;
        for (int round = 0; round < 400 && !failed; ++round) {
            // A batch of writes to distinct pages, all in flight together.
            std::vector<stxxl::request_ptr> reqs;
            std::vector<std::uint64_t> pages;
            for (int i = 0; i < batch; ++i) {
                std::uint64_t p = rng() % (per_thread - 1);
                bool clash = false;
                for (auto q : pages)
                    clash = clash || (q + 1 >= p && p + 1 >= q);
                if (clash) continue;
                pages.push_back(p);
                ++version;
                for (int j = 0; j < 2; ++j)
                    fill_page(bufs[i]->data + j * page, page, base + p + j, version),
                        ref[p + j] = std::int64_t(version);
                reqs.push_back(tl.awrite(bufs[i]->data, (base + p) * page, 2 * page));
            }
            stxxl::wait_all(reqs.begin(), reqs.end());
            // A batch of reads in flight together, checked after.
            reqs.clear();
            pages.clear();
            for (int i = 0; i < batch; ++i) {
                std::uint64_t p = rng() % (per_thread - 1);
                if (ref[p] < 0 || ref[p + 1] < 0) continue;
                pages.push_back(p);
                reqs.push_back(tl.aread(bufs[pages.size() - 1]->data, (base + p) * page, 2 * page));
            }
            stxxl::wait_all(reqs.begin(), reqs.end());
            for (std::size_t i = 0; i < pages.size(); ++i)
                for (int j = 0; j < 2; ++j)
                    if (!page_matches(bufs[i]->data + j * page, page, base + pages[i] + j,
                                      std::uint64_t(ref[pages[i] + j])))
                        failed = true;
            if (round % 16 == 15) {
                std::uint64_t p = rng() % (per_thread - 4);
                tl.discard((base + p) * page, 4 * page);
                for (int j = 0; j < 4; ++j)
                    ref[p + j] = -1;
            }
        }
    };
    // A caller thread that flushes and reads stats while the others work.
    std::thread observer([&] {
        for (int i = 0; i < 20000 && !done; ++i) {
            tl.flush();
            tl_stats s = tl.stats();
            if (s.live_pages > logical_pages) failed = true;
            std::this_thread::yield();
        }
    });
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back(worker, t);
    for (auto& th : pool)
        th.join();
    done = true;
    observer.join();
    EXPECT_FALSE(failed);
    tl_stats s = tl.stats();
    EXPECT_GT(s.segments_cleaned, 10u);
    EXPECT_GT(s.flushes, 0u);
}
