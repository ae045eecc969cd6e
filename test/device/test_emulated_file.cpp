// Tests of the emulated file: data integrity, charging, conservation, determinism, pacing, errors.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <new>
#include <random>
#include <thread>
#include <vector>

#include <stxxl/bits/io/mem_file.h>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

//! A 4 KiB-aligned buffer. Not stxxl::aligned_alloc: it writes a global flag unsynchronised on
//! every call, a data race (ThreadSanitizer) when several threads allocate, as tests here do.
struct aligned_buffer {
    explicit aligned_buffer(std::size_t n)
        : size(n), data(static_cast<char*>(::operator new(n, std::align_val_t(4096)))) {}
    ~aligned_buffer() { ::operator delete(data, std::align_val_t(4096)); }
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    std::size_t size;
    char* data;
};

void fill(char* p, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; i += 8) {
        std::uint64_t v = rng();
        std::memcpy(p + i, &v, std::min<std::size_t>(8, n - i));
    }
}

int next_queue() {
    static int q = 3 << 20;
    return q++;
}

std::unique_ptr<emulated_file> make_emulated(const std::string& preset, std::uint64_t capacity,
                                             pacing_options pacing = {}) {
    return std::make_unique<emulated_file>(preset, std::make_unique<sparse_memory_file>(capacity),
                                           make_model(preset), capacity, next_queue(), pacing);
}

} // namespace

TEST(EmulatedFile, RandomAsyncWritesReadBackIdenticallyOnSeveralDevicesAtOnce) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\n"
                                          "disk=memory,64MiB,memory name=hdd model=barracuda-7200.11\n"
                                          "disk=memory,64MiB,memory name=plain\n");
    const std::size_t block = 16 * KiB, blocks_per_dev = (64 * MiB) / block;
    auto worker = [&](std::size_t dev_index, std::uint64_t seed,
                      std::uint64_t parity) { // parity: disjoint blocks
        device& d = m.dev(dev_index);
        std::mt19937_64 rng(seed);
        std::map<std::uint64_t, std::uint64_t> written; // block -> content seed
        std::vector<std::unique_ptr<aligned_buffer>> buffers;
        std::vector<stxxl::request_ptr> pending;
        for (int round = 0; round < 20; ++round) {
            buffers.clear();
            pending.clear();
            std::map<std::uint64_t, bool> in_round;
            for (int k = 0; k < 16; ++k) { // 16 writes in flight at once, distinct blocks
                std::uint64_t b = (rng() % (blocks_per_dev / 2)) * 2 + parity;
                if (in_round[b]) continue;
                in_round[b] = true;
                std::uint64_t content = rng();
                buffers.push_back(std::make_unique<aligned_buffer>(block));
                fill(buffers.back()->data, block, content);
                pending.push_back(d.awrite(buffers.back()->data, b * block, block, role::scratch));
                written[b] = content;
            }
            for (auto& r : pending)
                d.wait(r, role::scratch);
        }
        aligned_buffer got(block), want(block);
        for (auto& [b, content] : written) {
            d.wait(d.aread(got.data, b * block, block, role::stream), role::stream);
            fill(want.data, block, content);
            ASSERT_EQ(std::memcmp(got.data, want.data, block), 0) << d.name() << " block " << b;
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < m.device_count(); ++i) {
        threads.emplace_back(worker, i, 100 + i, 0);
        threads.emplace_back(worker, i, 200 + i, 1); // two submitters per device
    }
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(m.dev("plain").busy_seconds(), 0.0) << "no model, no modelled time";
    EXPECT_GT(m.dev("ssd").busy_seconds(), 0.0);
}

// Machines made while another machine's device is busy: each new device inserts its queue
// into STXXL's process-wide, unsynchronised queue map, so submissions must not look the map up
// (ThreadSanitizer reported a std::map find in add_request racing that insert). Under the
// release build this checks the data; under ./run.sh test's ThreadSanitizer stage, the race.
TEST(EmulatedFile, SubmittingWhileOtherMachinesCreateTheirQueues) {
    machine busy = machine::from_config_text("flash=memory,16MiB,memory name=ssd model=hama-ssd-2009\n"
                                             "flash=memory,16MiB,memory name=tl model=hama-ssd-2009 tl=on "
                                             "tl_page=16KiB tl_segment=256KiB\n");
    std::atomic<bool> done{false};
    std::atomic<int> mismatches{0};
    std::thread io([&] {
        const std::size_t block = 16 * KiB;
        aligned_buffer out(block), in(block);
        for (std::uint64_t round = 0; !done.load() || round < 64; ++round) {
            device& d = busy.dev(round % 2);
            fill(out.data, block, round);
            d.wait(d.awrite(out.data, (round % 64) * block, block, role::scratch), role::scratch);
            d.wait(d.aread(in.data, (round % 64) * block, block, role::scratch), role::scratch);
            if (std::memcmp(in.data, out.data, block) != 0) mismatches.fetch_add(1);
        }
    });
    std::vector<machine> made; // kept, so that every one takes new queue ids
    for (int i = 0; i < 24; ++i)
        made.push_back(machine::from_config_text("flash=memory,8MiB,memory name=f" + std::to_string(i) +
                                                 " model=hama-ssd-2009 tl=" + (i % 2 ? "on" : "off") +
                                                 (i % 2 ? " tl_page=16KiB tl_segment=256KiB" : "") + "\n"));
    done.store(true);
    io.join();
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_EQ(made.size(), 24u);
}

TEST(EmulatedFile, ChargesExactlyWhatTheModelChargesAndStatsAddUp) {
    auto f = make_emulated("hama-ssd-2009", 256 * MiB);
    auto reference = make_model("hama-ssd-2009");
    aligned_buffer buf(1 * MiB);
    std::mt19937_64 rng(5);
    double expected = 0;
    for (int i = 0; i < 300; ++i) {
        std::uint64_t len = (1 + rng() % 256) * 4 * KiB;
        std::uint64_t off = (rng() % ((256 * MiB - len) / (4 * KiB))) * 4 * KiB;
        io_op op = rng() % 2 ? io_op::read : io_op::write;
        std::optional<role> r;
        if (i % 5) r = all_roles[i % 4];
        expected += reference->service(op, off, len);
        f->submit(op, buf.data, off, len, r)->wait(false);
    }
    device_stats s = f->stats();
    EXPECT_DOUBLE_EQ(f->busy_seconds(), expected) << "busy time = sum of the model's charges";
    io_counters sum = s.internal;
    for (role r : all_roles)
        sum += s.of(r);
    EXPECT_EQ(sum.ops(), 300u);
    EXPECT_EQ(sum.bytes(), s.total.bytes());
    EXPECT_NEAR(sum.modelled_s, s.total.modelled_s, 1e-9 * s.total.modelled_s);
    EXPECT_GT(s.total.service_s, 0.0);
}

TEST(EmulatedFile, SameRequestSequenceGivesIdenticalModelledTime) {
    auto run = [] {
        machine m = machine::from_preset("hybrid-2009");
        aligned_buffer buf(256 * KiB);
        std::mt19937_64 rng(11);
        for (int i = 0; i < 200; ++i) {
            device& d = m.dev(i % 2);
            std::uint64_t off = (rng() % 4096) * 256 * KiB;
            auto req = rng() % 3 ? d.awrite(buf.data, off, 256 * KiB, role::hot)
                                 : d.aread(buf.data, off, 256 * KiB, role::hot);
            d.wait(req, role::hot);
        }
        return std::make_pair(m.dev(0).busy_seconds(), m.dev(1).busy_seconds());
    };
    auto a = run(), b = run();
    EXPECT_EQ(a.first, b.first);
    EXPECT_EQ(a.second, b.second);
    EXPECT_GT(a.first, 0.0);
}

TEST(EmulatedFile, ChargeDependsOnSubmissionOrderNotOnCompletion) {
    // Submit many requests without waiting: the charge is fixed at submission.
    auto f = make_emulated("barracuda-7200.11", 1 * GiB);
    auto reference = make_model("barracuda-7200.11");
    aligned_buffer buf(64 * KiB);
    std::vector<stxxl::request_ptr> reqs;
    double expected = 0;
    for (int i = 0; i < 64; ++i) {
        std::uint64_t off = static_cast<std::uint64_t>((i * 7919) % 1000) * MiB;
        expected += reference->service(io_op::read, off, 64 * KiB);
        reqs.push_back(f->submit(io_op::read, buf.data, off, 64 * KiB, role::hot));
    }
    EXPECT_DOUBLE_EQ(f->busy_seconds(), expected) << "charged before completion";
    for (auto& r : reqs)
        r->wait(false);
}

TEST(EmulatedFile, PacedWallTimeIsNeverBelowScaledModelledTime) {
    pacing_options pacing;
    pacing.enabled = true;
    pacing.scale = 0.05;
    auto f = make_emulated("hama-ssd-2009", 64 * MiB, pacing);
    aligned_buffer buf(512 * KiB);
    auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < 40; ++i)
        f->submit(io_op::write, buf.data, (i * 3 % 64) * MiB, 512 * KiB, role::scratch)->wait(false);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    double modelled = f->busy_seconds();
    ASSERT_GT(modelled, 0.5); // 40 x ~20 ms
    // One-sided bound; deadlines closer than min_sleep_s may be skipped only at the very end.
    EXPECT_GE(wall, pacing.scale * modelled - pacing.min_sleep_s);
}

TEST(EmulatedFile, BadRequestsThrowAndNameTheDevice) {
    auto f = make_emulated("hama-ssd-2009", 16 * MiB);
    aligned_buffer buf(64 * KiB);
    auto expect_invalid = [&](std::uint64_t off, std::uint64_t len, void* p, const char* what) {
        try {
            f->submit(io_op::write, p, off, len, role::scratch)->wait(false);
            ADD_FAILURE() << what << " accepted";
        } catch (const invalid_request& e) {
            EXPECT_NE(std::string(e.what()).find("hama-ssd-2009"), std::string::npos) << e.what();
        }
    };
    expect_invalid(100, 4096, buf.data, "unaligned offset");
    expect_invalid(0, 1000, buf.data, "unaligned length");
    expect_invalid(0, 4096, buf.data + 8, "unaligned buffer");
    expect_invalid(16 * MiB, 4096, buf.data, "past the end");
    expect_invalid(16 * MiB - 4096, 8192, buf.data, "crossing the end");
    expect_invalid(0, 0, buf.data, "zero length");
    EXPECT_EQ(f->busy_seconds(), 0.0) << "rejected requests are not charged";
    EXPECT_THROW(f->set_size(32 * MiB), out_of_space);
}

namespace {
//! A backing file whose writes fail, to check that errors reach the waiter.
class failing_file : public sparse_memory_file {
public:
    using sparse_memory_file::sparse_memory_file;
    void serve(void* buffer, offset_type offset, size_type bytes,
               stxxl::request::request_type type) override {
        if (type == stxxl::request::WRITE) throw std::runtime_error("disk on fire");
        sparse_memory_file::serve(buffer, offset, bytes, type);
    }
};
} // namespace

TEST(EmulatedFile, BackingErrorsReachTheWaiterWithTheDeviceName) {
    emulated_file f("flaky", std::make_unique<failing_file>(16 * MiB), nullptr, 16 * MiB, next_queue());
    aligned_buffer buf(4096);
    auto req = f.submit(io_op::write, buf.data, 0, 4096, role::scratch);
    try {
        req->wait(false);
        FAIL() << "error swallowed";
    } catch (const stxxl::io_error& e) {
        EXPECT_NE(std::string(e.what()).find("flaky"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("disk on fire"), std::string::npos) << e.what();
    }
    f.submit(io_op::read, buf.data, 0, 4096, role::scratch)->wait(false); // the device still works
}

TEST(EmulatedFile, DestructionWaitsForOutstandingRequests) {
    aligned_buffer buf(1 * MiB);
    std::vector<stxxl::request_ptr> reqs;
    {
        auto f = make_emulated("barracuda-7200.11", 64 * MiB);
        for (int i = 0; i < 32; ++i)
            reqs.push_back(f->submit(io_op::write, buf.data, i * MiB, MiB, role::stream));
        for (auto& r : reqs)
            r->wait(false);
        reqs.clear();
    } // no "deleted while there are unfinished requests", no use after free (ASan)
    SUCCEED();
}

TEST(SparseMemoryFile, AllocatesOnlyWhatIsWritten) {
    sparse_memory_file f(500 * GiB);
    aligned_buffer buf(8192);
    fill(buf.data, 8192, 3);
    f.serve(buf.data, 400 * GiB, 8192, stxxl::request::WRITE);
    EXPECT_EQ(f.allocated_bytes(), 8192u);
    aligned_buffer got(8192);
    f.serve(got.data, 400 * GiB, 8192, stxxl::request::READ);
    EXPECT_EQ(std::memcmp(got.data, buf.data, 8192), 0);
    f.serve(got.data, 0, 4096, stxxl::request::READ);
    EXPECT_EQ(got.data[0], 0) << "never-written bytes read as zero";
    f.discard(400 * GiB, 8192);
    EXPECT_EQ(f.allocated_bytes(), 0u);
    EXPECT_THROW(f.serve(got.data, 500 * GiB, 4096, stxxl::request::READ), stxxl::io_error);
}
