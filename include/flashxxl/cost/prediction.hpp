// A predicted I/O volume (an estimate or an upper bound), the request streams it is made of, and its time
// under a cost model.
#pragma once

#include <string>
#include <vector>

#include "flashxxl/cost/cost_model.hpp"

namespace flashxxl {

//! What an analysis says a run will read and write, before it runs. `bound` says whether the
//! analysis gives only an upper bound (graph algorithms: measured <= predicted is what holds)
//! or an estimate (the containers: measured within a few per cent of predicted).
//!
//! `streams` says how the volume is requested (in order, or jumping between runs), which is
//! what a device's time depends on beyond the volume: a predictor that knows it lists each part
//! (scan(): reads in order; a merge: reads jumping a third of the merged runs' span). A part the
//! predictor did not describe is priced as cost_model prices a lone block: reads far from the
//! previous one, writes right behind the previous write.
struct io_prediction {
    double read_bytes = 0;
    double write_bytes = 0;
    bool bound = false;
    std::string basis; //!< the analysis in a few words ("run formation + 2 merge passes")
    std::vector<request_stream> streams;

    double volume() const { return read_bytes + write_bytes; }

    //! Adds `bytes` read (or written) `jump` bytes from the previous request of the stream.
    io_prediction& add(io_op op, double bytes, double jump) { return add({op, bytes, jump, false}); }
    //! Adds `bytes` read at uniform points of `span` bytes: a merge of runs with random keys,
    //! searches that land anywhere in a tree.
    io_prediction& add_spread(io_op op, double bytes, double span) { return add({op, bytes, span, true}); }
    io_prediction& add(const request_stream& s) {
        if (s.bytes <= 0) return *this;
        describe_rest();
        (s.op == io_op::read ? read_bytes : write_bytes) += s.bytes;
        streams.push_back(s);
        return *this;
    }

    //! The cost model's time for it: each stream's blocks (Br for reads, Bw for writes) at the
    //! time the device model charges for one such block after the previous one of the stream
    //! (cost_model::block_s), plus one jump into each stream in order; volume the streams leave
    //! undescribed at read_block_s and write_block_s.
    double modelled_s(const cost_model& m) const {
        double read_described = 0, write_described = 0, s = 0;
        for (const request_stream& r : streams) {
            const bool read = r.op == io_op::read;
            (read ? read_described : write_described) += r.bytes;
            s += r.bytes / double(read ? m.blocks().br : m.blocks().bw) * m.block_s(r);
            // A stream in order starts where the one before it left off: its first block jumps
            // as far as the stream is long.
            if (r.jump == 0 && !r.spread) s += m.block_s({r.op, r.bytes, r.bytes, false}) - m.block_s(r);
        }
        return s + (read_bytes - read_described) / double(m.blocks().br) * m.read_block_s() +
               (write_bytes - write_described) / double(m.blocks().bw) * m.write_block_s();
    }

    io_prediction& operator+=(const io_prediction& o) {
        if (!o.streams.empty() || !streams.empty()) {
            describe_rest();
            io_prediction other = o;
            other.describe_rest();
            streams.insert(streams.end(), other.streams.begin(), other.streams.end());
        }
        read_bytes += o.read_bytes;
        write_bytes += o.write_bytes;
        bound = bound || o.bound;
        if (!o.basis.empty()) basis = basis.empty() ? o.basis : basis + "; " + o.basis;
        return *this;
    }
    friend io_prediction operator+(io_prediction a, const io_prediction& b) { return a += b; }

private:
    //! Lists volume no stream describes as the default streams (reads far, writes in order).
    void describe_rest() {
        double r = 0, w = 0;
        for (const request_stream& s : streams)
            (s.op == io_op::read ? r : w) += s.bytes;
        if (read_bytes > r) streams.push_back({io_op::read, read_bytes - r, request_stream::far, false});
        if (write_bytes > w) streams.push_back({io_op::write, write_bytes - w, 0, false});
    }
};

} // namespace flashxxl
