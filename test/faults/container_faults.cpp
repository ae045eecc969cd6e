// Containers whose device reports EIO (the fault shim, armed from the test): no crash, nothing lost unsaid.
//
// Runs under LD_PRELOAD=flashxxl_fault_shim (test/CMakeLists.txt). Each test puts its machine on
// a syscall file in a scratch directory and arms the shim for that file only when it wants the
// next write (or read) to fail, so everything before it is real I/O.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/block_reader.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/forecast_prefetcher.hpp"
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
        if (!arm || !disarm_)
            throw std::runtime_error(
                "the fault shim is not preloaded (LD_PRELOAD=libflashxxl_fault_shim.so)");
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
    return machine::from_config_text("name=faulty\nflash=" + path + "," + size +
                                         ",syscall name=ssd\n"
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
        for (const std::string& p : parts)
            EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
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
        queue<std::uint64_t> q(m, queue<std::uint64_t>::min_memory(small), small);
        const std::uint64_t per_buffer = q.buffer_items();
        for (std::uint64_t i = 0; i < per_buffer; ++i)
            q.push(i);
        q.push(per_buffer); // the first buffer's write goes out (asynchronously)
        {
            eio_while_alive fault(img, "write", small.bw); // the second buffer's write on
            std::uint64_t i = per_buffer + 1;
            expect_io_failure(
                [&] {
                    for (; i < 4 * per_buffer; ++i)
                        q.push(i);
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
        queue<std::uint64_t> q(m, queue<std::uint64_t>::min_memory(small), small);
        const std::uint64_t n = 4 * q.buffer_items();
        for (std::uint64_t i = 0; i < n; ++i)
            q.push(i);
        std::uint64_t popped = 0;
        {
            eio_while_alive fault(img, "read",
                                  2 * small.bw); // the third buffer on (the reader is in the first)
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
        EXPECT_EQ(q.size(), n - popped); // the pop that failed took nothing
        expect_io_failure([&] { (void)q.front(); }, {"flashxxl::queue::front: unusable"});
    }
}

// The stack's spill write fails: the push throws and changes nothing, so every item pops back
// in order (the stack used to record the half as spilled and later pop garbage); the push can
// be retried once the device works.
TEST_F(container_faults, stack_is_unchanged_by_a_failed_spill_or_read_back) {
    {
        stack<std::uint64_t> s(m, stack<std::uint64_t>::min_memory(small), small);
        const std::uint64_t half = s.half_items();
        std::uint64_t next = 0;
        for (; next < 4 * half; ++next)
            s.push(next); // two halves spilled
        {
            eio_while_alive fault(img, "write");
            expect_io_failure([&] { s.push(next); },
                              {"device 'ssd'", "writing 16 KiB", "Input/output error"});
            EXPECT_EQ(s.size(), 4 * half);
        }
        s.push(next++); // retried: the spill succeeds now
        EXPECT_EQ(s.size(), 4 * half + 1);
        for (std::uint64_t i = 0; i < 2 * half + 1; ++i) { // down to the spilled halves
            ASSERT_EQ(s.top(), --next);
            s.pop();
        }
        {
            eio_while_alive fault(img, "read");
            expect_io_failure([&] { (void)s.top(); },
                              {"device 'ssd'", "reading 4 KiB", "Input/output error"});
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
            for (; i < 3 * per_group; ++i)
                w.push(i); // three groups written (the last in flight)
            {
                eio_while_alive fault(img, "write", 3 * small.bw); // the fourth group on
                expect_io_failure(
                    [&] {
                        for (; i < 6 * per_group; ++i)
                            w.push(i);
                    },
                    {"device 'ssd'", "writing 16 KiB", "Input/output error"});
            }
            EXPECT_EQ(v.size(), 3 * per_group);
            expect_io_failure([&] { w.push(0); }, {"flashxxl::vector::stream_writer::push: unusable"});
            expect_io_failure([&] { w.finish(); }, {"flashxxl::vector::stream_writer::finish: unusable"});
        }
        ASSERT_EQ(v.size(), 3 * per_group);
        std::uint64_t i = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i)
            ASSERT_EQ(*r, i);
        EXPECT_EQ(i, 3 * per_group);
        // Appending works again once the device does.
        {
            vector<std::uint64_t>::stream_writer w(v);
            for (std::uint64_t k = 0; k < per_group; ++k)
                w.push(3 * per_group + k);
            w.finish();
        }
        ASSERT_EQ(v.size(), 4 * per_group);
        i = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i)
            ASSERT_EQ(*r, i);
    }
}

// The io classes themselves (graph/cluster_file.hpp uses a block_writer with no container
// around it). A block_writer's second segment write fails: the push that waits for it throws,
// and finish() throws too, every time (it used to write the stale buffer as a made-up segment
// and hand out the failed one as if written). Pushes after the failure stay in the buffer.
TEST_F(container_faults, block_writer_refuses_finish_after_a_failed_write) {
    {
        std::uint64_t counter = 0;
        block_writer<std::uint64_t> w(m, role::scratch, small, counter, nullptr, 2);
        const std::uint64_t per = block_writer<std::uint64_t>::items_per_segment(small);
        std::uint64_t i = 0;
        {
            eio_while_alive fault(img, "write", small.bw); // the second segment's write on
            expect_io_failure(
                [&] {
                    for (; i < 4 * per; ++i)
                        w.push(i);
                },
                {"device 'ssd'", "writing 16 KiB", "Input/output error"});
        }
        const std::string unusable =
            "flashxxl::block_writer::finish: unusable since an earlier failure lost items (device 'ssd'";
        expect_io_failure([&] { w.finish(); }, {unusable});
        for (std::uint64_t k = 0; k < per / 2; ++k)
            w.push(k);
        expect_io_failure([&] { w.finish(); }, {unusable});
    }
}

// A block_reader's read fails: the add that waited for it throws, and every later add, pop and
// next_range throws it (the next add used to make the failed block current and hand out its
// buffer as items). The reader stays empty() and size() still counts the items not handed out.
TEST_F(container_faults, block_reader_refuses_every_use_after_a_failed_read) {
    {
        std::uint64_t counter = 0;
        std::vector<segment> segs;
        std::uint64_t per = 0;
        {
            block_writer<std::uint64_t> w(m, role::scratch, small, counter, nullptr, 2);
            per = block_writer<std::uint64_t>::items_per_segment(small);
            for (std::uint64_t i = 0; i < 2 * per; ++i)
                w.push(i);
            segs = w.finish();
        }
        ASSERT_EQ(segs.size(), 2u);
        ASSERT_EQ(segs[1].ext->offset, small.bw);
        block_reader<std::uint64_t> r(m, role::scratch, small, nullptr, 1);
        {
            eio_while_alive fault(img, "read", small.bw); // the second segment
            expect_io_failure([&] { r.add(std::move(segs[1])); },
                              {"device 'ssd'", "reading 4 KiB", "Input/output error"});
        }
        const std::string unusable = ": unusable since an earlier failure lost items (device 'ssd'";
        expect_io_failure([&] { r.add(std::move(segs[0])); }, {"flashxxl::block_reader::add" + unusable});
        expect_io_failure([&] { r.pop(); }, {"flashxxl::block_reader::pop" + unusable});
        const std::uint64_t *cur = nullptr, *end = nullptr;
        expect_io_failure([&] { r.next_range(cur, end, false); },
                          {"flashxxl::block_reader::next_range" + unusable});
        EXPECT_TRUE(r.empty());
        EXPECT_EQ(r.size(), per);
    }
}

// A forecast_prefetcher's read of one block fails: the next_range that meets it throws, and so
// does every later next_range of any run (the failed block's buffer used to be handed out as
// items, or the run ended short).
TEST_F(container_faults, forecast_prefetcher_refuses_every_use_after_a_failed_read) {
    {
        std::uint64_t counter = 0;
        using pool_type = forecast_prefetcher<std::uint64_t, std::less<std::uint64_t>>;
        pool_type p(m, role::scratch, small, {}, 8);
        const std::uint64_t per = block_writer<std::uint64_t>::items_per_segment(small);
        for (std::uint64_t r = 0; r < 2; ++r) { // run r: one segment at r x Bw, items 2i + r
            block_writer<std::uint64_t> w(m, role::scratch, small, counter, nullptr, 2);
            w.record_block_keys();
            for (std::uint64_t i = 0; i < per; ++i)
                w.push(2 * i + r);
            std::vector<segment> segs = w.finish();
            p.add_run(std::move(segs), w.take_block_keys());
        }
        const std::uint64_t *cur[2] = {}, *end[2] = {};
        std::uint64_t merged = 0;
        {
            eio_while_alive fault(img, "read", small.bw + 3 * small.br); // the last block of run 1
            expect_io_failure(
                [&] {
                    p.start();
                    bool live[2];
                    for (int r = 0; r < 2; ++r)
                        live[r] = p.next_range(r, cur[r], end[r], false);
                    while (live[0] || live[1]) {
                        int r = !live[0] || (live[1] && *cur[1] < *cur[0]) ? 1 : 0;
                        ASSERT_EQ(*cur[r], merged);
                        ++merged;
                        if (++cur[r] == end[r]) live[r] = p.next_range(r, cur[r], end[r], true);
                    }
                },
                {"device 'ssd'", "reading 4 KiB", "Input/output error"});
        }
        EXPECT_LT(merged, 2 * per);
        const std::string unusable = "flashxxl::forecast_prefetcher::next_range: unusable since an earlier "
                                     "failure lost items (device 'ssd'";
        for (int round = 0; round < 3; ++round)
            for (std::size_t r = 0; r < 2; ++r)
                expect_io_failure([&] { p.next_range(r, cur[r], end[r], true); }, {unusable});
    }
}

// A read the prefetcher has issued ahead fails: for_each_ready (what a parallel merge step
// reads ahead from) throws when it reaches that block, instead of reporting its buffer as
// items, and every later use throws.
TEST_F(container_faults, forecast_prefetcher_never_reports_a_failed_read_ready) {
    {
        std::uint64_t counter = 0;
        using pool_type = forecast_prefetcher<std::uint64_t, std::less<std::uint64_t>>;
        pool_type p(m, role::scratch, small, {}, 8); // room for every block of both runs
        const std::uint64_t per = block_writer<std::uint64_t>::items_per_segment(small);
        for (std::uint64_t r = 0; r < 2; ++r) { // run r: one segment at r x Bw
            block_writer<std::uint64_t> w(m, role::scratch, small, counter, nullptr, 2);
            w.record_block_keys();
            for (std::uint64_t i = 0; i < per; ++i)
                w.push(2 * i + r);
            std::vector<segment> segs = w.finish();
            p.add_run(std::move(segs), w.take_block_keys());
        }
        std::size_t reported = 0;
        {
            eio_while_alive fault(img, "read", small.bw + 3 * small.br); // the last block of run 1
            p.start();                                                   // every block is issued
            // Asked again until the failed read has completed (no fixed wait: a loaded machine
            // may take long); the blocks before it are reported on the way, the failed one never.
            std::string failure;
            for (int attempt = 0; attempt < 3000 && failure.empty(); ++attempt) {
                reported = 0; // each call reports the ready blocks from the first again
                try {
                    p.for_each_ready(1, [&](const std::uint64_t*, const std::uint64_t*) {
                        ++reported;
                        return true;
                    });
                } catch (const io_failure& e) {
                    failure = e.what();
                }
                if (failure.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            for (const std::string part : {"device 'ssd'", "reading 4 KiB", "Input/output error"})
                EXPECT_NE(failure.find(part), std::string::npos)
                    << "'" << part << "' not in: '" << failure << "'";
        }
        EXPECT_EQ(reported, 3u); // the blocks before the failed one, in the call that threw
        const std::string unusable = ": unusable since an earlier failure lost items (device 'ssd'";
        expect_io_failure(
            [&] { p.for_each_ready(0, [](const std::uint64_t*, const std::uint64_t*) { return true; }); },
            {"flashxxl::forecast_prefetcher::for_each_ready" + unusable});
        const std::uint64_t *cur = nullptr, *end = nullptr;
        expect_io_failure([&] { p.next_range(0, cur, end, false); },
                          {"flashxxl::forecast_prefetcher::next_range" + unusable});
    }
}
