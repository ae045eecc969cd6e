// CLI options that several subcommands share: block sizes and memory budget, --json and --no-progress.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "flashxxl/error.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/role.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli {

//! Adds --br, --bw (any valid pair; default: the device's) and --memory (described by
//! `memory_help`, default shown).
inline void add_block_size_options(CLI::App* cmd, std::string& br, std::string& bw, std::string& memory,
                                   const std::string& memory_help) {
    cmd->add_option("--br", br,
                    "read block size Br (IEC units, a multiple of 4KiB); default: the Br of the device the data is "
                    "placed on (config br=, else 128KiB)");
    cmd->add_option("--bw", bw,
                    "write block size Bw (a multiple of Br); default: the Bw of the device the data is placed on "
                    "(config bw=, else 16MiB)");
    cmd->add_option("--memory", memory, memory_help)->capture_default_str();
}

//! A size option's value; config_error naming the option ("--br: size '128K' uses a decimal unit ...").
inline std::uint64_t parse_size_option(const std::string& option, const std::string& text) {
    try {
        return parse_size(text);
    } catch (const config_error& e) {
        throw config_error(option + ": " + e.what());
    }
}

//! The block sizes of a command: --br / --bw where given, the rest from the device that role `r`
//! is placed on (machine::block_sizes_for). config_error naming the options when the pair breaks
//! a rule.
inline block_sizes resolve_block_sizes(const machine& m, role r, const std::string& br_text, const std::string& bw_text) {
    block_sizes device = m.block_sizes_for(r);
    std::uint64_t br = br_text.empty() ? device.br : parse_size_option("--br", br_text);
    std::uint64_t bw = bw_text.empty() ? device.bw : parse_size_option("--bw", bw_text);
    if (bw_text.empty()) bw = block_sizes::whole_reads_bw(br, bw);  // the device's Bw, fitted to --br
    try {
        return block_sizes(br, bw);
    } catch (const config_error& e) {
        throw config_error("--br " + format_size(br) + (br_text.empty() ? " (the device's)" : "") + " --bw " +
                           format_size(bw) + (bw_text.empty() ? " (the device's)" : "") + ": " + e.what());
    }
}

//! Adds --json (print JSON instead of the table) and --no-progress (no progress bar on stderr).
inline void add_report_flags(CLI::App* cmd, bool& json, bool& no_progress) {
    cmd->add_flag("--json", json, "print JSON");
    cmd->add_flag("--no-progress", no_progress, "no progress bar");
}

} // namespace flashxxl::cli
