// A model fit as text (parameters, per-experiment table, config line), as JSON and as a gnuplot chart.
#pragma once

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flashxxl/characterize/gnuplot_report.hpp"
#include "flashxxl/characterize/model_fit.hpp"
#include "flashxxl/safe_output.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

namespace detail {
inline std::string percent(double share) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(share < 0.001 ? 3 : 1) << share * 100 << " %";
    return s.str();
}
inline std::string rate(double mib_s) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(mib_s < 1 ? 4 : 2) << mib_s;
    return s.str();
}
//! "SR 4KiB (line 2)", or with a mix "SR+RW 1:4 32KiB (line 9)".
inline std::string experiment_name(const fit_point& p) {
    std::string s = p.code;
    if (!p.mix_code.empty()) s += "+" + p.mix_code + " " + std::to_string(p.ratio) + ":1";
    return s;
}
} // namespace detail

//! The fit as text: kind, errors, parameters (fitted, not determined, derived, fixed), a table of
//! measured, fitted and error per experiment, and the config line.
inline void print_fit(std::ostream& out, const model_fit& f, const std::string& config_line) {
    out << "\nmodel fit: " << f.kind << " (config line names preset " << f.preset << ")";
    if (f.family_errors.size() > 1) {
        out << "; kinds tried, median error:";
        for (const auto& e : f.family_errors)
            out << " " << e.first << " " << detail::percent(e.second);
    }
    out << "\n  median error " << detail::percent(f.median_error) << " over " << f.experiments.size()
        << " experiments; held out (" << f.holdout << "): median error "
        << detail::percent(f.holdout_median_error) << " over " << f.holdout_count
        << " experiments the check fit did not see\n";
    std::string fitted, undetermined, derived, fixed;
    for (const auto& p : f.parameters) {
        if (!f.overrides.has(p.key)) continue;
        std::string& to = p.determined ? fitted : p.fitted ? undetermined : p.derived ? derived : fixed;
        to += " " + p.key + "=" + p.value;
    }
    out << "  fitted:" << fitted << "\n";
    if (!undetermined.empty())
        out << "  not determined by these experiments (kept where the search left them):" << undetermined
            << "\n";
    if (!derived.empty()) out << "  derived from the fitted values:" << derived << "\n";
    out << "  fixed:" << fixed << "\n";
    out << "  " << std::left << std::setw(22) << "experiment" << std::right << std::setw(6) << "line"
        << std::setw(10) << "block" << std::setw(14) << "measured" << std::setw(14) << "fitted"
        << std::setw(10) << "error" << std::setw(14) << "held-out fit"
        << "  (MiB/s)\n";
    for (const auto& e : f.experiments) {
        out << "  " << std::left << std::setw(22) << detail::experiment_name(e.measured) << std::right
            << std::setw(6) << e.measured.line << std::setw(10) << format_size(e.measured.block)
            << std::setw(14) << detail::rate(e.measured.mib_s()) << std::setw(14)
            << detail::rate(e.fitted_mib_s) << std::setw(10) << detail::percent(e.error()) << std::setw(14)
            << (e.held_out ? detail::rate(e.holdout_fitted_mib_s) + "*"
                           : detail::rate(e.holdout_fitted_mib_s))
            << "\n";
    }
    out << "  (* held out of the check fit; " << f.evaluations << " model replays, " << std::fixed
        << std::setprecision(1) << f.cpu_seconds << " s)\n";
    out << "machine config (fitted model):\n" << config_line << "\n";
}

//! The `fit` object of the JSON report.
inline nlohmann::json fit_json(const model_fit& f, const std::string& config_line) {
    using nlohmann::json;
    json params = json::object(), fitted = json::array(), undetermined = json::array(),
         derived = json::array();
    for (const auto& p : f.parameters) {
        if (!f.overrides.has(p.key)) continue;
        params[p.key] = p.value;
        if (p.determined) fitted.push_back(p.key);
        if (p.fitted && !p.determined) undetermined.push_back(p.key);
        if (p.derived) derived.push_back(p.key);
    }
    json experiments = json::array();
    for (const auto& e : f.experiments)
        experiments.push_back({{"line", e.measured.line},
                               {"label", e.measured.label},
                               {"pattern", e.measured.code},
                               {"mix", e.measured.mix_code},
                               {"block_bytes", e.measured.block},
                               {"measured_mib_s", e.measured.mib_s()},
                               {"fitted_mib_s", e.fitted_mib_s},
                               {"error", e.error()},
                               {"held_out", e.held_out},
                               {"holdout_fitted_mib_s", e.holdout_fitted_mib_s}});
    json kinds = json::object();
    for (const auto& k : f.family_errors)
        kinds[k.first] = k.second;
    return {{"model", f.kind},
            {"preset", f.preset},
            {"parameters", params},
            {"fitted_parameters", fitted},
            {"undetermined_parameters", undetermined},
            {"derived_parameters", derived},
            {"config_line", config_line},
            {"experiments", experiments},
            {"median_error", f.median_error},
            {"holdout", f.holdout},
            {"holdout_median_error", f.holdout_median_error},
            {"holdout_experiments", f.holdout_count},
            {"kinds_median_error", kinds},
            {"model_replays", f.evaluations},
            {"cpu_s", f.cpu_seconds}};
}

//! The files write_fit_gnuplot() writes for `prefix` and image extension `ext`.
inline std::vector<std::string> fit_gnuplot_outputs(const std::string& prefix, const std::string& ext) {
    return {prefix + "-fit.gp", prefix + "-fit.dat", prefix + "-fit" + ext};
}

//! Writes `prefix`-fit.gp and `prefix`-fit.dat: measured (points) and fitted (lines) MiB/s
//! against block size per pattern, log-log, held-out experiments marked (safe_output_file,
//! option "--out").
inline gnuplot_files write_fit_gnuplot(const std::string& prefix, const model_fit& f,
                                       const std::string& terminal, bool force = false) {
    gnuplot_files g;
    g.script = prefix + "-fit.gp";
    const std::string ext = terminal == "svg" ? ".svg" : ".png";
    const std::string term =
        (terminal == "svg" ? "svg size 1000,650 dynamic" : terminal + " size 1000,650") + " noenhanced";
    auto base = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };
    const std::vector<std::string> sig{gnuplot_signature()};
    safe_output_file script(g.script, "--out", force, sig), data(prefix + "-fit.dat", "--out", force, sig);
    std::vector<std::string> series; // "line|code" in first-seen order
    for (const auto& e : f.experiments) {
        const std::string key = std::to_string(e.measured.line) + " " + detail::experiment_name(e.measured);
        if (std::find(series.begin(), series.end(), key) == series.end()) series.push_back(key);
    }
    std::ostream& d = data.stream();
    d << "# " << gnuplot_signature() << "\n";
    for (const auto& s : series) {
        d << "# line " << s << ": block_bytes measured_mib_s fitted_mib_s held_out\n";
        for (const auto& e : f.experiments)
            if (std::to_string(e.measured.line) + " " + detail::experiment_name(e.measured) == s)
                d << e.measured.block << ' ' << e.measured.mib_s() << ' ' << e.fitted_mib_s << ' '
                  << (e.held_out ? 1 : 0) << '\n';
        d << "\n\n";
    }
    const std::string img = prefix + "-fit" + ext;
    g.images.push_back(img);
    g.image_vars.push_back("out_fit");
    std::ostream& gp = script.stream();
    gp << "# gnuplot script " << gnuplot_signature() << "; run: gnuplot " << base(g.script) << "\n";
    gp << "set terminal " << term << "\nset grid\nset key outside right\n";
    gp << "if (!exists(\"out_fit\")) out_fit = '" << base(img) << "'\nset output out_fit\n";
    gp << "set title "
       << gnuplot_quoted("Measured (points) and fitted " + f.kind + " (lines), median error " +
                         detail::percent(f.median_error))
       << "\n";
    gp << "set logscale xy 2\nset xlabel 'block size (bytes)'\nset ylabel 'MiB/s'\nset format x '%.0b%B'\n";
    gp << "plot ";
    for (std::size_t i = 0; i < series.size(); ++i)
        gp << (i ? ", " : "") << "'" << base(data.path()) << "' index " << i
           << " using 1:2 with points pt 7 lc " << i + 1 << " title " << gnuplot_quoted("line " + series[i])
           << ", '" << base(data.path()) << "' index " << i << " using 1:3 with lines lc " << i + 1
           << " notitle";
    gp << "\n";
    data.commit();
    script.commit();
    return g;
}

} // namespace flashxxl::characterize
