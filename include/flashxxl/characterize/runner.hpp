// Executes checked experiment steps against a target and records their response times in bounded memory.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/io_log.hpp"
#include "flashxxl/characterize/memory_estimate.hpp"
#include "flashxxl/characterize/offset_generator.hpp"
#include "flashxxl/characterize/random_permutation.hpp"
#include "flashxxl/characterize/response_recorder.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/characterize/target.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! Options of a runner.
struct runner_options {
    //! Sees every request of every run as it completes (the per-IO log: io_log_writer); nullptr: none.
    request_observer* observer = nullptr;
    //! Run records keep plot data (a latency_trace and CDF points, at most
    //! recorder_limits::plot_bytes() each); off: statistics only.
    bool plot_data = true;
    recorder_limits recorder; //!< what each run keeps of its response times
    //! Refuse a plan whose measurements may need more (estimate_memory(), check_memory()).
    std::uint64_t memory_bytes = default_memory_budget;
    std::uint64_t max_requests_per_run = 200000000; //!< a time-limited run never issues more than this
    //! Called now and then with the share of the plan done (0 .. 1) and the current step's label.
    std::function<void(double, const std::string&)> progress;
};

//! Runs a plan (a list of experiment steps) against one target, synchronously at queue depth 1
//! like uFLIP ("synchronous IO to avoid the parallelism features of the operating system",
//! seeds/003 Section 4.3). Time limits count the target's response times plus pauses: modelled
//! seconds on a model target, measured seconds on a real one. A time-limited run (and a burst,
//! and the recovery windows together) also stops before its writes exceed its span
//! (timed_write_budget), so what a plan writes is bounded by estimate_plan() on any device.
//! Memory: each run's response times go through a response_recorder (fixed memory, whatever the
//! request count) and, one by one, to the observer; what the results hold is bounded from the
//! plan by estimate_memory(), checked against memory_bytes before any I/O, and the record
//! arrays are reserved at that size.
class runner {
public:
    explicit runner(target& t, runner_options o = {}) : t_(t), o_(std::move(o)) {}

    //! Checks the whole plan against the target and the memory budget (config_error before any
    //! I/O), then runs it.
    characterization run(std::vector<experiment_step> steps) {
        check_experiments(steps, t_.capacity(), t_.alignment());
        o_.recorder.check();
        const plan_memory mem = estimate_memory(steps, o_.recorder, o_.plot_data);
        check_memory(mem, o_.memory_bytes);
        res_ = characterization{};
        res_.runs.reserve(static_cast<std::size_t>(mem.run_records));
        res_.bursts.reserve(static_cast<std::size_t>(mem.burst_records));
        res_.strides.reserve(static_cast<std::size_t>(mem.stride_records));
        res_.target_name = t_.name();
        res_.target_kind = t_.kind();
        res_.modelled = t_.modelled();
        res_.capacity = t_.capacity();
        res_.alignment = t_.alignment();
        res_.base_offset = t_.base_offset();
        total_weight_ = 0;
        for (const auto& s : steps)
            total_weight_ += weight(s);
        done_weight_ = 0;
        for (const auto& s : steps) {
            current_ = s.label;
            step_weight_ = weight(s);
            run_step(s);
            done_weight_ += step_weight_;
            report(0);
        }
        return std::move(res_);
    }

private:
    static double weight(const experiment_step& s) {
        switch (s.kind) {
        case step_kind::pause:
            return 0.05;
        case step_kind::run:
            return static_cast<double>(s.repeat);
        case step_kind::sweep: {
            double sizes = 1;
            for (std::uint64_t b = s.from; b < s.to; b *= 2)
                sizes += 1;
            return sizes * static_cast<double>(s.sweep_patterns.size() * s.repeat);
        }
        case step_kind::burst:
            return 3;
        default:
            return 1;
        }
    }
    void report(double partial) {
        if (!o_.progress || total_weight_ <= 0) return;
        double f = (done_weight_ + std::min(1.0, partial) * step_weight_) / total_weight_;
        o_.progress(std::min(1.0, f), current_);
    }

    double issue(io_op op, std::uint64_t off, std::uint64_t len) {
        double s = t_.io(op, off, len);
        res_.device_seconds += s;
        ++res_.requests;
        (op == io_op::read ? res_.bytes_read : res_.bytes_written) += len;
        return s;
    }
    void idle(double s) {
        if (s <= 0) return;
        t_.pause(s);
        res_.device_seconds += s;
    }

    void run_step(const experiment_step& s) {
        switch (s.kind) {
        case step_kind::pause:
            idle(s.time_s);
            break;
        case step_kind::fill:
            fill(s.pattern, s.pattern.block, true);
            break;
        case step_kind::random_state:
            random_state(s);
            break;
        case step_kind::run:
            for (std::uint64_t r = 0; r < s.repeat; ++r) {
                res_.runs.push_back(run_pattern(s, s.pattern, r, false, static_cast<double>(r) / s.repeat));
                idle(s.between_s);
            }
            break;
        case step_kind::sweep:
            sweep(s);
            break;
        case step_kind::burst:
            burst(s);
            break;
        case step_kind::stride:
        case step_kind::write_read:
            stride(s);
            break;
        }
    }

    //! Sequential writes over the span; reports progress only when the fill is the step itself.
    void fill(const io_pattern& span, std::uint64_t block, bool own_step = false) {
        std::uint64_t end = span.offset + span.span;
        std::uint64_t n = 0;
        for (std::uint64_t off = span.offset; off < end; off += block) {
            issue(io_op::write, off, std::min(block, end - off));
            if (++n % 4096 == 0 && own_step)
                report(static_cast<double>(off - span.offset) / static_cast<double>(span.span));
        }
    }

    void random_state(const experiment_step& s) {
        std::mt19937_64 rng(s.seed * 0x2545f4914f6cdd1dull + 17);
        std::uint64_t a = t_.alignment();
        std::uint64_t target_bytes = s.state_bytes ? s.state_bytes : s.pattern.span;
        std::uniform_int_distribution<std::uint64_t> size_units(s.state_min / a, s.state_max / a);
        std::uint64_t written = 0;
        while (written < target_bytes) {
            std::uint64_t len = size_units(rng) * a;
            std::uniform_int_distribution<std::uint64_t> pos(0, (s.pattern.span - len) / a);
            issue(io_op::write, s.pattern.offset + pos(rng) * a, len);
            written += len;
        }
    }

    run_record run_pattern(const experiment_step& s, const io_pattern& p, std::uint64_t rep, bool in_sweep,
                           double progress_base) {
        run_record rec;
        rec.label = s.label;
        rec.line = s.line;
        rec.code = p.code();
        rec.in_sweep = in_sweep;
        rec.pattern = p;
        rec.repeat = rep;
        if (s.has_mix) {
            rec.mix_code = s.mix.code();
            rec.ratio = s.ratio;
        }
        std::uint64_t seed = s.seed * 1000003ull + rep * 7919ull + p.block;
        offset_generator gen(p, seed, t_.alignment());
        std::optional<offset_generator> gen_mix;
        if (s.has_mix) gen_mix.emplace(s.mix, seed ^ 0xabcdefull, t_.alignment());
        std::uint64_t i1 = 0, i2 = 0;
        double elapsed = 0;
        auto wall_start = std::chrono::steady_clock::now();
        std::uint64_t cap = s.count ? s.count : o_.max_requests_per_run;
        std::uint64_t write_budget = s.time_s > 0 ? timed_write_budget(p.span) : ~std::uint64_t(0),
                      written = 0;
        response_recorder recorder(o_.recorder, s.ignore, s.ignore_auto, o_.plot_data);
        double share = 1.0 / static_cast<double>(std::max<std::uint64_t>(s.repeat, 1));
        if (in_sweep) share = 0; // sweep progress is reported per point
        for (std::uint64_t k = 0; k < cap; ++k) {
            if (s.time_s > 0 && elapsed >= s.time_s) break;
            bool second = s.has_mix && (k % (s.ratio + 1)) == s.ratio;
            const io_pattern& q = second ? s.mix : p;
            if (q.op == io_op::write) {
                if (q.block > write_budget - written) break;
                written += q.block;
            }
            std::uint64_t off = second ? (*gen_mix)(i2++) : gen(i1++);
            double rt = issue(q.op, off, q.block);
            recorder.add(rt);
            if (o_.observer) o_.observer->on_request(rec, k, q.op, off, rt);
            elapsed += rt;
            if (s.pause_s > 0 && (s.burst_size == 0 || (k + 1) % s.burst_size == 0)) {
                idle(s.pause_s);
                elapsed += s.pause_s;
            }
            if ((k & 1023) == 1023 && share > 0) {
                double f = s.count ? static_cast<double>(k) / static_cast<double>(s.count) : 0;
                if (s.time_s > 0) f = std::max(f, elapsed / s.time_s);
                report(progress_base + share * f);
            }
        }
        rec.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        rec.io_buffer = t_.io_buffer();
        recorded_run out = recorder.finish();
        rec.ios = out.ios;
        rec.phases = out.phases;
        rec.ignored = out.ignored;
        rec.latency = out.latency;
        rec.seconds = out.seconds;
        rec.trace = std::move(out.trace);
        rec.cdf = std::move(out.cdf);
        rec.bytes = (rec.ios - rec.ignored) * p.block;
        rec.throughput_mib_s = rec.seconds > 0 ? static_cast<double>(rec.bytes) / MiB / rec.seconds : 0;
        return rec;
    }

    void sweep(const experiment_step& s) {
        struct state {
            bool active = true;
            double prev = 0;
            std::uint64_t prev_block = 0;
        };
        std::vector<state> st(s.sweep_patterns.size());
        std::uint64_t points = 0, planned = static_cast<std::uint64_t>(weight(s));
        for (std::uint64_t b = s.from; b <= s.max_block && b <= s.pattern.span; b *= 2) {
            bool any = false;
            for (const auto& x : st)
                any = any || x.active;
            if (!any) break;
            if (s.fill_block) fill(s.pattern, s.fill_block);
            for (std::size_t i = 0; i < s.sweep_patterns.size(); ++i) {
                if (!st[i].active) continue;
                const sweep_pattern& sp = s.sweep_patterns[i];
                if (sp.granularity && b < sp.granularity) continue;
                io_pattern p = s.sweep_run(sp, b);
                if (b > p.span) {
                    st[i].active = false;
                    continue;
                }
                std::uint64_t bytes = 0;
                double secs = 0;
                for (std::uint64_t r = 0; r < s.repeat; ++r) {
                    run_record rec = run_pattern(s, p, r, true, 0);
                    bytes += rec.bytes;
                    secs += rec.seconds;
                    res_.runs.push_back(std::move(rec));
                    idle(s.between_s);
                    ++points;
                    report(std::min(0.99, static_cast<double>(points) /
                                              static_cast<double>(std::max<std::uint64_t>(planned, 1))));
                }
                double thr = secs > 0 ? static_cast<double>(bytes) / secs : 0;
                std::string code = p.code();
                bool rising = st[i].prev <= 0 || thr >= st[i].prev * (1 + s.self_scale_rise);
                if (!rising && !res_.self_scaling.count(code)) res_.self_scaling[code] = st[i].prev_block;
                if (b >= s.to && (!s.self_scale || !rising)) st[i].active = false;
                st[i].prev = thr;
                st[i].prev_block = b;
            }
        }
    }

    void burst(const experiment_step& s) {
        burst_record rec;
        rec.label = s.label;
        rec.line = s.line;
        rec.seq_block = s.pattern.block;
        rec.burst_block = s.burst_block ? s.burst_block : s.pattern.block;
        rec.burst_time_s = s.burst_time_s;
        rec.window_s = s.window_s;
        rec.window_mib_s.reserve(static_cast<std::size_t>(s.windows));
        if (s.fill_block) fill(s.pattern, s.fill_block);
        report(0.3);
        io_pattern rp = s.pattern;
        rp.order = address_order::random;
        rp.block = rec.burst_block;
        offset_generator rg(rp, s.seed * 31 + 5, t_.alignment());
        double elapsed = 0;
        std::uint64_t burst_budget = timed_write_budget(s.pattern.span);
        for (std::uint64_t k = 0;
             k < o_.max_requests_per_run && elapsed < s.burst_time_s && (k + 1) * rp.block <= burst_budget;
             ++k) {
            elapsed += issue(io_op::write, rg(k), rp.block);
            ++rec.burst_ios;
        }
        rec.burst_mib_s = elapsed > 0 ? static_cast<double>(rec.burst_ios * rp.block) / MiB / elapsed : 0;
        report(0.6);
        io_pattern sp = s.pattern;
        sp.order = address_order::ordered;
        offset_generator sg(sp, s.seed, t_.alignment());
        std::uint64_t i = 0;
        for (std::uint64_t w = 0; w < s.windows; ++w) {
            double acc = 0;
            std::uint64_t bytes = 0;
            std::uint64_t window_budget = window_write_budget(s.pattern.span, sp.block, s.windows);
            for (std::uint64_t k = 0;
                 k < o_.max_requests_per_run && acc < s.window_s && bytes + sp.block <= window_budget; ++k) {
                acc += issue(io_op::write, sg(i++), sp.block);
                bytes += sp.block;
            }
            rec.window_mib_s.push_back(acc > 0 ? static_cast<double>(bytes) / MiB / acc : 0);
        }
        rec.recovery = compute_recovery(rec.window_mib_s, s.window_s, s.recovery_fraction);
        res_.bursts.push_back(std::move(rec));
    }

    void stride(const experiment_step& s) {
        stride_record rec;
        rec.label = s.label;
        rec.line = s.line;
        rec.write_read = s.kind == step_kind::write_read;
        rec.block = s.pattern.block;
        rec.length = s.length;
        rec.stride = s.stride;
        std::uint64_t a = t_.alignment();
        std::uint64_t extent = (s.length - 1) * s.stride + s.pattern.block;
        std::mt19937_64 rng(s.seed * 0x9e3779b97f4a7c15ull + 3);
        std::uniform_int_distribution<std::uint64_t> pos(0, (s.pattern.span - extent) / a);
        rec.first_s.reserve(static_cast<std::size_t>(s.repeat));
        rec.second_s.reserve(static_cast<std::size_t>(s.repeat));
        for (std::uint64_t it = 0; it < s.repeat; ++it) {
            std::uint64_t base = s.pattern.offset + pos(rng) * a;
            double first = 0, second = 0;
            if (rec.write_read) {
                for (std::uint64_t k = 0; k < s.length; ++k)
                    first += issue(io_op::write, base + k * s.stride, rec.block);
                for (std::uint64_t k = 0; k < s.length; ++k)
                    second += issue(io_op::read, base + k * s.stride, rec.block);
            } else {
                for (std::uint64_t k = 0; k < s.length; ++k)
                    first += issue(io_op::read, base + k * s.stride, rec.block);
                random_permutation perm(s.length, rng());
                for (std::uint64_t k = 0; k < s.length; ++k)
                    second += issue(io_op::read, base + perm[k] * s.stride, rec.block);
            }
            rec.first_s.push_back(first);
            rec.second_s.push_back(second);
            if ((it & 15) == 15) report(static_cast<double>(it) / static_cast<double>(s.repeat));
        }
        res_.strides.push_back(std::move(rec));
    }

    target& t_;
    runner_options o_;
    characterization res_;
    double total_weight_ = 0, done_weight_ = 0, step_weight_ = 0;
    std::string current_;
};

} // namespace flashxxl::characterize
