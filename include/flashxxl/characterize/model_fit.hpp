// Fits a device model's throughput parameters to a characterization by replaying its experiments.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/characterize/fit_points.hpp"
#include "flashxxl/characterize/fit_space.hpp"
#include "flashxxl/characterize/levenberg_marquardt.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/nelder_mead.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/model_number_format.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! What to fit and how.
struct fit_options {
    //! "auto", a model kind ("block-mapped", "page-mapped", "hdd") or a preset (its kind, its
    //! values as the starting point where the measurements give none).
    std::string model = "auto";
    //! The experiments left out of the check fit: "alternate" (every other block size of each
    //! pattern) or "large" (block sizes above 128 KiB; the fit sees those up to 128 KiB).
    std::string holdout = "alternate";
    std::optional<device_class> klass; //!< flash or hdd when known (auto fits only that class)
    fit_start_hints hints;             //!< from the device (device_hints.hpp)
    std::uint64_t max_requests =
        600; //!< per replayed run (a time-limited run: its measured count, at most this)
    std::size_t max_evaluations =
        600; //!< model replays of the simplex search (a least-squares polish follows)
};

//! One parameter of the fitted model.
struct fitted_parameter {
    std::string key, value;
    bool fitted = false; //!< searched (otherwise fixed: the target's capacity, an assumed value)
    //! Fitted, and a change of 5 % (or one step) either way moves some prediction by > 0.1 %.
    bool determined = false;
    //! Not searched but set from the searched values (a chip's bw_w follows its bw_r).
    bool derived = false;
};

//! One experiment: measured, and predicted by the fit on all experiments and by the check fit.
struct fit_comparison {
    fit_point measured;
    double fitted_mib_s = 0;
    bool held_out = false;           //!< left out of the check fit
    double holdout_fitted_mib_s = 0; //!< predicted by the check fit
    double error() const { return relative_error(fitted_mib_s); }
    double holdout_error() const { return relative_error(holdout_fitted_mib_s); }

private:
    double relative_error(double v) const {
        const double m = measured.mib_s();
        return m > 0 ? std::fabs(v / m - 1) : 0;
    }
};

//! A fitted model.
struct model_fit {
    std::string kind;       //!< "ssd-block-mapped", "ssd-log-block", "ssd-page-mapped" or "hdd"
    std::string preset;     //!< the preset the config line names (model=)
    model_params overrides; //!< every fitted and fixed value, as the config line gives them
    std::vector<fitted_parameter> parameters; //!< the model's parameters, in its order
    std::vector<fit_comparison> experiments;
    double median_error = 0;         //!< over all experiments, fit on all
    std::string holdout;             //!< "alternate" or "large"
    double holdout_median_error = 0; //!< over the held-out experiments, fit on the others
    std::size_t holdout_count = 0;
    std::size_t evaluations = 0; //!< model replays, all families and both fits
    double cpu_seconds = 0;
    std::vector<std::pair<std::string, double>> family_errors; //!< auto: median error of each kind tried

    //! The overrides as ` key=value` text, in the model's parameter order (parameters the fit
    //! neither searched nor fixed, such as energy per operation, keep the preset's values).
    std::string parameter_text() const {
        std::string s;
        for (const auto& p : parameters)
            if (overrides.has(p.key)) s += " " + p.key + "=" + p.value;
        return s;
    }
    //! A machine-config device line emulating the fitted device.
    std::string config_line(const std::string& path, std::uint64_t size, const std::string& name) const {
        return std::string(kind == "hdd" ? "disk=" : "flash=") + path + "," + format_size(size) +
               ",syscall name=" + name + " model=" + preset + parameter_text();
    }
};

namespace detail {

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

//! Replays a plan on candidate models and compares with the measured points.
class fit_evaluator {
public:
    fit_evaluator(const std::vector<experiment_step>& plan, const std::vector<fit_point>& points,
                  std::uint64_t alignment)
        : plan_(plan), points_(points), alignment_(alignment) {}

    //! Predicted MiB/s per point (0 where the replay has none); empty if the model is invalid.
    std::vector<double> predict(const fit_space& space, const std::vector<double>& values) {
        ++evaluations;
        std::unique_ptr<device_model> model;
        try {
            model = make_model(space.preset, space.overrides(values));
        } catch (const config_error&) {
            return {};
        }
        model_target t(std::move(model), space.preset, alignment_);
        runner_options ro;
        ro.plot_data = false;
        runner r(t, ro);
        std::map<std::string, double> got;
        try {
            for (const auto& p : fit_points(r.run(plan_)))
                got[p.key()] = p.mib_s();
        } catch (const error&) {
            return {};
        }
        std::vector<double> out;
        for (const auto& p : points_) {
            auto it = got.find(p.key());
            out.push_back(it == got.end() ? 0 : it->second);
        }
        return out;
    }

    //! Mean squared residual over the points `use` marks: each pattern and block size counts once.
    double objective(const std::vector<double>& predicted, const std::vector<bool>& use) const {
        if (predicted.empty()) return 1e6;
        const std::vector<double> r = residuals(predicted, use);
        double sum = 0;
        for (double x : r)
            sum += x * x;
        return r.empty() ? 0 : sum / double(r.size());
    }

    //! The log ratios predicted / measured of the points `use` marks, softly capped at 1 (tanh):
    //! a point off by far more (a stall of the real device during one run) weighs no more than
    //! one off by a factor of e, while small ratios count as they are. Nothing predicted: 1.
    std::vector<double> residuals(const std::vector<double>& predicted, const std::vector<bool>& use) const {
        std::vector<double> r;
        for (std::size_t i = 0; i < points_.size(); ++i) {
            if (!use[i] || points_[i].mib_s() <= 0) continue;
            r.push_back(predicted.size() == points_.size() && predicted[i] > 0
                            ? std::tanh(std::log(predicted[i] / points_[i].mib_s()))
                            : 1);
        }
        return r;
    }

    std::size_t evaluations = 0;

private:
    const std::vector<experiment_step>& plan_;
    const std::vector<fit_point>& points_;
    std::uint64_t alignment_;
};

//! Some dimensions of a fit_space as the coordinates of a search (their logs), the others held at
//! the values the search started from.
class fit_axes {
public:
    fit_axes(const fit_space& space, std::vector<std::size_t> axes, const std::vector<double>& held)
        : space_(space), axes_(std::move(axes)), held_logs_(space.to_log(held)) {}
    //! The parameter values at coordinates `x`.
    std::vector<double> values(const std::vector<double>& x) const {
        std::vector<double> logs = held_logs_;
        for (std::size_t k = 0; k < axes_.size(); ++k)
            logs[axes_[k]] = x[k];
        return space_.from_log(logs);
    }
    //! The coordinates of parameter values `v`.
    std::vector<double> coordinates(const std::vector<double>& v) const {
        const std::vector<double> logs = space_.to_log(v);
        std::vector<double> x;
        for (std::size_t d : axes_)
            x.push_back(logs[d]);
        return x;
    }

private:
    const fit_space& space_;
    std::vector<std::size_t> axes_;
    std::vector<double> held_logs_;
};

//! Nelder-Mead in log space over the dimensions `free` marks, the others held at `from`;
//! restarted from its best twice (a collapsed simplex is a common false stop). Improves `best`.
inline void simplex_search(const fit_space& space, fit_evaluator& ev, const std::vector<bool>& use,
                           const std::vector<bool>& free, std::size_t budget, double first_step,
                           std::vector<double>& best, double& best_value) {
    std::vector<std::size_t> axes;
    for (std::size_t d = 0; d < free.size(); ++d)
        if (free[d]) axes.push_back(d);
    const fit_axes view(space, axes, best);
    auto full = [&](const std::vector<double>& x) { return view.values(x); };
    const std::size_t start_count = ev.evaluations;
    for (int round = 0; round < 3; ++round) {
        const std::size_t used = ev.evaluations - start_count;
        if (used >= budget) return;
        std::vector<double> x = view.coordinates(best);
        nelder_mead_options o;
        o.max_evaluations = std::max<std::size_t>(std::size_t(20), (budget - used) / std::size_t(3 - round));
        o.initial_step = round == 0 ? first_step : first_step / 8;
        o.tolerance = 1e-16;
        const auto r = nelder_mead(
            [&](const std::vector<double>& y) { return ev.objective(ev.predict(space, full(y)), use); }, x,
            o);
        if (r.value < best_value) best = full(r.x), best_value = r.value;
    }
}

//! Levenberg-Marquardt on the log ratios over the continuous dimensions, from `best` (whose
//! discrete values it keeps): converges in narrow valleys where a simplex crawls.
inline void least_squares(const fit_space& space, fit_evaluator& ev, const std::vector<bool>& use,
                          std::vector<double>& best, double& best_value) {
    std::vector<std::size_t> axes;
    for (std::size_t d = 0; d < space.dims.size(); ++d)
        if (space.dims[d].scale == fit_scale::real) axes.push_back(d);
    const fit_axes view(space, axes, best);
    auto full = [&](const std::vector<double>& x) { return view.values(x); };
    std::vector<double> x = view.coordinates(best);
    levenberg_marquardt(
        [&](const std::vector<double>& y) { return ev.residuals(ev.predict(space, full(y)), use); }, x);
    const std::vector<double> found = full(x);
    const double value = ev.objective(ev.predict(space, found), use);
    if (value < best_value) best = found, best_value = value;
}

//! The best values of `space` for the points `use` marks: a scan of each discrete dimension from
//! the start, Nelder-Mead over all dimensions, then for each discrete one the values a step either
//! way with the others searched again (discrete and continuous ones trade off: a disk's write-cache
//! segments against its spindle speed), while that helps.
inline std::vector<double> search(const fit_space& space, fit_evaluator& ev, const std::vector<bool>& use,
                                  std::size_t budget, double& best_value) {
    auto value_of = [&](const std::vector<double>& values) {
        return ev.objective(ev.predict(space, values), use);
    };
    std::vector<double> best = space.start;
    best_value = value_of(best);
    std::vector<bool> all(space.dims.size(), true);
    for (std::size_t d = 0; d < space.dims.size(); ++d) {
        for (double candidate : space.dims[d].scan()) {
            std::vector<double> v = best;
            v[d] = candidate;
            const double f = value_of(v);
            if (f < best_value) best = v, best_value = f;
        }
    }
    simplex_search(space, ev, use, all, budget, 0.4, best, best_value);
    least_squares(space, ev, use, best, best_value);
    for (int polish = 0; polish < 16; ++polish) {
        bool moved = false;
        for (std::size_t d = 0; d < space.dims.size(); ++d)
            for (double candidate : space.dims[d].neighbours(best[d])) {
                if (candidate == best[d]) continue;
                std::vector<double> v = best;
                v[d] = candidate;
                double f = value_of(v);
                least_squares(space, ev, use, v, f);
                if (f < best_value) best = v, best_value = f, moved = true;
            }
        if (!moved) break;
    }
    return best;
}

} // namespace detail

//! Fits `opt.model` to the runs of `measured`, which `checked` (the plan as run, checked against
//! the target) produced. config_error when there is nothing to fit or the holdout leaves one side
//! empty.
inline model_fit fit_model(const characterization& measured, const std::vector<experiment_step>& checked,
                           const fit_options& opt = {}) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<fit_point> points = fit_points(measured);
    points.erase(
        std::remove_if(points.begin(), points.end(), [](const fit_point& p) { return p.mib_s() <= 0; }),
        points.end());
    if (points.size() < 2)
        throw config_error("--fit: the run measured " + std::to_string(points.size()) +
                           " throughput point(s); a fit needs runs or sweeps at several block sizes");
    const std::vector<experiment_step> plan = replay_plan(checked, points, opt.max_requests);
    std::vector<bool> all(points.size(), true), train(points.size());
    std::map<std::string, std::size_t> seen; // alternate: every other block size of each pattern
    for (std::size_t i = 0; i < points.size(); ++i)
        train[i] = opt.holdout == "large" ? points[i].block <= 128 * KiB
                                          : seen[points[i].code + "|" + points[i].mix_code]++ % 2 == 0;
    if (opt.holdout != "alternate" && opt.holdout != "large")
        throw config_error("--fit-holdout '" + opt.holdout + "': expected alternate or large");
    const auto trained = std::count(train.begin(), train.end(), true);
    if (trained == 0 || std::size_t(trained) == points.size())
        throw config_error(
            "--fit-holdout " + opt.holdout + ": " +
            (trained == 0 ? "no experiment is left to fit" : "no experiment is left to hold out") + " (" +
            std::to_string(points.size()) + " experiments; large holds out block sizes above 128 KiB)");

    detail::fit_evaluator ev(plan, points, measured.alignment);
    std::uint64_t span = 0; // where a disk's random requests range
    for (const auto& st : plan)
        span = std::max(span, st.pattern.span);
    model_fit best;
    double best_value = 0;
    std::vector<std::string> kinds = fit_kinds(opt.model, opt.klass, opt.hints);
    for (const std::string& kind : kinds) {
        fit_space space = make_fit_space(kind, opt.model, measured.capacity, span, points, opt.hints);
        double value = 0;
        std::vector<double> values = detail::search(space, ev, all, opt.max_evaluations, value);
        const std::vector<double> predicted = ev.predict(space, values);
        if (predicted.empty()) continue;
        std::vector<double> errors;
        for (std::size_t i = 0; i < points.size(); ++i)
            errors.push_back(std::fabs(predicted[i] / points[i].mib_s() - 1));
        const double median = detail::median(errors);
        best.family_errors.emplace_back(space.kind, median);
        if (!best.kind.empty() && value >= best_value) continue;
        best_value = value;
        best.kind = space.kind;
        best.preset = space.preset;
        best.overrides = space.overrides(values);
        best.median_error = median;
        best.experiments.clear();
        for (std::size_t i = 0; i < points.size(); ++i) {
            fit_comparison c;
            c.measured = points[i];
            c.fitted_mib_s = predicted[i];
            c.held_out = !train[i];
            best.experiments.push_back(c);
        }
        // Which fitted values the experiments pin down: a step of 5 % either way moves some
        // prediction (a value that only bounds the predictions, such as a page read time below a
        // bus transfer, can move one way freely and is not determined).
        best.parameters.clear();
        std::map<std::string, bool> determined;
        for (std::size_t d = 0; d < space.dims.size(); ++d) {
            const std::vector<double> steps = space.dims[d].nudges(values[d]);
            bool every_step_moves = !steps.empty();
            for (double step : steps) {
                std::vector<double> v = values;
                v[d] = step;
                const std::vector<double> other = ev.predict(space, v);
                bool moves = other.empty();
                for (std::size_t i = 0; i < other.size() && !moves; ++i)
                    moves = predicted[i] > 0 && std::fabs(other[i] / predicted[i] - 1) > 1e-3;
                every_step_moves = every_step_moves && moves;
            }
            determined[space.dims[d].key] = every_step_moves;
        }
        model_params derived; // the values the search sets from the fitted ones
        if (space.derive) space.derive(values, derived);
        for (const auto& kv : make_model(space.preset, best.overrides)->parameters()) {
            fitted_parameter p;
            p.key = kv.first;
            p.value = kv.second;
            p.fitted = determined.count(kv.first) != 0;
            p.determined = p.fitted && determined[kv.first];
            p.derived = !p.fitted && derived.has(kv.first);
            best.parameters.push_back(p);
        }
    }
    if (best.kind.empty()) throw config_error("--fit " + opt.model + ": no valid model was found");

    // The check fit: the same search on the training experiments only, judged on the others.
    double check_value = 0;
    fit_space check_space = make_fit_space(best.kind, opt.model, measured.capacity, span, points, opt.hints);
    std::vector<double> check = detail::search(check_space, ev, train, opt.max_evaluations, check_value);
    const std::vector<double> check_predicted = ev.predict(check_space, check);
    std::vector<double> held;
    for (std::size_t i = 0; i < points.size(); ++i) {
        best.experiments[i].holdout_fitted_mib_s = check_predicted.empty() ? 0 : check_predicted[i];
        if (!train[i]) held.push_back(best.experiments[i].holdout_error());
    }
    best.holdout = opt.holdout;
    best.holdout_median_error = detail::median(held);
    best.holdout_count = held.size();
    best.evaluations = ev.evaluations;
    best.cpu_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return best;
}

} // namespace flashxxl::characterize
