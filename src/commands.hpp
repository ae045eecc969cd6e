// Registration functions of the flashxxl CLI's subcommands, one per src/cmd_*.cpp.
#pragma once

#include <CLI/CLI.hpp>

namespace flashxxl::cli {

//! `flashxxl machine`: print a machine's devices and placement, probe each device.
void register_machine_command(CLI::App& app);

} // namespace flashxxl::cli
