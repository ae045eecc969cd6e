// Tests of container/stack.hpp and queue.hpp against std::stack / std::queue, with I/O shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <stack>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/stack.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {
constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>;

// Phases of mostly-push and mostly-pop, so the containers go external and come back.
template <class Ext, class Ref, class T>
void random_ops(machine& m, Ext& ext, Ref& ref, std::uint32_t seed, bool fifo) {
    std::mt19937 rng(seed);
    std::uint32_t next = 0;
    for (int phase = 0; phase < 8; ++phase) {
        int push_percent = phase % 2 == 0 ? 90 : 25;
        for (int op = 0; op < 12000; ++op) {
            if (ref.empty() || int(rng() % 100) < push_percent) {
                ext.push(T(next, next));
                ref.push(T(next, next));
                ++next;
            } else {
                const T& want = [&]() -> const T& {
                    if constexpr (std::is_same<Ref, std::queue<T>>::value) return ref.front();
                    else return ref.top();
                }();
                const T& got = [&]() -> const T& {
                    if constexpr (std::is_same<Ref, std::queue<T>>::value) return ext.front();
                    else return ext.top();
                }();
                ASSERT_TRUE(got == want) << "phase " << phase << " op " << op;
                ext.pop();
                ref.pop();
            }
            ASSERT_EQ(ext.size(), ref.size());
        }
    }
    (void)fifo;
    (void)m;
}
}  // namespace

template <class T>
class stack_queue_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(stack_queue_typed, item_types);

TYPED_TEST(stack_queue_typed, stack_matches_std_stack) {
    using T = TypeParam;
    using S = stack<T, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    std::stack<T> ref;
    flashxxl_test::alloc_tracker::start();
    std::int64_t peak = 0;
    {
        S s(m, S::memory_usage(), role::hot);
        flashxxl_test::alloc_tracker::stop();  // the reference stack is not ours to count
        random_ops<S, std::stack<T>, T>(m, s, ref, 11, false);
        EXPECT_LE(s.account().peak(), S::memory_usage());
        while (!ref.empty()) {
            ASSERT_TRUE(s.top() == ref.top());
            s.pop();
            ref.pop();
        }
        EXPECT_TRUE(s.empty());
        EXPECT_THROW(s.pop(), invalid_request);
        peak = flashxxl_test::alloc_tracker::peak();
    }
    EXPECT_LE(peak, std::int64_t(S::memory_usage() + 4096));
    device_stats st = flashxxl_test::total_stats(m);
    const io_counters& c = st.of(role::hot);
    EXPECT_GT(c.write_ops, 2u);
    EXPECT_EQ(c.write_bytes, c.write_ops * bw);
    EXPECT_EQ(c.read_bytes, c.read_ops * br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TYPED_TEST(stack_queue_typed, queue_matches_std_queue) {
    using T = TypeParam;
    using Q = queue<T, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    std::queue<T> ref;
    {
        Q q(m, Q::memory_usage(), role::hot);
        random_ops<Q, std::queue<T>, T>(m, q, ref, 12, true);
        EXPECT_LE(q.account().peak(), Q::memory_usage());
        while (!ref.empty()) {
            ASSERT_TRUE(q.front() == ref.front());
            q.pop();
            ref.pop();
        }
        EXPECT_TRUE(q.empty());
        EXPECT_THROW(q.pop(), invalid_request);
    }
    device_stats st = flashxxl_test::total_stats(m);
    const io_counters& c = st.of(role::hot);
    EXPECT_GT(c.write_ops, 2u);
    EXPECT_EQ(c.write_bytes, c.write_ops * bw);
    EXPECT_EQ(c.read_bytes, c.read_ops * br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(queue, small_queue_does_no_io) {
    machine m = flashxxl_test::tiny_machine();
    queue<std::uint64_t, small_blocks> q(m, queue<std::uint64_t, small_blocks>::memory_usage());
    for (int round = 0; round < 100; ++round) {
        for (std::uint64_t i = 0; i < 100; ++i) q.push(i);
        for (std::uint64_t i = 0; i < 100; ++i, q.pop()) ASSERT_EQ(q.front(), i);
    }
    EXPECT_EQ(flashxxl_test::total_stats(m).total.ops(), 0u);
}

TEST(queue, long_queue_streams_through_the_device) {
    machine m = flashxxl_test::tiny_machine();
    using Q = queue<std::uint64_t, small_blocks>;
    Q q(m, Q::memory_usage());
    const std::uint64_t n = 10 * Q::buffer_items + 123;
    for (std::uint64_t i = 0; i < n; ++i) q.push(i);
    for (std::uint64_t i = 0; i < n; ++i, q.pop()) ASSERT_EQ(q.front(), i);
    device_stats st = flashxxl_test::total_stats(m);
    EXPECT_EQ(st.total.write_ops, 10u);  // 10 full buffers, the rest never left memory
    EXPECT_EQ(st.total.read_bytes, 10u * bw);
}

TEST(stack_queue, out_of_space_then_recover) {
    machine m = flashxxl_test::tiny_machine("48KiB");  // three Bw extents
    using S = stack<std::uint64_t, small_blocks>;
    using Q = queue<std::uint64_t, small_blocks>;
    {
        S s(m, S::memory_usage());
        std::uint64_t pushed = 0;
        EXPECT_THROW(
            {
                for (; pushed < 100000; ++pushed) s.push(pushed);
            },
            out_of_space);
        EXPECT_EQ(s.size(), pushed);
        for (std::uint64_t i = pushed; i-- > 0; s.pop()) ASSERT_EQ(s.top(), i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    {
        Q q(m, Q::memory_usage());
        std::uint64_t pushed = 0;
        EXPECT_THROW(
            {
                for (; pushed < 100000; ++pushed) q.push(pushed);
            },
            out_of_space);
        // The push that failed added nothing; everything before is intact.
        for (std::uint64_t i = 0; i < pushed; ++i, q.pop()) ASSERT_EQ(q.front(), i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_THROW(S(m, 1024), config_error);
}
