// `flashxxl placement`: seeds/000 Table 4.1, the MM_BFS phase under several machines and placement policies.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common_options.hpp"
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_experiment.hpp"
#include "flashxxl/graph/bfs_result_json.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/reproduce/table41_experiment.hpp"
#include "flashxxl/units.hpp"
#include "cli_graph_algorithms.hpp"
#include "graph_command.hpp"
#include "invocation.hpp"
#include "option_checks.hpp"
#include "plot_output.hpp"

namespace flashxxl::cli {

using namespace flashxxl::reproduce; // seeds/000 Table 4.1's experiment and figures

namespace {

struct placement_options {
    std::string graph = "tree:nodes=3000000";
    // Defaults reproduce seeds/000 Table 4.1's ratios (docs/bfs.md, "placement"; the same as
    // table41_options'): streams in 768 KiB blocks, the cluster file read in 8 KiB blocks and
    // striped in 64 KiB blocks.
    std::string br = "768KiB", bw = "768KiB", cluster_br = "8KiB", cluster_bw, memory = "64MiB";
    std::uint64_t mu = 0, small_mu = 0, seed = 1, source = 0;
    std::string backing_dir;
    std::string host = "2008"; // --host: the papers' host by default
    bool pace = false;
    double scale = 1.0;
    std::string plot; // --plot DIR
    bool force = false;
    bool json = false, no_progress = false;
};

//! Charts of the run under --plot DIR: table41-devices (per configuration, each device's modelled
//! busy time of the BFS phase stacked, the modelled elapsed time as a point) and table41-ratios
//! (the paper's ratios to random striping beside ours, total and I/O wait).
void write_plots(const plot_directory& plots, const std::vector<table41_row>& rows,
                 const table41_comparison& cmp, std::ostream* notes) {
    std::string devices =
        "configuration,device_1,device_1_modelled_s,device_2,device_2_modelled_s,modelled_elapsed_s\n";
    std::string ratios =
        "configuration,paper_total_ratio,ours_total_ratio,paper_io_wait_ratio,ours_io_wait_ratio\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const phase_stats& p = rows[i].bfs_phase();
        std::string label = csv_field(rows[i].conf.label);
        devices += label;
        for (std::size_t d = 0; d < 2; ++d)
            devices += d < p.devices.size() ? "," + csv_field(p.device_names[d]) + "," +
                                                  std::to_string(p.devices[d].total.modelled_s)
                                            : ",,0";
        devices += "," + std::to_string(p.modelled.elapsed_s) + "\n";
        // An undefined ratio (no I/O in the base) is NaN, which gnuplot leaves out.
        auto number = [](double v) { return std::isnan(v) ? std::string("NaN") : std::to_string(v); };
        ratios += label + "," + number(cmp.paper_total[i]) + "," + number(cmp.total[i]) + "," +
                  number(cmp.paper_io_wait[i]) + "," + number(cmp.io_wait[i]) + "\n";
    }
    const std::string common = "set key autotitle columnhead\nset style data histograms\n"
                               "set style fill solid 0.8 border -1\nset xtics rotate by -15 font ',9'\n"
                               "set grid ytics\nset yrange [0:*]\n";
    plots.write("table41-devices", devices,
                common + "set style histogram rowstacked\nset boxwidth 0.6\n"
                         "set title 'seeds/000 Table 4.1, MM_BFS phase: modelled busy time per device'\n"
                         "set ylabel 'modelled seconds'\n"
                         "plot 'table41-devices.csv' using 3:xtic(1) title 'first device (ssd / hdd0)', "
                         "'' using 5 title 'second device (hdd / hdd1)', "
                         "'' using 0:6 with points pt 7 ps 1.5 lc rgb 'black' title 'modelled elapsed "
                         "(devices in parallel)'\n",
                notes);
    plots.write(
        "table41-ratios", ratios,
        common +
            "set style histogram clustered gap 1\n"
            "set title 'seeds/000 Table 4.1: time relative to random striping, paper beside ours'\n"
            "set ylabel 'ratio to random striping'\n" +
            // gnuplot refuses a column with no number: undefined ratios are left out.
            std::string(cmp.defined()
                            ? "plot 'table41-ratios.csv' using 2:xtic(1) title 'paper, total', '' using 3 "
                              "title 'ours, total', '' using 4 title 'paper, I/O wait', '' using 5 title "
                              "'ours, I/O wait'\n"
                            : "plot 'table41-ratios.csv' using 2:xtic(1) title 'paper, total', '' using 4 "
                              "title 'paper, I/O wait (ours undefined: no I/O)'\n"),
        notes);
}

//! Counts levels for the progress bar.
struct progress_visitor : cli_bfs_visitor {
    progress_bar* bar = nullptr;
    double base = 0, share = 1;
    std::uint64_t nodes = 1, reached = 0;
    std::string label;
    void discover_vertex(node_id, std::uint64_t, node_id) override { ++reached; }
    void finish_level(std::uint64_t level, std::uint64_t) override {
        if (bar)
            bar->update(base + share * double(reached) / double(nodes),
                        label + ": bfs level " + std::to_string(level));
    }
};

//! config_error naming both options when the last run's cluster size is not smaller than the
//! first three's: its column is "flash_aware with a smaller cluster size".
void require_smaller_cluster(const placement_options& o, const table41_options& t) {
    if (t.small_mu < t.mu) return;
    const auto given = [](std::uint64_t v, std::uint64_t resolved, const char* derived) {
        return std::to_string(resolved) + (v == 0 ? std::string(" (") + derived + ")" : std::string());
    };
    throw config_error("--small-mu " + given(o.small_mu, t.small_mu, "--mu / 8, at least 1") +
                       " is not smaller than --mu " + given(o.mu, t.mu, "8 x --small-mu") +
                       ": the last run is flash_aware with a smaller cluster size; give a --small-mu "
                       "below --mu");
}

//! The cluster file's block sizes (table41_cluster_blocks), refused with the options and values
//! given ("placement --cluster-br 3000 (3000 bytes): expected a multiple of 4 KiB") rather than a
//! Bw derived from them.
block_sizes checked_cluster_blocks(const placement_options& o, const table41_options& t) {
    const auto aligned = [](const std::string& option, const std::string& text, std::uint64_t bytes) {
        if (bytes % block_sizes::alignment != 0)
            throw config_error("placement " + option + " " + text + " (" + std::to_string(bytes) +
                               " bytes): expected a multiple of 4 KiB (e.g. 8KiB)");
    };
    if (!o.cluster_br.empty()) aligned("--cluster-br", o.cluster_br, t.cluster_br);
    if (!o.cluster_bw.empty()) aligned("--cluster-bw", o.cluster_bw, t.cluster_bw);
    t.streams.validate(); // --br / --bw name themselves
    try {
        return table41_cluster_blocks(t);
    } catch (const config_error& e) {
        std::string what = e.what();
        if (what.rfind("placement: ", 0) == 0) what.erase(0, 11);
        const std::string given = o.cluster_br.empty() ? "(none: --br " + o.br + ")" : o.cluster_br;
        throw config_error("placement --cluster-br " + given +
                           (o.cluster_bw.empty() ? std::string() : ", --cluster-bw " + o.cluster_bw) +
                           " with --bw " + o.bw + ": " + what);
    }
}

void run(const placement_options& o) {
    table41_options t;
    t.memory = parse_memory_option(o.memory);
    t.streams = block_sizes(parse_size_option("--br", o.br), parse_size_option("--bw", o.bw));
    // The cluster file's reads: --cluster-br, else Br (one block size for everything).
    t.cluster_br = o.cluster_br.empty() ? t.streams.br : parse_size_option("--cluster-br", o.cluster_br);
    if (t.cluster_br == 0)
        throw config_error("--cluster-br " + o.cluster_br + ": expected a positive block size");
    // Its write block, the unit random striping places: --cluster-bw, else the default 64 KiB
    // when that holds whole reads, else whole reads in Bw.
    if (!o.cluster_bw.empty())
        t.cluster_bw = parse_size_option("--cluster-bw", o.cluster_bw);
    else if (t.cluster_bw % t.cluster_br != 0)
        t.cluster_bw = 0;
    // Cluster sizes: table41_options' 512 and 64 nodes by default (docs/bfs.md says how they
    // were chosen); one of them given alone sets the other at the same 8 : 1 ratio.
    if (o.mu != 0 || o.small_mu != 0) t.mu = o.mu, t.small_mu = o.small_mu;
    if (t.mu == 0) t.mu = 8 * t.small_mu;
    if (t.small_mu == 0) t.small_mu = std::max<std::uint64_t>(1, t.mu / 8);
    require_smaller_cluster(o, t);
    t.seed = o.seed;
    t.source = o.source;
    t.machine.backing_dir = o.backing_dir;
    t.host = table41_host(o.host);
    t.machine.pace = o.pace;
    t.machine.scale = o.scale;
    const std::uint64_t br = t.streams.br, bw = t.streams.bw, memory = t.memory, cluster_br = t.cluster_br,
                        cluster_bw = t.cluster_write_block();
    // The cluster file's Bw counts against M too (a larger one than the streams' needs more).
    const block_sizes cluster_blocks = checked_cluster_blocks(o, t);
    require_memory("placement", memory, bfs_experiment_min_memory(t.streams, cluster_blocks), o.memory,
                   t.streams, 0,
                   " with the cluster file's Br = " + format_size(cluster_blocks.br) +
                       ", Bw = " + format_size(cluster_blocks.bw));
    const plot_directory plots(o.plot, "--plot", o.force);
    plots.reserve("table41-devices"); // refused outputs cost no run
    plots.reserve("table41-ratios");
    progress_bar bar(stderr, !o.no_progress && !o.json);
    progress_visitor vis;
    vis.bar = &bar;
    const auto& columns = table41_configurations();
    auto open_source = [&] { return open_graph_source(o.graph); };
    // Progress over |V|, known once each column's graph is built (a graph file's node count
    // is not known before it has been read).
    t.on_graph = [&vis](const csr_graph& g) { vis.nodes = std::max<std::uint64_t>(g.node_count(), 1); };
    std::vector<table41_row> rows = run_table41<cli_bfs_visitor>(open_source, t, vis, [&](std::size_t i) {
        vis.base = double(i) / double(columns.size());
        vis.share = 1.0 / double(columns.size());
        vis.reached = 0;
        vis.label = columns[i].preset + " " + columns[i].policy;
        bar.update(vis.base, vis.label + ": csr, preprocessing");
    });
    bar.finish();
    const table41_comparison cmp(rows);
    write_plots(plots, rows, cmp, &std::cerr);

    if (o.json) {
        nlohmann::json j = {{"command", "placement"},
                            {"graph", rows.empty() ? "" : rows[0].result.graph},
                            {"br_bytes", br},
                            {"bw_bytes", bw},
                            {"cluster_br_bytes", cluster_br},
                            {"cluster_bw_bytes", cluster_bw},
                            {"memory_bytes", memory},
                            {"pace", o.pace},
                            {"scale", o.scale},
                            {"host", t.host.name},
                            {"largest_ratio_difference", cmp.largest_difference},
                            {"largest_total_per_io_wait_difference",
                             std::isnan(cmp.largest_total_per_wait_difference)
                                 ? nlohmann::json(nullptr)
                                 : nlohmann::json(cmp.largest_total_per_wait_difference)},
                            {"paper_order", cmp.same_order}};
        j.update(run_metadata());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const table41_row& r = rows[i];
            const phase_stats& p = r.bfs_phase();
            machine_options spec_options = t.machine;
            spec_options.placement = r.conf.policy;
            nlohmann::json c = {{"configuration", r.conf.label},
                                {"machine", r.conf.preset},
                                {"placement", r.conf.policy},
                                {"mu", r.result.bfs.mu},
                                {"ratio", cmp.total[i]},
                                {"io_wait_ratio", cmp.io_wait[i]},
                                {"paper_ratio", cmp.paper_total[i]},
                                {"paper_io_wait_ratio", cmp.paper_io_wait[i]},
                                {"total_per_io_wait", std::isnan(cmp.total_per_wait[i])
                                                          ? nlohmann::json(nullptr)
                                                          : nlohmann::json(cmp.total_per_wait[i])},
                                {"paper_total_per_io_wait", cmp.paper_total_per_wait[i]},
                                {"modelled_elapsed_s", p.modelled.elapsed_s},
                                {"modelled_io_wait_s", p.modelled.io_wait_s},
                                {"wall_io_wait_s", p.wait_s()},
                                {"wall_s", p.wall_s},
                                {"busiest_modelled_s", p.busiest_modelled_s()},
                                {"modelled_energy_j", energy_json(machine_total(p.devices))},
                                {"paper_total_s", r.conf.paper_total_h * 3600},
                                {"paper_io_wait_s", r.conf.paper_io_wait_h * 3600},
                                {"result", r.result.bfs}};
            for (std::size_t d = 0; d < p.devices.size(); ++d)
                c["devices"].push_back({{"name", p.device_names[d]},
                                        {"rdv_bytes", p.devices[d].total.read_bytes},
                                        {"wrv_bytes", p.devices[d].total.write_bytes},
                                        {"modelled_s", p.devices[d].total.modelled_s},
                                        {"modelled_energy_j", energy_json(p.devices[d].total)}});
            c["machine_spec"] = machine_spec_json(preset_machine_spec(r.conf.preset, spec_options));
            j["configurations"].push_back(c);
        }
        std::cout << j.dump(2) << "\n";
        return;
    }
    if (rows.empty()) return;
    const bfs_experiment_result& first = rows[0].result;
    std::printf("placement: MM_BFS phase (seeds/000 Table 4.1) on %s: %llu nodes, %llu edges, %llu levels\n",
                first.graph.c_str(), (unsigned long long)first.csr.nodes,
                (unsigned long long)first.csr.edges(), (unsigned long long)first.bfs.levels());
    std::printf(
        "Br %s, Bw %s (hot pool, level lists, sorters), cluster file Br %s / Bw %s, M %s, pacing %s\n\n",
        format_bytes(double(br)).c_str(), format_bytes(double(bw)).c_str(),
        format_bytes(double(cluster_br)).c_str(), format_bytes(double(cluster_bw)).c_str(),
        format_bytes(double(memory)).c_str(),
        o.pace ? ("on, scale " + std::to_string(o.scale)).c_str() : "off");
    std::printf("%-36s %5s %12s %12s %10s  %s\n", "configuration", "mu", "modelled", "I/O wait", "wall",
                "per device: RDV / WRV / modelled busy time / modelled energy");
    for (const table41_row& r : rows) {
        const phase_stats& p = r.bfs_phase();
        std::string devices;
        for (std::size_t d = 0; d < p.devices.size(); ++d) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s%s %s / %s / %.1f s / %s", d ? "; " : "",
                          p.device_names[d].c_str(),
                          format_bytes(double(p.devices[d].total.read_bytes)).c_str(),
                          format_bytes(double(p.devices[d].total.write_bytes)).c_str(),
                          p.devices[d].total.modelled_s, energy_with_unit(p.devices[d].total).c_str());
            devices += buf;
        }
        std::printf("%-36s %5llu %10.1f s %10.1f s %8.1f s  %s\n", r.conf.label.c_str(),
                    (unsigned long long)r.result.bfs.mu, p.modelled.elapsed_s, p.modelled.io_wait_s, p.wall_s,
                    devices.c_str());
    }
    std::printf(
        "\n(modelled: elapsed time of the BFS phase on the machine's virtual clock, devices working in "
        "parallel, the host's CPU time overlapping with them; I/O wait: its share spent waiting for I/O; "
        "wall: this run's own time)\nhost: %s%s\n",
        t.host.name.c_str(),
        o.host == "2008" ? " (seeds/000 Table 2.1's costs per item and seeds/001's per BFS level, times a "
                           "factor fitted on random striping's total / I/O wait)"
                         : "");

    // The paper's rows beside ours, each as a ratio to random striping (the first configuration).
    std::printf(
        "\nseeds/000 Table 4.1, MM_BFS phase, ratios to random striping: paper (hours) beside ours (modelled "
        "seconds)\n");
    std::printf("%-36s %8s %6s %6s %8s %6s %6s | %10s %10s\n", "configuration", "total h", "paper", "ours",
                "wait h", "paper", "ours", "ours total", "ours wait");
    auto ratio = [](double v) {
        if (std::isnan(v)) return std::string("   n/a");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%6.2f", v);
        return std::string(buf);
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const table41_row& r = rows[i];
        const phase_stats& p = r.bfs_phase();
        std::printf("%-36s %8.1f %6.2f %s %8.1f %6.2f %s | %8.1f s %8.1f s\n", r.conf.label.c_str(),
                    r.conf.paper_total_h, cmp.paper_total[i], ratio(cmp.total[i]).c_str(),
                    r.conf.paper_io_wait_h, cmp.paper_io_wait[i], ratio(cmp.io_wait[i]).c_str(),
                    p.modelled.elapsed_s, p.modelled.io_wait_s);
    }
    if (cmp.defined()) {
        std::printf("\ntotal / I/O wait per configuration (the host's CPU share): paper beside ours%s\n",
                    o.host == "2008" ? "; the first fitted, the others predicted" : "");
        for (std::size_t i = 0; i < rows.size(); ++i)
            std::printf("%-36s %6.3f %6.3f  (difference %+.3f)\n", rows[i].conf.label.c_str(),
                        cmp.paper_total_per_wait[i], cmp.total_per_wait[i],
                        cmp.total_per_wait[i] - cmp.paper_total_per_wait[i]);
        std::printf("largest difference: %.3f (target: at most 0.12)\n",
                    cmp.largest_total_per_wait_difference);
    }
    if (!cmp.defined())
        std::printf(
            "no ratios of ours: random striping's BFS phase took no modelled time (this graph needs no I/O "
            "in that phase); give a larger graph\n");
    else
        std::printf(
            "the paper's order in both rows: %s; largest difference between the paper's ratios and ours: "
            "%.2f (at most 0.12 counts as the paper's shape, with its order)\n",
            cmp.same_order ? "yes" : "NO", cmp.largest_difference);
}

} // namespace

void register_placement_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "placement",
        "seeds/000 Table 4.1: the MM_BFS phase on hybrid-2009 with random striping, on two-hdd-2009, and "
        "on hybrid-2009 flash_aware with the same and a smaller cluster size");
    auto o = std::make_shared<placement_options>();
    cmd->add_option("graph", o->graph,
                    std::string("the graph (default: the seeds/000 Figure 4.1 tree): ") + graph_spec_help())
        ->capture_default_str();
    cmd->add_option("--br", o->br, "read block size Br of every run (any multiple of 4KiB)")
        ->capture_default_str();
    cmd->add_option("--bw", o->bw, "write block size Bw of every run (a multiple of Br)")
        ->capture_default_str();
    cmd->add_option("--cluster-br", o->cluster_br,
                    "read block size of the cluster file, the structure read at random, one cluster per read "
                    "(empty: --br)")
        ->capture_default_str();
    cmd->add_option("--cluster-bw", o->cluster_bw,
                    "write block size of the cluster file, the unit random striping places (a multiple of "
                    "--cluster-br; empty: 64KiB if that is one, else whole --cluster-br reads in --bw)");
    cmd->add_option("--memory", o->memory, "memory budget M of each phase (IEC units)")
        ->capture_default_str();
    // Cluster sizes in nodes, at most 2^32: more than the node count of any graph these runs take.
    cmd->add_option("--mu", o->mu,
                    "cluster size of the first three runs (0: 512, or 8 x --small-mu; at most 2^32)")
        ->capture_default_str()
        ->check(whole_number(0, std::uint64_t(1) << 32));
    cmd->add_option("--small-mu", o->small_mu,
                    "cluster size of the last run, smaller than --mu (0: 64, or --mu / 8, at least 1; at "
                    "most 2^32)")
        ->capture_default_str()
        ->check(whole_number(0, std::uint64_t(1) << 32));
    cmd->add_option("--seed", o->seed, "seed of the master choice")->capture_default_str();
    cmd->add_option("--source", o->source, "BFS source node")->capture_default_str();
    cmd->add_option("--backing-dir", o->backing_dir,
                    "back the emulated devices by sparse files in this directory (unlinked once open)")
        ->check(writable_directory());
    cmd->add_option("--host", o->host,
                    "host whose CPU time is charged on the virtual clock: 2008 (seeds/000's costs times a "
                    "factor fitted on the first column), none (I/O time only) or measured (this machine)")
        ->capture_default_str();
    cmd->add_flag("--pace", o->pace, "pace wall time to the device models, so that I/O wait is real");
    cmd->add_option("--scale", o->scale, "wall seconds per modelled second when pacing")
        ->capture_default_str()
        ->check(finite_number(1e-6, 1e6));
    cmd->add_option(
           "--plot", o->plot,
           "write CSV tables and gnuplot charts here: per-device stacked modelled time, paper vs ours ratios")
        ->check(non_empty_path("a directory for the charts"));
    cmd->add_flag("--force", o->force, "with --plot: replace files flashxxl did not write");
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o, cmd] {
        // As for every command's machine options: --scale alone did nothing, silently.
        if (cmd->count("--scale") > 0 && !o->pace)
            throw config_error(
                "--scale has no effect without --pace (it scales the paced wall time): give --pace too, "
                "or leave --scale out");
        run(*o);
    });
}

} // namespace flashxxl::cli
