// Tests of fast_divisor: multiply-and-shift division equals hardware division.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "flashxxl/io/fast_divisor.hpp"
#include "flashxxl/io/segment.hpp"

using namespace flashxxl;

TEST(fast_divisor, equals_division_for_item_counts_per_block_and_edge_values) {
    std::mt19937_64 rng(42);
    const std::uint64_t edge[] = {
        0,          1,         2,    3, 4095, 4096, 4097, (1ull << 32) - 1, 1ull << 32, (1ull << 63) - 1,
        1ull << 63, ~0ull - 1, ~0ull};
    // Items per Br block for item sizes 1..200 and Br from 4 KiB to 3 MiB, plus a few large divisors.
    std::vector<std::uint64_t> divisors = {1, 2, 3, 7, 10, 102, 3276, 4681, (1ull << 32) + 1, ~0ull};
    for (std::uint64_t br : {4096ull, 12288ull, 131072ull, 196608ull, 3145728ull})
        for (std::uint64_t size = 1; size <= 200; size += 13)
            divisors.push_back(br / size);
    for (std::uint64_t d : divisors) {
        fast_divisor f(d);
        for (std::uint64_t n : edge)
            ASSERT_EQ(f.quotient(n), n / d) << n << " / " << d;
        for (int k = 0; k < 2000; ++k) {
            std::uint64_t n = rng() >> (rng() % 64);
            ASSERT_EQ(f.quotient(n), n / d) << n << " / " << d;
        }
    }
}

TEST(fast_divisor, padded_layout_slots_match_block_arithmetic) {
    struct item40 {
        char bytes[40];
    };
    block_layout<item40> l(12 * 1024); // 307 items per block, 32 bytes of padding
    ASSERT_TRUE(l.padded());
    alignas(4096) static char buffer[8 * 12 * 1024];
    for (std::uint64_t i = 0; i < 8 * l.items_per_block(); ++i) {
        char* want = buffer + (i / 307) * 12 * 1024 + (i % 307) * 40;
        ASSERT_EQ(reinterpret_cast<char*>(l.slot(buffer, i)), want) << i;
    }
}
