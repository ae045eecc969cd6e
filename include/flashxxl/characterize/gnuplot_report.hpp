// Plots of a characterization as a gnuplot script plus data files (PNG or SVG when run).
#pragma once

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! What write_gnuplot() produced.
struct gnuplot_files {
    std::string script;               //!< path of the .gp script
    std::vector<std::string> images;  //!< images the script draws when run
};

//! Writes `prefix`.gp and its data files `prefix`-*.dat. `terminal` is "pngcairo", "png" or
//! "svg". Plots: throughput vs block size (log-log) for every swept pattern with Br and both Bw
//! marked; per-IO latency series of a few runs; sequential-write recovery after each burst;
//! CDFs of the stride tests and of the response times of the small random runs.
inline gnuplot_files write_gnuplot(const std::string& prefix, const characterization& c, const recommendation& r,
                                   const std::string& terminal) {
    gnuplot_files f;
    f.script = prefix + ".gp";
    std::string ext = terminal == "svg" ? ".svg" : ".png";
    std::string term = (terminal == "svg" ? "svg size 1000,650 dynamic" : terminal + " size 1000,650") + " noenhanced";
    auto base = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };
    std::ofstream gp(f.script);
    if (!gp) throw io_failure("cannot write '" + f.script + "'");
    gp << "# gnuplot script written by flashxxl characterize; run: gnuplot " << base(f.script) << "\n";
    gp << "set terminal " << term << "\nset grid\nset key outside right\n";

    // 1. throughput vs block size
    if (!r.curves.empty()) {
        std::string dat = prefix + "-throughput.dat";
        std::ofstream d(dat);
        std::vector<std::string> codes;
        for (const auto& kv : r.curves) {
            codes.push_back(kv.first);
            d << "# " << kv.first << ": block_bytes throughput_mib_s\n";
            for (const auto& p : kv.second) d << p.block << ' ' << p.mib_s << '\n';
            d << "\n\n";
        }
        std::string img = prefix + "-throughput" + ext;
        f.images.push_back(img);
        gp << "set output '" << base(img) << "'\n";
        gp << "set title 'Throughput vs block size: " << c.target_name << "'\n";
        gp << "set logscale xy 2\nset xlabel 'block size (bytes)'\nset ylabel 'MiB/s'\n";
        gp << "set format x '%.0b%B'\n";
        gp << "unset arrow\nunset label\n";
        int n = 0;
        auto mark = [&](const std::optional<std::uint64_t>& b, const std::string& what) {
            if (!b) return;
            ++n;
            gp << "set arrow " << n << " from " << *b << ", graph 0 to " << *b << ", graph 1 nohead dt 2 lw 2\n";
            gp << "set label " << n << " '" << what << "=" << format_size(*b) << "' at " << *b << ", graph "
               << (0.04 + 0.06 * n) << " left offset 0.5,0 front\n";
        };
        mark(r.br, "Br");
        mark(r.bw_aligned, "Bw");
        mark(r.bw_unaligned, "Bw(4KiB offsets)");
        gp << "plot ";
        for (std::size_t i = 0; i < codes.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i << " using 1:2 with linespoints lw 2 title '"
               << codes[i] << "'";
        gp << "\nunset logscale\nunset arrow\nunset label\nset format x '%g'\n";
    }

    // 2. per-IO latency series: the first repeat of the largest-count swept runs at 4 KiB and at Bw
    std::vector<const run_record*> picks;
    for (const auto& run : c.runs) {
        if (run.repeat != 0 || run.times_s.empty()) continue;
        bool small = run.pattern.block == std::max<std::uint64_t>(4 * KiB, c.alignment);
        bool at_bw = r.bw_aligned && run.pattern.block == *r.bw_aligned;
        if ((small || at_bw) && picks.size() < 8) picks.push_back(&run);
    }
    if (picks.empty())
        for (const auto& run : c.runs)
            if (run.repeat == 0 && !run.times_s.empty() && picks.size() < 4) picks.push_back(&run);
    if (!picks.empty()) {
        std::string dat = prefix + "-latency.dat";
        std::ofstream d(dat);
        for (const auto* p : picks) {
            d << "# " << p->label << " " << p->code << " " << p->pattern.block << ": index response_ms\n";
            std::size_t n = p->times_s.size(), step = std::max<std::size_t>(1, n / 5000);
            for (std::size_t i = 0; i < n; i += step) d << i << ' ' << p->times_s[i] * 1e3 << '\n';
            d << "\n\n";
        }
        std::string img = prefix + "-latency" + ext;
        f.images.push_back(img);
        gp << "set output '" << base(img) << "'\nset title 'Per-IO response time'\n";
        gp << "set xlabel 'request number'\nset ylabel 'response time (ms)'\nset logscale y\n";
        gp << "plot ";
        for (std::size_t i = 0; i < picks.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i << " using 1:2 with points pt 7 ps 0.3 title '"
               << picks[i]->code << " " << format_size(picks[i]->pattern.block) << "'";
        gp << "\nunset logscale\n";
    }

    // 3. recovery after bursts
    if (!c.bursts.empty()) {
        std::string dat = prefix + "-recovery.dat";
        std::ofstream d(dat);
        for (const auto& b : c.bursts) {
            d << "# " << b.label << ": seconds_after_burst seq_write_mib_s\n";
            for (std::size_t i = 0; i < b.window_mib_s.size(); ++i) d << double(i) * b.window_s << ' ' << b.window_mib_s[i] << '\n';
            d << "\n\n";
        }
        std::string img = prefix + "-recovery" + ext;
        f.images.push_back(img);
        gp << "set output '" << base(img) << "'\nset title 'Sequential writes after random-write bursts'\n";
        gp << "set xlabel 'seconds after the burst'\nset ylabel 'MiB/s'\n";
        gp << "plot ";
        for (std::size_t i = 0; i < c.bursts.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i << " using 1:2 with linespoints title '"
               << c.bursts[i].label << "'";
        gp << "\n";
    }

    // 4. CDFs: stride tests (length 16 or the first few) and small random runs
    struct series {
        std::string title;
        std::vector<double> v;
    };
    std::vector<series> cdfs;
    for (const auto& s : c.strides) {
        if (cdfs.size() >= 10) break;
        if (s.length != 16 && c.strides.size() > 10) continue;
        std::string t = (s.write_read ? "write+read " : "read ") + std::to_string(s.length) + "x" +
                        format_size(s.block) + " stride " + format_size(s.stride);
        cdfs.push_back({t + (s.write_read ? " (write)" : " (in order)"), s.first_s});
        cdfs.push_back({t + (s.write_read ? " (read back)" : " (shuffled)"), s.second_s});
    }
    if (cdfs.empty())
        for (const auto* p : picks) cdfs.push_back({p->code + " " + format_size(p->pattern.block), p->times_s});
    if (!cdfs.empty()) {
        std::string dat = prefix + "-cdf.dat";
        std::ofstream d(dat);
        for (auto& s : cdfs) {
            std::sort(s.v.begin(), s.v.end());
            d << "# " << s.title << ": time_ms cumulative_fraction\n";
            std::size_t n = s.v.size(), step = std::max<std::size_t>(1, n / 2000);
            for (std::size_t i = 0; i < n; i += step) d << s.v[i] * 1e3 << ' ' << double(i + 1) / double(n) << '\n';
            if (n) d << s.v.back() * 1e3 << " 1\n";
            d << "\n\n";
        }
        std::string img = prefix + "-cdf" + ext;
        f.images.push_back(img);
        gp << "set output '" << base(img) << "'\nset title 'CDF of completion times'\n";
        gp << "set xlabel 'time (ms)'\nset ylabel 'fraction completed'\nset logscale x\nset yrange [0:1]\n";
        gp << "plot ";
        for (std::size_t i = 0; i < cdfs.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i << " using 1:2 with steps title '"
               << cdfs[i].title << "'";
        gp << "\nunset logscale\nset yrange [*:*]\n";
    }
    return f;
}

} // namespace flashxxl::characterize
