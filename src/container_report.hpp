// Shared report of `flashxxl sort` / `flashxxl pq`: seeds/001 Table 1 columns, per device, as text or JSON.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/prediction.hpp"
#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/device_stats_json.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli {

//! What one container run measured (device stats are differences over the measured phase).
struct container_run {
    std::string command; // sort / pq
    std::string mode;
    std::uint64_t br = 0, bw = 0, memory = 0, items = 0, element_size = 0;
    std::uint64_t passes = 0, runs = 0, merges = 0;
    double wall_s = 0;
    std::vector<std::string> device_names;
    std::vector<device_stats> devices;
    modelled_time modelled; //!< the measured phase on the machine's virtual clock
    bool verified = false;
    //! What the analysis predicts (cost/predict_containers.hpp), when it has a closed form for the mode.
    bool has_prediction = false;
    io_prediction predicted;
    double predicted_modelled_s = 0; //!< predicted volumes priced by the data device's model

    std::uint64_t input_bytes() const { return items * element_size; }
    std::uint64_t rdv() const {
        std::uint64_t s = 0;
        for (const auto& d : devices)
            s += d.total.read_bytes;
        return s;
    }
    std::uint64_t wrv() const {
        std::uint64_t s = 0;
        for (const auto& d : devices)
            s += d.total.write_bytes;
        return s;
    }
};

//! Every device's stats and the machine's virtual clock at one moment.
struct run_snapshot {
    std::vector<device_stats> devices;
    modelled_time clock;
};
inline run_snapshot snapshot(const machine& m) { return {m.stats(), m.modelled()}; }

//! Sets r.devices (per device, now minus `before`) and r.modelled (the clock's advance).
inline void record_difference(container_run& r, const machine& m, const run_snapshot& before) {
    std::vector<device_stats> after = m.stats();
    r.devices.clear();
    for (std::size_t i = 0; i < after.size(); ++i)
        r.devices.push_back(after[i] - before.devices[i]);
    r.modelled = m.modelled() - before.clock;
}

//! The record of a `command` run of n items of T with block sizes b on m: what runs, nothing measured yet.
template <class T>
container_run start_container_run(const machine& m, const std::string& command, const std::string& mode,
                                  const block_sizes& b, std::uint64_t n, std::uint64_t memory) {
    container_run r;
    r.command = command;
    r.mode = mode;
    r.br = b.br;
    r.bw = b.bw;
    r.memory = memory;
    r.items = n;
    r.element_size = sizeof(T);
    for (std::size_t i = 0; i < m.device_count(); ++i)
        r.device_names.push_back(m.dev(i).name());
    return r;
}

//! Sets r's prediction: `p`, its time priced by the model of the device role `data` is placed on.
inline void set_prediction(container_run& r, machine& m, role data, const io_prediction& p) {
    r.has_prediction = true;
    r.predicted = p;
    r.predicted_modelled_s = p.modelled_s(cost_model::for_role(m, data, block_sizes(r.br, r.bw)));
}

//! measured / predicted, or null when nothing was predicted (0 / 0 is 1).
inline nlohmann::json ratio_json(double measured, double predicted) {
    if (predicted == 0) return measured == 0 ? nlohmann::json(1.0) : nlohmann::json(nullptr);
    return nlohmann::json(measured / predicted);
}

//! The prediction keys of a run beside its measured ones (docs/json.md): null without a prediction.
inline void add_prediction_json(nlohmann::json& j, const container_run& r) {
    if (!r.has_prediction) {
        for (const char* k : {"predicted_rdv_bytes", "predicted_wrv_bytes", "predicted_modelled_s",
                              "rdv_over_predicted", "wrv_over_predicted", "modelled_over_predicted"})
            j[k] = nullptr;
        j["prediction_basis"] = nullptr;
        j["prediction_is_bound"] = false;
        return;
    }
    j["predicted_rdv_bytes"] = r.predicted.read_bytes;
    j["predicted_wrv_bytes"] = r.predicted.write_bytes;
    j["predicted_modelled_s"] = r.predicted_modelled_s;
    j["rdv_over_predicted"] = ratio_json(double(r.rdv()), r.predicted.read_bytes);
    j["wrv_over_predicted"] = ratio_json(double(r.wrv()), r.predicted.write_bytes);
    j["modelled_over_predicted"] = ratio_json(r.modelled.elapsed_s, r.predicted_modelled_s);
    j["prediction_basis"] = r.predicted.basis;
    j["prediction_is_bound"] = r.predicted.bound;
}

//! Prints the predicted line of the text table: predicted volumes and time, measured / predicted.
inline void print_prediction_line(const container_run& r) {
    if (!r.has_prediction) {
        std::printf("  predicted: no closed form for mode %s\n", r.mode.c_str());
        return;
    }
    auto ratio = [](double m, double p) { return p > 0 ? m / p : (m == 0 ? 1.0 : 0.0); };
    std::printf("  %s (%s): RDV %s, WRV %s, modelled %.3f s; measured / %s: RDV %.3f, WRV %.3f, "
                "modelled %.3f\n",
                r.predicted.bound ? "upper bound" : "predicted", r.predicted.basis.c_str(),
                format_bytes(r.predicted.read_bytes).c_str(), format_bytes(r.predicted.write_bytes).c_str(),
                r.predicted_modelled_s, r.predicted.bound ? "bound" : "predicted",
                ratio(double(r.rdv()), r.predicted.read_bytes),
                ratio(double(r.wrv()), r.predicted.write_bytes),
                ratio(r.modelled.elapsed_s, r.predicted_modelled_s));
}

//! Sets r.verified from the output check: keys came out in order (`order` names it: sorted,
//! ordered), every item came out (count and key checksum). Throws error saying which part failed.
inline void verify_output(container_run& r, const std::string& order, bool in_order, std::uint64_t items_out,
                          std::uint64_t items_in, bool checksum_ok) {
    r.verified = in_order && items_out == items_in && checksum_ok;
    if (!r.verified)
        throw error("flashxxl " + r.command + ": output check failed (" + (in_order ? "" : "NOT ") + order +
                    ", " + std::to_string(items_out) + " of " + std::to_string(items_in) +
                    " items, checksum " + (checksum_ok ? "ok" : "differs") + ")");
}

//! One run as JSON (the keys of docs/json.md).
inline nlohmann::json container_run_json(const container_run& r) {
    nlohmann::json j;
    {
        j["command"] = r.command;
        j["mode"] = r.mode;
        j["br_bytes"] = r.br;
        j["bw_bytes"] = r.bw;
        j["memory_bytes"] = r.memory;
        j["items"] = r.items;
        j["item_bytes"] = r.element_size;
        j["input_bytes"] = r.input_bytes();
        j["rdv_bytes"] = r.rdv();
        j["wrv_bytes"] = r.wrv();
        j["passes"] = r.passes;
        j["runs"] = r.runs;
        j["merges"] = r.merges;
        j["wall_s"] = r.wall_s;
        j["modelled_elapsed_s"] = r.modelled.elapsed_s;
        j["modelled_io_wait_s"] = r.modelled.io_wait_s;
        j["verified"] = r.verified;
        add_prediction_json(j, r);
        const io_counters machine = machine_total(r.devices);
        j["modelled_energy_j"] = energy_json(machine);
        if (r.command == "sort") {
            j["records_per_joule"] = machine.energy_known && machine.modelled_energy_j > 0
                                         ? nlohmann::json(double(r.items) / machine.modelled_energy_j)
                                         : nlohmann::json(nullptr);
            j["records_per_joule_scope"] = "modelled device energy only (no CPU, memory or power supply)";
        }
        j["devices"] = nlohmann::json::array();
        for (std::size_t i = 0; i < r.devices.size(); ++i) {
            nlohmann::json d;
            d["name"] = r.device_names[i];
            d["rdv_bytes"] = r.devices[i].total.read_bytes;
            d["wrv_bytes"] = r.devices[i].total.write_bytes;
            d["modelled_s"] = r.devices[i].total.modelled_s;
            d["modelled_energy_j"] = energy_json(r.devices[i].total);
            d["stats"] = r.devices[i];
            j["devices"].push_back(d);
        }
    }
    return j;
}

//! JouleSort's 2010 winner, FAWNSort: records sorted per Joule of the whole system.
constexpr double fawnsort_2010_records_per_joule = 44884;

//! The machine's modelled device energy and, for sort, records per Joule of it beside FAWNSort.
inline void print_energy_lines(const container_run& r) {
    const io_counters machine = machine_total(r.devices);
    std::cout << "  modelled device energy: " << format_energy(machine)
              << (machine.energy_known ? " J" : " (a device model has no energy figures)") << "\n";
    if (r.command != "sort") return;
    if (machine.energy_known && machine.modelled_energy_j > 0) {
        std::printf(
            "  records per Joule of device energy (device energy only): %.0f; for context JouleSort's "
            "FAWNSort 2010: %.0f records/J of a whole system\n",
            double(r.items) / machine.modelled_energy_j, fawnsort_2010_records_per_joule);
    } else {
        std::printf("  records per Joule of device energy: unknown; for context JouleSort's FAWNSort 2010: "
                    "%.0f records/J of a whole system\n",
                    fawnsort_2010_records_per_joule);
    }
}

//! Prints the run as seeds/001 Table 1's columns and a per-device table, or as JSON (which
//! starts with the keys of `metadata`: version, command line, timestamp, machine spec).
inline void print_run(const container_run& r, bool json,
                      const nlohmann::json& metadata = nlohmann::json::object()) {
    if (json) {
        nlohmann::json j = metadata;
        j.update(container_run_json(r));
        std::cout << j.dump(2) << "\n";
        return;
    }
    double in = double(r.input_bytes());
    char line[512];
    std::printf("%s (%s): %llu items of %llu B, Br = %s, Bw = %s, M = %s\n", r.command.c_str(),
                r.mode.c_str(), static_cast<unsigned long long>(r.items),
                static_cast<unsigned long long>(r.element_size), format_bytes(double(r.br)).c_str(),
                format_bytes(double(r.bw)).c_str(), format_bytes(double(r.memory)).c_str());
    std::snprintf(line, sizeof line, "  %-14s %-14s %-14s %9s %9s %7s %7s %10s %12s %12s\n", "input volume",
                  "RDV", "WRV", "RDV/input", "WRV/input", "passes", r.command == "pq" ? "merges" : "runs",
                  "wall_s", "modelled_s", "model_wait_s");
    std::cout << line;
    std::snprintf(line, sizeof line, "  %-14s %-14s %-14s %9.2f %9.2f %7llu %7llu %10.3f %12.3f %12.3f\n",
                  format_bytes(in).c_str(), format_bytes(double(r.rdv())).c_str(),
                  format_bytes(double(r.wrv())).c_str(), in > 0 ? double(r.rdv()) / in : 0.0,
                  in > 0 ? double(r.wrv()) / in : 0.0, static_cast<unsigned long long>(r.passes),
                  static_cast<unsigned long long>(r.command == "pq" ? r.merges : r.runs), r.wall_s,
                  r.modelled.elapsed_s, r.modelled.io_wait_s);
    std::cout << line;
    print_prediction_line(r);
    std::snprintf(line, sizeof line, "  %-10s %14s %14s %10s %10s %12s %10s %12s\n", "device", "RDV", "WRV",
                  "reads", "writes", "modelled_s", "wait_s", "energy_J");
    std::cout << line;
    for (std::size_t i = 0; i < r.devices.size(); ++i) {
        const io_counters& c = r.devices[i].total;
        std::snprintf(line, sizeof line, "  %-10s %14s %14s %10llu %10llu %12.3f %10.3f %12s\n",
                      r.device_names[i].c_str(), format_bytes(double(c.read_bytes)).c_str(),
                      format_bytes(double(c.write_bytes)).c_str(),
                      static_cast<unsigned long long>(c.read_ops),
                      static_cast<unsigned long long>(c.write_ops), c.modelled_s, r.devices[i].total.wait_s,
                      format_energy(c).c_str());
        std::cout << line;
    }
    print_energy_lines(r);
    std::cout << "  output verified: " << (r.verified ? "sorted, no item lost" : "NO") << "\n";
}

//! A block-size pair a sweep left out, and why (an invalid pair, a budget below its minimum).
struct skipped_pair {
    std::uint64_t br = 0, bw = 0;
    std::string reason;
};

//! Prints a sweep (one run per block-size pair, same input and memory) as one table: per pair
//! the Table 1 columns and the modelled time relative to the fastest pair; or as JSON
//! (`metadata`, then "sweep": [runs], "skipped": [pairs]).
inline void print_sweep(const std::vector<container_run>& runs, const std::vector<skipped_pair>& skipped,
                        bool json, const nlohmann::json& metadata) {
    double best = 0;
    for (const container_run& r : runs)
        if (best == 0 || (r.modelled.elapsed_s > 0 && r.modelled.elapsed_s < best))
            best = r.modelled.elapsed_s;
    if (json) {
        nlohmann::json j = metadata;
        j["sweep"] = nlohmann::json::array();
        for (const container_run& r : runs) {
            nlohmann::json x = container_run_json(r);
            x["modelled_ratio_to_fastest"] = best > 0 ? r.modelled.elapsed_s / best : 0.0;
            j["sweep"].push_back(x);
        }
        j["skipped"] = nlohmann::json::array();
        for (const skipped_pair& s : skipped)
            j["skipped"].push_back({{"br_bytes", s.br}, {"bw_bytes", s.bw}, {"reason", s.reason}});
        std::cout << j.dump(2) << "\n";
        return;
    }
    if (runs.empty()) return;
    const container_run& f = runs.front();
    std::printf("%s sweep (%s): %llu items of %llu B (%s), M = %s, %zu block-size pairs\n", f.command.c_str(),
                f.mode.c_str(), static_cast<unsigned long long>(f.items),
                static_cast<unsigned long long>(f.element_size),
                format_bytes(double(f.input_bytes())).c_str(), format_bytes(double(f.memory)).c_str(),
                runs.size());
    std::printf("  %-10s %-10s %9s %9s %7s %12s %12s %10s %9s %12s\n", "Br", "Bw", "RDV/input", "WRV/input",
                "passes", "modelled_s", "model_wait_s", "wall_s", "vs best", "energy_J");
    for (const container_run& r : runs) {
        double in = double(r.input_bytes());
        std::printf("  %-10s %-10s %9.2f %9.2f %7llu %12.3f %12.3f %10.3f %9.2f %12s\n",
                    format_size(r.br).c_str(), format_size(r.bw).c_str(), in > 0 ? double(r.rdv()) / in : 0.0,
                    in > 0 ? double(r.wrv()) / in : 0.0, static_cast<unsigned long long>(r.passes),
                    r.modelled.elapsed_s, r.modelled.io_wait_s, r.wall_s,
                    best > 0 ? r.modelled.elapsed_s / best : 0.0,
                    format_energy(machine_total(r.devices)).c_str());
    }
    for (const skipped_pair& s : skipped)
        std::printf("  %-10s %-10s skipped: %s\n", format_size(s.br).c_str(), format_size(s.bw).c_str(),
                    s.reason.c_str());
    std::printf("  every output verified: sorted, no item lost\n");
}

} // namespace flashxxl::cli
