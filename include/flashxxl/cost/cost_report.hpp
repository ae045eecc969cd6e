// One JSON document with a program's per-phase and per-structure costs in the flash models of seeds/001.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/named_structure.hpp"
#include "flashxxl/cost/phase.hpp"
#include "flashxxl/device/device_stats_json.hpp"

namespace flashxxl {

//! The JSON of one cost_figures: rdv_bytes, wrv_bytes, reads_br (x), writes_bw (y),
//! unit_cost_bytes, write_penalty (c), flash_cost (x + c * y), priced_modelled_s, modelled_s.
inline nlohmann::json cost_json(const cost_figures& f) {
    return nlohmann::json{{"rdv_bytes", f.read_bytes},
                          {"wrv_bytes", f.write_bytes},
                          {"reads_br", f.reads},
                          {"writes_bw", f.writes},
                          {"unit_cost_bytes", f.unit_cost_bytes},
                          {"write_penalty", f.write_penalty},
                          {"flash_cost", f.flash_cost},
                          {"priced_modelled_s", f.priced_modelled_s},
                          {"modelled_s", f.modelled_s}};
}

//! Collects a program's phases (a phase_log) and named structures and writes them as one JSON
//! document, every figure priced by one cost_model:
//!
//!     {"br": .., "bw": .., "write_penalty": ..,
//!      "phases": [{"name", cost figures.., "modelled_elapsed_s", "modelled_io_wait_s",
//!                  "devices": {NAME: device stats}}],
//!      "structures": [{"name", cost figures.., "read_ops", "write_ops"}]}
class cost_report {
public:
    explicit cost_report(const cost_model& model) : model_(model) {}

    //! The log phases append themselves to (phase p(m, "name", &report.phases())).
    phase_log& phases() { return phases_; }
    //! Adds a structure (kept by reference: it must outlive the report's json()).
    void add(const named_structure& s) { structures_.push_back(&s); }

    nlohmann::json json() const {
        nlohmann::json j{{"br", model_.blocks().br},
                         {"bw", model_.blocks().bw},
                         {"write_penalty", model_.write_penalty()},
                         {"phases", nlohmann::json::array()},
                         {"structures", nlohmann::json::array()}};
        for (const phase_record& p : phases_) {
            nlohmann::json pj = cost_json(model_.cost(p.devices));
            pj["name"] = p.name;
            pj["modelled_elapsed_s"] = p.modelled.elapsed_s;
            pj["modelled_io_wait_s"] = p.modelled.io_wait_s;
            for (std::size_t i = 0; i < p.devices.size() && i < p.device_names.size(); ++i)
                pj["devices"][p.device_names[i]] = p.devices[i];
            j["phases"].push_back(pj);
        }
        for (const named_structure* s : structures_) {
            const io_counters c = s->counters();
            nlohmann::json sj = cost_json(model_.cost(c));
            sj["name"] = s->name();
            sj["read_ops"] = c.read_ops;
            sj["write_ops"] = c.write_ops;
            sj.erase("modelled_s"); // a structure's requests carry no time of their own
            j["structures"].push_back(sj);
        }
        return j;
    }

private:
    cost_model model_;
    phase_log phases_;
    std::vector<const named_structure*> structures_;
};

} // namespace flashxxl
