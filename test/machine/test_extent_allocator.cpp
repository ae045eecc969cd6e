// Tests of the per-device extent allocator: hard capacity, reuse, coalescing, no overlap, failed allocations.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/extent_allocator.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

TEST(ExtentAllocator, CapacityIsHardAndTheErrorNamesTheDevice) {
    extent_allocator a("ssd0", 1 * MiB);
    a.allocate(512 * KiB);
    a.allocate(512 * KiB);
    EXPECT_EQ(a.free_bytes(), 0u);
    try {
        a.allocate(4 * KiB);
        FAIL() << "allocated past capacity";
    } catch (const out_of_space& e) {
        EXPECT_EQ(e.device(), "ssd0");
        EXPECT_NE(std::string(e.what()).find("ssd0"), std::string::npos);
    }
    EXPECT_THROW(extent_allocator("d", 1 * MiB).allocate(2 * MiB), out_of_space);
    EXPECT_THROW(extent_allocator("d", 1 * MiB).allocate(UINT64_MAX), out_of_space);
    EXPECT_THROW(extent_allocator("d", 1 * MiB).allocate(0), invalid_request);
}

TEST(ExtentAllocator, RoundsToAlignmentAndReusesFreedExtents) {
    extent_allocator a("d", 64 * KiB);
    std::uint64_t x = a.allocate(1); // one byte takes one 4 KiB unit
    EXPECT_EQ(a.free_bytes(), 60 * KiB);
    std::uint64_t y = a.allocate(8 * KiB);
    EXPECT_NE(x, y);
    a.release(x, 1);
    std::uint64_t z = a.allocate(4 * KiB);
    EXPECT_EQ(z, x) << "a freed extent of exactly the right size is reused";
    a.release(y, 8 * KiB);
    a.release(z, 4 * KiB);
    EXPECT_EQ(a.free_bytes(), 64 * KiB);
    EXPECT_EQ(a.largest_free(), 64 * KiB) << "freed neighbours coalesce";
}

TEST(ExtentAllocator, ReleasingWhatWasNotAllocatedThrows) {
    extent_allocator a("d", 64 * KiB);
    std::uint64_t x = a.allocate(8 * KiB);
    EXPECT_THROW(a.release(x + 4 * KiB, 4 * KiB), invalid_request);
    EXPECT_THROW(a.release(x, 4 * KiB), invalid_request); // wrong length
    a.release(x, 8 * KiB);
    EXPECT_THROW(a.release(x, 8 * KiB), invalid_request); // double free
}

namespace {

void check_randomized_no_overlap_and_full_reuse(allocation_order order) {
    const std::uint64_t capacity = 16 * MiB;
    extent_allocator a("d", capacity, 4096, order);
    std::mt19937_64 rng(7);
    std::map<std::uint64_t, std::uint64_t> live; // offset -> rounded length
    std::uint64_t used = 0;
    for (int step = 0; step < 20000; ++step) {
        bool do_alloc = live.empty() || rng() % 100 < 55;
        if (do_alloc) {
            std::uint64_t bytes = 1 + rng() % (256 * KiB);
            std::uint64_t rounded = (bytes + 4095) / 4096 * 4096;
            try {
                std::uint64_t off = a.allocate(bytes);
                ASSERT_EQ(off % 4096, 0u);
                ASSERT_LE(off + rounded, capacity);
                auto next = live.lower_bound(off);
                if (next != live.end()) {
                    ASSERT_LE(off + rounded, next->first) << "overlap with next";
                }
                if (next != live.begin()) {
                    auto prev = std::prev(next);
                    ASSERT_LE(prev->first + prev->second, off) << "overlap with previous";
                }
                live[off] = rounded;
                used += rounded;
            } catch (const out_of_space&) {
                ASSERT_LT(a.largest_free(), rounded) << "refused although a large enough extent was free";
            }
        } else {
            auto it = live.begin();
            std::advance(it, static_cast<long>(rng() % live.size()));
            a.release(it->first, it->second);
            used -= it->second;
            live.erase(it);
        }
        ASSERT_EQ(a.used_bytes(), used);
    }
    for (auto& [off, len] : live)
        a.release(off, len);
    EXPECT_EQ(a.free_bytes(), capacity);
    EXPECT_EQ(a.largest_free(), capacity);
}

} // namespace

TEST(ExtentAllocator, RandomizedNoOverlapAndFullReuse) {
    check_randomized_no_overlap_and_full_reuse(allocation_order::best_fit);
}

TEST(ExtentAllocator, WriteFrontierRandomizedNoOverlapAndFullReuse) {
    check_randomized_no_overlap_and_full_reuse(allocation_order::write_frontier);
}

// Best fit puts a new block into the smallest hole a consumed run left; the write frontier keeps
// going forward, so consecutive blocks are adjacent, and comes back to the holes only when it
// reaches the end of the device.
TEST(ExtentAllocator, WriteFrontierAllocatesConsecutivelyAndWrapsAround) {
    const std::uint64_t block = 128 * KiB;
    extent_allocator best("d", 4 * MiB, 4096, allocation_order::best_fit);
    extent_allocator frontier("d", 4 * MiB, 4096, allocation_order::write_frontier);
    for (extent_allocator* a : {&best, &frontier})
        for (int i = 0; i < 8; ++i)
            a->allocate(block);     // [0, 1 MiB)
    best.release(2 * block, block); // a hole at 256 KiB
    frontier.release(2 * block, block);
    EXPECT_EQ(best.allocate(block), 2 * block) << "best fit fills the hole";
    std::uint64_t previous = frontier.allocate(block);
    EXPECT_EQ(previous, 8 * block) << "the frontier goes on after the last allocation";
    while (frontier.free_bytes() > block) {
        std::uint64_t next = frontier.allocate(block);
        EXPECT_EQ(next, previous + block);
        previous = next;
    }
    EXPECT_EQ(previous, 4 * MiB - block);
    EXPECT_EQ(frontier.allocate(block), 2 * block) << "at the end it wraps to the first hole";
    EXPECT_THROW(frontier.allocate(block), out_of_space);
    // A range that contains the frontier is entered at the frontier, not at its start.
    extent_allocator f2("d", 1 * MiB, 4096, allocation_order::write_frontier);
    std::uint64_t a0 = f2.allocate(block), a1 = f2.allocate(block);
    f2.release(a0, block);
    f2.release(a1, block); // all free again, frontier at 256 KiB
    EXPECT_EQ(f2.allocate(block), 2 * block);
    EXPECT_EQ(f2.order(), allocation_order::write_frontier);
}

// An alignment of 0 is refused with the device named (it used to divide by zero first).
TEST(ExtentAllocator, ZeroAlignmentIsRefused) {
    try {
        extent_allocator a("ssd", 1 * MiB, 0);
        ADD_FAILURE() << "accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("'ssd'"), std::string::npos) << e.what();
    }
}

// A failed allocation of memory (std::bad_alloc) inside allocate() changes nothing, and
// release() allocates nothing: it cannot fail and lose a range. Each allocation the calls make
// is made to fail once, in both orders; afterwards every range is released and the device is
// one free range again (before, a failure between taking a free range and entering what was
// left of it lost that space for good).
TEST(ExtentAllocator, FailedMemoryAllocationsLoseNothing) {
    using tracker = flashxxl_test::alloc_tracker;
    for (allocation_order order : {allocation_order::best_fit, allocation_order::write_frontier}) {
        for (std::uint64_t k = 1;; ++k) {
            extent_allocator a("ssd0", 4 * MiB, 4096, order);
            std::vector<std::pair<std::uint64_t, std::uint64_t>> held;
            held.reserve(200); // the test's own bookkeeping allocates nothing while armed
            std::mt19937_64 rng(k);
            bool failed = false;
            tracker::fail_allocation(k);
            for (int step = 0; step < 200; ++step) {
                const bool release = !held.empty() && (rng() % 3 == 0);
                if (release) {
                    const std::size_t i = rng() % held.size();
                    a.release(held[i].first, held[i].second); // must not throw
                    held.erase(held.begin() + std::ptrdiff_t(i));
                    continue;
                }
                const std::uint64_t bytes = 4096 * (1 + rng() % 8);
                const std::uint64_t free_before = a.free_bytes();
                const std::size_t count_before = a.allocated_count();
                try {
                    held.emplace_back(a.allocate(bytes), bytes);
                } catch (const std::bad_alloc&) {
                    failed = true;
                    EXPECT_EQ(a.free_bytes(), free_before) << "allocation " << k;
                    EXPECT_EQ(a.allocated_count(), count_before) << "allocation " << k;
                } catch (const out_of_space&) {
                }
            }
            const bool armed_left = tracker::failure_pending();
            tracker::fail_allocation(0);
            for (auto& [offset, bytes] : held)
                a.release(offset, bytes);
            EXPECT_EQ(a.free_bytes(), 4 * MiB) << "allocation " << k;
            EXPECT_EQ(a.largest_free(), 4 * MiB)
                << "allocation " << k << ": the free ranges did not merge back";
            EXPECT_EQ(a.allocated_count(), 0u);
            if (::testing::Test::HasFailure() || armed_left) break; // past the last allocation
            EXPECT_TRUE(failed) << "allocation " << k << " did not fail";
        }
    }
}
