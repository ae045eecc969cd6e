// `flashxxl dfs`: external DFS (seeds/001 Section 4) on a graph file or generator, with per-phase device
// stats.
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
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/predict_bfs.hpp"
#include "flashxxl/cost/predict_graph.hpp"
#include "flashxxl/graph/bfs_result_json.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/block_sizes.hpp"
#include "flashxxl/units.hpp"
#include "graph_command.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"
#include "phase_prediction.hpp"

namespace flashxxl::cli {
namespace {

struct dfs_cli_options : graph_command_options {
    std::string variant = "separate";
    double cache_share = 0;
};

//! Writes "d node time parent" / "f node time" lines and drives the progress bar.
struct cli_visitor : dfs_visitor {
    out_file* out = nullptr;
    std::ostream* lines = nullptr; // out->get()
    progress_bar* bar = nullptr;
    std::uint64_t nodes = 1, discovered = 0;
    node_id parent = 0;
    void start_vertex(node_id root) { parent = root; }
    void tree_edge(node_id u, node_id) { parent = u; }
    void discover_vertex(node_id v, std::uint64_t time) {
        ++discovered;
        if (lines) *lines << "d " << v << ' ' << time << ' ' << parent << '\n';
        if ((discovered & 1023) == 0) {
            if (out) out->check_written();
            if (bar)
                bar->update(double(discovered) / double(nodes),
                            "dfs " + std::to_string(discovered) + " nodes");
        }
    }
    void finish_vertex(node_id v, std::uint64_t time) {
        if (lines) *lines << "f " << v << ' ' << time << '\n';
    }
};

std::string format_share(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", share);
    return buf;
}

//! What one run measured.
struct dfs_run {
    csr_build_stats csr;
    dfs_result dfs;
    std::vector<phase_stats> phases; // "csr", "dfs"
    std::uint64_t br = 0, bw = 0;
    //! "csr": predict::csr_build (an estimate); "dfs": predict::dfs_bound. Each priced by the
    //! graph device's model.
    std::vector<phase_prediction> predicted;
};

void run(const dfs_cli_options& o) {
    std::uint64_t memory = parse_memory_option(o.memory);
    if (o.graph.empty()) throw config_error("dfs: give a graph: " + std::string(graph_spec_help()));
    dfs_options dopts;
    dopts.marks = o.variant == "with-nodes" ? dfs_marks::with_nodes : parse_dfs_marks(o.variant);
    dopts.cache_share = o.cache_share;
    const machine_spec spec = effective_machine_spec(o.choice);
    machine m(spec);
    // Without --br / --bw: the sizes of the device holding the graph (role static_data).
    block_sizes blocks = resolve_block_sizes(m, role::static_data, o.br, o.bw);
    auto source = open_graph_source(o.graph);
    out_file out(
        "dfs", o.out, o.force, o.graph,
        "`d node time parent` (discovery; a root is its own parent) and `f node time` (finish) lines in "
        "event order");
    const plot_directory plots(o.plot, "--plot", o.force);
    plots.reserve("dfs-phases");
    progress_bar bar(stderr, !o.no_progress && !o.json);
    cli_visitor vis;
    vis.out = &out;
    vis.lines = out.get();
    vis.bar = &bar;
    dfs_run r;
    // The translation layers' buffers and maps are held from the machine's start: taken off M
    // once (usable_memory), for both phases (as bfs does).
    const std::uint64_t tl_memory = translation_layer_memory(m);
    const std::uint64_t need = std::max(csr_build_min_memory(blocks), dfs_min_memory(blocks)) + tl_memory;
    require_memory("dfs", memory, need, o.memory, blocks, tl_memory);
    r.br = blocks.br;
    r.bw = blocks.bw;
    bar.update(0, "building CSR");
    phase_meter meter(m, "csr");
    const memory_budget usable = usable_memory(m, memory);
    auto g = build_csr(m, usable.bytes(), blocks, *source, memory / 8);
    r.phases.push_back(meter.finish());
    r.csr = g->build_stats();
    vis.nodes = g->node_count() ? g->node_count() : 1;
    r.dfs = dfs(m, *g, usable, blocks, o.source, vis, dopts);
    for (const phase_stats& p : r.dfs.phases)
        r.phases.push_back(p);
    const cost_model pricing = cost_model::for_role(m, role::static_data, blocks);
    const io_prediction csr = predict::csr_build(2 * (r.csr.input_edges - r.csr.self_loops), g->node_count(),
                                                 g->arc_count(), usable.bytes(), blocks);
    const io_prediction bound = predict::dfs_bound(g->node_count(), g->arc_count(),
                                                   dopts.marks == dfs_marks::with_nodes, blocks, g->blocks());
    r.predicted = {{"csr", csr, csr.modelled_s(pricing)}, {"dfs", bound, bound.modelled_s(pricing)}};
    bar.finish();
    out.close();
    write_phase_plot(plots, "dfs",
                     "DFS (" + o.variant + ") on " + source->describe() + ": modelled busy time per device",
                     r.phases);
    if (o.json) {
        nlohmann::json j = {{"command", "dfs"},
                            {"machine", m.name()},
                            {"placement", m.describe_placement()},
                            {"variant", o.variant},
                            {"br_bytes", r.br},
                            {"bw_bytes", r.bw},
                            {"memory_bytes", memory},
                            {"graph", source->describe()},
                            {"csr", r.csr},
                            {"source", o.source},
                            {"visited", r.dfs.visited},
                            {"trees", r.dfs.trees},
                            {"max_stack", r.dfs.max_stack},
                            {"cache_share", o.cache_share},
                            {"marks_cache_bytes", r.dfs.marks_cache},
                            {"translation_layer_memory_bytes", r.dfs.tl_memory},
                            {"peak_memory_bytes", r.dfs.peak_memory},
                            {"phases", r.phases}};
        add_phase_predictions(j["phases"], r.phases, r.predicted);
        j["modelled_elapsed_s"] = m.modelled().elapsed_s; // the whole command on the virtual clock
        j["modelled_io_wait_s"] = m.modelled().io_wait_s;
        j["modelled_energy_j"] =
            energy_json(machine_total(m.stats())); // the machine's devices, whole command
        j.update(run_metadata(&spec));
        std::cout << j.dump(2) << "\n";
        return;
    }
    print_graph_and_machine("dfs", source->describe(), r.csr, m);
    std::printf("variant %s, Br %s, Bw %s, M %s\n", o.variant.c_str(), format_bytes(double(r.br)).c_str(),
                format_bytes(double(r.bw)).c_str(), format_bytes(double(memory)).c_str());
    std::printf("marks' cache %s%s, translation layers %s (both within M)\n",
                format_bytes(double(r.dfs.marks_cache)).c_str(),
                o.cache_share > 0 ? (" (at most " + format_share(o.cache_share) + " of the marks)").c_str()
                                  : "",
                format_bytes(double(r.dfs.tl_memory)).c_str());
    std::printf("source %llu: %llu nodes visited in %llu trees, stack depth at most %llu\n",
                (unsigned long long)o.source, (unsigned long long)r.dfs.visited,
                (unsigned long long)r.dfs.trees, (unsigned long long)r.dfs.max_stack);
    for (const phase_stats& p : r.phases)
        print_phase(p);
    print_phase_predictions(r.phases, r.predicted);
    print_command_modelled_time("dfs", m);
}

} // namespace

void register_dfs_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "dfs", "external DFS (visited marks + stack, seeds/001 Section 4) with RDV, WRV and "
               "modelled time per device and role, per phase (csr, dfs)");
    auto o = std::make_shared<dfs_cli_options>();
    graph_option_texts texts{"memory budget M of each phase (IEC units); the graph's caches get M/8 more",
                             "DFS source node (other components follow from nodes 0, 1, ...)",
                             "`d node time parent` (discovery; a root is its own parent) and `f node time` "
                             "(finish) lines in event order"};
    add_graph_command_options(cmd, *o, texts, [&] {
        cmd->add_option("--variant", o->variant,
                        "separate (one mark byte per node in its own vector) or with-nodes (a mark in a "
                        "24-byte record per node that also holds its adjacency range)")
            ->capture_default_str()
            ->check(CLI::IsMember({"separate", "with-nodes"}));
        cmd->add_option("--cache-share", o->cache_share,
                        "cap the marks' page cache at this share of their structure (0: all of M left; 0.5: "
                        "seeds/001's \"cache at most half of an external memory data structure\")")
            ->capture_default_str()
            ->check(CLI::Range(0.0, 1.0));
    });
    cmd->callback([o] { run(*o); });
}

} // namespace flashxxl::cli
