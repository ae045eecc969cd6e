// Misaligned versus aligned random writes (seeds/000 Section 3.3.4, Figure 3.4a).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "flashxxl/characterize/results.hpp"

namespace flashxxl::characterize {

//! Random-write throughput at one block size and shift, relative to shift 0.
struct misalignment_point {
    std::uint64_t block = 0, shift = 0;
    double mib_s = 0;
    double ratio_to_aligned = 0; //!< 0 when no aligned run of that block was measured
};

//! Every random-write `run` with a shift, with the ratio to the aligned (shift 0) random writes
//! of the same block size measured in the same plan.
inline std::vector<misalignment_point> misalignment(const characterization& c) {
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<double, double>> acc;
    for (const auto& r : c.runs) {
        const io_pattern& p = r.pattern;
        if (r.in_sweep || p.op != io_op::write || p.order != address_order::random || !r.mix_code.empty() ||
            p.parallel != 1 || p.granularity)
            continue;
        auto& a = acc[{p.block, p.shift}];
        a.first += double(r.bytes);
        a.second += r.seconds;
    }
    std::vector<misalignment_point> out;
    for (const auto& kv : acc) {
        if (kv.first.second == 0 || kv.second.second <= 0) continue;
        misalignment_point m;
        m.block = kv.first.first;
        m.shift = kv.first.second;
        m.mib_s = kv.second.first / MiB / kv.second.second;
        auto al = acc.find({m.block, 0});
        if (al != acc.end() && al->second.second > 0)
            m.ratio_to_aligned = m.mib_s / (al->second.first / MiB / al->second.second);
        out.push_back(m);
    }
    return out;
}

} // namespace flashxxl::characterize
