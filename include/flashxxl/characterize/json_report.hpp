// The characterization as JSON (nlohmann), with the unit in every key name.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "flashxxl/characterize/latency_summary.hpp"
#include "flashxxl/characterize/misalignment.hpp"
#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/safe_output.hpp"

namespace flashxxl::characterize {

//! Latency statistics in seconds; `percentiles_exact` false: p50 / p99 / p999 are from a
//! log_histogram, within 0.5 % (a run longer than recorder_limits::exact_requests).
inline nlohmann::json latency_json(const latency_summary& l) {
    return {{"count", l.count},   {"min_s", l.min_s},       {"max_s", l.max_s},
            {"mean_s", l.mean_s}, {"stddev_s", l.stddev_s}, {"p50_s", l.p50_s},
            {"p99_s", l.p99_s},   {"p999_s", l.p999_s},     {"percentiles_exact", l.exact}};
}

//! The whole report: target, totals, recommendation, curves, runs, bursts, stride tests,
//! misalignment. `snippet` is the machine-config text for the device.
inline nlohmann::json to_json(const characterization& c, const recommendation& r,
                              const std::string& snippet) {
    using nlohmann::json;
    json j;
    j["target"] = {{"name", c.target_name},          {"kind", c.target_kind},
                   {"modelled", c.modelled},         {"capacity_bytes", c.capacity},
                   {"alignment_bytes", c.alignment}, {"base_offset_bytes", c.base_offset}};
    j["totals"] = {{c.modelled ? "modelled_device_s" : "measured_device_s", c.device_seconds},
                   {"read_bytes", c.bytes_read},
                   {"written_bytes", c.bytes_written},
                   {"requests", c.requests}};
    json rec = {{"peak_read_mib_s", r.peak_read_mib_s},
                {"peak_seq_write_mib_s", r.peak_seq_write_mib_s},
                {"read_share", r.options.read_share},
                {"write_share", r.options.write_share},
                {"br_bytes", r.br ? json(*r.br) : json(nullptr)},
                {"bw_bytes", r.bw_aligned ? json(*r.bw_aligned) : json(nullptr)},
                {"bw_block_aligned_bytes", r.bw_aligned ? json(*r.bw_aligned) : json(nullptr)},
                {"bw_4k_granular_bytes", r.bw_unaligned ? json(*r.bw_unaligned) : json(nullptr)},
                {"io_threads", r.io_threads ? json(*r.io_threads) : json(nullptr)},
                {"io_threads_share", r.io_threads_share},
                {"config_snippet", snippet}};
    json depths = json::array();
    for (const auto& p : r.queue_depths)
        depths.push_back({{"queue_depth", p.depth},
                          {"block_bytes", p.block},
                          {"requests", p.requests},
                          {"measured_s", p.seconds},
                          {"throughput_mib_s", p.mib_s}});
    json ss = json::object();
    for (const auto& kv : c.self_scaling)
        ss[kv.first] = kv.second;
    rec["self_scaling_bytes"] = ss;
    j["recommendation"] = rec;
    j["queue_depths"] = depths;
    json curves = json::object();
    for (const auto& kv : r.curves) {
        json arr = json::array();
        for (const auto& p : kv.second)
            arr.push_back({{"block_bytes", p.block}, {"throughput_mib_s", p.mib_s}});
        curves[kv.first] = arr;
    }
    j["curves"] = curves;
    json runs = json::array();
    for (const auto& x : c.runs) {
        json o = {{"label", x.label},
                  {"line", x.line},
                  {"pattern", x.code},
                  {"sweep", x.in_sweep},
                  {"repeat", x.repeat},
                  {"block_bytes", x.pattern.block},
                  {"shift_bytes", x.pattern.shift},
                  {"granularity_bytes", x.pattern.effective_granularity()},
                  {"offset_bytes", x.pattern.offset},
                  {"span_bytes", x.pattern.span},
                  {"ios", x.ios},
                  {"ignored_ios", x.ignored},
                  {"transferred_bytes", x.bytes},
                  {"device_s", x.seconds},
                  {"throughput_mib_s", x.throughput_mib_s},
                  {"wall_s", x.wall_s},
                  {"latency", latency_json(x.latency)},
                  {"startup_ios", x.phases.startup},
                  {"period_ios", x.phases.period}};
        if (!x.mix_code.empty()) o["mix"] = {{"pattern", x.mix_code}, {"ratio", x.ratio}};
        if (!c.modelled) o["io_buffer"] = to_string(x.io_buffer);
        runs.push_back(o);
    }
    j["runs"] = runs;
    json bursts = json::array();
    for (const auto& b : c.bursts)
        bursts.push_back({{"label", b.label},
                          {"line", b.line},
                          {"burst_block_bytes", b.burst_block},
                          {"burst_time_s", b.burst_time_s},
                          {"burst_ios", b.burst_ios},
                          {"burst_mib_s", b.burst_mib_s},
                          {"seq_block_bytes", b.seq_block},
                          {"window_s", b.window_s},
                          {"window_mib_s", b.window_mib_s},
                          {"median_mib_s", b.recovery.median_mib_s},
                          {"recovery_s", b.recovery.recovery_s},
                          {"recovered", b.recovery.recovered}});
    j["bursts"] = bursts;
    json strides = json::array();
    for (const auto& s : c.strides)
        strides.push_back({{"label", s.label},
                           {"test", s.write_read ? "write_read" : "stride_read"},
                           {"block_bytes", s.block},
                           {"length_blocks", s.length},
                           {"stride_bytes", s.stride},
                           {s.write_read ? "write" : "in_order", latency_json(summarize(s.first_s))},
                           {s.write_read ? "read_back" : "shuffled", latency_json(summarize(s.second_s))}});
    j["strides"] = strides;
    json mis = json::array();
    for (const auto& m : misalignment(c))
        mis.push_back({{"block_bytes", m.block},
                       {"shift_bytes", m.shift},
                       {"throughput_mib_s", m.mib_s},
                       {"ratio_to_aligned", m.ratio_to_aligned}});
    j["misalignment"] = mis;
    return j;
}

//! What a JSON report of flashxxl carries on its second line: the signature by which
//! safe_output_file recognises a report it may replace.
inline std::string json_signature() { return std::string("\"generator\": \"") + output_generator + "\""; }

//! The report as text with `"generator": "flashxxl characterize"` as its first key.
inline std::string to_json_text(const nlohmann::json& j) {
    nlohmann::ordered_json o;
    o["generator"] = output_generator;
    for (auto it = j.begin(); it != j.end(); ++it)
        o[it.key()] = it.value();
    return o.dump(2) + "\n";
}

} // namespace flashxxl::characterize
