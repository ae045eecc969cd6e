// The parameters a model fit searches for each model kind, their scales and their starting values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flashxxl/characterize/fit_points.hpp"
#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/model_number_format.hpp"
#include "flashxxl/device/model_params.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! What the device says of itself (device_hints.hpp) that a fit starts from.
struct fit_start_hints {
    std::uint64_t page = 0;         //!< flash page / sector to assume (physical block size); 0 = the preset's
    std::optional<bool> rotational; //!< a disk (true) or not (false), when the kernel says
};

//! How a dimension's values are searched: in log space, continuous or rounded.
enum class fit_scale {
    real,         //!< log(v + floor): values down to 0
    power_of_two, //!< log(v), rounded to a power of two (a size)
    whole         //!< log(v + 1), rounded to a whole number (a count)
};

//! One searched parameter of a model.
struct fit_dimension {
    std::string key;
    fit_scale scale = fit_scale::real;
    double lo = 0, hi = 1e12; //!< the values it may take
    double floor = 0;         //!< real: the smallest value told apart from 0
    bool bytes = false;       //!< power_of_two: a size (written 512KiB), not a count

    double clamp(double v) const { return std::min(hi, std::max(lo, v)); }
    double to_log(double v) const {
        return scale == fit_scale::real    ? std::log(v + floor)
               : scale == fit_scale::whole ? std::log(v + 1)
                                           : std::log(v);
    }
    double from_log(double x) const {
        if (scale == fit_scale::real) return clamp(std::max(0.0, std::exp(x) - floor));
        if (scale == fit_scale::whole) return clamp(std::round(std::exp(x) - 1));
        return clamp(std::exp2(std::round(x / std::log(2.0))));
    }
    //! Discrete dimensions: every value a first scan tries; real ones: none.
    std::vector<double> scan() const {
        std::vector<double> v;
        if (scale == fit_scale::real) return v;
        for (double x = std::max(lo, 1.0); x <= hi; x = scale == fit_scale::whole ? 2 * x + 1 : 2 * x)
            v.push_back(scale == fit_scale::whole && x == 1 && lo == 0 ? 0 : x);
        if (scale == fit_scale::whole && lo == 0) v.push_back(1);
        return v;
    }
    //! Discrete dimensions: one step either way.
    std::vector<double> neighbours(double v) const {
        if (scale == fit_scale::real) return {};
        if (scale == fit_scale::power_of_two) return {clamp(v / 2), clamp(v * 2)};
        return {clamp(v - 1), clamp(v + 1)};
    }
    //! The steps a fit's determination check tries: 5 % (or one step) either way, where the
    //! value can move that way (0 moves up only, a bound inward only).
    std::vector<double> nudges(double v) const {
        std::vector<double> steps;
        if (scale == fit_scale::real) {
            steps.push_back(v > 0 ? clamp(v * 1.05) : floor);
            if (v > 0) steps.push_back(clamp(v / 1.05));
        } else {
            steps = neighbours(v);
        }
        steps.erase(std::remove(steps.begin(), steps.end(), v), steps.end());
        return steps;
    }
};

//! The parameters one fit searches, the fixed ones, and where the search starts.
struct fit_space {
    std::string kind;   //!< the model kind (device_model::kind)
    std::string preset; //!< whose values the fixed parameters keep
    model_params fixed; //!< capacity and the parameters throughput does not show
    std::vector<fit_dimension> dims;
    std::vector<double> start;
    //! Sets the parameters that follow from the searched ones (may be empty).
    std::function<void(const std::vector<double>&, model_params&)> derive;

    //! The overrides a candidate model is made with.
    model_params overrides(const std::vector<double>& values) const {
        model_params p = fixed;
        for (std::size_t d = 0; d < dims.size(); ++d)
            p.set(dims[d].key, text(dims[d], values[d]));
        if (derive) derive(values, p);
        return p;
    }
    std::vector<double> to_log(const std::vector<double>& values) const {
        std::vector<double> x;
        for (std::size_t d = 0; d < dims.size(); ++d)
            x.push_back(dims[d].to_log(values[d]));
        return x;
    }
    std::vector<double> from_log(const std::vector<double>& x) const {
        std::vector<double> v;
        for (std::size_t d = 0; d < dims.size(); ++d)
            v.push_back(dims[d].from_log(x[d]));
        return v;
    }
    static std::string text(const fit_dimension& d, double v) {
        if (d.bytes) return format_model_size(std::uint64_t(v));
        if (d.scale != fit_scale::real) return std::to_string(std::uint64_t(v));
        return format_model_number(v);
    }
};

namespace detail {

//! Measured seconds per request and MiB/s of a pattern at its smallest and largest block.
struct pattern_rates {
    std::uint64_t small_block = 0;
    double small_seconds = 0; //!< per request at small_block
    double peak_mib_s = 0;    //!< the best of any block size
};

inline pattern_rates rates_of(const std::vector<fit_point>& points, const std::string& code) {
    pattern_rates r;
    for (const auto& p : points) {
        if (p.code != code || p.mix_code.size() || p.mib_s() <= 0) continue;
        r.peak_mib_s = std::max(r.peak_mib_s, p.mib_s());
        if (r.small_block == 0 || p.block < r.small_block) {
            r.small_block = p.block;
            r.small_seconds = double(p.block) / (p.mib_s() * double(MiB));
        }
    }
    return r;
}

//! Seconds per request of `code` at `block` beyond the transfer at `mib_s`, at least `least`.
inline double overhead(const pattern_rates& r, double mib_s, double least) {
    if (r.small_block == 0 || mib_s <= 0) return least;
    return std::max(least, r.small_seconds - double(r.small_block) / (mib_s * double(MiB)));
}

//! The smallest block at which random writes reach 80 % of sequential ones (0 if none).
inline std::uint64_t random_write_knee(const std::vector<fit_point>& points) {
    std::uint64_t knee = 0;
    for (const auto& rw : points) {
        if (rw.code != "RW" || rw.mix_code.size()) continue;
        for (const auto& sw : points)
            if (sw.code == "SW" && sw.block == rw.block && sw.line == rw.line &&
                rw.mib_s() >= 0.8 * sw.mib_s())
                if (knee == 0 || rw.block < knee) knee = rw.block;
    }
    return knee;
}

inline std::uint64_t power_of_two_at_least(std::uint64_t v) {
    std::uint64_t p = 1;
    while (p < v)
        p *= 2;
    return p;
}

inline std::string value_of(const std::string& preset, const std::string& key) {
    for (const auto& kv : make_model(preset)->parameters())
        if (kv.first == key) return kv.second;
    throw config_error("model preset " + preset + " has no parameter '" + key + "'");
}

inline double number_of(const std::string& preset, const std::string& key) {
    return parse_number(value_of(preset, key));
}

//! What the block-mapped and log-block searches share: the read and write rates (the measured
//! sequential peaks, else the preset's), the command overheads under them, and their five
//! dimensions (c_r_ms, t_read_ms, bw_r_mibps, c_w_ms, bw_w_mibps) with their start values.
struct flash_transfer_start {
    double bw_r = 0, bw_w = 0, c_w = 0;
    std::vector<fit_dimension> dims;
    std::vector<double> start;
};
inline flash_transfer_start flash_transfer(const std::string& preset, const std::vector<fit_point>& points) {
    flash_transfer_start t;
    const pattern_rates sr = rates_of(points, "SR"), sw = rates_of(points, "SW");
    t.bw_r = sr.peak_mib_s > 0 ? sr.peak_mib_s : number_of(preset, "bw_r_mibps");
    t.bw_w = sw.peak_mib_s > 0 ? sw.peak_mib_s : number_of(preset, "bw_w_mibps");
    const double read_over = overhead(sr, t.bw_r, 2e-6);
    t.c_w = overhead(sw, t.bw_w, 1e-6);
    t.dims = {{"c_r_ms", fit_scale::real, 0, 1e4, 1e-3},
              {"t_read_ms", fit_scale::real, 0, 1e4, 1e-3},
              {"bw_r_mibps", fit_scale::real, 1e-3, 1e7, 0},
              {"c_w_ms", fit_scale::real, 0, 1e4, 1e-3},
              {"bw_w_mibps", fit_scale::real, 1e-3, 1e7, 0}};
    t.start = {read_over / 2 * 1e3, read_over / 2 * 1e3, t.bw_r, t.c_w * 1e3, t.bw_w};
    return t;
}

//! Block-mapped SSD: transfer rates, command overheads, t_R, the merge's t_M and the chunk.
inline fit_space block_mapped_space(const std::string& preset, std::uint64_t capacity,
                                    const std::vector<fit_point>& points, const fit_start_hints& hints) {
    fit_space s;
    s.kind = "ssd-block-mapped";
    s.preset = preset;
    const std::uint64_t page = hints.page ? hints.page : parse_size(value_of(preset, "page"));
    s.fixed.set("capacity", format_model_size(capacity));
    s.fixed.set("page", format_model_size(page));
    s.fixed.set("open_logs", value_of(preset, "open_logs"));
    const flash_transfer_start t = flash_transfer(preset, points);
    std::uint64_t chunk = random_write_knee(points);
    if (chunk == 0) chunk = parse_size(value_of(preset, "chunk"));
    chunk = std::max(chunk, page);
    const double merge = std::max(1e-4, overhead(rates_of(points, "RW"), t.bw_w, 1e-4) - t.c_w);
    const double t_m =
        std::max(1e-4, merge - double(chunk) / (t.bw_r * MiB) - double(chunk) / (t.bw_w * MiB));
    const double top = double(std::min<std::uint64_t>(256 * MiB, capacity));
    s.dims = t.dims;
    s.dims.push_back({"t_merge_ms", fit_scale::real, 0, 1e5, 1e-2});
    s.dims.push_back({"chunk", fit_scale::power_of_two, double(page), top, 0, true});
    s.start = t.start;
    s.start.push_back(t_m * 1e3);
    s.start.push_back(double(chunk));
    return s;
}

//! Log-block SSD (device/log_block_ssd.hpp): the same transfer rates and command overheads as
//! block-mapped, the mapping unit (from the random-write knee, as the block-mapped chunk), and
//! what a merge costs (copy rate, erase). The log pool, its batch, the streams and idle
//! behaviour keep the preset's values: a throughput sweep does not show them (Figure 3.2's
//! latencies over thousands of writes do; docs/device-models.md fits them there).
inline fit_space log_block_space(const std::string& preset, std::uint64_t capacity,
                                 const std::vector<fit_point>& points, const fit_start_hints& hints) {
    fit_space s;
    s.kind = "ssd-log-block";
    s.preset = preset;
    const std::uint64_t page = hints.page ? hints.page : parse_size(value_of(preset, "page"));
    const std::uint64_t erase_block = std::max(page, parse_size(value_of(preset, "erase_block")));
    s.fixed.set("capacity", format_model_size(capacity));
    s.fixed.set("page", format_model_size(page));
    s.fixed.set("erase_block", format_model_size(erase_block));
    for (const char* key : {"log_pages", "batch_pages", "streams", "idle_clean", "idle_ms"})
        s.fixed.set(key, value_of(preset, key));
    const flash_transfer_start t = flash_transfer(preset, points);
    std::uint64_t unit = random_write_knee(points);
    if (unit == 0) unit = parse_size(value_of(preset, "unit"));
    unit = std::max(unit, erase_block);
    const double top = double(std::min<std::uint64_t>(256 * MiB, capacity));
    s.dims = t.dims;
    s.dims.push_back({"copy_mibps", fit_scale::real, 1e-3, 1e7, 0});
    s.dims.push_back({"t_erase_ms", fit_scale::real, 0, 1e5, 1e-2});
    s.dims.push_back({"unit", fit_scale::power_of_two, double(erase_block), top, 0, true});
    s.start = t.start;
    s.start.push_back(number_of(preset, "copy_mibps"));
    s.start.push_back(number_of(preset, "t_erase_ms"));
    s.start.push_back(double(unit));
    return s;
}

//! The erase block only sets the GC granularity: the preset's, smaller where a small target
//! leaves too few spare blocks per unit for garbage collection.
inline std::uint64_t gc_block(std::uint64_t preset_block, std::uint64_t page, std::uint64_t usable,
                              std::uint64_t units, double op) {
    std::uint64_t block = preset_block;
    const std::uint64_t share = (usable / page + units - 1) / units;
    while (block > page) {
        const std::uint64_t ppb = block / page;
        const std::uint64_t logical = (share + ppb - 1) / ppb;
        const auto physical = std::uint64_t(std::ceil(double(share) * (1 + op / 100) / double(ppb) - 1e-9));
        if (physical >= logical + 2) break;
        block /= 2;
    }
    return block;
}

//! Page-mapped SSD: transfer caps, command overheads, t_read and the parallel units. With a
//! write cache (write_through=0, the NVMe preset) t_prog follows as in that preset: the flash
//! keeps up with the cache, units * page / bw_w. Write-through (the seeds/004 one-chip presets)
//! a write ends when its pages are programmed, so t_prog shows itself and is searched; bw_w,
//! hidden under it, is the chip's one bus for both directions (seeds/004 section 3.3): bw_r.
inline fit_space page_mapped_space(const std::string& preset, std::uint64_t capacity,
                                   const std::vector<fit_point>& points, const fit_start_hints& hints) {
    fit_space s;
    s.kind = "ssd-page-mapped";
    s.preset = preset;
    const std::uint64_t page = hints.page ? hints.page : parse_size(value_of(preset, "page"));
    const std::uint64_t usable = capacity / page * page;
    const std::uint64_t preset_block = parse_size(value_of(preset, "block"));
    const double op = number_of(preset, "op_percent");
    s.fixed.set("capacity", format_model_size(usable));
    s.fixed.set("page", format_model_size(page));
    s.fixed.set("op_percent", value_of(preset, "op_percent"));
    const pattern_rates sr = rates_of(points, "SR"), rr = rates_of(points, "RR"), sw = rates_of(points, "SW");
    const double bw_r = std::max(sr.peak_mib_s, rr.peak_mib_s) > 0
                            ? std::max(sr.peak_mib_s, rr.peak_mib_s) * 1.1
                            : number_of(preset, "bw_r_mibps");
    const double bw_w = sw.peak_mib_s > 0 ? sw.peak_mib_s : number_of(preset, "bw_w_mibps");
    const double t_read = overhead(rr.small_block ? rr : sr, bw_r, 1e-6);
    const double c_w = overhead(sw, bw_w, 1e-7);
    const double units_guess = std::max(1.0, bw_r * MiB * t_read / double(page));
    const double most_units = double(std::min<std::uint64_t>(4096, usable / page));
    // Write-through, a page read overlaps its transfer (the model takes the longer), so the
    // smallest read, at most a page, starts t_read whole rather than less its transfer, and the
    // smallest write (one page programmed) starts t_prog.
    const bool write_through = number_of(preset, "write_through") != 0;
    const double t_read_start =
        write_through ? std::max(1e-6, (rr.small_block ? rr : sr).small_seconds) : t_read;
    const fit_dimension write_rate = {"bw_w_mibps", fit_scale::real, 1e-3, 1e7, 0};
    const fit_dimension program_time = {"t_prog_us", fit_scale::real, 0, 1e8, 0.1};
    s.dims = {
        {"c_r_us", fit_scale::real, 0, 1e7, 0.1},      {"t_read_us", fit_scale::real, 0, 1e7, 0.1},
        {"bw_r_mibps", fit_scale::real, 1e-3, 1e7, 0}, {"c_w_us", fit_scale::real, 0, 1e7, 0.1},
        write_through ? program_time : write_rate,     {"units", fit_scale::power_of_two, 1, most_units, 0}};
    s.start = {0.5,
               t_read_start * 1e6,
               bw_r,
               write_through ? 0.5 : c_w * 1e6,
               write_through ? std::max(1e-6, sw.small_seconds) * 1e6 : bw_w,
               std::min(most_units, double(power_of_two_at_least(std::uint64_t(units_guess))))};
    s.derive = [page, usable, preset_block, op, write_through](const std::vector<double>& v,
                                                               model_params& p) {
        const std::uint64_t units = std::uint64_t(v[5]);
        if (write_through)
            p.set("bw_w_mibps", format_model_number(v[2]));
        else
            p.set("t_prog_us", format_model_number(double(units * page) / (v[4] * double(MiB)) * 1e6));
        p.set("block", format_model_size(gc_block(preset_block, page, usable, units, op)));
    };
    return s;
}

//! E[sqrt(|y1 - y2|)] of the radial positions of two offsets drawn at random from the first
//! `span` bytes of a disk of `capacity` (hdd_model's geometry), on a 64 x 64 grid.
inline double mean_root_seek_distance(std::uint64_t capacity, std::uint64_t span, double rho) {
    const int n = 64;
    auto y = [&](int i) {
        const double x = (i + 0.5) / n * double(span) / double(capacity);
        return (1 - std::sqrt(1 - x * (1 - rho * rho))) / (1 - rho);
    };
    double sum = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            sum += std::sqrt(std::fabs(y(i) - y(j)));
    return std::max(1e-6, sum / (n * n));
}

//! Hard disk: outer-zone rate, spindle speed, seek slope, command overheads, write-cache
//! segments. rho and the settle time t1 stay as assumed in the preset (random requests over one
//! span show t1 + a E[sqrt(d)] only, and a span's zones little of rho).
inline fit_space hdd_space(const std::string& preset, std::uint64_t capacity, std::uint64_t span,
                           const std::vector<fit_point>& points) {
    fit_space s;
    s.kind = "hdd";
    s.preset = preset;
    s.fixed.set("capacity", format_model_size(capacity));
    s.fixed.set("rho", value_of(preset, "rho"));
    s.fixed.set("seek_t1_ms", value_of(preset, "seek_t1_ms"));
    const pattern_rates sr = rates_of(points, "SR"), sw = rates_of(points, "SW"), rr = rates_of(points, "RR"),
                        rw = rates_of(points, "RW");
    const double r_od = sr.peak_mib_s > 0 ? sr.peak_mib_s * 1.05 : number_of(preset, "r_od_mibps");
    const double c_r = overhead(sr, r_od, 1e-5), c_w = overhead(sw, r_od, 1e-5);
    const double rpm = 7200, T = 60 / rpm;
    const double t1 = number_of(preset, "seek_t1_ms") * 1e-3;
    const double seek = std::max(1e-4, overhead(rr, r_od, 1e-4) - c_r - T / 2);
    const double a =
        std::max(1e-4, (seek - t1) / mean_root_seek_distance(capacity, span, number_of(preset, "rho")));
    const double wait = std::max(T / 1000, overhead(rw, r_od, 1e-4) - c_w - seek);
    const double segments = std::min(1024.0, std::max(0.0, std::round(T / wait - 1)));
    s.dims = {{"r_od_mibps", fit_scale::real, 1e-3, 1e6, 0}, {"rpm", fit_scale::real, 100, 1e6, 0},
              {"seek_a_ms", fit_scale::real, 0, 1e4, 1e-2},  {"c_r_ms", fit_scale::real, 0, 1e4, 1e-3},
              {"c_w_ms", fit_scale::real, 0, 1e4, 1e-3},     {"n_ws", fit_scale::whole, 0, 1024, 0}};
    s.start = {r_od, rpm, a * 1e3, c_r * 1e3, c_w * 1e3, segments};
    return s;
}

//! The preset a kind's config line names unless --fit named one of that kind: the preset of
//! that kind (the block-mapped Hama is hama-ssd-2009-block-mapped; hama-ssd-2009 is log-block).
inline std::string base_preset(const std::string& kind, const std::string& asked) {
    for (const auto& p : model_presets())
        if (p.name == asked && make_model(p.name)->kind() == kind) return p.name;
    if (kind == "hdd") return "barracuda-7200.11";
    if (kind == "ssd-page-mapped") return "nvme-gen4";
    if (kind == "ssd-log-block") return "hama-ssd-2009";
    return "hama-ssd-2009-block-mapped";
}

} // namespace detail

//! The words --fit takes, for help and errors.
inline std::string fit_model_choices() {
    std::string s = "auto, block-mapped, log-block, page-mapped, hdd";
    for (const auto& n : model_preset_names())
        s += ", " + n;
    return s;
}

//! The model kinds `model` (a --fit word) asks to try.
inline std::vector<std::string> fit_kinds(const std::string& model, std::optional<device_class> klass,
                                          const fit_start_hints& hints) {
    const std::string bm = "ssd-block-mapped", lb = "ssd-log-block", pm = "ssd-page-mapped", hdd = "hdd";
    if (model == "auto") {
        std::optional<bool> disk = hints.rotational;
        if (klass) disk = *klass == device_class::hdd;
        if (!disk) return {bm, lb, pm, hdd};
        return *disk ? std::vector<std::string>{hdd} : std::vector<std::string>{bm, lb, pm};
    }
    if (model == "block-mapped" || model == bm) return {bm};
    if (model == "log-block" || model == lb) return {lb};
    if (model == "page-mapped" || model == pm) return {pm};
    if (model == "hdd") return {hdd};
    for (const auto& p : model_presets())
        if (p.name == model) {
            const std::string kind = make_model(p.name)->kind();
            if (kind != bm && kind != lb && kind != pm && kind != hdd)
                throw config_error(
                    "--fit '" + model + "': its model kind " + kind +
                    " has no fit search yet (fitted kinds: block-mapped, log-block, page-mapped, hdd); "
                    "docs/device-models.md fits it with --param over --experiments");
            return {kind};
        }
    throw config_error("--fit '" + model + "': expected one of " + fit_model_choices());
}

//! The search space of `kind`, starting from the measured rates of `points` and the hints.
//! `span`: the largest span of the plan's random patterns (where a disk's seeks range).
inline fit_space make_fit_space(const std::string& kind, const std::string& asked, std::uint64_t capacity,
                                std::uint64_t span, const std::vector<fit_point>& points,
                                const fit_start_hints& hints) {
    const std::string preset = detail::base_preset(kind, asked);
    if (kind == "hdd") return detail::hdd_space(preset, capacity, span, points);
    if (kind == "ssd-page-mapped") return detail::page_mapped_space(preset, capacity, points, hints);
    if (kind == "ssd-log-block") return detail::log_block_space(preset, capacity, points, hints);
    return detail::block_mapped_space(preset, capacity, points, hints);
}

} // namespace flashxxl::characterize
