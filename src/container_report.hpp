// Shared report of `flashxxl sort` / `flashxxl pq`: seeds/001 Table 1 columns, per device, as text or JSON.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/device_stats_json.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli {

//! What one container run measured (device stats are differences over the measured phase).
struct container_run {
    std::string command;   // sort / pq
    std::string mode;
    std::uint64_t br = 0, bw = 0, memory = 0, items = 0, element_size = 0;
    std::uint64_t passes = 0, runs = 0, merges = 0;
    double wall_s = 0;
    std::vector<std::string> device_names;
    std::vector<device_stats> devices;
    modelled_time modelled;  //!< the measured phase on the machine's virtual clock
    bool verified = false;

    std::uint64_t input_bytes() const { return items * element_size; }
    std::uint64_t rdv() const {
        std::uint64_t s = 0;
        for (const auto& d : devices) s += d.total.read_bytes;
        return s;
    }
    std::uint64_t wrv() const {
        std::uint64_t s = 0;
        for (const auto& d : devices) s += d.total.write_bytes;
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
    for (std::size_t i = 0; i < after.size(); ++i) r.devices.push_back(after[i] - before.devices[i]);
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
    for (std::size_t i = 0; i < m.device_count(); ++i) r.device_names.push_back(m.dev(i).name());
    return r;
}

//! Sets r.verified from the output check: keys came out in order (`order` names it: sorted,
//! ordered), every item came out (count and key checksum). Throws error saying which part failed.
inline void verify_output(container_run& r, const std::string& order, bool in_order, std::uint64_t items_out,
                          std::uint64_t items_in, bool checksum_ok) {
    r.verified = in_order && items_out == items_in && checksum_ok;
    if (!r.verified)
        throw error("flashxxl " + r.command + ": output check failed (" + (in_order ? "" : "NOT ") + order + ", " +
                    std::to_string(items_out) + " of " + std::to_string(items_in) + " items, checksum " +
                    (checksum_ok ? "ok" : "differs") + ")");
}

//! Prints the run as seeds/001 Table 1's columns and a per-device table, or as JSON (which
//! starts with the keys of `metadata`: version, command line, timestamp, machine spec).
inline void print_run(const container_run& r, bool json, const nlohmann::json& metadata = nlohmann::json::object()) {
    if (json) {
        nlohmann::json j = metadata;
        j["command"] = r.command;
        j["mode"] = r.mode;
        j["br"] = r.br;
        j["bw"] = r.bw;
        j["memory"] = r.memory;
        j["items"] = r.items;
        j["element_size"] = r.element_size;
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
        j["devices"] = nlohmann::json::array();
        for (std::size_t i = 0; i < r.devices.size(); ++i) {
            nlohmann::json d;
            d["name"] = r.device_names[i];
            d["rdv_bytes"] = r.devices[i].total.read_bytes;
            d["wrv_bytes"] = r.devices[i].total.write_bytes;
            d["modelled_s"] = r.devices[i].total.modelled_s;
            d["stats"] = r.devices[i];
            j["devices"].push_back(d);
        }
        std::cout << j.dump(2) << "\n";
        return;
    }
    double in = double(r.input_bytes());
    char line[512];
    std::printf("%s (%s): %llu items of %llu B, Br = %s, Bw = %s, M = %s\n", r.command.c_str(), r.mode.c_str(),
                static_cast<unsigned long long>(r.items), static_cast<unsigned long long>(r.element_size),
                format_bytes(double(r.br)).c_str(), format_bytes(double(r.bw)).c_str(),
                format_bytes(double(r.memory)).c_str());
    std::snprintf(line, sizeof line, "  %-14s %-14s %-14s %9s %9s %7s %7s %10s %12s %12s\n", "input volume", "RDV",
                  "WRV", "RDV/input", "WRV/input", "passes", r.command == "pq" ? "merges" : "runs", "wall_s",
                  "modelled_s", "model_wait_s");
    std::cout << line;
    std::snprintf(line, sizeof line, "  %-14s %-14s %-14s %9.2f %9.2f %7llu %7llu %10.3f %12.3f %12.3f\n",
                  format_bytes(in).c_str(),
                  format_bytes(double(r.rdv())).c_str(), format_bytes(double(r.wrv())).c_str(),
                  in > 0 ? double(r.rdv()) / in : 0.0, in > 0 ? double(r.wrv()) / in : 0.0,
                  static_cast<unsigned long long>(r.passes),
                  static_cast<unsigned long long>(r.command == "pq" ? r.merges : r.runs), r.wall_s,
                  r.modelled.elapsed_s, r.modelled.io_wait_s);
    std::cout << line;
    std::snprintf(line, sizeof line, "  %-10s %14s %14s %10s %10s %12s %10s\n", "device", "RDV", "WRV", "reads",
                  "writes", "modelled_s", "wait_s");
    std::cout << line;
    for (std::size_t i = 0; i < r.devices.size(); ++i) {
        const io_counters& c = r.devices[i].total;
        std::snprintf(line, sizeof line, "  %-10s %14s %14s %10llu %10llu %12.3f %10.3f\n", r.device_names[i].c_str(),
                      format_bytes(double(c.read_bytes)).c_str(), format_bytes(double(c.write_bytes)).c_str(),
                      static_cast<unsigned long long>(c.read_ops), static_cast<unsigned long long>(c.write_ops),
                      c.modelled_s, r.devices[i].total.wait_s);
        std::cout << line;
    }
    std::cout << "  output verified: " << (r.verified ? "sorted, no item lost" : "NO") << "\n";
}

} // namespace flashxxl::cli
