// Tests of the virtual clock: a hand-computed schedule, the translation layer, repeatability.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include <stxxl/bits/common/aligned_alloc.h>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

//! 1 ms per 4 KiB, whatever the offset: schedules can be computed by hand.
class millisecond_per_page_model : public device_model {
public:
    explicit millisecond_per_page_model(std::uint64_t capacity) : capacity_(capacity) {}
    double service(io_op, std::uint64_t, std::uint64_t length) override {
        return 1e-3 * double(length / 4096);
    }
    std::uint64_t capacity() const override { return capacity_; }
    device_class klass() const override { return device_class::flash; }
    std::string kind() const override { return "test"; }
    std::string preset() const override { return "custom"; }
    std::vector<std::pair<std::string, std::string>> parameters() const override { return {}; }
    model_counters counters() const override { return {}; }
    void reset() override {}
    std::unique_ptr<device_model> clone_fresh() const override {
        return std::make_unique<millisecond_per_page_model>(capacity_);
    }

private:
    std::uint64_t capacity_;
};

int next_queue() {
    static int q = 5 << 20;
    return q++;
}

struct clocked_device {
    clocked_device(modelled_clock& clock, const char* name)
        : file(name, std::make_unique<sparse_memory_file>(capacity),
               std::make_unique<millisecond_per_page_model>(capacity), capacity, next_queue()) {
        file.set_clock(&clock);
        file.touch_queue();
    }
    static constexpr std::uint64_t capacity = 16 * MiB;
    emulated_file file;
};

//! What device::wait does with the clock.
void wait(modelled_clock& clock, const stxxl::request_ptr& req) {
    req->wait(false);
    clock.wait_until(dynamic_cast<const modelled_request&>(*req).completion_s());
}

struct page_buffer {
    explicit page_buffer(std::size_t pages)
        : data(static_cast<char*>(stxxl::aligned_alloc<4096>(pages * 4096))) {
        std::memset(data, 7, pages * 4096);
    }
    ~page_buffer() { stxxl::aligned_dealloc<4096>(data); }
    page_buffer(const page_buffer&) = delete;
    page_buffer& operator=(const page_buffer&) = delete;
    char* data;
};

} // namespace

// Two devices A and B at 1 ms per page; times in ms:
//   0: A1 (4 pages) -> A [0, 4];  B1 (2) -> B [0, 2];  A2 (1) -> A [4, 5]  (queued behind A1)
//   wait B1 -> host 2 (waited 2);  B2 (3) at 2 -> B [2, 5]
//   wait A1 -> host 4 (waited 4);  A3 (2) at 4, A busy until 5 -> A [5, 7]  (depends on A1)
//   wait A3 -> host 7;  wait B2 (ends 5) and A2 (ends 5): no change
//   compute 1 ms -> host 8 (not I/O wait);  B3 (1) at 8 -> B [8, 9];  wait -> host 9, waited 8
TEST(ModelledClock, HandComputedScheduleOfTwoDevicesWithOverlappingAndDependentRequests) {
    modelled_clock clock;
    clocked_device a(clock, "A"), b(clock, "B");
    page_buffer buf(4);
    auto a1 = a.file.submit(io_op::write, buf.data, 0, 4 * 4096, role::scratch);
    auto b1 = b.file.submit(io_op::write, buf.data, 0, 2 * 4096, role::scratch);
    auto a2 = a.file.submit(io_op::read, buf.data, 1 * MiB, 1 * 4096, role::scratch);
    wait(clock, b1);
    EXPECT_DOUBLE_EQ(clock.now(), 2e-3);
    auto b2 = b.file.submit(io_op::write, buf.data, 1 * MiB, 3 * 4096, role::scratch);
    wait(clock, a1);
    EXPECT_DOUBLE_EQ(clock.now(), 4e-3);
    auto a3 = a.file.submit(io_op::read, buf.data, 0, 2 * 4096, role::scratch);
    wait(clock, a3);
    EXPECT_DOUBLE_EQ(clock.now(), 7e-3);
    wait(clock, b2);
    wait(clock, a2);
    EXPECT_DOUBLE_EQ(clock.now(), 7e-3);
    EXPECT_DOUBLE_EQ(dynamic_cast<const modelled_request&>(*a2).completion_s(), 5e-3);
    EXPECT_DOUBLE_EQ(dynamic_cast<const modelled_request&>(*b2).completion_s(), 5e-3);
    clock.compute(1e-3);
    auto b3 = b.file.submit(io_op::read, buf.data, 0, 1 * 4096, role::scratch);
    wait(clock, b3);
    modelled_time t = clock.time();
    EXPECT_NEAR(t.elapsed_s, 9e-3, 1e-12);
    EXPECT_NEAR(t.io_wait_s, 8e-3, 1e-12);
    EXPECT_NEAR(a.file.free_at_s(), 7e-3, 1e-12);
    EXPECT_NEAR(b.file.free_at_s(), 9e-3, 1e-12);
    // Busy time is the sum of service times; elapsed is less than their sum (parallel devices).
    EXPECT_NEAR(a.file.busy_seconds(), 7e-3, 1e-12);
    EXPECT_NEAR(b.file.busy_seconds(), 6e-3, 1e-12);
}

TEST(ModelledClock, WaitingForAnEarlierRequestNeverMovesTheHostBack) {
    modelled_clock clock;
    clock.wait_until(3.0);
    clock.wait_until(1.0);
    EXPECT_DOUBLE_EQ(clock.now(), 3.0);
    EXPECT_DOUBLE_EQ(clock.time().io_wait_s, 3.0);
    clock.compute(-1.0); // nonsense is ignored, never a step back
    EXPECT_DOUBLE_EQ(clock.now(), 3.0);
}

// What a poller (the merges' prefetch pool) may learn without waiting: a device's own request
// knows its modelled end from submission on, before the I/O thread has served it; a request
// of a device without a model says so (it is complete when the real I/O is); a translation
// layer's request knows its end only once served (it ends with the I/O it causes).
TEST(ModelledClock, ARequestTellsItsEndBeforeItIsServedAndWhetherItIsModelled) {
    modelled_clock clock;
    clocked_device a(clock, "A");
    page_buffer buf(4);
    auto first = a.file.submit(io_op::read, buf.data, 0, 3 * 4096, role::scratch);
    auto second = a.file.submit(io_op::read, buf.data, 0, 2 * 4096, role::scratch);
    const auto& timed = dynamic_cast<const modelled_request&>(*second);
    ASSERT_TRUE(timed.known_completion_s().has_value());
    EXPECT_DOUBLE_EQ(*timed.known_completion_s(), 5e-3); // queued behind the first: [3, 5] ms
    EXPECT_TRUE(timed.on_model());
    wait(clock, first);
    wait(clock, second);
    EXPECT_DOUBLE_EQ(timed.completion_s(), 5e-3);

    const std::uint64_t capacity = 1 * MiB;
    emulated_file bare("bare", std::make_unique<sparse_memory_file>(capacity), nullptr, capacity,
                       next_queue());
    bare.set_clock(&clock);
    bare.touch_queue();
    auto plain = bare.submit(io_op::write, buf.data, 0, 4096, role::scratch);
    EXPECT_FALSE(dynamic_cast<const modelled_request&>(*plain).on_model());
    plain->wait(false);

    machine m = machine::from_config_text(
        "flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on tl_page=16KiB tl_segment=64KiB\n");
    auto layered = m.dev(0).awrite(buf.data, 0, 16 * KiB, role::hot);
    EXPECT_FALSE(dynamic_cast<const modelled_request&>(*layered).known_completion_s().has_value());
    EXPECT_TRUE(dynamic_cast<const modelled_request&>(*layered).on_model());
    m.dev(0).wait(layered, role::hot);
}

// One device, each request waited for before the next: the host's elapsed time is exactly the
// device's busy time, and all of it is I/O wait. Under a translation layer, writes the segment
// buffer absorbs end when they are submitted; the write that fills a segment ends when the
// segment write does.
TEST(ModelledClock, TranslationLayerWritesEndWhenTheirSegmentIsWritten) {
    machine m = machine::from_config_text(
        "flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 tl=on tl_page=16KiB tl_segment=64KiB\n");
    device& d = m.dev(0);
    page_buffer buf(4);
    for (int i = 0; i < 3; ++i) {
        auto req = d.awrite(buf.data, std::uint64_t(i) * 7 * 16 * KiB, 16 * KiB, role::hot);
        d.wait(req, role::hot);
        EXPECT_DOUBLE_EQ(m.modelled().elapsed_s, 0.0)
            << "write " << i << " is absorbed by the segment buffer";
    }
    auto fourth = d.awrite(buf.data, 3 * 7 * 16 * KiB, 16 * KiB, role::hot);
    d.wait(fourth, role::hot);
    EXPECT_GT(m.modelled().elapsed_s, 0.0) << "the fourth page fills the segment, which is written";
    EXPECT_NEAR(m.modelled().elapsed_s, d.busy_seconds(), 1e-12);
    auto read = d.aread(buf.data, 0, 16 * KiB, role::hot);
    d.wait(read, role::hot);
    EXPECT_NEAR(m.modelled().elapsed_s, d.busy_seconds(), 1e-12);
    EXPECT_NEAR(m.modelled().io_wait_s, m.modelled().elapsed_s, 1e-12);
}

namespace {

modelled_time sort_once(std::vector<double>& busy) {
    machine m = machine::from_preset("hybrid-2009");
    std::mt19937_64 rng(42);
    {
        sorter<std::uint64_t> s(m, 8 * MiB, block_sizes(64 * KiB, 256 * KiB));
        for (int i = 0; i < 1 << 20; ++i)
            s.push(rng());
        s.sort();
        std::uint64_t previous = 0, count = 0;
        for (; !s.empty(); ++s, ++count) {
            EXPECT_LE(previous, *s);
            previous = *s;
        }
        EXPECT_EQ(count, 1u << 20);
    }
    for (std::size_t i = 0; i < m.device_count(); ++i)
        busy.push_back(m.dev(i).busy_seconds());
    return m.modelled();
}

} // namespace

TEST(ModelledClock, ASortGivesIdenticalFiguresOnRepeatedRuns) {
    std::vector<double> busy1, busy2;
    modelled_time first = sort_once(busy1), second = sort_once(busy2);
    EXPECT_GT(first.elapsed_s, 0.0);
    EXPECT_EQ(first.elapsed_s, second.elapsed_s);
    EXPECT_EQ(first.io_wait_s, second.io_wait_s);
    EXPECT_EQ(busy1, busy2);
    // Devices overlap: the host waits less than the devices' busy times summed, and at
    // least as long as the busiest one (CPU time is not modelled, so elapsed is all wait).
    double sum = 0, busiest = 0;
    for (double b : busy1)
        sum += b, busiest = std::max(busiest, b);
    EXPECT_LE(first.elapsed_s, sum + 1e-9);
    EXPECT_GE(first.elapsed_s, busiest - 1e-9);
    EXPECT_NEAR(first.io_wait_s, first.elapsed_s, 1e-9);
}
