// The characterization as CSV: one row per experiment, repeat and block size (the per-IO log streams:
// io_log.hpp).
#pragma once

#include <ostream>
#include <string>

#include "flashxxl/characterize/results.hpp"

namespace flashxxl::characterize {

namespace detail {
inline std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char ch : s)
        o += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return o + "\"";
}
} // namespace detail

//! The header line of write_csv(); an existing file that starts with it counts as ours (safe_output).
inline constexpr const char* csv_header =
    "experiment,line,pattern,mix,ratio,repeat,block_bytes,shift_bytes,granularity_bytes,offset_bytes,"
    "span_bytes,ios,ignored_ios,bytes,seconds,throughput_mib_s,lat_min_s,lat_mean_s,lat_stddev_s,"
    "lat_p50_s,lat_p99_s,lat_p999_s,lat_max_s,startup_ios,period_ios\n";

//! One row per run record (every repeat of every pattern and block size), units in the header.
inline void write_csv(std::ostream& out, const characterization& c) {
    out << csv_header;
    out.precision(9);
    for (const auto& r : c.runs) {
        out << detail::csv_field(r.label) << ',' << r.line << ',' << detail::csv_field(r.code) << ','
            << detail::csv_field(r.mix_code) << ',' << r.ratio << ',' << r.repeat << ',' << r.pattern.block
            << ',' << r.pattern.shift << ',' << r.pattern.effective_granularity() << ',' << r.pattern.offset
            << ',' << r.pattern.span << ',' << r.ios << ',' << r.ignored << ',' << r.bytes << ',' << r.seconds
            << ',' << r.throughput_mib_s << ',' << r.latency.min_s << ',' << r.latency.mean_s << ','
            << r.latency.stddev_s << ',' << r.latency.p50_s << ',' << r.latency.p99_s << ','
            << r.latency.p999_s << ',' << r.latency.max_s << ',' << r.phases.startup << ',' << r.phases.period
            << '\n';
    }
}

} // namespace flashxxl::characterize
