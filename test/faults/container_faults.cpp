// Containers whose device reports EIO (the fault shim, armed from the test): no crash, nothing lost unsaid.
//
// Runs under LD_PRELOAD=flashxxl_fault_shim (test/CMakeLists.txt). Each test puts its machine on
// a syscall file in a scratch directory and arms the shim for that file only when it wants the
// next write (or read) to fail, so everything before it is real I/O.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cerrno>
#include <cstdint>
#include <functional>
#include <string>

#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/machine/machine.hpp"
#include "support/temp_dir.hpp"

using namespace flashxxl;

namespace {

const block_sizes small{4 * KiB, 16 * KiB};

//! Fails every `op` ("write" or "read") of one file at byte `from_offset` or later with EIO
//! while alive. (By offset, so that a request already in flight when it is armed, placed
//! lower, is not hit by chance.)
class eio_while_alive {
public:
    eio_while_alive(const std::string& path, const char* op, std::uint64_t from_offset = 0) {
        using arm_fn = void (*)(const char*, int, const char*, long long);
        auto arm = reinterpret_cast<arm_fn>(dlsym(RTLD_DEFAULT, "flashxxl_fault_arm"));
        disarm_ = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "flashxxl_fault_disarm"));
        if (!arm || !disarm_) throw std::runtime_error("the fault shim is not preloaded (LD_PRELOAD=libflashxxl_fault_shim.so)");
        arm(path.c_str(), EIO, op, static_cast<long long>(from_offset));
    }
    eio_while_alive(const eio_while_alive&) = delete;
    eio_while_alive& operator=(const eio_while_alive&) = delete;
    ~eio_while_alive() { disarm_(); }

private:
    void (*disarm_)() = nullptr;
};

//! One flash device on a syscall file `path` of `size`.
machine file_machine(const std::string& path, const std::string& size = "4MiB") {
    return machine::from_config_text("name=faulty\nflash=" + path + "," + size + ",syscall name=ssd\n"
                                     "placement=single device=ssd\n",
                                     "faulty-machine");
}

//! A machine whose one device lives on a syscall file in a scratch directory; after each test
//! (its containers gone) every extent must be back.
class container_faults : public ::testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u); }
    flashxxl::testing::temp_dir dir;
    const std::string img = dir / "device.img";
    machine m = file_machine(img);
};

//! Expects `op` to throw io_failure whose message contains every one of `parts`.
void expect_io_failure(const std::function<void()>& op, std::initializer_list<std::string> parts) {
    try {
        op();
        ADD_FAILURE() << "no io_failure";
    } catch (const io_failure& e) {
        std::string what = e.what();
        for (const std::string& p : parts) EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
    }
}

} // namespace

TEST_F(container_faults, the_shim_is_preloaded) {
    EXPECT_NE(dlsym(RTLD_DEFAULT, "flashxxl_fault_arm"), nullptr);
}

// The queue's second buffer write fails: push, front and pop then refuse with the failure
// (they used to wait on a request already taken, and crashed), and the destructor is clean.
// A fresh device places the buffers' extents one after the other from byte 0.
TEST_F(container_faults, queue_refuses_every_use_after_a_failed_write) {
    {
        queue<std::uint64_t> q(m, queue<std::uint64_t>::memory_usage(small), small);
        const std::uint64_t per_buffer = q.buffer_items();
        for (std::uint64_t i = 0; i < per_buffer; ++i) q.push(i);
        q.push(per_buffer);  // the first buffer's write goes out (asynchronously)
        {
            eio_while_alive fault(img, "write", small.bw);  // the second buffer's write on
            std::uint64_t i = per_buffer + 1;
            expect_io_failure(
                [&] {
                    for (; i < 4 * per_buffer; ++i) q.push(i);
                },
                {"device 'ssd'", "writing 16 KiB", "Input/output error"});
        }
        const char* unusable = ": unusable since an earlier failure lost items (device 'ssd'";
        expect_io_failure([&] { q.push(1); }, {std::string("flashxxl::queue::push") + unusable});
        expect_io_failure([&] { (void)q.front(); }, {std::string("flashxxl::queue::front") + unusable});
        expect_io_failure([&] { q.pop(); }, {std::string("flashxxl::queue::pop") + unusable});
    }
}

// A read of the queue's head block fails: the pop that needed it throws, and so does every
// later use, instead of taking the head from the write buffer out of order.
TEST_F(container_faults, queue_refuses_every_use_after_a_failed_read) {
    {
        queue<std::uint64_t> q(m, queue<std::uint64_t>::memory_usage(small), small);
        const std::uint64_t n = 4 * q.buffer_items();
        for (std::uint64_t i = 0; i < n; ++i) q.push(i);
        std::uint64_t popped = 0;
        {
            eio_while_alive fault(img, "read", 2 * small.bw);  // the third buffer on (the reader is in the first)
            expect_io_failure(
                [&] {
                    for (; popped < n; ++popped) {
                        ASSERT_EQ(q.front(), popped);
                        q.pop();
                    }
                },
                {"device 'ssd'", "reading 4 KiB", "Input/output error"});
        }
        EXPECT_LT(popped, n);
        EXPECT_EQ(q.size(), n - popped);  // the pop that failed took nothing
        expect_io_failure([&] { (void)q.front(); }, {"flashxxl::queue::front: unusable"});
    }
}

// The stack's spill write fails: the push throws and changes nothing, so every item pops back
// in order (the stack used to record the half as spilled and later pop garbage); the push can
// be retried once the device works.
TEST_F(container_faults, stack_is_unchanged_by_a_failed_spill_or_read_back) {
    {
        stack<std::uint64_t> s(m, stack<std::uint64_t>::memory_usage(small), small);
        const std::uint64_t half = s.half_items();
        std::uint64_t next = 0;
        for (; next < 4 * half; ++next) s.push(next);  // two halves spilled
        {
            eio_while_alive fault(img, "write");
            expect_io_failure([&] { s.push(next); }, {"device 'ssd'", "writing 16 KiB", "Input/output error"});
            EXPECT_EQ(s.size(), 4 * half);
        }
        s.push(next++);  // retried: the spill succeeds now
        EXPECT_EQ(s.size(), 4 * half + 1);
        for (std::uint64_t i = 0; i < 2 * half + 1; ++i) {  // down to the spilled halves
            ASSERT_EQ(s.top(), --next);
            s.pop();
        }
        {
            eio_while_alive fault(img, "read");
            expect_io_failure([&] { (void)s.top(); }, {"device 'ssd'", "reading 4 KiB", "Input/output error"});
            expect_io_failure([&] { s.pop(); }, {"reading 4 KiB"});
        }
        EXPECT_EQ(s.size(), next);
        while (!s.empty()) {
            ASSERT_EQ(s.top(), --next);
            s.pop();
        }
        EXPECT_EQ(next, 0u);
    }
}

// A stream_writer's group write fails: the vector keeps the groups written before it, reads
// them back exactly (it used to count the lost group and read zeros or crash), and the writer
// refuses the rest.
TEST_F(container_faults, vector_stream_writer_keeps_the_groups_before_a_failed_write) {
    {
        vector<std::uint64_t> v(m, vector<std::uint64_t>::min_memory(small), small);
        const std::uint64_t per_group = v.items_per_group();
        {
            vector<std::uint64_t>::stream_writer w(v);
            std::uint64_t i = 0;
            for (; i < 3 * per_group; ++i) w.push(i);  // three groups written (the last in flight)
            {
                eio_while_alive fault(img, "write", 3 * small.bw);  // the fourth group on
                expect_io_failure(
                    [&] {
                        for (; i < 6 * per_group; ++i) w.push(i);
                    },
                    {"device 'ssd'", "writing 16 KiB", "Input/output error"});
            }
            EXPECT_EQ(v.size(), 3 * per_group);
            expect_io_failure([&] { w.push(0); }, {"flashxxl::vector::stream_writer::push: unusable"});
            expect_io_failure([&] { w.finish(); }, {"flashxxl::vector::stream_writer::finish: unusable"});
        }
        ASSERT_EQ(v.size(), 3 * per_group);
        std::uint64_t i = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i) ASSERT_EQ(*r, i);
        EXPECT_EQ(i, 3 * per_group);
        // Appending works again once the device does.
        {
            vector<std::uint64_t>::stream_writer w(v);
            for (std::uint64_t k = 0; k < per_group; ++k) w.push(3 * per_group + k);
            w.finish();
        }
        ASSERT_EQ(v.size(), 4 * per_group);
        i = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i) ASSERT_EQ(*r, i);
    }
}
