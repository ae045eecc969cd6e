// Br and Bw from a block-size sweep: the smallest blocks reaching a share of peak throughput (and io_threads
// beside them).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/characterize/queue_depth.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! Thresholds of the recommendation (both are command-line options).
struct recommendation_options {
    double read_share = 0.95;  //!< Br: random reads reach this share of the peak read throughput
    double write_share = 0.90; //!< Bw: random writes reach this share of the peak sequential-write throughput
    std::uint64_t unaligned_granularity = 4 * KiB; //!< the "papers' offsets" variant of RW
};

//! Throughput of one pattern at one block size, over all repeats (bytes / summed time).
struct curve_point {
    std::uint64_t block = 0;
    double mib_s = 0;
};

//! The recommendation and the curves it came from.
struct recommendation {
    std::map<std::string, std::vector<curve_point>> curves; //!< code ("SR", "RW@4KiB") -> ascending blocks
    double peak_read_mib_s = 0;                             //!< max over SR and RR at every block size
    double peak_seq_write_mib_s = 0;                        //!< max over SW at every block size
    std::optional<std::uint64_t> br;                        //!< from RR at block-aligned offsets
    std::optional<std::uint64_t> bw_aligned;   //!< from RW at block-aligned offsets: the recommended Bw
    std::optional<std::uint64_t> bw_unaligned; //!< from RW at 4 KiB-granular offsets (seeds/000 Table 3.1)
    recommendation_options options;
    //! Random reads of Br at several queue depths (real targets; measure_queue_depths) and the
    //! smallest depth within io_threads_share of the best: the device line's io_threads.
    std::vector<queue_depth_point> queue_depths;
    std::optional<unsigned> io_threads;
    double io_threads_share = 0.90;

    //! Throughput of `code` at `block`, 0 when not measured.
    double at(const std::string& code, std::uint64_t block) const {
        auto it = curves.find(code);
        if (it == curves.end()) return 0;
        for (const auto& p : it->second)
            if (p.block == block) return p.mib_s;
        return 0;
    }
};

//! Aggregates the sweep points per (pattern, block) and applies the rule of the issue:
//! Br = the smallest block whose random-read throughput reaches read_share of the peak read
//! throughput; Bw = the smallest whose random-write throughput reaches write_share of the peak
//! sequential-write throughput, once at block-aligned offsets (what flashxxl's containers
//! issue: the recommended Bw) and once at 4 KiB-granular offsets (what the papers' numbers
//! imply; shared/DEVICE-MODELS.md "Alignment matters"). Only runs with in_sweep or plain
//! baseline `run` lines (no shift, no mix, one stream) count.
inline recommendation recommend(const characterization& c, const recommendation_options& o = {}) {
    recommendation r;
    r.options = o;
    std::map<std::string, std::map<std::uint64_t, std::pair<double, double>>> acc; // bytes, seconds
    for (const auto& run : c.runs) {
        const io_pattern& p = run.pattern;
        bool baseline =
            run.mix_code.empty() && p.shift == 0 && p.parallel == 1 &&
            (p.order == address_order::random || (p.order == address_order::ordered && p.incr == 1));
        if (!baseline || run.seconds <= 0) continue;
        auto& cell = acc[run.code][p.block];
        cell.first += static_cast<double>(run.bytes);
        cell.second += run.seconds;
    }
    for (const auto& kv : acc)
        for (const auto& b : kv.second)
            r.curves[kv.first].push_back({b.first, b.second.first / MiB / b.second.second});
    auto peak = [&](const std::string& code) {
        double m = 0;
        auto it = r.curves.find(code);
        if (it != r.curves.end())
            for (const auto& p : it->second)
                m = std::max(m, p.mib_s);
        return m;
    };
    r.peak_read_mib_s = std::max(peak("SR"), peak("RR"));
    r.peak_seq_write_mib_s = peak("SW");
    auto knee = [&](const std::string& code, double level) -> std::optional<std::uint64_t> {
        auto it = r.curves.find(code);
        if (it == r.curves.end() || level <= 0) return std::nullopt;
        for (const auto& p : it->second)
            if (p.mib_s >= level) return p.block;
        return std::nullopt;
    };
    r.br = knee("RR", o.read_share * r.peak_read_mib_s);
    r.bw_aligned = knee("RW", o.write_share * r.peak_seq_write_mib_s);
    r.bw_unaligned =
        knee("RW@" + format_size(o.unaligned_granularity), o.write_share * r.peak_seq_write_mib_s);
    return r;
}

//! The `br=` / `bw=` (and `io_threads=`) a device line states from a recommendation: what was
//! measured, Bw raised to at least Br and to a multiple of it (a write block is whole read
//! blocks; block_sizes' rule). What was not measured is left out, and the device's default
//! fills it in.
inline std::string recommended_block_options(const recommendation& r) {
    std::string s;
    if (r.br) s += " br=" + format_size(*r.br);
    if (r.bw_aligned) {
        s += " bw=" + format_size(r.br ? block_sizes::whole_reads_bw(*r.br, *r.bw_aligned) : *r.bw_aligned);
    }
    if (r.io_threads) s += " io_threads=" + std::to_string(*r.io_threads);
    return s;
}

//! The machine-config lines for the device: a comment with the recommendation, then the
//! STXXL-like device line `flash=PATH,SIZE,syscall name=NAME br=BR bw=BW` (or `disk=` for an
//! HDD); br= / bw= are what every container and command on that device then uses by default.
inline std::string config_snippet(const recommendation& r, const std::string& path, std::uint64_t size,
                                  const std::string& name, bool flash) {
    std::string s = "# recommended:";
    s += " Br=" + (r.br ? format_size(*r.br) : std::string("unknown"));
    s += " Bw=" + (r.bw_aligned ? format_size(*r.bw_aligned) : std::string("unknown"));
    if (r.io_threads) s += " io_threads=" + std::to_string(*r.io_threads);
    s += "  (Bw at 4 KiB-granular offsets: " +
         (r.bw_unaligned ? format_size(*r.bw_unaligned) : std::string("not reached")) + ")\n";
    if (r.br && r.bw_aligned && block_sizes::whole_reads_bw(*r.br, *r.bw_aligned) != *r.bw_aligned)
        s += "# bw=" + format_size(block_sizes::whole_reads_bw(*r.br, *r.bw_aligned)) + ", not " +
             format_size(*r.bw_aligned) +
             ": a write block holds whole read blocks (Bw >= Br and a multiple of it)\n";
    s += std::string(flash ? "flash=" : "disk=") + path + "," + format_size(size) + ",syscall name=" + name;
    s += recommended_block_options(r) + "\n";
    return s;
}

} // namespace flashxxl::characterize
