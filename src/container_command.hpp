// Options and registration of `flashxxl sort` / `flashxxl pq`, and the run that instantiates a benchmark for the chosen item size (Br, Bw at run time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

#include "bench_items.hpp"
#include "common_options.hpp"
#include "container_report.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"

namespace flashxxl::cli {

//! Everything a container benchmark can be told.
struct container_options {
    machine_choice choice;
    std::string device;
    std::string br, bw, memory = "256MiB", bytes;  // br, bw empty: the device's
    std::uint64_t items = 0;
    int element_size = 8;
    std::uint64_t seed = 1;
    std::size_t threads = 0;  // 0: the machine's (OpenMP's default team)
    std::string mode;  // the command's default until --mode is given
    bool json = false, no_progress = false;
};

//! What differs between the container commands' registrations.
struct container_command_text {
    std::string description;   // of the subcommand
    std::string default_mode;  // --mode's default
    std::string memory_help, items_help, bytes_help, mode_help;
    role data_role = role::scratch;  // whose device's block sizes apply without --br / --bw
};

//! config_error before any input is generated when n items of `item_bytes` cannot be held: the
//! volume overflows 64 bits, exceeds the machine's device capacity, or (devices backed by
//! memory only) exceeds this machine's physical memory, which would end in std::bad_alloc.
inline void require_room_for_input(const machine_spec& spec, std::uint64_t n, std::uint64_t item_bytes) {
    if (n > std::numeric_limits<std::uint64_t>::max() / item_bytes)
        throw config_error("--items " + std::to_string(n) + " of " + std::to_string(item_bytes) +
                           " bytes overflow 64 bits of volume");
    std::uint64_t volume = n * item_bytes, capacity = 0;
    bool memory_only = true;
    for (const device_spec& d : spec.devices) {
        capacity += d.size;
        memory_only = memory_only && d.io_impl == "memory";
    }
    std::string input = "the input of " + std::to_string(n) + " items (" + format_bytes(double(volume)) + ")";
    if (volume > capacity)
        throw config_error(input + " exceeds the capacity of machine '" + spec.name + "' (" +
                           format_bytes(double(capacity)) + " on all devices)");
    std::uint64_t physical = physical_memory_bytes();
    if (memory_only && physical != 0 && volume > physical)
        throw config_error(input + " exceeds this machine's physical memory (" + format_bytes(double(physical)) +
                           "), which backs every device of machine '" + spec.name +
                           "': use --backing-dir or a config with file devices, or fewer items");
}

//! Checks the options, builds the machine, runs Benchmark::run<T>(machine&, options, blocks, n,
//! memory) for the chosen item type T and prints its container_run. Br and Bw are run-time
//! values: any valid pair works; without --br / --bw those of the device of `data_role`.
template <class Benchmark>
void run_container_benchmark(const container_options& o, role data_role) {
    std::uint64_t memory = parse_memory_option(o.memory);
    if ((o.items == 0) == o.bytes.empty()) throw config_error("give exactly one of --items N and --bytes SIZE");
    machine_spec spec = bench_machine_spec(o.choice, o.device);
    machine m(spec);
    block_sizes blocks = resolve_block_sizes(m, data_role, o.br, o.bw);
    dispatch_element(o.element_size, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        std::uint64_t n = o.items ? o.items : parse_size_option("--bytes", o.bytes) / sizeof(T);
        require_room_for_input(spec, n, sizeof(T));
        print_run(Benchmark::template run<T>(m, o, blocks, n, memory), o.json, run_metadata(&spec));
    });
}

//! Registers the subcommand `name` (sort, pq) with the container options; it runs Benchmark.
template <class Benchmark>
void add_container_command(CLI::App& app, const std::string& name, const container_command_text& text) {
    auto* cmd = app.add_subcommand(name, text.description);
    auto o = std::make_shared<container_options>();
    o->mode = text.default_mode;
    add_machine_options(cmd, o->choice);
    cmd->add_option("--device", o->device, "put every role on this device (placement single), e.g. ssd");
    add_block_size_options(cmd, o->br, o->bw, o->memory, text.memory_help);
    cmd->add_option("--items", o->items, text.items_help);
    cmd->add_option("--bytes", o->bytes, text.bytes_help);
    cmd->add_option("--element-size", o->element_size, "item size in bytes: 8, 16 or 40")->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of the random keys")->capture_default_str();
    cmd->add_option("--mode", o->mode, text.mode_help)->capture_default_str();
    cmd->add_option("--threads", o->threads, "threads that sort and merge (default 0: the machine's, as OpenMP counts them)")
        ->capture_default_str();
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o, r = text.data_role] { run_container_benchmark<Benchmark>(*o, r); });
}

} // namespace flashxxl::cli
