// The cost of what happened: reads in Br, writes in Bw, the unit-cost volume, the general flash model's cost.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/machine/device.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! One run's (or phase's, or structure's) I/O in the models of seeds/001, Section 2.
struct cost_figures {
    std::uint64_t read_bytes = 0;  //!< RDV
    std::uint64_t write_bytes = 0; //!< WRV
    double reads = 0;              //!< x: RDV in units of Br
    double writes = 0;             //!< y: WRV in units of Bw
    double unit_cost_bytes = 0;    //!< the unit-cost flash model's cost x * Br + y * Bw (bytes moved)
    double write_penalty = 1;      //!< c: one Bw write's time over one Br read's on the device
    double flash_cost = 0;         //!< the general flash model's cost x + c * y (in read I/Os)
    double priced_modelled_s = 0;  //!< x * (time of one Br read) + y * (time of one Bw write)
    double modelled_s = 0;         //!< the device model's time charged for these requests, when known
};

//! One stream of requests of a run: reads of Br (or writes of Bw) blocks, each `jump` bytes past
//! the end of the previous block of the stream (0: in order). A write stream with a jump is
//! written in order between reads that far away (a merge's output beside its runs on one disk).
//! A `spread` stream's blocks land at independent uniform points of a span of `jump` bytes (a
//! merge of runs with random keys, searches in a tree).
struct request_stream {
    static constexpr double far = -1; //!< every block far from the previous one (random)
    io_op op = io_op::read;
    double bytes = 0;
    double jump = 0;
    bool spread = false;
};

//! The unit-cost flash model with block sizes Br and Bw (seeds/001): `cost_model{br, bw}.cost(c)`
//! turns counters (of a phase, a structure, a device or a role) into cost_figures. The general
//! flash model's penalty c and the time per block come from a device model (for_device), or
//! are c = 1 and no time when the model is built from the sizes alone.
class cost_model {
public:
    cost_model(std::uint64_t br, std::uint64_t bw) : blocks_(br, bw) {}
    explicit cost_model(const block_sizes& b) : blocks_(b.br, b.bw) {}

    //! Prices one Br read and one Bw write on a fresh copy of `d`'s model: the read far from the
    //! previous request (random), the write right behind another Bw write (the containers write
    //! whole Bw blocks into fresh extents, which the allocator hands out in order); c is their
    //! ratio. A device without a model (a real file) gives c = 1 and no time.
    static cost_model for_device(const device& d, const block_sizes& b) {
        cost_model model(b);
        if (const device_model* dm = d.model()) model.price(*dm, d.capacity());
        return model;
    }

    //! for_device of the first device the machine's placement puts role `r` on (the model
    //! from the sizes alone when it names none).
    static cost_model for_role(machine& m, role r, const block_sizes& b) {
        const std::vector<std::size_t> on = m.placement().devices_for(r, m.placement_view());
        return on.empty() ? cost_model(b) : for_device(m.dev(on.front()), b);
    }

    const block_sizes& blocks() const { return blocks_; }
    double read_block_s() const { return read_block_s_; }
    double write_block_s() const { return write_block_s_; }
    double write_penalty() const { return write_penalty_; }

    //! The time of one block of stream `r` (Br for a read, Bw for a write) on a fresh copy of
    //! the device's model, right after the request before it in the stream: a read `r.jump`
    //! bytes past the previous read (far: half the device away); a write in order behind the
    //! previous write, after a read `r.jump` bytes away when the jump is not 0. On a device too small
    //! to place the pair (or without a model): the lone block's price.
    //! A spread stream's block is the mean over the distance between two uniform points of the
    //! span (density 2 (1 - x) on [0, 1] of the span), taken at the midpoints of 8 equally likely
    //! bins: a seek's cost is not linear in the distance, so the mean distance would not do.
    double block_s(const request_stream& r) const {
        if (!model_ || r.jump == request_stream::far)
            return r.op == io_op::read ? read_block_s_ : write_block_s_;
        if (r.spread) {
            constexpr int bins = 8;
            double sum = 0;
            for (int k = 0; k < bins; ++k) {
                const double u = (k + 0.5) / bins;
                sum += block_s({r.op, r.bytes, r.jump * (1 - std::sqrt(1 - u)), false});
            }
            return sum / bins;
        }
        const auto key = std::make_pair(r.op == io_op::read, std::uint64_t(std::max(0.0, r.jump)));
        auto hit = priced_.find(key);
        if (hit == priced_.end()) hit = priced_.emplace(key, price_stream(r.op, key.second)).first;
        return hit->second;
    }

    //! The figures of `c`: x = RDV / Br, y = WRV / Bw, their volume, x + c * y, the priced time
    //! and the time the device model charged (c.modelled_s).
    cost_figures cost(const io_counters& c) const {
        cost_figures f;
        f.read_bytes = c.read_bytes;
        f.write_bytes = c.write_bytes;
        f.reads = double(c.read_bytes) / double(blocks_.br);
        f.writes = double(c.write_bytes) / double(blocks_.bw);
        f.unit_cost_bytes = f.reads * double(blocks_.br) + f.writes * double(blocks_.bw);
        f.write_penalty = write_penalty_;
        f.flash_cost = f.reads + write_penalty_ * f.writes;
        f.priced_modelled_s = f.reads * read_block_s_ + f.writes * write_block_s_;
        f.modelled_s = c.modelled_s;
        return f;
    }
    //! The figures of what the host asked of every device (the sum of their roles: under a
    //! translation layer, its own segment writes and cleaning are not the algorithm's transfers).
    cost_figures cost(const std::vector<device_stats>& devices) const { return cost(host_total(devices)); }

    //! The sum over devices and roles of the host's requests, with the devices' modelled time.
    static io_counters host_total(const std::vector<device_stats>& devices) {
        io_counters sum;
        for (const device_stats& d : devices) {
            io_counters host;
            for (const io_counters& r : d.by_role)
                host += r;
            host.modelled_s = d.total.modelled_s;
            sum += host;
        }
        return sum;
    }

private:
    //! `used` bytes of the device hold data (the allocator's capacity): streams are priced there,
    //! from its start, where the allocator hands out extents first.
    void price(const device_model& dm, std::uint64_t used) {
        used_ = used;
        std::unique_ptr<device_model> fresh = dm.clone_fresh();
        const std::uint64_t cap = fresh->capacity();
        const std::uint64_t far = cap / 2 / blocks_.bw * blocks_.bw;
        if (cap < 2 * blocks_.bw) return;
        if (cap >= 4 * blocks_.bw) model_ = dm.clone_fresh();
        fresh->service(io_op::read, 0, blocks_.br);
        read_block_s_ = fresh->service(io_op::read, far, blocks_.br);
        fresh->service(io_op::write, far, blocks_.bw);
        write_block_s_ = fresh->service(io_op::write, far + blocks_.bw, blocks_.bw);
        if (read_block_s_ > 0) write_penalty_ = write_block_s_ / read_block_s_;
    }

    //! A stream's block after its predecessor, from the start of the device (jumps capped at the
    //! bytes in use).
    double price_stream(io_op op, std::uint64_t jump) const {
        std::unique_ptr<device_model> fresh = model_->clone_fresh();
        const std::uint64_t cap = std::min(fresh->capacity(), std::max(used_, 4 * blocks_.bw));
        const std::uint64_t base = 0;
        const std::uint64_t room = cap - base - 2 * blocks_.bw;
        const std::uint64_t hop = std::min(jump, room) / blocks_.br * blocks_.br;
        if (op == io_op::read) {
            fresh->service(io_op::read, base, blocks_.br);
            return fresh->service(io_op::read, base + blocks_.br + hop, blocks_.br);
        }
        fresh->service(io_op::write, base, blocks_.bw);
        if (hop > 0) fresh->service(io_op::read, base + blocks_.bw + hop, blocks_.br);
        return fresh->service(io_op::write, base + blocks_.bw, blocks_.bw);
    }

    block_sizes blocks_;
    std::uint64_t used_ = 0;                    //!< bytes of the device that hold data
    std::shared_ptr<const device_model> model_; //!< a fresh copy of the device's model, for block_s
    mutable std::map<std::pair<bool, std::uint64_t>, double> priced_; //!< block_s by (read, jump)
    double read_block_s_ = 0;
    double write_block_s_ = 0;
    double write_penalty_ = 1;
};

} // namespace flashxxl
