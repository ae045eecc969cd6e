// Plots of a characterization as a gnuplot script plus data files (PNG or SVG when run).
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/gnuplot_process.hpp"
#include "flashxxl/safe_output.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! What write_gnuplot() produced.
struct gnuplot_files {
    std::string script;              //!< path of the .gp script
    std::vector<std::string> images; //!< images the script draws when run
    //! The gnuplot variable naming each image's output file (default: the image's name), so a
    //! caller can send the output elsewhere: `gnuplot -e "out_cdf='tmp.png'" script`.
    std::vector<std::string> image_vars;
};

//! The signature of the script, the data files and the stamped images (safe_output).
inline std::string gnuplot_signature() { return std::string("written by ") + output_generator; }

//! Every file write_gnuplot() may write for `prefix` and terminal extension `ext` (".png" or
//! ".svg"), for checking the paths before a run.
inline std::vector<std::string> gnuplot_outputs(const std::string& prefix, const std::string& ext) {
    std::vector<std::string> v{prefix + ".gp"};
    for (const char* part : {"-throughput", "-latency", "-recovery", "-cdf"}) {
        v.push_back(prefix + part + ".dat");
        v.push_back(prefix + part + ext);
    }
    return v;
}

namespace detail {
inline std::uint32_t crc32(const std::string& bytes) {
    std::uint32_t c = 0xffffffffu;
    for (unsigned char b : bytes) {
        c ^= b;
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}
inline std::string be32(std::uint32_t v) {
    return {char(v >> 24), char((v >> 16) & 0xff), char((v >> 8) & 0xff), char(v & 0xff)};
}
} // namespace detail

//! Marks an image gnuplot wrote as flashxxl's: a PNG gets a tEXt chunk `Software` = `text`
//! ("written by flashxxl characterize" unless the caller names its own command) after its
//! header chunk, an SVG a comment after its first line. Unknown content is left as it is.
inline void stamp_image(const std::string& path, const std::string& text = gnuplot_signature()) {
    std::string data;
    {
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        data = ss.str();
    }
    const std::string png_magic("\x89PNG\r\n\x1a\n", 8);
    if (data.compare(0, 8, png_magic) == 0 && data.size() >= 33 && data.compare(12, 4, "IHDR") == 0) {
        std::string body = "tEXt" + std::string("Software") + std::string(1, '\0') + text;
        std::string chunk = detail::be32(static_cast<std::uint32_t>(body.size() - 4)) + body +
                            detail::be32(detail::crc32(body));
        data.insert(33, chunk);
    } else if (data.compare(0, 5, "<?xml") == 0 || data.compare(0, 4, "<svg") == 0) {
        auto eol = data.find('\n');
        std::string comment = "<!-- " + text + " -->\n";
        if (data.compare(0, 5, "<?xml") == 0 && eol != std::string::npos)
            data.insert(eol + 1, comment);
        else if (data.compare(0, 5, "<?xml") != 0)
            data.insert(0, comment);
    } else {
        return;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
    if (!out) throw io_failure("cannot stamp the image '" + path + "'");
}

//! Writes `prefix`.gp and its data files `prefix`-*.dat, each through safe_output_file (option
//! "--out"; existing files are replaced only when flashxxl wrote them, or with `force`).
//! `terminal` is "pngcairo", "png" or "svg". Plots: throughput vs block size (log-log) for
//! every swept pattern with Br and both Bw marked; per-IO latency series of a few runs;
//! sequential-write recovery after each burst; CDFs of the stride tests and of the response
//! times of the small random runs. The per-IO plots come from each run's bounded plot data
//! (run_record::trace and cdf), not from a stored series.
inline gnuplot_files write_gnuplot(const std::string& prefix, const characterization& c,
                                   const recommendation& r, const std::string& terminal, bool force = false) {
    gnuplot_files f;
    f.script = prefix + ".gp";
    std::string ext = terminal == "svg" ? ".svg" : ".png";
    std::string term =
        (terminal == "svg" ? "svg size 1000,650 dynamic" : terminal + " size 1000,650") + " noenhanced";
    auto base = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };
    const std::vector<std::string> sig{gnuplot_signature()};
    std::vector<std::unique_ptr<safe_output_file>> files;
    auto open = [&](const std::string& path) -> std::ostream& {
        files.push_back(std::make_unique<safe_output_file>(path, "--out", force, sig));
        std::ostream& o = files.back()->stream();
        if (path != f.script) o << "# " << gnuplot_signature() << "\n";
        return o;
    };
    auto output = [&](const std::string& img, const std::string& var) {
        f.images.push_back(img);
        f.image_vars.push_back(var);
        return "if (!exists(\"" + var + "\")) " + var + " = '" + base(img) + "'\nset output " + var + "\n";
    };
    std::ostream& gp = open(f.script);
    gp << "# gnuplot script " << gnuplot_signature() << "; run: gnuplot " << base(f.script) << "\n";
    gp << "set terminal " << term << "\nset grid\nset key outside right\n";

    // 1. throughput vs block size
    if (!r.curves.empty()) {
        std::string dat = prefix + "-throughput.dat";
        std::ostream& d = open(dat);
        std::vector<std::string> codes;
        for (const auto& kv : r.curves) {
            codes.push_back(kv.first);
            d << "# " << kv.first << ": block_bytes throughput_mib_s\n";
            for (const auto& p : kv.second)
                d << p.block << ' ' << p.mib_s << '\n';
            d << "\n\n";
        }
        std::string img = prefix + "-throughput" + ext;
        gp << output(img, "out_throughput");
        gp << "set title " << gnuplot_quoted("Throughput vs block size: " + c.target_name) << "\n";
        gp << "set logscale xy 2\nset xlabel 'block size (bytes)'\nset ylabel 'MiB/s'\n";
        gp << "set format x '%.0b%B'\n";
        gp << "unset arrow\nunset label\n";
        int n = 0;
        auto mark = [&](const std::optional<std::uint64_t>& b, const std::string& what) {
            if (!b) return;
            ++n;
            gp << "set arrow " << n << " from " << *b << ", graph 0 to " << *b
               << ", graph 1 nohead dt 2 lw 2\n";
            gp << "set label " << n << " '" << what << "=" << format_size(*b) << "' at " << *b << ", graph "
               << (0.04 + 0.06 * n) << " left offset 0.5,0 front\n";
        };
        mark(r.br, "Br");
        mark(r.bw_aligned, "Bw");
        mark(r.bw_unaligned, "Bw(4KiB offsets)");
        gp << "plot ";
        for (std::size_t i = 0; i < codes.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i
               << " using 1:2 with linespoints lw 2 title " << gnuplot_quoted(codes[i]);
        gp << "\nunset logscale\nunset arrow\nunset label\nset format x '%g'\n";
    }

    // 2. per-IO latency series: the first repeat of the largest-count swept runs at 4 KiB and at
    // Bw, from each run's bounded trace: every request while the run had at most
    // recorder_limits::trace_buckets of them, else min and max of each bucket of w requests
    // (both at the bucket's first request), so spikes stay visible
    std::vector<const run_record*> picks;
    for (const auto& run : c.runs) {
        if (run.repeat != 0 || run.trace.empty()) continue;
        bool small = run.pattern.block == std::max<std::uint64_t>(4 * KiB, c.alignment);
        bool at_bw = r.bw_aligned && run.pattern.block == *r.bw_aligned;
        if ((small || at_bw) && picks.size() < 8) picks.push_back(&run);
    }
    if (picks.empty())
        for (const auto& run : c.runs)
            if (run.repeat == 0 && !run.trace.empty() && picks.size() < 4) picks.push_back(&run);
    if (!picks.empty()) {
        std::string dat = prefix + "-latency.dat";
        std::ostream& d = open(dat);
        for (const auto* p : picks) {
            const latency_trace& tr = p->trace;
            d << "# " << p->label << " " << p->code << " " << p->pattern.block << ": index response_ms";
            if (tr.width() > 1) d << " (min and max of every " << tr.width() << " requests)";
            d << "\n";
            for (std::size_t i = 0; i < tr.buckets().size(); ++i) {
                const trace_bucket& b = tr.buckets()[i];
                std::uint64_t at = i * tr.width();
                d << at << ' ' << double(b.min_s) * 1e3 << '\n';
                if (tr.width() > 1) d << at << ' ' << double(b.max_s) * 1e3 << '\n';
            }
            d << "\n\n";
        }
        std::string img = prefix + "-latency" + ext;
        gp << output(img, "out_latency") << "set title 'Per-IO response time'\n";
        gp << "set xlabel 'request number'\nset ylabel 'response time (ms)'\nset logscale y\n";
        gp << "plot ";
        for (std::size_t i = 0; i < picks.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i
               << " using 1:2 with points pt 7 ps 0.3 title "
               << gnuplot_quoted(picks[i]->code + " " + format_size(picks[i]->pattern.block));
        gp << "\nunset logscale\n";
    }

    // 3. recovery after bursts
    if (!c.bursts.empty()) {
        std::string dat = prefix + "-recovery.dat";
        std::ostream& d = open(dat);
        for (const auto& b : c.bursts) {
            d << "# " << b.label << ": seconds_after_burst seq_write_mib_s\n";
            for (std::size_t i = 0; i < b.window_mib_s.size(); ++i)
                d << double(i) * b.window_s << ' ' << b.window_mib_s[i] << '\n';
            d << "\n\n";
        }
        std::string img = prefix + "-recovery" + ext;
        gp << output(img, "out_recovery") << "set title 'Sequential writes after random-write bursts'\n";
        gp << "set xlabel 'seconds after the burst'\nset ylabel 'MiB/s'\n";
        gp << "plot ";
        for (std::size_t i = 0; i < c.bursts.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i
               << " using 1:2 with linespoints title " << gnuplot_quoted(c.bursts[i].label);
        gp << "\n";
    }

    // 4. CDFs: stride tests (length 16 or the first few) and small random runs (exact from the
    // trace while it holds every request, else the run's CDF points from its histograms)
    struct series {
        std::string title;
        std::vector<std::pair<double, double>> points; // time_s, cumulative fraction
    };
    auto exact_cdf = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        std::vector<std::pair<double, double>> pts;
        std::size_t n = v.size(), step = std::max<std::size_t>(1, n / 2000);
        for (std::size_t i = 0; i < n; i += step)
            pts.emplace_back(v[i], double(i + 1) / double(n));
        if (n) pts.emplace_back(v.back(), 1.0);
        return pts;
    };
    std::vector<series> cdfs;
    for (const auto& s : c.strides) {
        if (cdfs.size() >= 10) break;
        if (s.length != 16 && c.strides.size() > 10) continue;
        std::string t = (s.write_read ? "write+read " : "read ") + std::to_string(s.length) + "x" +
                        format_size(s.block) + " stride " + format_size(s.stride);
        cdfs.push_back({t + (s.write_read ? " (write)" : " (in order)"), exact_cdf(s.first_s)});
        cdfs.push_back({t + (s.write_read ? " (read back)" : " (shuffled)"), exact_cdf(s.second_s)});
    }
    if (cdfs.empty())
        for (const auto* p : picks) {
            series sr{p->code + " " + format_size(p->pattern.block), {}};
            if (p->trace.width() == 1) {
                std::vector<double> v;
                for (const auto& b : p->trace.buckets())
                    v.push_back(b.min_s);
                sr.points = exact_cdf(std::move(v));
            } else {
                for (const auto& q : p->cdf)
                    sr.points.emplace_back(q.time_s, q.fraction);
            }
            cdfs.push_back(std::move(sr));
        }
    if (!cdfs.empty()) {
        std::string dat = prefix + "-cdf.dat";
        std::ostream& d = open(dat);
        for (auto& s : cdfs) {
            d << "# " << s.title << ": time_ms cumulative_fraction\n";
            for (const auto& q : s.points)
                d << q.first * 1e3 << ' ' << q.second << '\n';
            d << "\n\n";
        }
        std::string img = prefix + "-cdf" + ext;
        gp << output(img, "out_cdf") << "set title 'CDF of completion times'\n";
        gp << "set xlabel 'time (ms)'\nset ylabel 'fraction completed'\nset logscale x\nset yrange [0:1]\n";
        gp << "plot ";
        for (std::size_t i = 0; i < cdfs.size(); ++i)
            gp << (i ? ", " : "") << "'" << base(dat) << "' index " << i << " using 1:2 with steps title "
               << gnuplot_quoted(cdfs[i].title);
        gp << "\nunset logscale\nset yrange [*:*]\n";
    }
    for (auto& x : files)
        x->commit();
    return f;
}

} // namespace flashxxl::characterize
