// The network model: per-link bandwidth and latency, charged per collective step on a virtual clock.
#pragma once

#include <algorithm>
#include <cstdint>

namespace flashxxl::distributed {

//! Each rank has one full-duplex link of `bandwidth_bps` bytes per second into a non-blocking
//! switch; a collective step costs one `latency_s` plus the larger of the bytes this rank sends
//! to and receives from other ranks over the bandwidth (what stays on the rank is free). The
//! default is 10 Gigabit Ethernet: 1.25 GB/s and 20 microseconds per step (a switch hop and the
//! MPI stack; RDMA fabrics are lower). Steps do not overlap with each other; whether they overlap
//! with I/O is the report's business (it states both sums).
struct network_model {
    double bandwidth_bps = 1.25e9;
    double latency_s = 20e-6;

    //! Modelled seconds of one step that sends `sent` and receives `received` bytes off-rank.
    double step_seconds(std::uint64_t sent, std::uint64_t received) const {
        return latency_s + double(std::max(sent, received)) / bandwidth_bps;
    }
};

} // namespace flashxxl::distributed
