// The throughput points a model fit compares: one per experiment line, pattern and block size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! One experiment as a fit sees it: the repeats of one pattern at one block size on one line
//! of the plan, their bytes over their summed response times.
struct fit_point {
    std::size_t line = 0;       //!< line of the plan
    std::string label;          //!< the experiment's label
    std::string code;           //!< "SR", "RW@4KiB", ... (io_pattern::code)
    std::string mix_code;       //!< second pattern of a mix, empty if none
    std::uint64_t ratio = 0;    //!< mix ratio
    std::uint64_t block = 0;    //!< request size
    std::uint64_t bytes = 0;    //!< counted bytes of all repeats
    double seconds = 0;         //!< their summed response times
    std::uint64_t most_ios = 0; //!< requests of the longest repeat

    double mib_s() const { return seconds > 0 ? double(bytes) / double(MiB) / seconds : 0; }
    //! What identifies the point in a characterization and in its replay.
    std::string key() const {
        return std::to_string(line) + "|" + code + "|" + std::to_string(block) + "|" + mix_code + "|" +
               std::to_string(ratio);
    }
};

//! The points of `c`, in the order their first repeat ran.
inline std::vector<fit_point> fit_points(const characterization& c) {
    std::vector<fit_point> out;
    std::map<std::string, std::size_t> at;
    for (const auto& r : c.runs) {
        fit_point p;
        p.line = r.line;
        p.label = r.label;
        p.code = r.code;
        p.mix_code = r.mix_code;
        p.ratio = r.ratio;
        p.block = r.pattern.block;
        auto it = at.find(p.key());
        if (it == at.end()) it = at.emplace(p.key(), out.size()).first, out.push_back(p);
        fit_point& q = out[it->second];
        q.bytes += r.bytes;
        q.seconds += r.seconds;
        q.most_ios = std::max(q.most_ios, r.ios);
    }
    return out;
}

//! The plan a model replays to predict `points`: the same steps (checked: spans resolved), each
//! sweep unrolled into its fills and one `run` per pattern and block size (same line, label,
//! seed and offsets, so the same keys), every run limited to the requests its longest measured
//! repeat issued, at most `max_requests` and at most `max_bytes` per repeat (but 32 requests),
//! instead of by time, and the steps no point comes from (bursts, stride and write-then-read
//! tests) left out.
inline std::vector<experiment_step> replay_plan(const std::vector<experiment_step>& checked,
                                                const std::vector<fit_point>& points,
                                                std::uint64_t max_requests,
                                                std::uint64_t max_bytes = 256 * MiB) {
    std::map<std::string, std::uint64_t> most_ios;
    for (const auto& p : points)
        most_ios[p.key()] = p.most_ios;
    auto limited = [&](experiment_step s, const io_pattern& p) {
        fit_point key;
        key.line = s.line, key.code = p.code(), key.block = p.block;
        if (s.has_mix) key.mix_code = s.mix.code(), key.ratio = s.ratio;
        auto it = most_ios.find(key.key());
        if (it == most_ios.end()) return std::optional<experiment_step>();
        const std::uint64_t by_bytes =
            std::max<std::uint64_t>(32, max_bytes / std::max<std::uint64_t>(p.block, 1));
        s.kind = step_kind::run;
        s.pattern = p;
        s.count = std::max<std::uint64_t>(1, std::min({it->second, max_requests, by_bytes}));
        s.time_s = 0;
        return std::optional<experiment_step>(s);
    };
    std::vector<experiment_step> plan;
    for (const experiment_step& s : checked) {
        if (s.kind == step_kind::burst || s.kind == step_kind::stride || s.kind == step_kind::write_read)
            continue;
        if (s.kind == step_kind::run) {
            if (auto r = limited(s, s.pattern)) plan.push_back(*r);
            continue;
        }
        if (s.kind != step_kind::sweep) {
            plan.push_back(s);
            continue;
        }
        for (std::uint64_t b = s.from; b <= s.max_block && b <= s.pattern.span; b *= 2) {
            std::vector<experiment_step> runs;
            for (const sweep_pattern& sp : s.sweep_patterns) {
                if (sp.granularity && b < sp.granularity) continue;
                io_pattern p = s.sweep_run(sp, b);
                if (auto r = limited(s, p)) runs.push_back(*r);
            }
            if (runs.empty()) continue;
            if (s.fill_block) {
                experiment_step fill = s;
                fill.kind = step_kind::fill;
                fill.pattern.block = s.fill_block;
                plan.push_back(fill);
            }
            plan.insert(plan.end(), runs.begin(), runs.end());
        }
    }
    return plan;
}

} // namespace flashxxl::characterize
