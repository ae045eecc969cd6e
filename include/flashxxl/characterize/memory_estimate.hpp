// What a plan's measurements may hold in memory, bounded from the plan before it runs (--memory).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/characterize/plan_estimate.hpp"
#include "flashxxl/characterize/response_recorder.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! The memory budget of a characterization unless one is given (--memory).
inline constexpr std::uint64_t default_memory_budget = 256 * MiB;

//! Heap bytes the JSON report (to_json, then to_json_text: the tree, its ordered copy and the
//! text, alive together) takes per run record, with room to spare: test_memory.cpp measures
//! about 6 KiB per record and fails if it passes this.
inline constexpr std::uint64_t report_bytes_per_record = 16 * KiB;
//! ... and per number of a burst's windows or a stride test's iterations in the report.
inline constexpr std::uint64_t report_bytes_per_value = 96;
//! Heap bytes a characterization holds whatever its plan: target name and kind (a path of up to
//! PATH_MAX), the report's fixed part (target, totals, recommendation, snippet).
inline constexpr std::uint64_t fixed_results_bytes = 64 * KiB;

//! What a plan's measurements may hold at most, by part (bytes). None of it depends on a run's
//! request count (response_recorder.hpp keeps each run in fixed memory); it grows with the
//! records the plan makes: one per repeat of every run, sweep point and pattern, burst and
//! stride test. I/O buffers are apart (one read and one write buffer of the largest request,
//! real targets only; the queue-depth buffers, at most queue_depth_options::max_buffer_bytes).
struct plan_memory {
    std::uint64_t run_records = 0;    //!< at most (sweeps: every size self-scaling may reach)
    std::uint64_t burst_records = 0;  //!< bursts
    std::uint64_t stride_records = 0; //!< stride and write-then-read tests
    std::uint64_t per_run_record = 0; //!< the largest run record: the struct, its strings, its plot data
    std::uint64_t results_bytes =
        0; //!< the characterization at the end (characterization::memory_usage() and less)
    std::uint64_t working_bytes = 0; //!< the run in progress (recorder_limits::working_bytes)
    std::uint64_t report_bytes = 0;  //!< the JSON report built from the results
    //! Everything together, saturating.
    std::uint64_t total() const {
        return saturating_add(saturating_add(results_bytes, working_bytes), report_bytes);
    }
};

namespace detail {
//! Heap bytes a copy of a string of `length` characters may hold (libstdc++ at least doubles a
//! short string's capacity when it grows past the inline buffer).
inline std::uint64_t string_bound(std::size_t length) {
    return length > std::string().capacity() ? 2 * std::uint64_t(length) + 2 : 0;
}
} // namespace detail

//! The bound for checked steps (spans resolved), with the runner's recorder limits and whether
//! run records keep plot data (runner_options::plot_data). Mirrors runner.hpp: the runner
//! reserves exactly these record counts and keeps each record within per_run_record.
inline plan_memory estimate_memory(const std::vector<experiment_step>& steps,
                                   const recorder_limits& limits = {}, bool plot_data = true) {
    plan_memory m;
    const std::uint64_t plot = limits.plot_bytes(plot_data);
    std::uint64_t record_heap = 0, self_scaling = 0, values = 0;
    auto add_runs = [&](std::uint64_t n, const std::string& label, const std::string& code,
                        const std::string& mix) {
        std::uint64_t each = detail::string_bound(label.size()) + detail::string_bound(code.size()) +
                             detail::string_bound(mix.size()) + plot;
        m.run_records = saturating_add(m.run_records, n);
        record_heap = saturating_add(record_heap, saturating_mul(n, each));
        m.per_run_record = std::max<std::uint64_t>(m.per_run_record, sizeof(run_record) + each);
    };
    for (const auto& s : steps) {
        switch (s.kind) {
        case step_kind::run:
            add_runs(s.repeat, s.label, s.pattern.code(), s.has_mix ? s.mix.code() : std::string());
            break;
        case step_kind::sweep:
            // every size the runner may reach: up to max (self-scaling) or the first size >= to
            for (std::uint64_t b = s.from; b && b <= s.max_block && b <= s.pattern.span; b *= 2) {
                for (const auto& sp : s.sweep_patterns) {
                    if (sp.granularity && b < sp.granularity) continue;
                    io_pattern p; // as runner::sweep builds it
                    p.op = sp.op;
                    p.order = sp.random ? address_order::random : address_order::ordered;
                    p.granularity = sp.granularity;
                    add_runs(s.repeat, s.label, p.code(), std::string());
                }
                if (!s.self_scale && b >= s.to) break;
            }
            for (const auto& sp : s.sweep_patterns) {
                io_pattern p;
                p.op = sp.op;
                p.order = sp.random ? address_order::random : address_order::ordered;
                p.granularity = sp.granularity;
                self_scaling = saturating_add(self_scaling,
                                              detail::map_node_bytes + detail::string_bound(p.code().size()));
            }
            break;
        case step_kind::burst:
            ++m.burst_records;
            record_heap = saturating_add(record_heap,
                                         detail::string_bound(s.label.size()) + s.windows * sizeof(double));
            values = saturating_add(values, s.windows);
            break;
        case step_kind::stride:
        case step_kind::write_read:
            ++m.stride_records;
            record_heap = saturating_add(record_heap, detail::string_bound(s.label.size()) +
                                                          2 * s.repeat * sizeof(double));
            values = saturating_add(values, 2 * s.repeat);
            break;
        default:
            break;
        }
    }
    m.results_bytes = saturating_add(
        saturating_add(saturating_mul(m.run_records, sizeof(run_record)),
                       m.burst_records * sizeof(burst_record) + m.stride_records * sizeof(stride_record)),
        saturating_add(saturating_add(record_heap, self_scaling), fixed_results_bytes));
    m.working_bytes = limits.working_bytes(plot_data);
    std::uint64_t records = saturating_add(m.run_records, m.burst_records + m.stride_records);
    m.report_bytes = saturating_add(saturating_mul(records, report_bytes_per_record),
                                    saturating_mul(values, report_bytes_per_value));
    return m;
}

//! Refuses (config_error naming `option`) a plan whose measurements may need more than
//! `budget` bytes, before any I/O; the message gives the parts and the ways out.
inline void check_memory(const plan_memory& m, std::uint64_t budget, const std::string& option = "--memory") {
    if (m.total() <= budget) return;
    throw config_error(
        option + " " + format_bytes(double(budget)) + ": the plan's measurements may need up to " +
        format_bound(m.total()) + ": " + std::to_string(m.run_records) + " run records of up to " +
        format_bytes(double(m.per_run_record)) + " each, " + std::to_string(m.burst_records) +
        " bursts and " + std::to_string(m.stride_records) + " stride tests (" +
        format_bound(m.results_bytes) + " in all), the run in progress " +
        format_bytes(double(m.working_bytes)) + " and the report " + format_bound(m.report_bytes) +
        " (none of it grows with a run's request count); raise " + option +
        " or make fewer records (fewer lines or repeats, a narrower sweep, no plots)");
}

} // namespace flashxxl::characterize
