// What every JSON report of the CLI carries: version, command line, timestamp and machine spec.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace flashxxl {
struct machine_spec;
} // namespace flashxxl

namespace flashxxl::cli {

//! flashxxl's version ("0.1.0"), from the CMake project.
const char* version();

//! Records the command line of this process (main calls it once, before parsing).
void record_invocation(int argc, char** argv);

//! {"version", "command_line" (argv as an array), "timestamp" (UTC, ISO 8601, when the run
//! started)}, plus "machine_spec" when `spec` is given: its devices with path, size_bytes,
//! io_impl, model and parameters, and the placement.
nlohmann::json run_metadata(const machine_spec* spec = nullptr);

//! Model parameters as JSON numbers, units in the keys: the size parameters (block, capacity,
//! chunk, page) in bytes under `<key>_bytes`, `..._mibps` as `..._mib_s`, other numbers under
//! their key (whose name carries the unit, e.g. `t_read_ms`); anything else stays a string.
//! Takes the pairs as a config lists them; a device_spec's map converts (`{map.begin(), map.end()}`).
nlohmann::json model_parameters_json(const std::vector<std::pair<std::string, std::string>>& params);

//! The machine spec as JSON (see run_metadata).
nlohmann::json machine_spec_json(const machine_spec& spec);

} // namespace flashxxl::cli
