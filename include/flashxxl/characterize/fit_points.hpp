// The throughput points a model fit compares: one per experiment line, pattern and block size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
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

//! The plan a model replays to predict `points`: the same steps (checked: spans resolved) with
//! every run limited to the requests the longest measured repeat of its line issued (at most
//! `max_requests`) instead of by time, sweeps without self-scaling up to the largest block
//! measured on their line, and the steps no point comes from (bursts, stride and write-then-read
//! tests) left out.
inline std::vector<experiment_step> replay_plan(const std::vector<experiment_step>& checked,
                                                const std::vector<fit_point>& points,
                                                std::uint64_t max_requests) {
    std::map<std::size_t, std::uint64_t> most_ios, largest_block;
    for (const auto& p : points) {
        most_ios[p.line] = std::max(most_ios[p.line], p.most_ios);
        largest_block[p.line] = std::max(largest_block[p.line], p.block);
    }
    std::vector<experiment_step> plan;
    for (experiment_step s : checked) {
        if (s.kind == step_kind::burst || s.kind == step_kind::stride || s.kind == step_kind::write_read)
            continue;
        if (s.kind == step_kind::run || s.kind == step_kind::sweep) {
            if (!most_ios.count(s.line)) continue; // nothing measured on it
            s.count = std::max<std::uint64_t>(1, std::min(most_ios[s.line], max_requests));
            s.time_s = 0;
        }
        if (s.kind == step_kind::sweep) {
            s.self_scale = false;
            s.to = largest_block[s.line];
            s.max_block = s.to;
        }
        plan.push_back(s);
    }
    return plan;
}

} // namespace flashxxl::characterize
