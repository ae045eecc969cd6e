// Tests of out_of_space in vector, sort, sorter, stack and queue: named, and the state it leaves is the
// documented one.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;

namespace {

const block_sizes small{4 * KiB, 16 * KiB};
using vec = vector<std::uint64_t>;

//! A one-device memory-backed machine of `bytes` (plain bytes, a multiple of 4 KiB), device 'ssd'.
machine machine_of(std::uint64_t bytes) { return flashxxl_test::tiny_machine(std::to_string(bytes) + "B"); }

//! Stream on device 'big', scratch on device 'small' (of `small_bytes`), the rest on 'big'.
machine two_devices(std::uint64_t small_bytes) {
    return machine::from_config_text(
        "name=two\n"
        "flash=memory,1MiB,memory name=big\n"
        "flash=memory," +
            std::to_string(small_bytes) +
            "B,memory name=small\n"
            "placement=per_role stream=big scratch=small hot=big static_data=big\n",
        "two-devices");
}

//! Asserts that `what` names the device, the role and the structure of an out_of_space.
void expect_named(const std::string& what, const std::string& device, const std::string& role,
                  const std::string& structure) {
    EXPECT_NE(what.find("out of space on device '" + device + "' (role " + role + ", structure " + structure),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("requested "), std::string::npos) << what;
}

//! Runs op, which must throw out_of_space; returns its message.
std::string out_of_space_of(const std::function<void()>& op) {
    try {
        op();
    } catch (const out_of_space& e) {
        return e.what();
    }
    ADD_FAILURE() << "no out_of_space";
    return std::string();
}

//! Asserts that op throws io_failure "OPERATION: unusable since an earlier failure lost items (FIRST".
void expect_latched(const std::function<void()>& op, const std::string& operation, const std::string& first) {
    try {
        op();
        ADD_FAILURE() << operation << " did not throw";
    } catch (const io_failure& e) {
        EXPECT_NE(std::string(e.what()).find(operation + ": unusable since an earlier failure lost items (" +
                                             first),
                  std::string::npos)
            << e.what();
    }
}

//! Every use of a latched vector throws its first failure, and clear() makes it usable again.
void expect_vector_latched(vec& v, machine& m, const std::string& first) {
    EXPECT_TRUE(v.failed());
    expect_latched([&] { (void)v.size(); }, "flashxxl::vector::size", first);
    expect_latched([&] { (void)v.empty(); }, "flashxxl::vector::size", first);
    expect_latched([&] { (void)v.get(0); }, "flashxxl::vector::get", first);
    expect_latched([&] { v.set(0, 1); }, "flashxxl::vector::set", first);
    expect_latched([&] { v.push_back(1); }, "flashxxl::vector::push_back", first);
    expect_latched([&] { v.pop_back(); }, "flashxxl::vector::pop_back", first);
    expect_latched([&] { v.resize(3); }, "flashxxl::vector::resize", first);
    expect_latched([&] { v.flush(); }, "flashxxl::vector::flush", first);
    expect_latched([&] { (void)v.begin(); }, "flashxxl::vector::begin", first);
    expect_latched([&] { vec::stream_reader r(v); }, "flashxxl::vector::stream_reader", first);
    expect_latched([&] { vec::stream_writer w(v); }, "flashxxl::vector::stream_writer", first);
    v.clear();
    EXPECT_FALSE(v.failed());
    EXPECT_EQ(v.size(), 0u);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

//! A vector of n items 0, 1, ... written with a stream writer.
void fill(vec& v, std::uint64_t n) {
    vec::stream_writer w(v);
    for (std::uint64_t i = 0; i < n; ++i)
        w.push(i);
    w.finish();
}

//! Asserts that v holds exactly the items `expected`.
void expect_items(vec& v, const std::vector<std::uint64_t>& expected) {
    ASSERT_EQ(v.size(), expected.size());
    std::uint64_t i = 0;
    for (vec::stream_reader r(v); !r.empty(); ++r, ++i)
        ASSERT_EQ(*r, expected[i]) << "item " << i;
    EXPECT_EQ(i, expected.size());
}

} // namespace

// The case: a device smaller than one Bw. finish() reports it; a writer destroyed
// without finish() latches the vector instead of leaving it empty and usable.
TEST(out_of_space, vector_writer_on_a_device_smaller_than_one_bw) {
    machine m = machine_of(8 * KiB);
    vec v(m, vec::min_memory(small), small);
    {
        vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < 1000; ++i)
            w.push(i);
        expect_named(out_of_space_of([&] { w.finish(); }), "ssd", "stream", "flashxxl::vector");
    }
    EXPECT_FALSE(v.failed()); // reported: the vector keeps the groups written before (none)
    EXPECT_EQ(v.size(), 0u);
    {
        vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < 1000; ++i)
            w.push(i);
    } // destroyed without finish(): the failure is latched, not swallowed
    expect_vector_latched(v, m, "out of space on device 'ssd' (role stream, structure flashxxl::vector)");
}

// A device that fills up half-way: the writer destroyed without finish() fails on its last,
// partial group; one that finishes keeps exactly the groups that fit.
TEST(out_of_space, vector_writer_on_a_device_that_fills_half_way) {
    machine m = machine_of(2 * small.bw);
    vec v(m, vec::min_memory(small), small);
    const std::uint64_t per_group = v.items_per_group(), n = 2 * per_group + 10;
    {
        vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(i);
    }
    expect_vector_latched(v, m, "out of space on device 'ssd' (role stream, structure flashxxl::vector)");
    {
        vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(i);
        expect_named(out_of_space_of([&] { w.finish(); }), "ssd", "stream", "flashxxl::vector");
    }
    std::vector<std::uint64_t> kept(2 * per_group);
    for (std::uint64_t i = 0; i < kept.size(); ++i)
        kept[i] = i;
    expect_items(v, kept);
}

// push_back, set through an iterator and resize: out_of_space leaves the vector as it was.
TEST(out_of_space, vector_push_back_set_and_resize_leave_it_as_it_was) {
    machine m = machine_of(2 * small.bw);
    vec v(m, vec::min_memory(small), small);
    const std::uint64_t per_group = v.items_per_group();
    // resize from empty past the device: nothing kept, no extent held.
    expect_named(out_of_space_of([&] { v.resize(4 * per_group, 5); }), "ssd", "stream", "flashxxl::vector");
    EXPECT_FALSE(v.failed());
    EXPECT_EQ(v.size(), 0u);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    // resize of a non-empty vector past the device: the size it had, its items intact.
    fill(v, per_group);
    expect_named(out_of_space_of([&] { v.resize(4 * per_group, 5); }), "ssd", "stream", "flashxxl::vector");
    std::vector<std::uint64_t> items(per_group);
    for (std::uint64_t i = 0; i < per_group; ++i)
        items[i] = i;
    expect_items(v, items);
    // push_back until a write-back finds no extent: the failing item is not counted.
    std::uint64_t pushed = 0;
    const std::string what = out_of_space_of([&] {
        for (; pushed < 4 * per_group; ++pushed)
            v.push_back(1000 + pushed);
    });
    expect_named(what, "ssd", "stream", "flashxxl::vector");
    EXPECT_FALSE(v.failed());
    EXPECT_EQ(v.size(), per_group + pushed);
    // Assignment through an iterator whose eviction must write back a group that does not fit.
    const std::uint64_t size_before = v.size();
    expect_named(out_of_space_of([&] {
                     for (auto it = v.begin(); it != v.end(); ++it)
                         *it = 7;
                 }),
                 "ssd", "stream", "flashxxl::vector");
    EXPECT_EQ(v.size(), size_before);
}

// sort() whose runs find no room (scratch on a device smaller than one Bw, or one that fills
// half-way): out_of_space names the sorter in the sort, and the vector is unchanged.
TEST(out_of_space, sort_leaves_the_vector_unchanged) {
    for (std::uint64_t scratch_bytes : {8 * KiB, 96 * KiB}) {
        SCOPED_TRACE("scratch device of " + std::to_string(scratch_bytes) + " bytes");
        machine m = two_devices(scratch_bytes);
        vec v(m, vec::min_memory(small), small);
        std::vector<std::uint64_t> items(24000); // 188 KiB: about twice the larger scratch device
        for (std::uint64_t i = 0; i < items.size(); ++i)
            items[i] = (i * 7919) % 24001;
        {
            vec::stream_writer w(v);
            for (std::uint64_t x : items)
                w.push(x);
            w.finish();
        }
        const std::uint64_t memory =
            sort_stream_memory<std::uint64_t>(small) + sorter<std::uint64_t>::min_memory(small);
        const std::string what = out_of_space_of([&] { sort(v, std::less<std::uint64_t>(), memory); });
        expect_named(what, "small", "scratch", "flashxxl::sorter in flashxxl::sort");
        EXPECT_FALSE(v.failed());
        expect_items(v, items);
        EXPECT_EQ(m.dev("small").allocator().used_bytes(), 0u);
    }
}

// A sorter whose runs find no room is latched (documented): every later use names the failure.
TEST(out_of_space, sorter_latches) {
    for (std::uint64_t bytes : {8 * KiB, 96 * KiB}) {
        SCOPED_TRACE("device of " + std::to_string(bytes) + " bytes");
        machine m = machine_of(bytes);
        sorter<std::uint64_t> s(m, sorter<std::uint64_t>::min_memory(small), small);
        const std::string what = out_of_space_of([&] {
            for (std::uint64_t i = 0; i < 24000; ++i)
                s.push(i ^ 0x5555);
            s.sort();
        });
        expect_named(what, "ssd", "scratch", "flashxxl::sorter");
        expect_latched([&] { s.push(1); }, "flashxxl::sorter::push", what);
        expect_latched([&] { s.sort(); }, "flashxxl::sorter::sort", what);
    }
}

// A stack (or queue) whose spill finds no extent is unchanged: every item pushed before comes
// back, in order; the one that did not fit is not counted.
TEST(out_of_space, stack_unchanged) {
    for (std::uint64_t bytes : {8 * KiB, 2 * small.bw}) {
        SCOPED_TRACE("device of " + std::to_string(bytes) + " bytes");
        machine m = machine_of(bytes);
        stack<std::uint64_t> s(m, stack<std::uint64_t>::min_memory(small), small);
        std::uint64_t pushed = 0;
        const std::string what = out_of_space_of([&] {
            for (; pushed < 10 * s.half_items(); ++pushed)
                s.push(pushed);
        });
        expect_named(what, "ssd", "hot", "flashxxl::stack");
        ASSERT_EQ(s.size(), pushed);
        EXPECT_EQ(pushed, (2 + bytes / small.bw) * s.half_items());
        for (std::uint64_t i = pushed; i-- > 0; s.pop())
            ASSERT_EQ(s.top(), i);
        EXPECT_TRUE(s.empty());
    }
}

TEST(out_of_space, queue_unchanged) {
    for (std::uint64_t bytes : {8 * KiB, 2 * small.bw}) {
        SCOPED_TRACE("device of " + std::to_string(bytes) + " bytes");
        machine m = machine_of(bytes);
        queue<std::uint64_t> q(m, queue<std::uint64_t>::min_memory(small), small);
        std::uint64_t pushed = 0;
        const std::string what = out_of_space_of([&] {
            for (; pushed < 10 * q.buffer_items(); ++pushed)
                q.push(pushed);
        });
        expect_named(what, "ssd", "hot", "flashxxl::queue");
        ASSERT_EQ(q.size(), pushed);
        EXPECT_EQ(pushed, (1 + bytes / small.bw) * q.buffer_items());
        for (std::uint64_t i = 0; i < pushed; ++i, q.pop())
            ASSERT_EQ(q.front(), i);
        EXPECT_TRUE(q.empty());
    }
}
