// Tests of container/deque.hpp against std::deque: random operations at both ends, memory peak
// against M, I/O only at chunk boundaries, out_of_space leaving the deque as it was.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include "container/helpers.hpp"
#include "flashxxl/container/deque.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {
const block_sizes small(4 * KiB, 16 * KiB);

machine machine_of(std::uint64_t bytes) { return flashxxl_test::tiny_machine(std::to_string(bytes) + "B"); }

//! Phases that grow at one end and shrink at the other or the same, checked item by item.
template <class T> void matches_std_deque(const block_sizes& b, std::uint32_t seed) {
    machine m = flashxxl_test::tiny_machine();
    memory_account program;
    deque<T> d(m, memory_budget(deque<T>::min_memory(b), program), b);
    std::deque<T> ref;
    std::mt19937 rng(seed);
    std::uint32_t next = 0;
    std::uint64_t most_spilled = 0;
    const std::uint64_t ops = 6 * d.chunk_items();
    for (int phase = 0; phase < 10; ++phase) {
        const int grow = phase % 2 == 0 ? 85 : 30;
        for (std::uint64_t op = 0; op < ops; ++op) {
            const bool at_back = rng() % 2 == 0;
            if (ref.empty() || int(rng() % 100) < grow) {
                const T x(next, next);
                ++next;
                if (at_back) {
                    d.push_back(x);
                    ref.push_back(x);
                } else {
                    d.push_front(x);
                    ref.push_front(x);
                }
            } else if (at_back) {
                ASSERT_TRUE(d.back() == ref.back()) << "phase " << phase << " op " << op;
                d.pop_back();
                ref.pop_back();
            } else {
                ASSERT_TRUE(d.front() == ref.front()) << "phase " << phase << " op " << op;
                d.pop_front();
                ref.pop_front();
            }
            ASSERT_EQ(d.size(), ref.size());
            most_spilled = std::max(most_spilled, d.chunks_on_device());
        }
    }
    while (!ref.empty()) {
        ASSERT_TRUE(d.front() == ref.front());
        d.pop_front();
        ref.pop_front();
    }
    EXPECT_TRUE(d.empty());
    EXPECT_GT(most_spilled, 2u); // the middle went to the device
    EXPECT_LE(program.peak(), deque<T>::min_memory(b));
    EXPECT_EQ(program.current(), 0u);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(deque, matches_std_deque) {
    matches_std_deque<item<8>>(small, 1);
    matches_std_deque<item<4>>(small, 2);
    matches_std_deque<item<40>>(small, 3); // padded pages
    matches_std_deque<item<16>>(block_sizes(12 * KiB, 36 * KiB), 4);
}

TEST(deque, used_as_stack_or_queue_at_either_end) {
    machine m = flashxxl_test::tiny_machine();
    deque<std::uint64_t> d(m, deque<std::uint64_t>::min_memory(small), small);
    const std::uint64_t n = 20 * d.chunk_items();
    for (std::uint64_t i = 0; i < n; ++i)
        d.push_front(i);
    for (std::uint64_t i = 0; i < n; ++i, d.pop_back()) // FIFO through the front
        ASSERT_EQ(d.back(), i);
    for (std::uint64_t i = 0; i < n; ++i)
        d.push_back(i);
    for (std::uint64_t i = n; i-- > 0; d.pop_back()) // LIFO at the back
        ASSERT_EQ(d.back(), i);
    EXPECT_TRUE(d.empty());
}

//! Pushing and popping around a chunk boundary costs no I/O after the first crossing.
TEST(deque, no_thrashing_at_a_chunk_boundary) {
    machine m = flashxxl_test::tiny_machine();
    deque<std::uint64_t> d(m, deque<std::uint64_t>::min_memory(small), small);
    for (std::uint64_t i = 0; i < 5 * d.chunk_items(); ++i)
        d.push_back(i);
    const device_stats before = flashxxl_test::total_stats(m);
    for (int k = 0; k < 10000; ++k) {
        d.push_back(7);
        d.push_back(8);
        d.pop_back();
        d.pop_back();
    }
    const device_stats after = flashxxl_test::total_stats(m);
    EXPECT_LE(after.total.write_ops - before.total.write_ops, 1u);
    EXPECT_EQ(after.total.read_ops, before.total.read_ops);
}

//! A device with room for two chunks: the push that needs a third fails with out_of_space
//! naming the deque and leaves every item in place; after pops the deque works again.
TEST(deque, out_of_space_leaves_the_deque_as_it_was) {
    machine m = machine_of(2 * small.bw);
    deque<std::uint64_t> d(m, deque<std::uint64_t>::min_memory(small), small);
    std::uint64_t pushed = 0;
    try {
        for (; pushed < 20 * d.chunk_items(); ++pushed)
            d.push_back(pushed);
        FAIL() << "expected out_of_space";
    } catch (const out_of_space& e) {
        EXPECT_NE(std::string(e.what()).find("flashxxl::deque"), std::string::npos) << e.what();
    }
    EXPECT_EQ(d.size(), pushed);
    EXPECT_EQ(d.back(), pushed - 1);
    EXPECT_THROW(d.push_back(pushed), out_of_space); // retried: still no room, still unchanged
    EXPECT_EQ(d.size(), pushed);
    for (std::uint64_t i = 0; i < pushed; ++i, d.pop_front())
        ASSERT_EQ(d.front(), i);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    d.push_front(1);
    EXPECT_EQ(d.front(), 1u);
}

TEST(deque, moves_and_swaps) {
    machine m = flashxxl_test::tiny_machine();
    memory_account program;
    deque<std::uint64_t> a(m, memory_budget(deque<std::uint64_t>::min_memory(small), program), small);
    for (std::uint64_t i = 0; i < 8 * a.chunk_items(); ++i)
        a.push_back(i);
    ASSERT_GT(a.chunks_on_device(), 0u);
    deque<std::uint64_t> b(std::move(a));
    deque<std::uint64_t> c(m, deque<std::uint64_t>::min_memory(small), small);
    c.push_front(42);
    swap(b, c);
    EXPECT_EQ(b.size(), 1u);
    EXPECT_EQ(b.front(), 42u);
    EXPECT_EQ(c.size(), 8 * c.chunk_items());
    for (std::uint64_t i = 0; i < 8 * c.chunk_items(); ++i, c.pop_front())
        ASSERT_EQ(c.front(), i);
    EXPECT_LE(program.peak(), deque<std::uint64_t>::min_memory(small));
    a = std::move(b); // a moved-from deque takes new contents
    EXPECT_EQ(a.back(), 42u);
}

TEST(deque, budget_below_the_minimum_is_refused) {
    machine m = flashxxl_test::tiny_machine();
    EXPECT_EQ(deque<std::uint64_t>::min_memory(small), 4 * small.bw);
    EXPECT_EQ(deque<std::uint64_t>::memory_usage(GiB, small), 4 * small.bw);
    try {
        deque<std::uint64_t> d(m, 4 * small.bw - 1, small);
        FAIL() << "expected config_error";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("flashxxl::deque"), std::string::npos) << e.what();
    }
    deque<std::uint64_t> d(m, 4 * small.bw, small);
    EXPECT_THROW(d.front(), invalid_request);
    EXPECT_THROW(d.pop_back(), invalid_request);
}
} // namespace
