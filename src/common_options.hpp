// CLI options that several subcommands share: block sizes and memory budget, --json and --no-progress.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "flashxxl/comma_list.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/block_sizes.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/machine/placement.hpp"
#include "flashxxl/role.hpp"
#include "flashxxl/saturating.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli {

//! Adds --br, --bw (any valid pair; default: the device's) and --memory (described by
//! `memory_help`, default shown).
inline void add_block_size_options(CLI::App* cmd, std::string& br, std::string& bw, std::string& memory,
                                   const std::string& memory_help) {
    cmd->add_option(
        "--br", br,
        "read block size Br (IEC units, a multiple of 4KiB); default: the Br of the device the data is "
        "placed on (config br=, else 128KiB)");
    cmd->add_option(
        "--bw", bw,
        "write block size Bw (a multiple of Br); default: the Bw of the device the data is placed on "
        "(config bw=, else 16MiB)");
    cmd->add_option("--memory", memory, memory_help)->capture_default_str();
}

//! A size option's value; config_error naming the option ("--br: size '128K' uses a decimal unit ...",
//! "--br '64KiB,128KiB': --br takes one value, not a comma-separated list").
inline std::uint64_t parse_size_option(const std::string& option, const std::string& text) {
    require_single_value(option, text);
    try {
        return parse_size(text);
    } catch (const config_error& e) {
        throw config_error(option + ": " + e.what());
    }
}

namespace detail {

//! The room a role's data gets on a machine: stated bytes of its file-backed and memory-backed
//! devices (sums saturate: two 2^63-byte devices wrapped to 0), and the devices' names.
struct role_room {
    std::uint64_t on_files = 0, in_memory = 0;
    std::string devices;
    //! What the role can hold: the memory-backed part no more than `memory_limit`.
    std::uint64_t usable(std::uint64_t memory_limit) const {
        return saturating_add(on_files, std::min(in_memory, memory_limit));
    }
};

//! The room of the devices that the roles `roles` may put data on, judged before any device is
//! built: the union of the placement policy's devices_for over the devices as stated (a
//! translation layer's spare is not subtracted, so this is an upper bound, like machine::room_for).
inline role_room room_of_roles(const machine_spec& spec, const std::vector<role>& roles) {
    std::vector<placement_device> stated;
    for (const device_spec& d : spec.devices)
        stated.push_back({d.name, d.klass, d.size, d.size});
    const std::unique_ptr<placement_policy> policy =
        make_placement(spec.placement.policy, spec.placement.options);
    std::vector<bool> counted(spec.devices.size(), false);
    role_room room;
    for (role r : roles)
        for (std::size_t i : policy->devices_for(r, stated)) {
            if (counted.at(i)) continue;
            counted[i] = true;
            const device_spec& d = spec.devices.at(i);
            std::uint64_t& sum = d.io_impl == "memory" ? room.in_memory : room.on_files;
            sum = saturating_add(sum, d.size);
            room.devices += (room.devices.empty() ? "" : ", ") + d.name;
        }
    return room;
}

} // namespace detail

//! Bytes of a command's data that a role holds at once (the sorter's runs: all the items).
struct role_demand {
    role where;
    std::uint64_t bytes;
};

//! config_error before any input is generated when n items of `item_bytes` cannot be held: the
//! volume overflows 64 bits, or the devices that a role of `demands` may put data on cannot hold
//! that role's bytes, or the devices of all of them cannot hold their sum (the input vector on
//! `stream` and the sorter's runs on `scratch` are two copies, on one device or two), counting
//! memory-backed devices for no more than they may hold (memory_backing_budget's default, three
//! quarters of physical memory). Without the check such a run fails half-way with out_of_space.
//! `what` names the items ("--items 5", "--items 5 with the inserts and the batch"). No demand:
//! nothing to check but the overflow (the items stay in memory).
inline void require_room_for_input(const machine_spec& spec, std::uint64_t n, std::uint64_t item_bytes,
                                   const std::vector<role_demand>& demands, const std::string& what = "") {
    const std::string items = what.empty() ? "--items " + std::to_string(n) : what;
    if (n > std::numeric_limits<std::uint64_t>::max() / item_bytes)
        throw config_error(items + " of " + std::to_string(item_bytes) + " bytes overflow 64 bits of volume");
    const std::uint64_t volume = n * item_bytes;
    const std::uint64_t limit = // unlimited when unknown
        spec.memory_backing_limit ? spec.memory_backing_limit : memory_backing_budget::default_limit();
    std::string input = "the input of " + std::to_string(n) + " items (" + format_bytes(double(volume)) + ")";
    if (!what.empty()) input += ", " + what + ",";
    // Each role alone, then all of them together (when several share devices).
    std::vector<std::vector<role_demand>> groups;
    for (const role_demand& d : demands)
        groups.push_back({d});
    if (demands.size() > 1) groups.push_back(demands);
    for (const std::vector<role_demand>& group : groups) {
        std::vector<role> roles;
        std::uint64_t need = 0;
        std::string whose;
        for (const role_demand& d : group) {
            roles.push_back(d.where);
            need = saturating_add(need, d.bytes);
            whose += (whose.empty() ? "" : ", ") + std::string(to_string(d.where)) + " " +
                     format_bytes(double(d.bytes));
        }
        const detail::role_room room = detail::room_of_roles(spec, roles);
        const std::string held = " needs " + format_bytes(double(need)) + " (" + whose + ")";
        const std::uint64_t capacity = saturating_add(room.on_files, room.in_memory);
        if (need > capacity)
            throw config_error(input + held + ": more than the capacity of machine '" + spec.name + "' (" +
                               format_bytes(double(capacity)) + " on " + room.devices +
                               ", the devices its placement puts that data on)");
        if (need > room.usable(limit))
            throw config_error(
                input + held + ": more than memory-backed devices may hold on this machine (" +
                format_bytes(double(limit)) +
                (spec.memory_backing_limit ? std::string(", the machine's memory-backing limit")
                                           : ", three quarters of its physical memory " +
                                                 format_bytes(double(physical_memory_bytes()))) +
                "), and " +
                (room.on_files == 0 ? "every device of machine '" + spec.name + "' it may use (" +
                                          room.devices + ") is memory-backed"
                                    : "the file-backed devices of machine '" + spec.name +
                                          "' it may use hold " + format_bytes(double(room.on_files))) +
                ": use --backing-dir or a config with file devices, or fewer items");
    }
}

//! The value of --memory (the budget M); config_error naming the option when it is not a size,
//! zero, or beyond this machine's physical memory: a budget that cannot be had is refused before
//! anything is allocated, instead of ending in std::bad_alloc half-way.
inline std::uint64_t parse_memory_option(const std::string& text) {
    std::uint64_t memory = parse_size_option("--memory", text);
    if (memory == 0)
        throw config_error("--memory " + text + ": expected a positive memory budget (e.g. 256MiB)");
    std::uint64_t physical = physical_memory_bytes();
    if (physical != 0 && memory > physical)
        throw config_error("--memory " + text + " is more than this machine's physical memory (" +
                           format_bytes(double(physical)) + "); give at most that");
    return memory;
}

//! The block sizes of a command: --br / --bw where given, the rest from the device that role `r`
//! is placed on (machine::block_sizes_for). config_error naming the options when the pair breaks
//! a rule.
inline block_sizes resolve_block_sizes(const machine& m, role r, const std::string& br_text,
                                       const std::string& bw_text) {
    block_sizes device = m.block_sizes_for(r);
    std::uint64_t br = br_text.empty() ? device.br : parse_size_option("--br", br_text);
    std::uint64_t bw = bw_text.empty() ? device.bw : parse_size_option("--bw", bw_text);
    if (bw_text.empty()) bw = block_sizes::whole_reads_bw(br, bw); // the device's Bw, fitted to --br
    try {
        return block_sizes(br, bw);
    } catch (const config_error& e) {
        throw config_error("--br " + format_size(br) + (br_text.empty() ? " (the device's)" : "") + " --bw " +
                           format_size(bw) + (bw_text.empty() ? " (the device's)" : "") + ": " + e.what());
    }
}

//! Adds the report flags every command has: --json (JSON on stdout, and only JSON, instead of the
//! table), --no-progress (no progress bar or progress lines on stderr) and --quiet (nothing on
//! stderr but errors; for these commands the same as --no-progress).
inline void add_report_flags(CLI::App* cmd, bool& json, bool& no_progress) {
    cmd->add_flag("--json", json, "print JSON on stdout (and only JSON) instead of the table");
    cmd->add_flag("--no-progress", no_progress, "no progress bar (off a terminal: no progress lines)");
    cmd->add_flag_callback(
        "--quiet", [&no_progress] { no_progress = true; }, "nothing on stderr but errors");
}

} // namespace flashxxl::cli
