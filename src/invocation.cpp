// The run metadata of the CLI's JSON reports: version, command line, start time, machine spec.
#include "invocation.hpp"

#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "flashxxl/machine/machine_spec.hpp"
#include "flashxxl/units.hpp"

#ifndef FLASHXXL_VERSION
#define FLASHXXL_VERSION "unknown"
#endif

namespace flashxxl::cli {
namespace {

// The facts of this process, recorded once by main before any command runs.
struct invocation_record {
    std::vector<std::string> argv;
    std::string timestamp;
};

invocation_record& record() {
    static invocation_record r;
    return r;
}

std::string utc_now() {
    std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// One parameter into `out`, as a number where it is one (see model_parameters_json).
void add_parameter(nlohmann::json& out, const std::string& config_key, const std::string& value) {
    // The models' size parameters (model_params::take_size) are bytes: `capacity` -> `capacity_bytes`.
    static const char* const size_keys[] = {"block", "capacity", "chunk", "erase_block", "page", "unit"};
    for (const char* k : size_keys)
        if (config_key == k) {
            try {
                out[config_key + "_bytes"] = parse_size(value);
                return;
            } catch (const std::exception&) {
                break;
            }
        }
    // The models' throughput parameters are named `..._mibps` in configs; JSON says `_mib_s`.
    std::string key = config_key;
    if (key.size() > 6 && key.compare(key.size() - 6, 6, "_mibps") == 0)
        key = key.substr(0, key.size() - 6) + "_mib_s";
    try {
        out[key] = parse_number(value);
        return;
    } catch (const std::exception&) {
    }
    out[key] = value;
}

} // namespace

nlohmann::json model_parameters_json(const std::vector<std::pair<std::string, std::string>>& params) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : params)
        add_parameter(j, k, v);
    return j;
}

const char* version() { return FLASHXXL_VERSION; }

void record_invocation(int argc, char** argv) {
    record().argv.assign(argv, argv + argc);
    record().timestamp = utc_now();
}

nlohmann::json machine_spec_json(const machine_spec& spec) {
    nlohmann::json devices = nlohmann::json::array();
    for (const device_spec& d : spec.devices) {
        nlohmann::json jd = {
            {"name", d.name},
            {"class", d.klass == device_class::flash ? "flash" : "hdd"},
            {"path", d.path},
            {"size_bytes", d.size},
            {"io_impl", d.io_impl},
            {"model", d.model},
            {"parameters", model_parameters_json({d.params.values().begin(), d.params.values().end()})},
            {"pace", d.pacing.enabled},
            {"pace_scale", d.pacing.scale},
            {"direct", d.direct},
            {"tl", d.tl}};
        if (d.br) jd["br_bytes"] = d.br;
        if (d.bw) jd["bw_bytes"] = d.bw;
        if (!d.tl_options.empty()) jd["tl_options"] = d.tl_options;
        devices.push_back(jd);
    }
    return {{"name", spec.name},
            {"origin", spec.origin},
            {"devices", devices},
            {"placement", {{"policy", spec.placement.policy}, {"options", spec.placement.options}}}};
}

nlohmann::json run_metadata(const machine_spec* spec) {
    nlohmann::json j = {{"version", version()},
                        {"command_line", record().argv},
                        {"timestamp", record().timestamp.empty() ? utc_now() : record().timestamp}};
    if (spec) j["machine_spec"] = machine_spec_json(*spec);
    return j;
}

} // namespace flashxxl::cli
