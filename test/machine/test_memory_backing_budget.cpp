// Memory-backed devices share their machine's memory budget: a write past it fails with the way out, not the
// OOM killer.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <stxxl/bits/common/exceptions.h>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/device/memory_backing_budget.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

TEST(memory_backing_budget, takes_up_to_the_limit_and_gives_back) {
    memory_backing_budget b(10);
    EXPECT_TRUE(b.try_take(6));
    EXPECT_FALSE(b.try_take(5)); // 11 > 10: nothing taken
    EXPECT_EQ(b.used(), 6u);
    EXPECT_TRUE(b.try_take(4));
    EXPECT_FALSE(b.try_take(1));
    b.give_back(6);
    EXPECT_TRUE(b.try_take(6));
    EXPECT_FALSE(b.try_take(UINT64_MAX)); // no overflow past the limit
    EXPECT_EQ(b.used(), 10u);
    EXPECT_GT(memory_backing_budget::default_limit(), 0u);
    if (physical_memory_bytes() != 0) {
        EXPECT_EQ(memory_backing_budget::default_limit(), physical_memory_bytes() / 4 * 3);
    }
}

namespace {
void write_at(sparse_memory_file& f, std::uint64_t offset, std::uint64_t bytes) {
    std::vector<char> data(bytes, 'x');
    f.serve(data.data(), offset, bytes, stxxl::request::WRITE);
}
} // namespace

// Two files share one budget of four 4 KiB chunks; rewriting a chunk takes nothing more,
// discarding and destroying give chunks back.
TEST(memory_backing_budget, files_share_it_chunk_by_chunk) {
    memory_backing_budget budget(16 * KiB);
    sparse_memory_file a(1 * MiB, stxxl::file::DEFAULT_QUEUE, 4 * KiB, &budget, "a");
    {
        sparse_memory_file b(1 * MiB, stxxl::file::DEFAULT_QUEUE, 4 * KiB, &budget, "b");
        write_at(a, 0, 8 * KiB);
        write_at(b, 64 * KiB, 8 * KiB);
        EXPECT_EQ(budget.used(), 16 * KiB);
        write_at(a, 0, 8 * KiB); // the same chunks again
        EXPECT_EQ(budget.used(), 16 * KiB);
        try {
            write_at(a, 8 * KiB, 4 * KiB);
            FAIL() << "a fifth chunk was allocated";
        } catch (const stxxl::io_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("memory-backed device 'a' holds 8 KiB"), std::string::npos) << msg;
            EXPECT_NE(msg.find("may hold at most 16 KiB"), std::string::npos) << msg;
            EXPECT_NE(msg.find("--backing-dir"), std::string::npos) << msg;
        }
        EXPECT_EQ(a.allocated_bytes(), 8 * KiB); // the refused chunk is not kept
        b.discard(64 * KiB, 4 * KiB);
        EXPECT_EQ(budget.used(), 12 * KiB);
        write_at(a, 8 * KiB, 4 * KiB);
        EXPECT_EQ(budget.used(), 16 * KiB);
    }
    EXPECT_EQ(budget.used(), 12 * KiB); // b's last chunk went with b
}

// Through a machine: its memory-backed devices draw on machine_spec::memory_backing_limit, and a
// container write past it fails with an error that names the device and says "backed by memory".
TEST(memory_backing_budget, a_machine_refuses_writes_past_it) {
    machine_spec spec = parse_machine_config(
        "name=small\nflash=memory,1GiB,memory name=ssd\nplacement=single device=ssd\n", "budget-test");
    spec.memory_backing_limit = 1 * MiB;
    machine m(spec);
    const block_sizes b(64 * KiB, 256 * KiB);
    {
        vector<std::uint64_t> v(m, 2 * MiB, b, role::stream);
        vector<std::uint64_t>::stream_writer w(v);
        for (std::uint64_t i = 0; i < 64 * 1024; ++i)
            w.push(i); // 512 KiB: fits
    }
    try {
        vector<std::uint64_t> v(m, 2 * MiB, b, role::stream);
        {
            vector<std::uint64_t>::stream_writer w(v);
            for (std::uint64_t i = 0; i < 512 * 1024; ++i)
                w.push(i); // 4 MiB
        }
        FAIL() << "4 MiB written under a 1 MiB budget";
    } catch (const std::exception& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("device 'ssd'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("backed by memory"), std::string::npos) << msg;
        EXPECT_NE(msg.find("may hold at most 1 MiB"), std::string::npos) << msg;
        EXPECT_EQ(msg.find("check the backing file"), std::string::npos) << msg;
    }
}

// room_for: the free space of a role's devices, capped by what the memory-backing budget has left.
TEST(memory_backing_budget, room_for_a_role_is_capped_by_it) {
    const char* config = "name=small\nflash=memory,1GiB,memory name=ssd\nplacement=single device=ssd\n";
    machine_spec roomy = parse_machine_config(config, "budget-test");
    roomy.memory_backing_limit = 8 * GiB;
    machine m(roomy);
    EXPECT_EQ(m.room_for(role::static_data), 1 * GiB);
    {
        owned_extent e = m.allocate(role::static_data, 256 * MiB);
        EXPECT_EQ(m.room_for(role::static_data), 768 * MiB);
    }
    EXPECT_EQ(m.room_for(role::static_data), 1 * GiB);

    machine_spec tight = parse_machine_config(config, "budget-test");
    tight.memory_backing_limit = 1 * MiB;
    machine small(tight);
    EXPECT_EQ(small.room_for(role::static_data), 1 * MiB);
    const block_sizes b(64 * KiB, 256 * KiB);
    vector<std::uint64_t> v(small, 2 * MiB, b, role::stream);
    {
        vector<std::uint64_t>::stream_writer w(v);
        for (std::uint64_t i = 0; i < 64 * 1024; ++i)
            w.push(i); // 512 KiB written
    }
    EXPECT_LE(small.room_for(role::static_data), 1 * MiB - 512 * KiB);
}
