// CLI options that choose a machine (--machine / --config / --backing-dir ...), shared by subcommands.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "flashxxl/machine/machine.hpp"

namespace flashxxl::cli {

//! The machine a subcommand runs on.
struct machine_choice {
    std::string preset = "hybrid-2009";
    std::string config_file;
    std::string backing_dir;
    std::string placement;
    bool pace = false;
    double scale = 1.0;
};

//! Adds --machine, --config, --backing-dir, --placement, --pace, --scale to a subcommand.
inline void add_machine_options(CLI::App* cmd, machine_choice& choice) {
    auto* preset = cmd->add_option("--machine,-m", choice.preset,
                                   "embedded machine preset: " + machine_preset_names())
                       ->capture_default_str();
    auto* config = cmd->add_option("--config,-c", choice.config_file,
                                   "machine config file (disk=/flash= lines, see docs/machine-config.md)");
    preset->excludes(config);
    config->excludes(preset);
    cmd->add_option("--backing-dir", choice.backing_dir,
                    "back the preset's emulated devices by sparse files in this directory instead of memory");
    cmd->add_option("--placement", choice.placement,
                    "override the placement policy: random_striping, flash_aware, single or per_role "
                    "(options of single / per_role need a config file)");
    cmd->add_flag("--pace", choice.pace, "pace wall time to the device models (preset machines)");
    cmd->add_option("--scale", choice.scale, "wall seconds per modelled second when pacing")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
}

//! The spec of the chosen machine, before any --placement override.
inline machine_spec chosen_machine_spec(const machine_choice& choice) {
    machine_spec spec;
    if (!choice.config_file.empty()) {
        if (!choice.backing_dir.empty() || choice.pace)
            throw config_error("--backing-dir and --pace apply to presets; a config file says this per device");
        spec = load_machine_config(choice.config_file);
    } else {
        machine_options opts;
        opts.backing_dir = choice.backing_dir;
        opts.pace = choice.pace;
        opts.scale = choice.scale;
        spec = preset_machine_spec(choice.preset, opts);
    }
    return spec;
}

//! Builds the chosen machine.
inline machine make_machine(const machine_choice& choice) {
    machine_spec spec = chosen_machine_spec(choice);
    if (!choice.placement.empty()) {
        spec.placement.policy = choice.placement;
        spec.placement.options.clear();
        spec.placement.origin = "--placement";
    }
    return machine(spec);
}

} // namespace flashxxl::cli
