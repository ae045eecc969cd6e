// Tests of container/spillable_list.hpp: in memory within its budget, spilled past it, filter, memory
// charged.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/spillable_list.hpp"

using namespace flashxxl;

namespace {

struct pair32 {
    std::uint32_t a = 0, b = 0;
};

const block_sizes blocks_4k_16k(4 * KiB, 16 * KiB);

std::vector<pair32> contents(spillable_list<pair32>& l) {
    std::vector<pair32> out;
    for (auto c = l.read(); !c.empty(); ++c)
        out.push_back(*c);
    return out;
}

void fill(spillable_list<pair32>& l, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i)
        l.push(pair32{i, 3 * i});
    l.finish();
}

void expect_sequence(const std::vector<pair32>& v, std::uint32_t n) {
    ASSERT_EQ(v.size(), n);
    for (std::uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(v[i].a, i);
        EXPECT_EQ(v[i].b, 3 * i);
    }
}

} // namespace

//! A list within its budget never touches the device, charges its capacity (at most the
//! budget, a doubling's two arrays included) and gives it back when destroyed.
TEST(spillable_list, a_list_within_its_budget_stays_off_the_device) {
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    {
        spillable_list<pair32> l(m, blocks_4k_16k, 64 * KiB, acc);
        fill(l, 5000); // 40 000 bytes; the doubling to 8192 items needs 96 KiB: the last growth spills
        EXPECT_TRUE(l.external());
    }
    EXPECT_EQ(acc.current(), 0u);
    acc.reset_peak(); // a spill holds the writer beside the records it moves: outside the budget
    const device_stats before = flashxxl_test::total_stats(m);
    {
        spillable_list<pair32> l(m, blocks_4k_16k, 64 * KiB, acc);
        fill(l, 4000); // 4096 items after doublings: 32 KiB, 48 KiB while growing
        EXPECT_FALSE(l.external());
        EXPECT_EQ(l.size(), 4000u);
        EXPECT_EQ(l.memory_bytes(), 4096u * sizeof(pair32));
        EXPECT_LE(acc.peak(), 64u * KiB);
        expect_sequence(contents(l), 4000);
    }
    EXPECT_EQ(acc.current(), 0u);
    const device_stats after = flashxxl_test::total_stats(m);
    EXPECT_EQ(after.total.write_bytes, before.total.write_bytes);
    EXPECT_EQ(after.total.read_bytes, before.total.read_bytes);
}

//! reserve() takes exactly what is asked when it fits, so a list of known size does not spill
//! for a doubling; beyond the budget it does nothing and the list spills as it grows.
TEST(spillable_list, reserve_avoids_a_doublings_spill) {
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    spillable_list<pair32> l(m, blocks_4k_16k, 40000, acc);
    l.reserve(5000);
    EXPECT_EQ(acc.current(), 5000u * sizeof(pair32));
    fill(l, 5000);
    EXPECT_FALSE(l.external());
    expect_sequence(contents(l), 5000);

    spillable_list<pair32> big(m, blocks_4k_16k, 40000, acc);
    big.reserve(5001);
    EXPECT_EQ(big.memory_bytes(), 0u) << "5001 records do not fit 40 000 bytes";
}

//! Where a doubling would not fit, the capacity grows by what the budget still allows beside
//! the old array, so a list just short of the budget's two thirds stays in memory.
TEST(spillable_list, grows_by_what_the_budget_allows_before_spilling) {
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    const std::uint64_t budget = 6144 * sizeof(pair32) - 8; // 2048 -> 4096 would need 6144 records' room
    spillable_list<pair32> l(m, blocks_4k_16k, budget, acc);
    fill(l, 3000);
    EXPECT_FALSE(l.external());
    EXPECT_EQ(l.memory_bytes(), 4095u * sizeof(pair32));
    EXPECT_LE(acc.peak(), budget);
    expect_sequence(contents(l), 3000);

    spillable_list<pair32> full(m, blocks_4k_16k, budget, acc);
    fill(full, 4096); // 4095 records fill the grown array; the next one cannot grow it
    EXPECT_TRUE(full.external());
    expect_sequence(contents(full), 4096);
}

//! Past the budget the list moves to the device in Bw writes and reads back the same
//! sequence; its writer and reader buffers are charged while they live.
TEST(spillable_list, a_list_past_its_budget_spills_and_reads_back_in_order) {
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    const device_stats before = flashxxl_test::total_stats(m);
    spillable_list<pair32> l(m, blocks_4k_16k, 4 * KiB, acc);
    fill(l, 20000);
    EXPECT_TRUE(l.external());
    EXPECT_EQ(l.memory_bytes(), 0u);
    EXPECT_EQ(acc.current(), 0u) << "the writer is gone after finish()";
    EXPECT_GE(acc.peak(), spillable_list<pair32>::writer_memory(blocks_4k_16k));
    const device_stats after = flashxxl_test::total_stats(m);
    EXPECT_GE(after.total.write_bytes - before.total.write_bytes, 20000u * sizeof(pair32));
    EXPECT_EQ((after.total.write_bytes - before.total.write_bytes) % blocks_4k_16k.bw, 0u) << "Bw writes";
    expect_sequence(contents(l), 20000);
}

//! filter keeps the records the predicate keeps, calls it once per record in order, in place
//! in memory and through a new list on the device, which comes back into memory if the rest
//! fits.
TEST(spillable_list, filter_keeps_order_in_memory_and_on_the_device) {
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    for (std::uint32_t n : {0u, 1000u, 20000u}) {
        SCOPED_TRACE(n);
        spillable_list<pair32> l(m, blocks_4k_16k, 32 * KiB, acc);
        fill(l, n);
        const bool was_external = l.external();
        std::uint32_t expected_next = 0;
        l.filter([&](const pair32& r) {
            EXPECT_EQ(r.a, expected_next++);
            return r.a % 13 == 0;
        });
        EXPECT_EQ(expected_next, n);
        std::vector<pair32> v = contents(l);
        ASSERT_EQ(v.size(), (n + 12) / 13);
        EXPECT_EQ(l.size(), v.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            EXPECT_EQ(v[i].a, 13 * i);
        if (was_external) {
            EXPECT_FALSE(l.external()) << "the 1539 records kept of 20000 fit 32 KiB";
        }
        l.filter([](const pair32&) { return false; });
        EXPECT_TRUE(l.empty());
        EXPECT_TRUE(contents(l).empty());
    }
    EXPECT_EQ(acc.current(), 0u);
}

//! Misuse is an error, not a silent loss: reading or filtering before finish(), pushing after.
TEST(spillable_list, misuse_is_refused) {
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    spillable_list<pair32> l(m, blocks_4k_16k, 4 * KiB, acc);
    l.push(pair32{1, 2});
    EXPECT_THROW(l.read(), invalid_request);
    EXPECT_THROW(l.filter([](const pair32&) { return true; }), invalid_request);
    l.finish();
    EXPECT_THROW(l.push(pair32{3, 4}), invalid_request);
    EXPECT_EQ(contents(l).size(), 1u);
}

// A spilled list that runs out of space: size() counts only the records that were held, and
// neither a later push nor finish() pretends otherwise; an unfinished list cannot be read.
TEST(spillable_list, out_of_space_while_spilled_is_not_counted_or_read) {
    machine m = flashxxl_test::tiny_machine(std::to_string(2 * blocks_4k_16k.bw) + "B"); // two Bw groups
    memory_account acc;
    {
        spillable_list<pair32> l(m, blocks_4k_16k, 4 * KiB, acc);
        std::uint32_t pushed = 0;
        try {
            for (; pushed < 100000; ++pushed)
                l.push(pair32{pushed, 3 * pushed});
            FAIL() << "no out_of_space";
        } catch (const out_of_space&) {
        }
        EXPECT_TRUE(l.external());
        EXPECT_EQ(l.size(), pushed);
        EXPECT_THROW(l.push(pair32{}), io_failure);
        EXPECT_EQ(l.size(), pushed);
        EXPECT_THROW(l.finish(), io_failure);
        EXPECT_THROW(l.read(), invalid_request); // not finished
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}
