// What a plan will cost on a real target before it runs: bytes written and expected time.
#pragma once

#include <cstdint>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! The estimate printed by --dry-run.
struct plan_cost {
    std::uint64_t bytes_written = 0; //!< fills, counted writes, and time-limited writes at the assumed rate
    std::uint64_t bytes_read = 0;
    double seconds = 0;              //!< expected device time including pauses
    bool exact = false;              //!< true when measured on a model, false for this rough estimate
};

//! Rates assumed for a real target whose speed is not known yet.
struct assumed_device {
    double mib_s = 100;         //!< sequential throughput
    double latency_s = 0.0002;  //!< per-request cost on top of the transfer
};

//! A rough estimate for a checked plan (spans resolved): time limits count in full; count-limited
//! steps and fills are costed at the assumed rate; time-limited writes add time x rate bytes.
//! Sweeps are costed up to `to` (self-scaling may add a few sizes).
inline plan_cost estimate_plan(const std::vector<experiment_step>& steps, const assumed_device& d = {}) {
    plan_cost c;
    auto xfer = [&](double bytes, double ios) { return bytes / (d.mib_s * MiB) + ios * d.latency_s; };
    auto limited = [&](io_op op, std::uint64_t block, std::uint64_t count, double time_s) {
        double ios = static_cast<double>(count);
        double t = count ? xfer(ios * static_cast<double>(block), ios) : 0;
        if (time_s > 0 && (count == 0 || time_s < t)) {
            t = time_s;
            ios = time_s / xfer(static_cast<double>(block), 1);
        }
        c.seconds += t;
        auto bytes = static_cast<std::uint64_t>(ios * static_cast<double>(block));
        (op == io_op::write ? c.bytes_written : c.bytes_read) += bytes;
    };
    for (const auto& s : steps) {
        switch (s.kind) {
        case step_kind::pause: c.seconds += s.time_s; break;
        case step_kind::fill:
            c.bytes_written += s.pattern.span;
            c.seconds += xfer(double(s.pattern.span), double(s.pattern.span / s.pattern.block + 1));
            break;
        case step_kind::random_state: {
            std::uint64_t b = s.state_bytes ? s.state_bytes : s.pattern.span;
            c.bytes_written += b;
            c.seconds += xfer(double(b), double(b) / (0.5 * double(s.state_min + s.state_max)));
            break;
        }
        case step_kind::run:
            for (std::uint64_t r = 0; r < s.repeat; ++r) {
                limited(s.pattern.op, s.pattern.block, s.count, s.time_s);
                c.seconds += s.between_s;
                if (s.pause_s > 0 && s.count)
                    c.seconds += s.pause_s * double(s.burst_size ? s.count / s.burst_size : s.count);
            }
            break;
        case step_kind::sweep:
            for (std::uint64_t b = s.from; b <= s.to; b *= 2) {
                if (s.fill_block) {
                    c.bytes_written += s.pattern.span;
                    c.seconds += xfer(double(s.pattern.span), double(s.pattern.span / s.fill_block + 1));
                }
                for (const auto& p : s.sweep_patterns)
                    for (std::uint64_t r = 0; r < s.repeat; ++r) limited(p.op, b, s.count, s.time_s);
            }
            break;
        case step_kind::burst:
            if (s.fill_block) {
                c.bytes_written += s.pattern.span;
                c.seconds += xfer(double(s.pattern.span), double(s.pattern.span / s.fill_block + 1));
            }
            limited(io_op::write, s.burst_block ? s.burst_block : s.pattern.block, 0, s.burst_time_s);
            limited(io_op::write, s.pattern.block, 0, s.window_s * double(s.windows));
            break;
        case step_kind::stride:
        case step_kind::write_read: {
            double ios = double(s.length * s.repeat);
            c.seconds += 2 * xfer(ios * double(s.pattern.block), ios);
            c.bytes_read += static_cast<std::uint64_t>(ios) * s.pattern.block * (s.kind == step_kind::stride ? 2 : 1);
            if (s.kind == step_kind::write_read) c.bytes_written += static_cast<std::uint64_t>(ios) * s.pattern.block;
            break;
        }
        }
    }
    return c;
}

} // namespace flashxxl::characterize
