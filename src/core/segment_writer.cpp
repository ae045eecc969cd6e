// segment_writer: Bw buffers, extents and writes of block_writer, for every item type at once.
#include "flashxxl/io/segment_writer.hpp"

#include <utility>

namespace flashxxl {

segment_writer::segment_writer(machine& m, role r, const block_sizes& b, std::uint64_t items_per_block,
                               std::uint64_t& block_counter, memory_account* account, std::size_t buffers)
    : machine_(&m), role_(r), blocks_((b.validate(), b)), per_block_(items_per_block),
      per_segment_(b.reads_per_write() * items_per_block), counter_(&block_counter),
      item_cost_s_(m.host().write_item_s), meter_(account ? account->meter() : nullptr) {
    if (buffers == 0) buffers = 1;
    memory_ = aligned_buffer(buffers * b.bw, account);
    for (std::size_t i = 0; i < buffers; ++i)
        buffers_.push_back(slot{memory_.data() + i * b.bw, {}, nullptr});
}

segment_writer::~segment_writer() {
    for (slot& s : buffers_) {
        try {
            wait_slot(s);
        } catch (...) {
        }
    }
}

void segment_writer::write_buffer(std::uint64_t items, const char* operation) {
    failed_.check(operation);
    machine_->charge_host(items, item_cost_s_); // filling the buffer, before its write is submitted
    failed_.run([&] {
        slot& s = buffers_[current_];
        owned_extent e = machine_->allocate(role_, blocks_.bw, (*counter_)++, meter_);
        if (segments_.size() == segments_.capacity()) segments_.reserve(2 * segments_.size() + 1);
        std::uint64_t bytes = (items + per_block_ - 1) / per_block_ * blocks_.br; // whole Br blocks
        s.req = e->dev->awrite(s.buf, e->offset, bytes, role_);                   // on failure e goes back
        s.dev = e->dev;
        segments_.push_back(segment{std::move(e), items, 0}); // no allocation: reserved
        current_ = (current_ + 1) % buffers_.size();
        wait_slot(buffers_[current_]);
    });
}

std::vector<segment> segment_writer::take_segments(const char* operation) {
    failed_.check(operation);
    failed_.run([&] {
        for (slot& s : buffers_)
            wait_slot(s);
    });
    return std::exchange(segments_, {});
}

void segment_writer::wait_slot(slot& s) {
    if (!s.req) return;
    stxxl::request_ptr req = std::move(s.req);
    s.req = nullptr;
    s.dev->wait(req, role_);
}

} // namespace flashxxl
