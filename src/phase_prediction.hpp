// Predicted beside measured per phase of `flashxxl bfs` and `dfs`: the JSON keys and the table's lines.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/prediction.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli {

//! What the analysis says of one named phase, and its time priced by a device's model.
struct phase_prediction {
    std::string phase;
    io_prediction predicted;
    double modelled_s = 0;
};

//! The prediction of phase `name`, or null when there is none.
inline const phase_prediction* find_prediction(const std::vector<phase_prediction>& all,
                                               const std::string& name) {
    for (const phase_prediction& p : all)
        if (p.phase == name) return &p;
    return nullptr;
}

//! A phase's host reads and writes (all roles, all devices).
inline io_counters phase_io(const phase_stats& p) { return cost_model::host_total(p.devices); }

//! measured / predicted, or null where nothing was predicted.
inline nlohmann::json over(double measured, double predicted) {
    return predicted > 0 ? nlohmann::json(measured / predicted) : nlohmann::json(nullptr);
}

//! Adds to each phase object of `phases` (the JSON of `measured`, in the same order) its measured
//! volumes (`rdv_bytes`, `wrv_bytes`) and the prediction's keys (docs/json.md): `null` for a
//! phase without one.
inline void add_phase_predictions(nlohmann::json& phases, const std::vector<phase_stats>& measured,
                                  const std::vector<phase_prediction>& predicted) {
    for (std::size_t i = 0; i < measured.size() && i < phases.size(); ++i) {
        nlohmann::json& q = phases[i];
        const io_counters c = phase_io(measured[i]);
        q["rdv_bytes"] = c.read_bytes;
        q["wrv_bytes"] = c.write_bytes;
        const phase_prediction* p = find_prediction(predicted, measured[i].name);
        const nlohmann::json none(nullptr);
        q["predicted_rdv_bytes"] = p ? nlohmann::json(p->predicted.read_bytes) : none;
        q["predicted_wrv_bytes"] = p ? nlohmann::json(p->predicted.write_bytes) : none;
        q["predicted_modelled_s"] = p ? nlohmann::json(p->modelled_s) : none;
        q["rdv_over_predicted"] = p ? over(double(c.read_bytes), p->predicted.read_bytes) : none;
        q["wrv_over_predicted"] = p ? over(double(c.write_bytes), p->predicted.write_bytes) : none;
        q["modelled_over_predicted"] = p ? over(measured[i].modelled.elapsed_s, p->modelled_s) : none;
        q["prediction_is_bound"] = p && p->predicted.bound;
        q["prediction_basis"] = p ? nlohmann::json(p->predicted.basis) : none;
    }
}

//! One line per predicted phase: measured against the bound or estimate, with the ratios.
inline void print_phase_predictions(const std::vector<phase_stats>& measured,
                                    const std::vector<phase_prediction>& predicted) {
    for (const phase_stats& m : measured) {
        const phase_prediction* p = find_prediction(predicted, m.name);
        if (!p) continue;
        const io_counters c = phase_io(m);
        const io_prediction& q = p->predicted;
        auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
        std::printf("%s phase against its %s (%s): RDV %s of %s (%.4f), WRV %s of %s (%.4f), ",
                    m.name.c_str(), q.bound ? "bound" : "prediction", q.basis.c_str(),
                    format_bytes(double(c.read_bytes)).c_str(), format_bytes(q.read_bytes).c_str(),
                    ratio(double(c.read_bytes), q.read_bytes), format_bytes(double(c.write_bytes)).c_str(),
                    format_bytes(q.write_bytes).c_str(), ratio(double(c.write_bytes), q.write_bytes));
        // A bound is on the volumes: priced, they are no bound on the time (a part-filled last
        // write can cost a model more than its share of a Bw write).
        if (q.bound)
            std::printf("modelled %.3f s (the bound's volumes priced: %.3f s)\n", m.modelled.elapsed_s,
                        p->modelled_s);
        else
            std::printf("modelled %.3f s of %.3f s (%.4f)\n", m.modelled.elapsed_s, p->modelled_s,
                        ratio(m.modelled.elapsed_s, p->modelled_s));
    }
}

} // namespace flashxxl::cli
