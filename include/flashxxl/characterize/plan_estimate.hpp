// What a plan will cost on a real target before it runs: bytes written and expected time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/saturating.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! A byte count that reached this saturated: the true value does not fit 64 bits, so it exceeds
//! every limit (plans of absurd counts x blocks x repeats must not wrap to a small number).
inline constexpr std::uint64_t saturated_bytes = saturated;
using flashxxl::saturating_add; // flashxxl/saturating.hpp, also as characterize::
using flashxxl::saturating_mul;
//! A non-negative byte count computed in floating point, saturated instead of converted out of range.
inline std::uint64_t saturating_bytes(double x) {
    return !(x < 18446744073709549568.0) ? saturated_bytes : x <= 0 ? 0 : static_cast<std::uint64_t>(x);
}
//! A bound for messages: "2 GiB", or "more than 16 EiB (beyond 64-bit arithmetic)" when saturated.
inline std::string format_bound(std::uint64_t bytes) {
    if (bytes == saturated_bytes)
        return "more than " + format_bytes(double(bytes)) + " (beyond 64-bit arithmetic)";
    return format_bytes(double(bytes));
}

//! The estimate printed by --dry-run. Byte counts saturate at saturated_bytes.
struct plan_cost {
    //! An upper bound of the bytes the runner writes, on any device: fills, random-state,
    //! count-limited writes exactly, time-limited writes at their write budget (one span per run,
    //! timed_write_budget), sweeps over every size self-scaling may reach.
    std::uint64_t bytes_written = 0;
    std::uint64_t bytes_read = 0; //!< rough: time-limited reads at the assumed rate
    double seconds = 0;           //!< expected device time including pauses (rough)
    bool exact = false;           //!< true when measured on a model, false for this estimate
};

//! Rates assumed for a real target whose speed is not known yet (time and reads only).
struct assumed_device {
    double mib_s = 100;        //!< sequential throughput
    double latency_s = 0.0002; //!< per-request cost on top of the transfer
};

//! The estimate for a checked plan (spans resolved). Bytes written are an upper bound that
//! mirrors the runner (runner.hpp): the runner writes at most this much whatever the device's
//! speed, and as much when the device is fast enough to reach every write budget within the
//! time limits. Time and bytes read are rough: time limits count in full, count-limited steps
//! and fills at the assumed rate.
inline plan_cost estimate_plan(const std::vector<experiment_step>& steps, const assumed_device& d = {}) {
    plan_cost c;
    const std::uint64_t unlimited = 200000000; // runner_options::max_requests_per_run
    auto xfer = [&](double bytes, double ios) { return bytes / (d.mib_s * MiB) + ios * d.latency_s; };
    // Requests of one run limited by `count` and / or `time_s` (time: rough, at the assumed rate).
    auto limited_time = [&](std::uint64_t block, std::uint64_t count, double time_s, double& ios) {
        ios = static_cast<double>(count);
        double t = count ? xfer(ios * static_cast<double>(block), ios) : 0;
        if (time_s > 0 && (count == 0 || time_s < t)) {
            t = time_s;
            ios = time_s / xfer(static_cast<double>(block), 1);
        }
        return t;
    };
    // One run of `p` (optionally mixed with `mix`, `ratio` of p per mix request): its write
    // bound, rough reads and time.
    auto one_run = [&](const io_pattern& p, const io_pattern* mix, std::uint64_t ratio, std::uint64_t count,
                       double time_s) {
        double ios = 0;
        c.seconds += limited_time(p.block, count, time_s, ios);
        std::uint64_t n = count ? count : unlimited;
        std::uint64_t n_mix = mix ? n / (ratio + 1) : 0, n_main = n - n_mix;
        std::uint64_t w = 0;
        if (p.op == io_op::write) w = saturating_add(w, saturating_mul(n_main, p.block));
        if (mix && mix->op == io_op::write) w = saturating_add(w, saturating_mul(n_mix, mix->block));
        if (time_s > 0) w = std::min(w, timed_write_budget(p.span));
        c.bytes_written = saturating_add(c.bytes_written, w);
        if (p.op == io_op::read)
            c.bytes_read = saturating_add(c.bytes_read, saturating_bytes(ios * static_cast<double>(p.block)));
    };
    auto fill = [&](std::uint64_t span, std::uint64_t block) {
        c.bytes_written = saturating_add(c.bytes_written, span);
        c.seconds += xfer(double(span), double(span / block + 1));
    };
    for (const auto& s : steps) {
        switch (s.kind) {
        case step_kind::pause:
            c.seconds += s.time_s;
            break;
        case step_kind::fill:
            fill(s.pattern.span, s.pattern.block);
            break;
        case step_kind::random_state: {
            // the last request may pass the target by up to max - alignment bytes
            std::uint64_t b = saturating_add(s.state_bytes ? s.state_bytes : s.pattern.span, s.state_max);
            c.bytes_written = saturating_add(c.bytes_written, b);
            c.seconds += xfer(double(b), double(b) / (0.5 * double(s.state_min + s.state_max)));
            break;
        }
        case step_kind::run:
            for (std::uint64_t r = 0; r < s.repeat; ++r) {
                one_run(s.pattern, s.has_mix ? &s.mix : nullptr, s.ratio, s.count, s.time_s);
                c.seconds += s.between_s;
                if (s.pause_s > 0 && s.count)
                    c.seconds += s.pause_s * double(s.burst_size ? s.count / s.burst_size : s.count);
            }
            break;
        case step_kind::sweep:
            // every size the runner may reach: up to max (self-scaling) or the first size >= to
            for (std::uint64_t b = s.from; b <= s.max_block && b <= s.pattern.span; b *= 2) {
                if (s.fill_block) fill(s.pattern.span, s.fill_block);
                for (const auto& sp : s.sweep_patterns) {
                    if (sp.granularity && b < sp.granularity) continue;
                    io_pattern p = s.pattern;
                    p.op = sp.op;
                    p.block = b;
                    for (std::uint64_t r = 0; r < s.repeat; ++r) {
                        one_run(p, nullptr, 1, s.count, s.time_s);
                        c.seconds += s.between_s;
                    }
                }
                if (!s.self_scale && b >= s.to) break;
            }
            break;
        case step_kind::burst: {
            if (s.fill_block) fill(s.pattern.span, s.fill_block);
            std::uint64_t bb = s.burst_block ? s.burst_block : s.pattern.block;
            c.bytes_written = saturating_add(c.bytes_written, timed_write_budget(s.pattern.span) / bb * bb);
            c.bytes_written = saturating_add(
                c.bytes_written,
                saturating_mul(s.windows, window_write_budget(s.pattern.span, s.pattern.block, s.windows)));
            c.seconds += s.burst_time_s + s.window_s * double(s.windows);
            break;
        }
        case step_kind::stride:
        case step_kind::write_read: {
            double ios = double(s.length * s.repeat);
            c.seconds += 2 * xfer(ios * double(s.pattern.block), ios);
            std::uint64_t bytes = saturating_mul(static_cast<std::uint64_t>(ios), s.pattern.block);
            c.bytes_read =
                saturating_add(c.bytes_read, saturating_mul(bytes, s.kind == step_kind::stride ? 2 : 1));
            if (s.kind == step_kind::write_read) c.bytes_written = saturating_add(c.bytes_written, bytes);
            break;
        }
        }
    }
    return c;
}

//! A plan on a real target may write at most this many times the target's size unless the
//! user says otherwise (--force or --max-write): the built-in quick plan writes at most 49 x
//! (one fill and 48 points of one span each), the ajwani plan about 130 x (a fill before each of
//! 20 block sizes, bursts with fills).
inline constexpr std::uint64_t default_write_multiple = 64;

//! Refuses (config_error) a plan whose write bound `bytes_written` exceeds `max_write` when the
//! user gave one (--max-write; --force does not lift it), else `default_write_multiple` x
//! `capacity` unless `force`. A saturated bound (saturated_bytes) exceeds every limit. The
//! message gives the estimate, the target size, the multiple and how to override. Called before
//! any I/O.
inline void check_write_volume(std::uint64_t bytes_written, std::uint64_t capacity, const std::string& target,
                               std::optional<std::uint64_t> max_write, bool force) {
    const bool saturated = bytes_written == saturated_bytes;
    std::ostringstream ratio;
    ratio << std::fixed << std::setprecision(1)
          << (capacity ? double(bytes_written) / double(capacity) : 0.0);
    std::string plan = "the plan writes up to " + format_bound(bytes_written) + " (" +
                       (saturated ? std::string("more than ") : std::string()) +
                       std::to_string(bytes_written) + " bytes) to '" + target + "', " +
                       (saturated ? "more than " : "") + ratio.str() + " x its size of " +
                       format_bytes(double(capacity));
    if (max_write) {
        if (saturated || bytes_written > *max_write)
            throw config_error("--max-write " + format_bytes(double(*max_write)) + ": " + plan +
                               "; raise --max-write or write less (--span, --count, --time, another --plan)");
        return;
    }
    const std::uint64_t limit = saturating_mul(default_write_multiple, capacity);
    if (force || (!saturated && bytes_written <= limit)) return;
    throw config_error(plan + "; more than the default limit of " + std::to_string(default_write_multiple) +
                       " x the target (" + format_bytes(double(limit)) + "): " +
                       (saturated ? std::string("pass --force to run it anyway (no --max-write holds it)")
                                  : "pass --max-write SIZE (e.g. --max-write " +
                                        format_size(saturating_add(bytes_written, MiB - 1) / MiB * MiB) +
                                        ") or --force to run it anyway") +
                       ", or write less (--span, --count, another --plan)");
}

} // namespace flashxxl::characterize
