// The run metadata of the CLI's JSON reports: version, command line, start time, machine spec.
#include "invocation.hpp"

#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "flashxxl/machine/machine_spec.hpp"

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

} // namespace

const char* version() { return FLASHXXL_VERSION; }

void record_invocation(int argc, char** argv) {
    record().argv.assign(argv, argv + argc);
    record().timestamp = utc_now();
}

nlohmann::json machine_spec_json(const machine_spec& spec) {
    nlohmann::json devices = nlohmann::json::array();
    for (const device_spec& d : spec.devices) {
        nlohmann::json jd = {{"name", d.name},
                             {"class", d.klass == device_class::flash ? "flash" : "hdd"},
                             {"path", d.path},
                             {"size_bytes", d.size},
                             {"io_impl", d.io_impl},
                             {"model", d.model},
                             {"parameters", d.params.values()},
                             {"pace", d.pacing.enabled},
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
