// The translation layer serves in submission order: modelled time depends only on the order of
// submissions and waits (modelled_clock's promise), never on thread timing.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "tl/tl_test_support.hpp"

using namespace flashxxl;
using namespace flashxxl::testing;

namespace {

//! A device model with fixed costs per request, whatever its size and place: powers of two, so
//! every sum of them on the virtual clock is exact and a schedule can be derived by hand.
class fixed_cost_model : public device_model {
public:
    static constexpr double read_s = 1.0 / 1024;
    static constexpr double write_s = 1.0 / 128;

    explicit fixed_cost_model(std::uint64_t capacity) : capacity_(capacity) {}
    double service(io_op op, std::uint64_t, std::uint64_t) override {
        return op == io_op::read ? read_s : write_s;
    }
    std::uint64_t capacity() const override { return capacity_; }
    device_class klass() const override { return device_class::flash; }
    std::string kind() const override { return "fixed-cost"; }
    std::string preset() const override { return "custom"; }
    std::vector<std::pair<std::string, std::string>> parameters() const override { return {}; }
    model_counters counters() const override { return {}; }
    void reset() override {}
    std::unique_ptr<device_model> clone_fresh() const override {
        return std::make_unique<fixed_cost_model>(capacity_);
    }

private:
    std::uint64_t capacity_;
};

double end_of(const stxxl::request_ptr& req) {
    return dynamic_cast<const modelled_request&>(*req).completion_s();
}

//! Waits for `req` as device::wait does: the host's clock moves to the request's modelled end.
void host_wait(modelled_clock& clock, const stxxl::request_ptr& req) {
    req->wait();
    clock.wait_until(end_of(req));
}

//! Puts `device` on `clock` and creates its queue (as a machine does before building its layer).
emulated_file& on_clock(emulated_file& device, modelled_clock& clock) {
    device.set_clock(&clock);
    device.touch_queue();
    return device;
}

//! One machine: an emulated device on the virtual clock and a translation layer over it.
struct timed_stack {
    timed_stack(std::unique_ptr<device_model> model, std::uint64_t span, const tl_config& cfg, int queue)
        : device("ssd", std::make_unique<sparse_memory_file>(span), std::move(model), span, queue),
          tl(on_clock(device, clock), span, cfg, "ssd", queue + 1) {
        tl.set_clock(&clock);
    }
    modelled_clock clock;
    emulated_file device;
    translation_layer tl;
};

} // namespace

// Each round starts with the device idle at host time t: a read of a page in a sealed segment,
// then a write that may seal a segment and clean. Served in submission order the read is the
// device's first request, so it ends at exactly t + read_s; the write ends after the read and
// every lower request it caused. (STXXL's queue served the write first whenever both were
// queued, and the read then ended after the segment write and the cleaning.)
TEST(tl_determinism, a_read_submitted_before_a_sealing_write_ends_first_by_hand) {
    constexpr std::uint64_t page = 4 * KiB, segment = 2 * page, span = 32 * segment;
    tl_config cfg;
    cfg.page_bytes = page;
    cfg.segment_bytes = segment;   // 2 pages: every second write seals
    cfg.spare_bytes = 4 * segment; // logical capacity 56 pages
    timed_stack m(std::make_unique<fixed_cost_model>(span), span, cfg, test_queue_id(20));
    constexpr std::uint64_t read_pages = 4, write_pages = 48; // 52 of 64 physical pages live
    aligned_buffer rbuf(page), wbuf(page);
    for (std::uint64_t p = 0; p < read_pages + write_pages; ++p) {
        fill_page(wbuf.data, page, p, 0);
        host_wait(m.clock, m.tl.awrite(wbuf.data, p * page, page));
    }
    std::mt19937_64 rng(11);
    std::uint64_t rounds_with_device_io = 0, late_reads = 0;
    for (int round = 0; round < 600; ++round) {
        const tl_stats before = m.tl.stats();
        const double t = m.clock.now();
        ASSERT_LE(m.device.free_at_s(), t); // the device is idle: everything before was waited for
        const std::uint64_t r = rng() % read_pages, w = read_pages + rng() % write_pages;
        stxxl::request_ptr read = m.tl.aread(rbuf.data, r * page, page);
        fill_page(wbuf.data, page, w, round + 1);
        stxxl::request_ptr write = m.tl.awrite(wbuf.data, w * page, page);
        host_wait(m.clock, read);
        if (end_of(read) != t + fixed_cost_model::read_s) ++late_reads;
        EXPECT_EQ(end_of(read), t + fixed_cost_model::read_s) << "round " << round;
        EXPECT_TRUE(page_matches(rbuf.data, page, r, 0)) << "round " << round;
        host_wait(m.clock, write);
        const tl_stats after = m.tl.stats();
        const std::uint64_t reads = after.device_reads - before.device_reads - 1; // less the host read
        const std::uint64_t writes = after.device_writes - before.device_writes;
        const double expected = reads + writes == 0 ? t
                                                    : t + fixed_cost_model::read_s * double(1 + reads) +
                                                          fixed_cost_model::write_s * double(writes);
        EXPECT_EQ(end_of(write), expected)
            << "round " << round << ": " << reads << " lower reads, " << writes << " writes";
        rounds_with_device_io += writes > 0;
    }
    EXPECT_EQ(late_reads, 0u) << "reads that ended after device I/O submitted after them";
    const tl_stats s = m.tl.stats();
    EXPECT_GT(rounds_with_device_io, 250u); // about every second write seals
    EXPECT_GT(s.segments_cleaned, 50u);     // and cleaning ran in many rounds
    EXPECT_GT(s.cleaning_page_copies, 0u);
}

namespace {

//! The review's scenario on the 2009 SSD: batches of async reads and writes in flight together
//! (writes seal segments and clean), waiting for each read at once and for the writes at the
//! end of the batch. Returns every request's modelled end, the host's final time and I/O wait,
//! and the segments cleaned.
std::vector<double> run_batches(int queue) {
    constexpr std::uint64_t page = 128 * KiB, segment = 4 * MiB, span = 64 * MiB;
    tl_config cfg;
    cfg.page_bytes = page;
    cfg.segment_bytes = segment;
    cfg.spare_bytes = 4 * segment; // logical capacity 384 pages
    timed_stack m(make_model("hama-ssd-2009"), span, cfg, queue);
    constexpr int k = 8;
    std::vector<std::unique_ptr<aligned_buffer>> bufs;
    for (int i = 0; i < 2 * k; ++i)
        bufs.push_back(std::make_unique<aligned_buffer>(page));
    for (std::uint64_t p = 0; p < 192; ++p)
        host_wait(m.clock, m.tl.awrite(bufs[0]->data, p * page, page));
    std::mt19937_64 rng(5);
    std::vector<double> ends;
    for (int round = 0; round < 300; ++round) {
        std::vector<stxxl::request_ptr> writes;
        for (int i = 0; i < k; ++i) {
            stxxl::request_ptr read = m.tl.aread(bufs[k + i]->data, (96 + rng() % 96) * page, page);
            writes.push_back(m.tl.awrite(bufs[i]->data, (rng() % 96) * page, page));
            host_wait(m.clock, read);
            ends.push_back(end_of(read));
        }
        for (const stxxl::request_ptr& w : writes) {
            host_wait(m.clock, w);
            ends.push_back(end_of(w));
        }
    }
    ends.push_back(m.clock.time().elapsed_s);
    ends.push_back(m.clock.time().io_wait_s);
    ends.push_back(double(m.tl.stats().segments_cleaned));
    return ends;
}

} // namespace

TEST(tl_determinism, the_same_submissions_give_bit_identical_modelled_times_on_fresh_devices) {
    const std::vector<double> first = run_batches(test_queue_id(22));
    ASSERT_GT(first[first.size() - 1], 20.0); // the writes cleaned segments
    for (int run = 1; run < 4; ++run) {
        const std::vector<double> again = run_batches(test_queue_id(22));
        ASSERT_EQ(again.size(), first.size());
        std::size_t differ = 0, first_difference = again.size();
        for (std::size_t i = 0; i < again.size(); ++i)
            if (again[i] != first[i]) {
                ++differ;
                if (first_difference == again.size()) first_difference = i;
            }
        EXPECT_EQ(differ, 0u) << "run " << run << ": " << differ
                              << " modelled times differ from the first run's, "
                              << "the first at index " << first_difference;
    }
}

// discard() and flush() act in program order: after the requests submitted before them, even
// when those are not waited for.
TEST(tl_determinism, discard_and_flush_act_after_the_requests_submitted_before_them) {
    constexpr std::uint64_t page = 4 * KiB, segment = 64 * KiB, capacity = 4 * MiB;
    tl_config cfg;
    cfg.page_bytes = page;
    cfg.segment_bytes = segment;
    cfg.spare_bytes = 4 * segment;
    recording_file lower(capacity, test_queue_id(24));
    translation_layer tl(lower, capacity, cfg, "ssd0", test_queue_id(25));
    aligned_buffer buf(page), out(page);
    int discarded_but_readable = 0, flushed_but_missing = 0;
    for (std::uint64_t p = 0; p < 200; ++p) {
        // Written in order into a fresh layer: logical page p lives at physical page p.
        fill_page(buf.data, page, p, 1);
        stxxl::request_ptr w = tl.awrite(buf.data, p * page, page);
        tl.flush();
        if (!page_matches(lower.peek(p * page, page).data(), page, p, 1)) ++flushed_but_missing;
        w->wait();
    }
    for (std::uint64_t p = 200; p < 400; ++p) {
        fill_page(buf.data, page, p, 1);
        stxxl::request_ptr w = tl.awrite(buf.data, p * page, page);
        tl.discard(p * page, page);
        try {
            tl.aread(out.data, p * page, page)->wait();
            ++discarded_but_readable;
        } catch (const stxxl::io_error& e) {
            EXPECT_NE(std::string(e.what()).find("was never written or was discarded"), std::string::npos)
                << e.what();
        }
        w->wait();
    }
    EXPECT_EQ(flushed_but_missing, 0) << "flush() ran before a write submitted earlier";
    EXPECT_EQ(discarded_but_readable, 0) << "discard() ran before a write submitted earlier";
    EXPECT_EQ(tl.stats().live_pages, 200u);
    EXPECT_EQ(tl.stats().pages_discarded, 200u);
}
