// Shared oracle of the sorter tests: sorts n items and checks order, memory, I/O volume and shapes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/sorter.hpp"

namespace flashxxl_test {

using namespace flashxxl;

constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>; // the compile-time spelling, for the compatibility tests
inline const block_sizes small{br, bw};
constexpr std::uint64_t mem = 128 * 1024;

//! Sorts n items and checks order, memory and I/O; with `hint` tells the sorter n first
//! (expect()) and stores in *switched whether it chose double-buffered run formation; sorts
//! and merges on `threads` threads (0: the machine's).
template <class T, class Cmp>
inline void check_sorter(shape sh, std::size_t n, Cmp cmp, std::uint64_t memory = mem,
                         bool* switched = nullptr, const block_sizes& b = small, std::size_t threads = 0) {
    bool hint = switched != nullptr;
    const block_layout<T> layout(b.br);
    machine m = flashxxl_test::tiny_machine();
    auto k = flashxxl_test::keys(sh, n, std::uint32_t(n * 13 + int(sh)));
    std::vector<T> want;
    want.reserve(n);
    for (auto x : k)
        want.push_back(T(x, x));
    std::vector<T> input = want;
    std::stable_sort(want.begin(), want.end(), cmp);

    flashxxl_test::alloc_tracker::start();
    std::int64_t peak_allocated = 0;
    std::uint64_t passes = 0, runs_written = 0, account_peak = 0, directory = 0;
    bool double_buffered = false;
    {
        sorter<T, Cmp> s(m, memory, b, cmp);
        s.set_threads(threads);
        EXPECT_EQ(s.threads(), threads == 0 ? default_threads() : threads);
        EXPECT_EQ(s.blocks(), b);
        if (hint) double_buffered = s.expect(n);
        for (const T& x : input)
            s.push(x);
        EXPECT_EQ(s.size(), n);
        s.sort();
        std::size_t i = 0;
        for (; !s.empty(); ++s, ++i) {
            ASSERT_LT(i, n);
            ASSERT_TRUE(*s == want[i]) << "item " << i << " of " << n;
        }
        EXPECT_EQ(i, n);
        passes = s.passes();
        runs_written = s.runs_written();
        account_peak = s.account().peak();
        directory = s.directory_memory(n);
        peak_allocated = flashxxl_test::alloc_tracker::peak();
    }
    flashxxl_test::alloc_tracker::stop();
    // Memory: the buffers stay inside M, and everything the test thread allocated (request
    // objects, merge tree, run directory) inside M + directory_memory(N).
    EXPECT_LE(account_peak, memory);
    EXPECT_LE(peak_allocated, std::int64_t(memory + directory)) << "account peak " << account_peak;

    // I/O: every read is one Br block; all writes are Bw but the last of each run; the volume
    // is N x passes (items packed Br / sizeof(T) per block).
    device_stats st = flashxxl_test::total_stats(m);
    const io_counters& c = st.of(role::scratch);
    EXPECT_EQ(c.read_bytes, c.read_ops * b.br);
    EXPECT_LE(c.write_ops * b.bw - c.write_bytes, runs_written * b.bw);
    EXPECT_GE(c.write_ops, (c.write_bytes + b.bw - 1) / b.bw);
    std::uint64_t volume = layout.bytes_for(n);
    EXPECT_GE(c.write_bytes + passes * b.br * runs_written, passes * volume);
    EXPECT_LE(c.write_bytes, passes * volume + runs_written * b.br);
    EXPECT_EQ(c.read_bytes, c.write_bytes);
    // Shapes: writes are whole Br blocks, at most one write per run is shorter than Bw (all
    // others are Bw exactly), and every written Br block is read back once.
    EXPECT_EQ(c.write_bytes % b.br, 0u);
    EXPECT_LE(c.write_bytes, c.write_ops * b.bw);
    EXPECT_GE(c.write_bytes, (c.write_ops - std::min(c.write_ops, runs_written)) * b.bw);
    EXPECT_EQ(c.read_ops, c.write_bytes / b.br);
    if (n * sizeof(T) > memory) {
        EXPECT_GE(passes, 1u);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    if (hint) {
        *switched = double_buffered;
        if (double_buffered) {
            EXPECT_EQ(passes, 1u) << "double buffering must not add a merge pass";
        }
    }
}

} // namespace flashxxl_test
