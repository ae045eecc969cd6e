// Tests of container/stack.hpp and queue.hpp against std::stack / std::queue, with I/O shapes and block
// sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <stack>
#include <string>
#include <vector>

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
// `ops` operations per phase: 12000 for the legacy pair; with a run-time pair at least three
// buffers' worth, so that large pairs go external too.
template <class Ext, class Ref, class T>
void random_ops(machine& m, Ext& ext, Ref& ref, std::uint32_t seed, bool fifo, std::uint64_t ops = 12000) {
    std::mt19937 rng(seed);
    std::uint32_t next = 0;
    for (int phase = 0; phase < 8; ++phase) {
        int push_percent = phase % 2 == 0 ? 90 : 25;
        for (std::uint64_t op = 0; op < ops; ++op) {
            if (ref.empty() || int(rng() % 100) < push_percent) {
                ext.push(T(next, next));
                ref.push(T(next, next));
                ++next;
            } else {
                const T& want = [&]() -> const T& {
                    if constexpr (std::is_same<Ref, std::queue<T>>::value)
                        return ref.front();
                    else
                        return ref.top();
                }();
                const T& got = [&]() -> const T& {
                    if constexpr (std::is_same<Ref, std::queue<T>>::value)
                        return ext.front();
                    else
                        return ext.top();
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

//! The run-time pairs every test also runs with: the legacy pair, Bw = Br, powers of two and
//! not, and a large pair.
const std::vector<block_sizes>& pairs() {
    static const std::vector<block_sizes> p{{4 * KiB, 4 * KiB},
                                            {4 * KiB, 16 * KiB},
                                            {4 * KiB, 64 * KiB},
                                            {12 * KiB, 36 * KiB},
                                            {192 * KiB, 3 * MiB}};
    return p;
}

//! A container with the sizes `b` (legacy: given as the compile-time value small_blocks{},
//! which converts to block_sizes and must then be b).
template <class C>
C make(machine& m, std::uint64_t memory, const block_sizes& b, bool legacy, role r = role::hot) {
    if (legacy) return C(m, memory, small_blocks{}, r);
    return C(m, memory, b, r);
}

//! A one-device machine of `bytes` (plain bytes: any multiple of 4 KiB).
machine machine_of(std::uint64_t bytes) {
    return flashxxl_test::tiny_machine(std::to_string(bytes) + "B");
} // a plain number would be MiB (STXXL)

template <class T, class S> void stack_matches_std_stack(const block_sizes& b, bool legacy) {
    machine m = flashxxl_test::tiny_machine();
    std::stack<T> ref;
    flashxxl_test::alloc_tracker::start();
    std::int64_t peak = 0;
    {
        S s = make<S>(m, S::min_memory(b), b, legacy, role::hot);
        flashxxl_test::alloc_tracker::stop(); // the reference stack is not ours to count
        EXPECT_EQ(s.blocks(), b);
        const std::uint64_t ops = legacy ? 12000 : std::max<std::uint64_t>(12000, 3 * s.half_items());
        random_ops<S, std::stack<T>, T>(m, s, ref, 11, false, ops);
        EXPECT_LE(s.account().peak(), S::min_memory(b));
        while (!ref.empty()) {
            ASSERT_TRUE(s.top() == ref.top());
            s.pop();
            ref.pop();
        }
        EXPECT_TRUE(s.empty());
        EXPECT_THROW(s.pop(), invalid_request);
        peak = flashxxl_test::alloc_tracker::peak();
    }
    EXPECT_LE(peak, std::int64_t(S::min_memory(b) + 4096));
    device_stats st = flashxxl_test::total_stats(m);
    const io_counters& c = st.of(role::hot);
    EXPECT_GT(c.write_ops, 2u);
    EXPECT_EQ(c.write_bytes, c.write_ops * b.bw);
    EXPECT_EQ(c.read_bytes, c.read_ops * b.br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

template <class T, class Q> void queue_matches_std_queue(const block_sizes& b, bool legacy) {
    machine m = flashxxl_test::tiny_machine();
    std::queue<T> ref;
    {
        Q q = make<Q>(m, Q::min_memory(b), b, legacy, role::hot);
        EXPECT_EQ(q.blocks(), b);
        const std::uint64_t ops = legacy ? 12000 : std::max<std::uint64_t>(12000, 3 * q.buffer_items());
        random_ops<Q, std::queue<T>, T>(m, q, ref, 12, true, ops);
        EXPECT_LE(q.account().peak(), Q::min_memory(b));
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
    EXPECT_EQ(c.write_bytes, c.write_ops * b.bw);
    EXPECT_EQ(c.read_bytes, c.read_ops * b.br);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

template <class Q> void small_queue_does_no_io(const block_sizes& b, bool legacy) {
    machine m = flashxxl_test::tiny_machine();
    Q q = make<Q>(m, Q::min_memory(b), b, legacy, role::hot);
    for (int round = 0; round < 100; ++round) {
        for (std::uint64_t i = 0; i < 100; ++i)
            q.push(i);
        for (std::uint64_t i = 0; i < 100; ++i, q.pop())
            ASSERT_EQ(q.front(), i);
    }
    EXPECT_EQ(flashxxl_test::total_stats(m).total.ops(), 0u);
}

template <class Q> void long_queue_streams_through_the_device(const block_sizes& b, bool legacy) {
    machine m = flashxxl_test::tiny_machine();
    Q q = make<Q>(m, Q::min_memory(b), b, legacy, role::hot);
    const std::uint64_t n = 10 * q.buffer_items() + 123;
    for (std::uint64_t i = 0; i < n; ++i)
        q.push(i);
    for (std::uint64_t i = 0; i < n; ++i, q.pop())
        ASSERT_EQ(q.front(), i);
    device_stats st = flashxxl_test::total_stats(m);
    EXPECT_EQ(st.total.write_ops, 10u); // 10 full buffers, the rest never left memory
    EXPECT_EQ(st.total.read_bytes, 10u * b.bw);
}

template <class S, class Q> void out_of_space_then_recover(const block_sizes& b, bool legacy) {
    machine m = machine_of(3 * b.bw); // three Bw extents
    {
        S s = make<S>(m, S::min_memory(b), b, legacy, role::hot);
        std::uint64_t pushed = 0;
        EXPECT_THROW(
            {
                for (; pushed < 10 * s.half_items(); ++pushed)
                    s.push(pushed);
            },
            out_of_space);
        EXPECT_EQ(s.size(), pushed);
        for (std::uint64_t i = pushed; i-- > 0; s.pop())
            ASSERT_EQ(s.top(), i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    {
        Q q = make<Q>(m, Q::min_memory(b), b, legacy, role::hot);
        std::uint64_t pushed = 0;
        EXPECT_THROW(
            {
                for (; pushed < 10 * q.buffer_items(); ++pushed)
                    q.push(pushed);
            },
            out_of_space);
        // The push that failed added nothing; everything before is intact.
        for (std::uint64_t i = 0; i < pushed; ++i, q.pop())
            ASSERT_EQ(q.front(), i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_THROW(make<S>(m, 1024, b, legacy), config_error);
    EXPECT_THROW(make<Q>(m, 1024, b, legacy), config_error);
}
} // namespace

template <class T> class stack_queue_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(stack_queue_typed, item_types);

TYPED_TEST(stack_queue_typed, stack_matches_std_stack) {
    using T = TypeParam;
    stack_matches_std_stack<T, stack<T>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        stack_matches_std_stack<T, stack<T>>(b, false);
    }
}

TYPED_TEST(stack_queue_typed, queue_matches_std_queue) {
    using T = TypeParam;
    queue_matches_std_queue<T, queue<T>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        queue_matches_std_queue<T, queue<T>>(b, false);
    }
}

TEST(queue, small_queue_does_no_io) {
    small_queue_does_no_io<queue<std::uint64_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        small_queue_does_no_io<queue<std::uint64_t>>(b, false);
    }
}

TEST(queue, long_queue_streams_through_the_device) {
    long_queue_streams_through_the_device<queue<std::uint64_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        long_queue_streams_through_the_device<queue<std::uint64_t>>(b, false);
    }
}

TEST(stack_queue, out_of_space_then_recover) {
    out_of_space_then_recover<stack<std::uint64_t>, queue<std::uint64_t>>(small_blocks{}, true);
    for (const block_sizes& b : pairs()) {
        SCOPED_TRACE(b.describe());
        out_of_space_then_recover<stack<std::uint64_t>, queue<std::uint64_t>>(b, false);
    }
}

// The static helpers: with a pair (a blocks<Br, Bw> value converts to one), and the
// zero-argument forms (seeds/001's 128 KiB / 16 MiB).
TEST(stack_queue, static_memory_helpers_follow_the_block_sizes) {
    const block_sizes odd(12 * KiB, 36 * KiB), seeds;
    EXPECT_EQ(stack<std::uint64_t>::min_memory(odd), 72 * KiB);
    EXPECT_EQ(stack<std::uint64_t>::min_memory(), 2 * seeds.bw);
    EXPECT_EQ(stack<std::uint64_t>::min_memory(small_blocks{}), 2 * bw);
    EXPECT_EQ(queue<std::uint64_t>::min_memory(odd), 72 * KiB + 24 * KiB);
    EXPECT_EQ(queue<std::uint64_t>::min_memory(), 2 * seeds.bw + 2 * seeds.br);
    EXPECT_EQ(queue<std::uint64_t>::min_memory(small_blocks{}), 2 * bw + 2 * br);
    // What they hold does not grow with the budget: memory_usage(M, b) is the minimum for any M.
    EXPECT_EQ(stack<std::uint64_t>::memory_usage(64 * MiB, odd), 72 * KiB);
    EXPECT_EQ(queue<std::uint64_t>::memory_usage(64 * MiB, odd), 72 * KiB + 24 * KiB);
    machine m = flashxxl_test::tiny_machine();
    stack<item<40>> s(m, stack<item<40>>::min_memory(odd), odd);
    EXPECT_EQ(s.account().peak(), stack<item<40>>::min_memory(odd));
    EXPECT_EQ(s.half_items(), 3u * (12 * KiB / 40));
    queue<item<40>> q(m, queue<item<40>>::min_memory(odd), odd);
    EXPECT_EQ(q.account().peak(), queue<item<40>>::min_memory(odd));
    EXPECT_EQ(q.buffer_items(), 3u * (12 * KiB / 40));
}

// Without sizes, stack<T> and queue<T> take those of the device their role is placed on; a
// blocks<> value wins.
TEST(stack_queue, default_sizes_come_from_the_device_or_from_blocks) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd br=12KiB bw=36KiB\n"
                                          "placement=single device=ssd\n",
                                          "blocks.cfg");
    const block_sizes odd(12 * KiB, 36 * KiB);
    stack<std::uint64_t> s(m, stack<std::uint64_t>::min_memory(odd));
    EXPECT_EQ(s.blocks(), odd);
    queue<std::uint64_t> q(m, queue<std::uint64_t>::min_memory(odd));
    EXPECT_EQ(q.blocks(), odd);
    stack<std::uint64_t> ls(m, stack<std::uint64_t>::min_memory(small_blocks{}), small_blocks{});
    EXPECT_EQ(ls.blocks(), block_sizes(br, bw));
    queue<std::uint64_t> lq(m, queue<std::uint64_t>::min_memory(small_blocks{}), small_blocks{});
    EXPECT_EQ(lq.blocks(), block_sizes(br, bw));
}

// A pair that breaks a rule is refused with config_error naming both values.
TEST(stack_queue, invalid_block_sizes_are_rejected_naming_both_values) {
    machine m = flashxxl_test::tiny_machine();
    block_sizes not_multiple, smaller_bw;
    not_multiple.br = 12 * KiB, not_multiple.bw = 32 * KiB;
    smaller_bw.br = 64 * KiB, smaller_bw.bw = 16 * KiB;
    auto check = [](auto make_it, const char* br_text, const char* bw_text) {
        try {
            make_it();
            ADD_FAILURE() << "accepted Br = " << br_text << ", Bw = " << bw_text;
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find(br_text), std::string::npos) << msg;
            EXPECT_NE(msg.find(bw_text), std::string::npos) << msg;
        }
    };
    check([&] { stack<std::uint64_t> s(m, 64 * MiB, not_multiple); }, "12KiB", "32KiB");
    check([&] { stack<std::uint64_t> s(m, 64 * MiB, smaller_bw); }, "64KiB", "16KiB");
    check([&] { queue<std::uint64_t> q(m, 64 * MiB, not_multiple); }, "12KiB", "32KiB");
    check([&] { queue<std::uint64_t> q(m, 64 * MiB, smaller_bw); }, "64KiB", "16KiB");
    // Too little memory: the message names the sizes it was computed for.
    check([&] { stack<std::uint64_t> s(m, 1024, block_sizes(12 * KiB, 36 * KiB)); }, "12KiB", "36KiB");
    check([&] { queue<std::uint64_t> q(m, 1024, block_sizes(12 * KiB, 36 * KiB)); }, "12KiB", "36KiB");
}

// I/O shapes at a pair that is not a power of two, one operation at a time: a stack spills
// exactly one Bw write and refills with Bw / Br reads of exactly Br; a queue writes exactly Bw
// and reads exactly Br.
TEST(stack_queue, io_shapes_at_a_non_power_of_two_pair) {
    using T = item<40>; // padded: 12 KiB / 40 bytes leaves 8 bytes per page
    const block_sizes b(12 * KiB, 36 * KiB);
    machine m = flashxxl_test::tiny_machine();
    stack<T> s(m, stack<T>::min_memory(b), b);
    queue<T> q(m, queue<T>::min_memory(b), b);
    std::stack<T> sref;
    std::queue<T> qref;
    std::mt19937 rng(9);
    std::uint64_t spills = 0, refills = 0, qwrites = 0, qreads = 0;
    std::uint32_t next = 0;
    for (int phase = 0; phase < 6; ++phase) {
        const bool growing = phase % 2 == 0;
        for (std::uint64_t op = 0; op < 8 * s.half_items(); ++op) {
            const bool push = sref.empty() || rng() % 100 < (growing ? 85u : 20u);
            device_stats before = flashxxl_test::total_stats(m);
            if (push) {
                s.push(T(next, next));
                sref.push(T(next, next));
            } else {
                ASSERT_TRUE(s.top() == sref.top());
                s.pop();
                sref.pop();
            }
            device_stats d = flashxxl_test::total_stats(m) - before;
            ASSERT_LE(d.total.write_ops, 1u);
            ASSERT_EQ(d.total.write_bytes, d.total.write_ops * b.bw);
            ASSERT_TRUE(d.total.read_ops == 0 || d.total.read_ops == b.reads_per_write()) << d.total.read_ops;
            ASSERT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
            spills += d.total.write_ops;
            refills += d.total.read_ops ? 1 : 0;

            before = flashxxl_test::total_stats(m);
            if (push) {
                q.push(T(next, next));
                qref.push(T(next, next));
                ++next;
            } else if (!qref.empty()) {
                ASSERT_TRUE(q.front() == qref.front());
                q.pop();
                qref.pop();
            }
            d = flashxxl_test::total_stats(m) - before;
            ASSERT_LE(d.total.write_ops, 1u);
            ASSERT_EQ(d.total.write_bytes, d.total.write_ops * b.bw);
            ASSERT_LE(d.total.read_ops, 2u); // a block and the one prefetched behind it
            ASSERT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
            qwrites += d.total.write_ops;
            qreads += d.total.read_ops;
        }
    }
    EXPECT_GT(spills, 3u);
    EXPECT_GT(refills, 1u);
    EXPECT_GT(qwrites, 3u);
    EXPECT_GT(qreads, 3u);
}
