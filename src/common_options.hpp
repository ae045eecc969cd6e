// CLI options that several subcommands share: block sizes and memory budget, --json and --no-progress.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace flashxxl::cli {

//! Adds --br, --bw (naming the compiled pairs) and --memory (described by `memory_help`), with defaults shown.
inline void add_block_size_options(CLI::App* cmd, std::string& br, std::string& bw, std::string& memory,
                                   const std::string& supported_pairs, const std::string& memory_help) {
    cmd->add_option("--br", br, "read block size Br; supported pairs: " + supported_pairs)->capture_default_str();
    cmd->add_option("--bw", bw, "write block size Bw")->capture_default_str();
    cmd->add_option("--memory", memory, memory_help)->capture_default_str();
}

//! Adds --json (print JSON instead of the table) and --no-progress (no progress bar on stderr).
inline void add_report_flags(CLI::App* cmd, bool& json, bool& no_progress) {
    cmd->add_flag("--json", json, "print JSON");
    cmd->add_flag("--no-progress", no_progress, "no progress bar");
}

} // namespace flashxxl::cli
