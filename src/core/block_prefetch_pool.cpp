// block_prefetch_pool: forecast_prefetcher's buffers, reads and forecast heap, for every item type at once.
#include "flashxxl/io/block_prefetch_pool.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "flashxxl/error.hpp"

namespace flashxxl {

block_prefetch_pool::block_prefetch_pool(machine& m, role r, const block_sizes& b,
                                         std::uint64_t items_per_block, std::size_t buffers,
                                         block_before key_before, const void* order, memory_account* account,
                                         std::size_t max_requests)
    : machine_(&m), role_(r), br_((b.validate(), b.br)), per_block_(items_per_block), key_before_(key_before),
      order_(order), max_requests_(std::max<std::size_t>(max_requests, 1)) {
    // One buffer for every slot: from 2 MiB on it is huge-page backed (aligned_buffer), so the
    // Br reads land in few pages whatever Br is.
    pool_ = aligned_buffer(buffers * b.br, account);
    slots_.reserve(buffers);
    free_.reserve(buffers);
    for (std::size_t i = 0; i < buffers; ++i) {
        slots_.push_back(slot{pool_.data() + i * b.br, {}, nullptr, 0, none, false});
        free_.push_back(buffers - 1 - i);
    }
}

block_prefetch_pool::~block_prefetch_pool() {
    for (slot& s : slots_)
        wait_noexcept(s);
}

void block_prefetch_pool::add_run(std::vector<segment> segments, std::uint64_t blocks) {
    failed_.check("flashxxl::forecast_prefetcher::add_run");
    std::uint64_t stored = 0;
    for (const segment& s : segments) {
        if (s.skip != 0)
            throw invalid_request("flashxxl::forecast_prefetcher: a run segment starts at item " +
                                  std::to_string(s.skip) + ", expected whole written segments");
        stored += blocks_for(s.items);
    }
    if (stored != blocks)
        throw invalid_request("flashxxl::forecast_prefetcher: a run of " + std::to_string(stored) +
                              " Br blocks came with " + std::to_string(blocks) + " block keys");
    run_state added;
    added.segments = std::move(segments);
    added.blocks = blocks;
    skip_empty_segments(added);
    runs_.push_back(std::move(added)); // owned from here on (on a failure here, `added` releases them)
}

void block_prefetch_pool::start() {
    failed_.check("flashxxl::forecast_prefetcher::start");
    if (runs_.size() > slots_.size())
        throw invalid_request("flashxxl::forecast_prefetcher: " + std::to_string(runs_.size()) +
                              " runs need as many buffers, the pool has " + std::to_string(slots_.size()));
    failed_.run([&] {
        for (std::size_t i = 0; i < runs_.size(); ++i)
            if (has_unissued(runs_[i])) issue(i, take_free());
        prefetch();
    });
}

void block_prefetch_pool::check_run(std::size_t i, const char* op) const {
    if (i >= runs_.size())
        throw invalid_request(std::string("flashxxl::forecast_prefetcher::") + op + ": run " +
                              std::to_string(i) + " does not exist (" + std::to_string(runs_.size()) +
                              " runs added)");
}

std::size_t block_prefetch_pool::next_block(std::size_t i, bool consumed) {
    failed_.check("flashxxl::forecast_prefetcher::next_range");
    check_run(i, "next_range");
    return failed_.run([&] { return next_block_unchecked(i, consumed); });
}

bool block_prefetch_pool::ready(std::size_t b) {
    failed_.check("flashxxl::forecast_prefetcher::for_each_ready");
    slot& s = slots_[b];
    if (!s.req) return true;
    if (!completed(s.req)) return false;
    if (read_failed(s.req)) failed_.run([&] { wait(s); }); // throws it, naming device and request
    return true; // not waited for: reap() drops it in issue order, so the schedule stays as it was
}

bool block_prefetch_pool::read_failed(const stxxl::request_ptr& req) {
    try {
        req->wait(false); // completed: returns at once, or rethrows its stxxl::io_error
        return false;
    } catch (const stxxl::io_error&) {
        return true;
    }
}

std::size_t block_prefetch_pool::next_block_unchecked(std::size_t i, bool consumed) {
    run_state& r = runs_[i];
    if (consumed && r.current != none) retire_current(r);
    if (r.head == none) {
        if (!has_unissued(r)) return none;
        ++misses_;
        issue(i, take_free()); // the buffer just given back is free
    }
    std::size_t b = r.head;
    r.head = slots_[b].next;
    if (r.head == none) r.tail = none;
    r.current = b;
    wait(slots_[b]);
    prefetch();
    return b;
}

void block_prefetch_pool::skip_empty_segments(run_state& r) {
    while (r.issue_segment < r.segments.size() && r.segments[r.issue_segment].items == 0)
        ++r.issue_segment;
}

std::size_t block_prefetch_pool::take_free() {
    std::size_t b = free_.back();
    free_.pop_back();
    return b;
}

void block_prefetch_pool::issue(std::size_t i, std::size_t b) {
    run_state& r = runs_[i];
    const segment& seg = r.segments[r.issue_segment];
    slot& s = slots_[b];
    try {
        s.req = seg.ext->dev->aread(s.buf, seg.ext->offset + r.issue_block * br_, br_, role_);
    } catch (...) {
        free_.push_back(b);
        throw;
    }
    ++outstanding_;
    issue_order_.push_back(b);
    s.dev = seg.ext->dev;
    s.items = std::min<std::uint64_t>(per_block_, seg.items - r.issue_block * per_block_);
    s.last_of_segment = r.issue_block + 1 == blocks_for(seg.items);
    s.next = none;
    if (r.tail == none)
        r.head = b;
    else
        slots_[r.tail].next = b;
    r.tail = b;
    ++r.issued;
    if (++r.issue_block == blocks_for(seg.items)) {
        r.issue_block = 0;
        ++r.issue_segment;
        skip_empty_segments(r);
    }
    if (has_unissued(r)) {
        forecast_.push_back(forecast{i, r.issued});
        std::push_heap(forecast_.begin(), forecast_.end(), later{this});
    }
}

//! Fills free buffers with the blocks needed soonest (smallest recorded key first), while
//! fewer than max_requests_ reads are outstanding.
void block_prefetch_pool::prefetch() {
    reap();
    while (!free_.empty() && !forecast_.empty() && outstanding_ < max_requests_) {
        std::pop_heap(forecast_.begin(), forecast_.end(), later{this});
        forecast f = forecast_.back();
        forecast_.pop_back();
        if (runs_[f.run].issued != f.issued) continue; // stale: that block was read on demand
        issue(f.run, take_free());
    }
}

//! Collects completed reads, oldest first, until one is still running.
void block_prefetch_pool::reap() {
    while (!issue_order_.empty()) {
        slot& s = slots_[issue_order_.front()];
        if (s.req && !completed(s.req)) return;
        wait(s); // completed (or already waited for): drops the request
        issue_order_.pop_front();
    }
}

//! Whether a read has completed, as the merge may know it without waiting. A read of a
//! modelled device: when its modelled end is not after the host's present on the machine's
//! virtual clock; the real completion is awaited first (the data must be there), but only when
//! the modelled end says it is due. So how far a parallel merge step reaches and which reads
//! are reaped depend on the virtual clock only, and modelled figures are the same in every run
//! (STXXL's poll would make them depend on thread timing). Reads of a device without a model
//! (a real disk) and others: STXXL's poll, which never blocks. (Awaiting every read here,
//! model or not, made reap() sleep on the oldest outstanding read at every block the merge
//! took: on a real disk the sorter's merge threads idled about 30 % of the final merge.)
bool block_prefetch_pool::completed(const stxxl::request_ptr& req) {
    const auto* timed = dynamic_cast<const modelled_request*>(req.get());
    if (!timed || !timed->on_model()) {
        try {
            return req->poll(); // rethrows a failed request's stxxl::io_error
        } catch (const stxxl::io_error&) {
            return true; // device::wait reports it as io_failure, naming device and request
        }
    }
    if (std::optional<double> end = timed->known_completion_s(); end && *end > machine_->clock().now())
        return false;
    try {
        req->wait(false);
    } catch (const stxxl::io_error&) {
        return true; // device::wait reports it, naming device and request
    }
    return timed->completion_s() <= machine_->clock().now();
}

void block_prefetch_pool::retire_current(run_state& r) {
    slot& s = slots_[r.current];
    r.current = none;
    free_.push_back(std::size_t(&s - slots_.data()));
    if (s.last_of_segment) {
        while (r.segments[r.released].items == 0)
            r.segments[r.released++].ext.reset();
        r.segments[r.released++].ext.reset();
    }
}

void block_prefetch_pool::wait(slot& s) {
    if (!s.req) return;
    stxxl::request_ptr req = std::move(s.req);
    s.req = nullptr;
    --outstanding_;
    s.dev->wait(req, role_);
}

void block_prefetch_pool::wait_noexcept(slot& s) noexcept {
    try {
        wait(s);
    } catch (...) {
    }
}

} // namespace flashxxl
