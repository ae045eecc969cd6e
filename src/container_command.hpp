// Options and registration of `flashxxl sort` / `flashxxl pq`, and the run that instantiates a benchmark for
// the chosen item size (Br, Bw at run time).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench_items.hpp"
#include "common_options.hpp"
#include "container_report.hpp"
#include "flashxxl/comma_list.hpp"
#include "flashxxl/container/parallel_merge.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"
#include "option_checks.hpp"
#include "plot_output.hpp"

namespace flashxxl::cli {

//! Everything a container benchmark can be told.
struct container_options {
    machine_choice choice;
    std::string device;
    std::string br, bw, memory = "256MiB",
                        bytes; // br, bw empty: the device's; neither items nor bytes: default_input
    std::uint64_t items = 0;
    bool items_given = false; // --items was on the command line (0 included, which is refused)
    int element_size = 8;
    std::uint64_t seed = 1;
    std::size_t threads = 0; // 0: the machine's (OpenMP's default team)
    std::string mode;        // the command's default until --mode is given
    std::string plot;        // --plot DIR
    bool force = false;
    bool json = false, no_progress = false;
};

//! The input volume of sort and pq when neither --items nor --bytes is given: 4 x the default
//! --memory, so that the default run is external (at least two passes).
constexpr const char* default_input = "1GiB";

//! What differs between the container commands' registrations.
struct container_command_text {
    std::string description;  // of the subcommand
    std::string default_mode; // --mode's default
    std::string memory_help, items_help, bytes_help, mode_help;
    std::string min_memory_help;    // the smallest budget at the default block sizes, for --help
    role data_role = role::scratch; // whose device's block sizes apply without --br / --bw
};

//! The values of a size option that may list several (`--br 64KiB,128KiB`); {""} when empty
//! (the device's). parse_comma_list's rules: no empty entry, no size given twice (64KiB and
//! 65536 are the same Br); each value is checked as a size here, so that a typo is an error.
inline std::vector<std::string> size_list(const std::string& option, const std::string& text) {
    if (text.empty()) return {""};
    return parse_comma_list(option, text, [&](const std::string& item) {
        return std::to_string(parse_size_option(option, item));
    });
}

//! Charts of --plot DIR for a container command: NAME-devices (one run: each device's read and
//! write volume) or NAME-sweep (a sweep: modelled time per Br, one bar per Bw).
inline void write_container_plots(const plot_directory& plots, const std::vector<container_run>& runs,
                                  bool sweep) {
    if (!plots.enabled() || runs.empty()) return;
    const std::string name = runs.front().command;
    if (!sweep) {
        const container_run& r = runs.front();
        std::string csv = "device,rdv_mib,wrv_mib,modelled_s\n";
        for (std::size_t i = 0; i < r.devices.size(); ++i)
            csv += csv_field(r.device_names[i]) + "," +
                   std::to_string(double(r.devices[i].total.read_bytes) / MiB) + "," +
                   std::to_string(double(r.devices[i].total.write_bytes) / MiB) + "," +
                   std::to_string(r.devices[i].total.modelled_s) + "\n";
        plots.write(
            name + "-devices", csv,
            "set key autotitle columnhead\nset style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 border -1\nset grid ytics\nset yrange [0:*]\n"
            "set title '" +
                name + " (" + r.mode + "), Br = " + format_size(r.br) + ", Bw = " + format_size(r.bw) +
                ": volume per device'\nset ylabel 'MiB'\n"
                "plot '" +
                name + "-devices.csv' using 2:xtic(1) title 'read (RDV)', '' using 3 title 'written (WRV)'\n",
            &std::cerr);
        return;
    }
    // Wide table for grouped bars: a row per Br, a column per Bw (NaN where the pair did not run).
    std::vector<std::uint64_t> brs, bws;
    for (const container_run& r : runs) {
        if (std::find(brs.begin(), brs.end(), r.br) == brs.end()) brs.push_back(r.br);
        if (std::find(bws.begin(), bws.end(), r.bw) == bws.end()) bws.push_back(r.bw);
    }
    std::string csv = "br";
    for (std::uint64_t bw : bws)
        csv += ",Bw " + format_size(bw);
    csv += "\n";
    for (std::uint64_t br : brs) {
        csv += "Br " + format_size(br);
        for (std::uint64_t bw : bws) {
            std::string cell = "NaN";
            for (const container_run& r : runs)
                if (r.br == br && r.bw == bw) cell = std::to_string(r.modelled.elapsed_s);
            csv += "," + cell;
        }
        csv += "\n";
    }
    std::string plot = "plot '" + name + "-sweep.csv' using 2:xtic(1)";
    for (std::size_t k = 1; k < bws.size(); ++k)
        plot += ", '' using " + std::to_string(k + 2);
    const container_run& f = runs.front();
    plots.write(
        name + "-sweep", csv,
        "set key autotitle columnhead\nset style data histograms\nset style histogram clustered gap 1\n"
        "set style fill solid 0.8 border -1\nset grid ytics\nset yrange [0:*]\n"
        "set title '" +
            name + " (" + f.mode + ") of " + format_bytes(double(f.input_bytes())) +
            ", M = " + format_bytes(double(f.memory)) +
            ": modelled time per block-size pair'\n"
            "set ylabel 'modelled elapsed seconds'\n" +
            plot + "\n",
        &std::cerr);
}

//! Checks the options, builds the machine, runs Benchmark::run<T>(machine&, options, blocks, n,
//! memory) for the chosen item type T and prints its container_run. Br and Bw are run-time
//! values: any valid pair works; without --br / --bw those of the device of `data_role`.
//! Lists (`--br 64KiB,128KiB --bw 1MiB,16MiB`) make a sweep: every pair of the cross product,
//! each on a fresh machine with the same input and memory, in one table; pairs that break a
//! rule (Br > Bw, Bw not a multiple of Br) or need more than --memory are skipped and listed.
template <class Benchmark> void run_container_benchmark(const container_options& o, role data_role) {
    std::uint64_t memory = parse_memory_option(o.memory);
    if (o.items_given && !o.bytes.empty())
        throw config_error("give one of --items N and --bytes SIZE, not both");
    if (o.items_given && o.items == 0) throw config_error("--items must be at least 1");
    const std::string bytes = !o.items_given && o.bytes.empty() ? default_input : o.bytes;
    const std::vector<std::string> brs = size_list("--br", o.br), bws = size_list("--bw", o.bw);
    const bool sweep = brs.size() * bws.size() > 1;
    machine_spec spec = bench_machine_spec(o.choice, o.device);
    const plot_directory plots(o.plot, "--plot", o.force);
    plots.reserve(Benchmark::name() + std::string(sweep ? "-sweep" : "-devices"));
    dispatch_element(o.element_size, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        std::uint64_t n = o.items_given ? o.items : parse_size_option("--bytes", bytes) / sizeof(T);
        if (n == 0)
            throw config_error("--bytes " + bytes + " holds no item of " + std::to_string(sizeof(T)) +
                               " bytes");
        if (n > max_items)
            throw config_error("--bytes " + bytes + " holds " + std::to_string(n) + " items of " +
                               std::to_string(sizeof(T)) + " bytes; expected at most " +
                               std::to_string(max_items) +
                               " items (2^36), the most a run can finish (give a smaller --bytes)");
        // The pairs to run, each checked (rules, minimum memory) before any input is generated.
        std::vector<block_sizes> pairs;
        std::vector<skipped_pair> skipped;
        {
            const kept_files_carry_over kept(spec);
            machine probe(spec);
            kept.carry_over(spec); // each pair's fresh machine reopens the keep=on files the probe made
            for (const std::string& br : brs)
                for (const std::string& bw : bws) {
                    std::string why;
                    // What the skip reports: the resolved pair when resolving succeeded (an empty
                    // --bw is the device's Bw, not 0), else the sizes as given.
                    std::uint64_t shown_br = 0, shown_bw = 0;
                    try {
                        const block_sizes b = resolve_block_sizes(probe, data_role, br, bw);
                        shown_br = b.br;
                        shown_bw = b.bw;
                        const std::uint64_t need = Benchmark::template min_memory<T>(o, b);
                        if (memory >= need) {
                            pairs.push_back(b);
                            continue;
                        }
                        why = "--memory " + o.memory + " is below the minimum " + format_bytes(double(need)) +
                              " of " + o.mode + " mode with " + std::to_string(sizeof(T)) +
                              "-byte items and " + b.describe();
                    } catch (const config_error& e) {
                        if (!sweep) throw;
                        why = e.what();
                        shown_br = br.empty() ? 0 : parse_size(br); // the lists were parsed once already
                        shown_bw = bw.empty() ? 0 : parse_size(bw);
                    }
                    if (!sweep) throw config_error(why);
                    skipped.push_back({shown_br, shown_bw, why});
                }
        }
        if (pairs.empty())
            throw config_error("no block-size pair of the sweep can run: " + skipped.front().reason);
        require_room_for_input(spec, n, sizeof(T),
                               Benchmark::roles_holding_input(o, saturating_mul(n, sizeof(T)), memory));
        std::vector<container_run> runs;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            if (sweep && !o.no_progress && !o.json)
                std::fprintf(stderr, "sweep %zu/%zu: %s\n", i + 1, pairs.size(), pairs[i].describe().c_str());
            machine m(spec); // a fresh machine per pair
            runs.push_back(Benchmark::template run<T>(m, o, pairs[i], n, memory));
        }
        write_container_plots(plots, runs, sweep);
        if (sweep)
            print_sweep(runs, skipped, o.json, run_metadata(&spec));
        else
            print_run(runs.front(), o.json, run_metadata(&spec));
    });
}

//! Registers the subcommand `name` (sort, pq) with the container options; it runs Benchmark.
//! The --help sentence on the smallest --memory: Benchmark's minimum for 8-byte items in the
//! default mode at seeds/001's Br = 128 KiB, Bw = 16 MiB, and at Br = Bw = 128 KiB.
template <class Benchmark> std::string min_memory_sentence(const container_options& defaults) {
    using T = bench_item<8>;
    const block_sizes paper(128 * KiB, 16 * MiB), small(128 * KiB, 128 * KiB);
    return "at least " + format_bytes(double(Benchmark::template min_memory<T>(defaults, paper))) +
           " for 8-byte items at Br = 128 KiB, Bw = 16 MiB (" +
           format_bytes(double(Benchmark::template min_memory<T>(defaults, small))) +
           " at Br = Bw = 128 KiB); checked before any input is generated";
}

template <class Benchmark>
void add_container_command(CLI::App& app, const std::string& name, container_command_text text) {
    auto* cmd = app.add_subcommand(name, text.description);
    auto o = std::make_shared<container_options>();
    o->mode = text.default_mode;
    text.min_memory_help = min_memory_sentence<Benchmark>(*o);
    add_machine_options(cmd, o->choice);
    cmd->add_option("--device", o->device, "put every role on this device (placement single), e.g. ssd");
    add_block_size_options(cmd, o->br, o->bw, o->memory, text.memory_help + "; " + text.min_memory_help);
    cmd->get_option("--br")->description(cmd->get_option("--br")->get_description() +
                                         "; a comma-separated list (with --bw) runs a sweep of every pair");
    cmd->add_option(
           "--plot", o->plot,
           "write a CSV table and a gnuplot chart here (one run: volume per device; a sweep: modelled time "
           "per Br and Bw)")
        ->check(non_empty_path("a directory for the charts"));
    cmd->add_flag("--force", o->force, "with --plot: replace files flashxxl did not write");
    CLI::Option* items =
        cmd->add_option("--items", o->items, text.items_help + " (at most 2^36, the most a run can finish)")
            ->check(whole_number(1, max_items));
    cmd->add_option("--bytes", o->bytes,
                    text.bytes_help + " (default " + default_input +
                        " when neither is given; at most 2^36 items)");
    cmd->add_option("--element-size", o->element_size, "item size in bytes: 8, 16 or 40")
        ->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of the random keys")->capture_default_str();
    cmd->add_option("--mode", o->mode, text.mode_help)->capture_default_str();
    cmd->add_option("--threads", o->threads,
                    "threads that sort and merge (default 0: the machine's, as OpenMP counts them; at most " +
                        std::to_string(max_threads) + ")")
        ->capture_default_str()
        ->check(whole_number(0, max_threads));
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o, items, r = text.data_role] {
        o->items_given = items->count() > 0;
        run_container_benchmark<Benchmark>(*o, r);
    });
}

} // namespace flashxxl::cli
