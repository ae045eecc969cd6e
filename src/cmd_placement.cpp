// `flashxxl placement`: seeds/000 Table 4.1, the MM_BFS phase under several machines and placement policies.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common_options.hpp"
#include "flashxxl/characterize/progress_bar.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_experiment.hpp"
#include "flashxxl/graph/bfs_result_json.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "cli_graph_algorithms.hpp"
#include "graph_command.hpp"
#include "invocation.hpp"

namespace flashxxl::cli {
namespace {

struct placement_options {
    std::string graph = "tree:nodes=3000000";
    std::string br = "4KiB", bw = "64KiB", memory = "64MiB";
    std::uint64_t mu = 0, small_mu = 0, seed = 1, source = 0;
    std::string backing_dir;
    bool pace = false;
    double scale = 1.0;
    bool json = false, no_progress = false;
};

//! One column of seeds/000 Table 4.1, with the paper's MM_BFS-phase figures (hours).
struct configuration {
    std::string label;
    std::string preset;
    std::string policy;
    bool small_mu;
    double paper_total_h;
    double paper_io_wait_h;
};

const std::vector<configuration> configurations = {
    {"random striping, 1 flash + 1 HDD", "hybrid-2009", "random_striping", false, 11.7, 10.5},
    {"2 hard disks", "two-hdd-2009", "random_striping", false, 7.5, 6.3},
    {"flash_aware, same cluster size", "hybrid-2009", "flash_aware", false, 8.1, 7.1},
    {"flash_aware, smaller cluster size", "hybrid-2009", "flash_aware", true, 6.3, 5.8},
};

struct row {
    configuration conf;
    std::uint64_t mu = 0;
    bfs_experiment_result result;
    std::uint64_t levels = 0, reached = 0;
    machine_spec spec;
};

//! Counts levels for the progress bar.
struct progress_visitor : cli_bfs_visitor {
    characterize::progress_bar* bar = nullptr;
    double base = 0, share = 1;
    std::uint64_t nodes = 1, reached = 0;
    std::string label;
    void discover_vertex(node_id, std::uint64_t, node_id) override { ++reached; }
    void finish_level(std::uint64_t level, std::uint64_t) override {
        if (bar)
            bar->update(base + share * double(reached) / double(nodes), label + ": bfs level " + std::to_string(level));
    }
};

void run(const placement_options& o) {
    std::uint64_t memory = parse_memory_option(o.memory);
    const block_sizes blocks(parse_size_option("--br", o.br), parse_size_option("--bw", o.bw));
    const std::uint64_t br = blocks.br, bw = blocks.bw;
    characterize::progress_bar bar(stderr, !o.no_progress && !o.json);
    std::vector<row> rows;
    std::uint64_t mu = o.mu, small_mu = o.small_mu;
    if (mu == 0 || small_mu == 0) {
        // Defaults: the smaller cluster size is the unit-cost optimum default_mu(Br, |V|), the
        // "same" one four times it (clusters sized for an HDD's expensive random reads).
        auto counting = open_graph_source(o.graph);
        std::uint64_t n = counting->node_count();
        if (n == 0) {
            edge e;
            while (counting->next(e)) {
            }
            n = counting->node_count();
        }
        if (small_mu == 0) small_mu = mu ? std::max<std::uint64_t>(1, mu / 4) : default_mu(br, n);
        if (mu == 0) mu = 4 * small_mu;
    }
    {
        require_memory("placement", memory, bfs_experiment_min_memory(blocks), o.memory, blocks);
        for (std::size_t i = 0; i < configurations.size(); ++i) {
            const configuration& c = configurations[i];
            machine_options mo;
            mo.backing_dir = o.backing_dir;
            mo.pace = o.pace;
            mo.scale = o.scale;
            mo.placement = c.policy;
            machine_spec spec = preset_machine_spec(c.preset, mo);
            machine m(spec);
            auto source = open_graph_source(o.graph);
            progress_visitor vis;
            vis.bar = &bar;
            vis.base = double(i) / double(configurations.size());
            vis.share = 1.0 / double(configurations.size());
            vis.nodes = std::max<std::uint64_t>(1, source->node_count());
            vis.label = c.preset + " " + c.policy;
            bar.update(vis.base, vis.label + ": csr, preprocessing");
            bfs_experiment_options eo;
            eo.memory = memory;
            eo.source = o.source;
            eo.mm.seed = o.seed;
            eo.mm.mu = c.small_mu ? small_mu : mu;
            row r;
            r.conf = c;
            r.spec = spec;
            r.result = run_bfs_experiment(m, *source, blocks, eo, static_cast<cli_bfs_visitor&>(vis));
            r.mu = r.result.bfs.mu;
            rows.push_back(std::move(r));
        }
    }
    bar.finish();
    for (const row& r : rows)
        if (r.result.bfs.level_sizes != rows[0].result.bfs.level_sizes)
            throw error("placement: '" + r.conf.label + "' found different BFS levels than '" + rows[0].conf.label + "'");

    if (o.json) {
        nlohmann::json j = {{"command", "placement"}, {"graph", rows.empty() ? "" : rows[0].result.graph},
                            {"br", br}, {"bw", bw}, {"memory", memory}, {"pace", o.pace}, {"scale", o.scale}};
        j.update(run_metadata());
        for (const row& r : rows) {
            const phase_stats& p = *r.result.bfs.phase("bfs");
            nlohmann::json c = {{"configuration", r.conf.label},
                                {"machine", r.conf.preset},
                                {"placement", r.conf.policy},
                                {"mu", r.mu},
                                {"io_wait_s", p.wait_s()},
                                {"total_s", p.wall_s},
                                {"busiest_modelled_s", p.busiest_modelled_s()},
                                {"paper_total_s", r.conf.paper_total_h * 3600},
                                {"paper_io_wait_s", r.conf.paper_io_wait_h * 3600},
                                {"result", r.result.bfs}};
            for (std::size_t d = 0; d < p.devices.size(); ++d)
                c["devices"].push_back({{"name", p.device_names[d]},
                                        {"rdv", p.devices[d].total.read_bytes},
                                        {"wrv", p.devices[d].total.write_bytes},
                                        {"modelled_s", p.devices[d].total.modelled_s}});
            c["machine_spec"] = machine_spec_json(r.spec);
            j["configurations"].push_back(c);
        }
        std::cout << j.dump(2) << "\n";
        return;
    }
    if (rows.empty()) return;
    const bfs_experiment_result& first = rows[0].result;
    std::printf("placement: MM_BFS phase (seeds/000 Table 4.1) on %s: %llu nodes, %llu edges, %llu levels\n",
                first.graph.c_str(), (unsigned long long)first.csr.nodes, (unsigned long long)first.csr.edges(),
                (unsigned long long)first.bfs.levels());
    std::printf("Br %s, Bw %s, M %s, pacing %s\n\n", format_bytes(double(br)).c_str(),
                format_bytes(double(bw)).c_str(), format_bytes(double(memory)).c_str(),
                o.pace ? ("on, scale " + std::to_string(o.scale)).c_str() : "off (I/O wait is not modelled)");
    std::printf("%-36s %5s %10s %10s %12s  %s\n", "configuration", "mu", "I/O wait", "total", "busiest dev",
                "per device: RDV / WRV / modelled time");
    for (const row& r : rows) {
        const phase_stats& p = *r.result.bfs.phase("bfs");
        std::string devices;
        for (std::size_t d = 0; d < p.devices.size(); ++d) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s%s %s / %s / %.2f s", d ? "; " : "", p.device_names[d].c_str(),
                          format_bytes(double(p.devices[d].total.read_bytes)).c_str(),
                          format_bytes(double(p.devices[d].total.write_bytes)).c_str(), p.devices[d].total.modelled_s);
            devices += buf;
        }
        std::printf("%-36s %5llu %8.2f s %8.2f s %10.2f s  %s\n", r.conf.label.c_str(), (unsigned long long)r.mu,
                    p.wait_s(), p.wall_s, p.busiest_modelled_s(), devices.c_str());
    }
    std::printf("\n(I/O wait and total: wall seconds of the BFS phase; busiest dev: modelled seconds of the busiest "
                "device, the phase's time when I/O-bound)\n");

    // The paper's rows beside ours, each as a ratio to random striping (the first configuration).
    const double paper_base = rows[0].conf.paper_total_h, paper_wait_base = rows[0].conf.paper_io_wait_h;
    const double ours_base = rows[0].result.bfs.phase("bfs")->busiest_modelled_s();
    std::printf("\nseeds/000 Table 4.1, MM_BFS phase: paper (hours) beside ours (busiest device, modelled), ratios to "
                "random striping\n");
    std::printf("%-36s %9s %7s %11s %7s %13s %7s\n", "configuration", "paper h", "ratio", "paper wait h", "ratio",
                "ours modelled", "ratio");
    for (const row& r : rows) {
        double ours = r.result.bfs.phase("bfs")->busiest_modelled_s();
        std::printf("%-36s %9.1f %7.2f %11.1f %7.2f %11.2f s %7.2f\n", r.conf.label.c_str(), r.conf.paper_total_h,
                    r.conf.paper_total_h / paper_base, r.conf.paper_io_wait_h, r.conf.paper_io_wait_h / paper_wait_base,
                    ours, ours_base > 0 ? ours / ours_base : 0.0);
    }
    std::printf("(not yet a reproduction: striping and two HDDs tie by construction and I/O wait is not modelled; "
                "issue 13)\n");
}

} // namespace

void register_placement_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "placement", "seeds/000 Table 4.1: the MM_BFS phase on hybrid-2009 with random striping, on two-hdd-2009, and "
                     "on hybrid-2009 flash_aware with the same and a smaller cluster size");
    auto o = std::make_shared<placement_options>();
    cmd->add_option("graph", o->graph, std::string("the graph (default: the seeds/000 Figure 4.1 tree): ") +
                                           graph_spec_help())
        ->capture_default_str();
    cmd->add_option("--br", o->br, "read block size Br of every run (any multiple of 4KiB)")->capture_default_str();
    cmd->add_option("--bw", o->bw, "write block size Bw of every run (a multiple of Br)")->capture_default_str();
    cmd->add_option("--memory", o->memory, "memory budget M of each phase (IEC units)")->capture_default_str();
    cmd->add_option("--mu", o->mu, "cluster size of the first three runs (0: 4 x the smaller one)")
        ->capture_default_str();
    cmd->add_option("--small-mu", o->small_mu, "cluster size of the last run (0: mu / 4 if --mu is given, else the unit-cost optimum sqrt(Br / (12 x log2 |V|)))")->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of the master choice")->capture_default_str();
    cmd->add_option("--source", o->source, "BFS source node")->capture_default_str();
    cmd->add_option("--backing-dir", o->backing_dir, "back the emulated devices by sparse files in this directory");
    cmd->add_flag("--pace", o->pace, "pace wall time to the device models, so that I/O wait is real");
    cmd->add_option("--scale", o->scale, "wall seconds per modelled second when pacing")
        ->capture_default_str()
        ->check(finite_number(1e-6, 1e6));
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o] { run(*o); });
}

} // namespace flashxxl::cli
