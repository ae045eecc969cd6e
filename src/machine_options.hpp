// CLI options that choose a machine (--machine / --config / --backing-dir ...), shared by subcommands.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/machine/placement_registry.hpp"
#include "flashxxl/machine/placement_text.hpp"
#include "did_you_mean.hpp"
#include "option_checks.hpp"

namespace flashxxl::cli {

//! The preset a command runs on when given no machine (and no STXXL config is found).
constexpr const char* default_preset = "hybrid-2009";

//! The machine a subcommand runs on.
struct machine_choice {
    std::string preset; // empty: an STXXL config (default_stxxl_config), else default_preset
    std::string config_file;
    std::string backing_dir;
    std::string placement;
    bool pace = false;
    double scale = 1.0;
    bool scale_given = false; // --scale was on the command line (it applies only with --pace)
};

//! A command that builds several machines from one spec (a probe that resolves block sizes,
//! then a fresh machine per run) must let the later ones reopen the keep=on files the first one
//! created: as existing files they would be refused (not created by that machine). Made before
//! the first build, it remembers which keep=on files did not exist yet; carry_over(spec) after
//! that build marks those devices reuse=on, so later builds reopen them (and still never remove
//! them). Files that existed before are left to the config's own reuse=.
class kept_files_carry_over {
public:
    explicit kept_files_carry_over(const machine_spec& spec) {
        for (std::size_t i = 0; i < spec.devices.size(); ++i) {
            const device_spec& d = spec.devices[i];
            std::error_code ec;
            if (d.keep && !d.reuse && d.io_impl != "memory" && !std::filesystem::exists(d.path, ec))
                created_.push_back(i);
        }
    }
    //! Call once a machine built from `spec` exists (it made the files).
    void carry_over(machine_spec& spec) const {
        for (std::size_t i : created_)
            spec.devices.at(i).reuse = true;
    }

private:
    std::vector<std::size_t> created_;
};

//! --placement's help, from placement_policies(): the names, and the policies whose options
//! are required (usage not in brackets), which --placement alone cannot give.
inline std::string placement_option_help() {
    std::string required;
    for (const placement_entry& e : placement_policies())
        if (!e.usage.empty() && e.usage[0] != '[') required += (required.empty() ? "" : " / ") + e.name;
    return "override the placement policy: " + placement_policy_names() +
           ", with its options as a config's placement= line writes them (quoted: --placement 'per_role "
           "hot=ssd scratch=ssd stream=hdd')" +
           (required.empty() ? std::string() : "; " + required + " need their options");
}

//! Adds --machine, --config, --backing-dir, --placement, --pace, --scale to a subcommand. `choice`
//! must outlive the parse (--scale records in it that it was given).
inline void add_machine_options(CLI::App* cmd, machine_choice& choice) {
    auto* preset = cmd->add_option("--machine,-m", choice.preset,
                                   "embedded machine preset: " + machine_preset_names() +
                                       " (default: the STXXL config STXXL would read ($STXXLCFG, "
                                       "./.stxxl.$HOSTNAME, ./.stxxl, $HOME/.stxxl.$HOSTNAME, "
                                       "$HOME/.stxxl) if there is one, else " +
                                       default_preset + ")");
    preset->check(non_empty_path("a machine preset or config file"));
    auto* config = cmd->add_option("--config,-c", choice.config_file,
                                   "machine config file (disk=/flash= lines, see docs/machine-config.md)")
                       ->check(non_empty_path("a machine config file"));
    preset->excludes(config);
    config->excludes(preset);
    cmd->add_option("--backing-dir", choice.backing_dir,
                    "back the preset's emulated devices by sparse files in this directory instead of memory "
                    "(unlinked once open: nothing is left behind, even by a killed run)")
        ->check(writable_directory());
    cmd->add_option("--placement", choice.placement, placement_option_help());
    cmd->add_flag("--pace", choice.pace, "pace wall time to the device models (preset machines)");
    cmd->add_option("--scale", choice.scale,
                    "wall seconds per modelled second when pacing (with --pace only)")
        ->capture_default_str()
        ->check(finite_number(1e-6, 1e6))
        ->each([&choice](const std::string&) { choice.scale_given = true; });
}

//! The STXXL config file STXXL 1.4.1 itself would read, in its order: $STXXLCFG; else
//! ./.stxxl.$HOSTNAME, ./.stxxl, $HOME/.stxxl.$HOSTNAME, $HOME/.stxxl, the first that exists;
//! empty when none. Unlike STXXL, a $STXXLCFG naming a missing file is not skipped: loading it
//! fails with an error naming it.
inline std::string default_stxxl_config() {
    if (const char* env = std::getenv("STXXLCFG"); env && *env) return env;
    const char* host = std::getenv("HOSTNAME");
    const char* home = std::getenv("HOME");
    std::vector<std::string> candidates;
    for (const std::string& dir : {std::string("."), home && *home ? std::string(home) : std::string()}) {
        if (dir.empty()) continue;
        if (host && *host) candidates.push_back(dir + "/.stxxl." + host);
        candidates.push_back(dir + "/.stxxl");
    }
    std::error_code ec;
    for (const std::string& c : candidates)
        if (std::filesystem::is_regular_file(c, ec)) return c == "./.stxxl" ? ".stxxl" : c;
    return {};
}

//! preset_machine_spec for a preset named by `option`: an unknown name gets the library's
//! "unknown machine preset ... (expected one of ...)" with the option named and a hint for the two
//! usual slips, a config file given where a preset goes and a misspelt preset.
inline machine_spec preset_spec_for_option(const std::string& option, const std::string& preset,
                                           const machine_options& opts = {}) {
    try {
        return preset_machine_spec(preset, opts);
    } catch (const config_error& e) {
        std::string what = option + ": " + e.what();
        std::vector<std::string> names;
        for (const machine_preset& p : machine_presets())
            names.push_back(p.name);
        if (std::filesystem::is_regular_file(preset))
            what += "; '" + preset + "' is a file: a machine config file goes to --config " + preset;
        else if (std::string near = nearest(preset, names); !near.empty())
            what += "; did you mean '" + near + "'?";
        throw config_error(what);
    }
}

//! The spec of the chosen machine, before any --placement override: --config, else --machine,
//! else (when none of --machine, --backing-dir, --pace is given) the STXXL config of
//! default_stxxl_config, else the default preset.
inline machine_spec chosen_machine_spec(const machine_choice& choice) {
    // --scale did nothing, silently, without --pace and with a config file.
    if (choice.scale_given && !choice.config_file.empty())
        throw config_error("--scale applies to a preset paced by --pace; a config file states it per device "
                           "(pace=on scale=X on the device's line)");
    if (choice.scale_given && !choice.pace)
        throw config_error(
            "--scale has no effect without --pace (it scales the paced wall time): give --pace too, "
            "or leave --scale out");
    machine_spec spec;
    std::string config = choice.config_file;
    if (config.empty() && choice.preset.empty() && choice.backing_dir.empty() && !choice.pace)
        config = default_stxxl_config();
    if (!config.empty()) {
        if (!choice.backing_dir.empty() || choice.pace)
            throw config_error(
                "--backing-dir and --pace apply to presets; a config file says this per device");
        try {
            spec = load_machine_config(config);
        } catch (const config_error& e) {
            // A file no option named: say where its name came from.
            const char* env = std::getenv("STXXLCFG");
            if (!choice.config_file.empty() || !env || config != env) throw;
            throw config_error(
                std::string("$STXXLCFG names '") + env + "', read as no --machine or --config was given: " +
                e.what() + "; point STXXLCFG at a machine config, unset it, or give --machine / --config");
        }
    } else {
        machine_options opts;
        opts.backing_dir = choice.backing_dir;
        opts.pace = choice.pace;
        opts.scale = choice.scale;
        spec =
            preset_spec_for_option("--machine", choice.preset.empty() ? default_preset : choice.preset, opts);
    }
    return spec;
}

//! The spec of the chosen machine with the --placement override: what make_machine builds.
inline machine_spec effective_machine_spec(const machine_choice& choice) {
    machine_spec spec = chosen_machine_spec(choice);
    if (!choice.placement.empty()) spec.placement = parse_placement_text(choice.placement, "--placement");
    return spec;
}

//! Builds the chosen machine.
inline machine make_machine(const machine_choice& choice) { return machine(effective_machine_spec(choice)); }

} // namespace flashxxl::cli
