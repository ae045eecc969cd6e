// The random permutation and the offset generator: every start address exactly once, in range.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/offset_generator.hpp"
#include "flashxxl/characterize/random_permutation.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::KiB;
using flashxxl::MiB;

TEST(characterize_permutation, covers_every_element_exactly_once) {
    for (std::uint64_t n : {1ull, 2ull, 3ull, 7ull, 64ull, 1000ull, 4097ull, 65536ull, 100003ull}) {
        ch::random_permutation p(n, 42 + n);
        std::vector<char> seen(n, 0);
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t x = p[i];
            ASSERT_LT(x, n);
            ASSERT_EQ(seen[x], 0) << "value " << x << " repeated, n = " << n;
            seen[x] = 1;
        }
    }
}

TEST(characterize_permutation, is_shuffled_and_depends_on_the_seed) {
    const std::uint64_t n = 10000;
    ch::random_permutation a(n, 1), b(n, 2);
    std::uint64_t fixed = 0, same = 0, ascending = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        fixed += a[i] == i;
        same += a[i] == b[i];
        ascending += i > 0 && a[i] > a[i - 1];
    }
    EXPECT_LT(fixed, 20u);
    EXPECT_LT(same, 20u);
    EXPECT_NEAR(double(ascending) / n, 0.5, 0.05);
}

TEST(characterize_permutation, random_pattern_visits_every_block_once_per_pass) {
    ch::io_pattern p;
    p.op = flashxxl::io_op::write;
    p.order = ch::address_order::random;
    p.block = 64 * KiB;
    p.offset = 1 * MiB;
    p.span = 64 * MiB;
    ch::offset_generator g(p, 7);
    const std::uint64_t blocks = p.span / p.block;
    ASSERT_EQ(g.random_starts(), blocks);
    for (int pass = 0; pass < 2; ++pass) {
        std::set<std::uint64_t> seen;
        for (std::uint64_t i = 0; i < blocks; ++i) {
            std::uint64_t off = g(pass * blocks + i);
            ASSERT_EQ((off - p.offset) % p.block, 0u);
            ASSERT_GE(off, p.offset);
            ASSERT_LE(off + p.block, p.offset + p.span);
            ASSERT_TRUE(seen.insert(off).second) << "offset repeated within a pass";
        }
        EXPECT_EQ(seen.size(), blocks);
    }
}

TEST(characterize_permutation, granular_offsets_stay_in_the_span) {
    ch::io_pattern p;
    p.order = ch::address_order::random;
    p.block = 1 * MiB;
    p.granularity = 4 * KiB;
    p.span = 8 * MiB;
    ch::offset_generator g(p, 3);
    EXPECT_EQ(g.random_starts(), (8 * MiB - 1 * MiB) / (4 * KiB) + 1);
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < g.random_starts(); ++i) {
        std::uint64_t off = g(i);
        ASSERT_EQ(off % (4 * KiB), 0u);
        ASSERT_LE(off + p.block, p.span);
        seen.insert(off);
    }
    EXPECT_EQ(seen.size(), g.random_starts());
}

TEST(characterize_permutation, ordered_partitioned_and_parallel_follow_uflip_table_1) {
    auto gen = [](const std::string& line) {
        auto steps = ch::parse_experiments(line, "t");
        ch::check_experiments(steps, 1 * MiB, 512);
        return ch::offset_generator(steps[0].pattern, 1);
    };
    auto rev = gen("run order=reverse block=4KiB span=16KiB count=1");
    EXPECT_EQ(rev(0), 12 * KiB);
    EXPECT_EQ(rev(1), 8 * KiB);
    EXPECT_EQ(rev(4), 12 * KiB); // wraps
    auto inplace = gen("run order=inplace block=4KiB offset=8KiB count=1");
    EXPECT_EQ(inplace(0), 8 * KiB);
    EXPECT_EQ(inplace(5), 8 * KiB);
    auto incr = gen("run order=ordered incr=2 block=4KiB span=32KiB shift=512 count=1");
    EXPECT_EQ(incr(0), 512u);
    EXPECT_EQ(incr(1), 8 * KiB + 512);
    // Partitioned: P_i * PS + O_i with PS = TargetSize / Partitions (seeds/003 Table 1)
    auto part = gen("run order=partitioned partitions=4 block=4KiB span=64KiB count=1");
    EXPECT_EQ(part(0), 0u);
    EXPECT_EQ(part(1), 16 * KiB);
    EXPECT_EQ(part(3), 48 * KiB);
    EXPECT_EQ(part(4), 4 * KiB);
    // Parallel: disjoint sub-spans, interleaved round robin
    auto par = gen("run order=seq parallel=2 block=4KiB span=64KiB count=1");
    EXPECT_EQ(par(0), 0u);
    EXPECT_EQ(par(1), 32 * KiB);
    EXPECT_EQ(par(2), 4 * KiB);
}
