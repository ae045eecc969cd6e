// Tests that a released extent is discarded before its range can be allocated again (owned_extent,
// device::release_range).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

//! One device with a translation layer of 4 KiB pages: a read of a discarded page is an error,
//! so a discard that lands on someone else's data cannot go unnoticed.
machine tl_machine() {
    return machine::from_config_text(
        "name=release-order\n"
        "flash=memory,64MiB,memory name=ssd tl=on tl_page=4KiB tl_segment=256KiB\n"
        "placement=single device=ssd\n",
        "release-order.cfg");
}

struct outcome {
    std::atomic<std::uint64_t> rounds{0};
    std::atomic<std::uint64_t> read_errors{0}; // a page of a live extent was discarded
    std::atomic<std::uint64_t> mismatches{0};  // data of another extent came back
    std::mutex mu;
    std::string first_error;
    void note(const std::string& what) {
        std::lock_guard<std::mutex> lock(mu);
        if (first_error.empty()) first_error = what;
    }
};

// Each round: allocate one or two pages, write a pattern no other round writes, read it back,
// compare, drop the owner (discard, then free). The allocator is best fit, so the pages just
// freed by one thread are what the next allocation of another thread gets.
void worker(machine& m, unsigned id, std::uint64_t rounds, outcome& out) {
    constexpr std::uint64_t page = 4 * KiB;
    aligned_buffer wbuf(2 * page), rbuf(2 * page);
    std::mt19937_64 rng(id * 7919 + 1);
    for (std::uint64_t round = 0; round < rounds; ++round) {
        const std::uint64_t pages = 1 + rng() % 2;
        const std::uint64_t tag = (std::uint64_t(id) << 40) | round;
        for (std::uint64_t w = 0; w < pages * page / 8; ++w) {
            std::uint64_t v = tag ^ (w * 0x9E3779B97F4A7C15ull);
            std::memcpy(wbuf.data() + w * 8, &v, 8);
        }
        owned_extent e = m.allocate(role::scratch, pages * page, round);
        device& d = *e->dev;
        try {
            d.wait(d.awrite(wbuf.data(), e->offset, pages * page, role::scratch), role::scratch);
            std::memset(rbuf.data(), 0, pages * page);
            d.wait(d.aread(rbuf.data(), e->offset, pages * page, role::scratch), role::scratch);
            if (std::memcmp(rbuf.data(), wbuf.data(), pages * page) != 0) {
                ++out.mismatches;
                out.note("thread " + std::to_string(id) + " round " + std::to_string(round) +
                         ": read back other data at offset " + std::to_string(e->offset));
            }
        } catch (const std::exception& x) {
            ++out.read_errors;
            out.note("thread " + std::to_string(id) + " round " + std::to_string(round) + ": " + x.what());
        }
        ++out.rounds;
    }
}

} // namespace

// The old machine::release freed the range in the allocator first and discarded it on the
// device afterwards, outside any lock: another thread could allocate the range in between,
// write its data, and lose its pages to the late discard (its read then fails in the
// translation layer, or returns someone else's data). Owners now discard first, then free.
// Several threads allocate, write, verify and release small extents for many rounds on one
// device, so ranges change hands all the time; with the two steps swapped this test fails in
// most runs (measured when the test was added, e6f3284).
TEST(ReleaseOrder, ConcurrentAllocateNeverLosesDataToALateDiscard) {
    machine m = tl_machine();
    device& ssd = m.dev("ssd");
    ASSERT_TRUE(ssd.has_translation_layer());
    ASSERT_EQ(ssd.allocator().alignment(), 4 * KiB);
    const unsigned threads = 8;
    const std::uint64_t rounds = 1500;
    outcome out;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(worker, std::ref(m), t, rounds, std::ref(out));
    for (std::thread& t : pool)
        t.join();
    EXPECT_EQ(out.rounds.load(), threads * rounds);
    EXPECT_EQ(out.read_errors.load(), 0u) << out.first_error;
    EXPECT_EQ(out.mismatches.load(), 0u) << out.first_error;
    EXPECT_EQ(ssd.release_errors(), 0u);
    EXPECT_EQ(ssd.allocator().used_bytes(), 0u);
    // Every page written was discarded when its owner went.
    EXPECT_EQ(ssd.tl()->stats().live_pages, 0u);
}

// An owner is move-only; moving hands the range over, reset() and destruction give it back
// once, and an empty owner does nothing.
TEST(ReleaseOrder, OwnedExtentGivesItsRangeBackExactlyOnce) {
    machine m = tl_machine();
    device& ssd = m.dev("ssd");
    aligned_buffer buf(4 * KiB);
    std::memset(buf.data(), 1, 4 * KiB);
    owned_extent a = m.allocate(role::scratch, 8 * KiB);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->length, 8 * KiB);
    ssd.wait(ssd.awrite(buf.data(), a->offset, 4 * KiB, role::scratch), role::scratch);
    owned_extent b = std::move(a);
    EXPECT_FALSE(a);
    EXPECT_TRUE(b);
    EXPECT_EQ(ssd.allocator().used_bytes(), 8 * KiB);
    a.reset(); // empty: nothing happens
    EXPECT_EQ(ssd.allocator().used_bytes(), 8 * KiB);
    const std::uint64_t offset = b->offset;
    b.reset();
    EXPECT_FALSE(b);
    EXPECT_EQ(ssd.allocator().used_bytes(), 0u);
    EXPECT_EQ(ssd.tl()->stats().pages_discarded, 1u) << "the written page was discarded";
    // The range is free again and its old data is gone: reading it is an error.
    owned_extent c = m.allocate(role::scratch, 4 * KiB);
    EXPECT_EQ(c->offset, offset);
    EXPECT_ANY_THROW(ssd.wait(ssd.aread(buf.data(), c->offset, 4 * KiB, role::scratch), role::scratch));
    owned_extent d = m.allocate(role::scratch, 4 * KiB);
    d = std::move(c); // d's own range goes back, c's moves in
    EXPECT_EQ(ssd.allocator().used_bytes(), 4 * KiB);
    EXPECT_EQ(d->offset, offset);
    d.reset();
    EXPECT_EQ(ssd.allocator().used_bytes(), 0u);
    EXPECT_EQ(ssd.release_errors(), 0u);
}
