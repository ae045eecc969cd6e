// `flashxxl bfs`: external BFS (mm_bfs or mr_bfs) on a graph file or generator, with per-phase device stats.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <algorithm>
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
#include "flashxxl/graph/bfs_experiment.hpp"
#include "flashxxl/graph/bfs_result_json.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/units.hpp"
#include "cli_graph_algorithms.hpp"
#include "graph_command.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"
#include "phase_prediction.hpp"

namespace flashxxl::cli {
namespace {

struct bfs_options : graph_command_options {
    std::string algo = "mm";
    std::uint64_t mu = 0, seed = 1;
    std::uint64_t cache_ranks = mm_bfs_options{}.frontier_ranks;
    std::string mr_adjacency = to_string(mr_bfs_options{}.adjacency);
    std::string cut_clusters = mm_bfs_options{}.complete_straddling_clusters ? "complete" : "reread";
};

//! Writes "v level parent" lines in discovery order and drives the progress bar.
struct cli_visitor : cli_bfs_visitor {
    out_file* out = nullptr;
    std::ostream* lines = nullptr; // out->get()
    progress_bar* bar = nullptr;
    std::uint64_t nodes = 1, reached = 0;
    void discover_vertex(node_id v, std::uint64_t level, node_id parent) override {
        ++reached;
        if (lines) *lines << v << ' ' << level << ' ' << parent << '\n';
    }
    void finish_level(std::uint64_t level, std::uint64_t) override {
        if (out) out->check_written();
        if (bar) bar->update(double(reached) / double(nodes), "bfs level " + std::to_string(level));
    }
};

//! Each phase's prediction (cost/predict_bfs.hpp), priced by the model of the device holding
//! the graph and the cluster file (role static_data): "csr" an estimate, the algorithm's phases
//! upper bounds. The graph parameters the bounds take (the source's levels, the clustering's
//! rounds) are the graph's and the clustering's, read from the result; the number of clusters
//! follows from |V|, mu and the seed.
std::vector<phase_prediction> predict_phases(machine& m, const bfs_experiment_result& r,
                                             const bfs_experiment_options& eo, const block_sizes& b) {
    const cost_model pricing = cost_model::for_role(m, role::static_data, b);
    auto priced = [&](const std::string& phase, const io_prediction& p) {
        return phase_prediction{phase, p, p.modelled_s(pricing)};
    };
    const predict::bfs_graph g{r.csr.nodes, r.csr.arcs, r.bfs.levels()};
    std::vector<phase_prediction> all;
    all.push_back(priced(
        "csr", predict::csr_build(2 * (r.csr.input_edges - r.csr.self_loops), g.nodes, g.arcs, r.memory, b)));
    if (eo.algo == "mr") {
        all.push_back(priced("bfs", predict::mr_bfs_bound(g, r.memory, b, b, r.memory / 8, eo.mr.adjacency)));
        return all;
    }
    const block_sizes file_blocks = eo.mm.cluster_blocks ? *eo.mm.cluster_blocks : b;
    const predict::mm_clusters c{predict::count_masters(g.nodes, eo.source, r.bfs.mu, eo.mm.seed),
                                 r.bfs.growth_rounds};
    all.push_back(
        priced("preprocessing", predict::mm_preprocessing_bound(g, c, r.memory, b, file_blocks, b)));
    all.push_back(priced("bfs", predict::mm_bfs_phase_bound(g, c, r.memory, b, file_blocks, eo.mm)));
    return all;
}

void run(const bfs_options& o) {
    const mr_adjacency adjacency = parse_mr_adjacency(o.mr_adjacency, "bfs: --mr-adjacency");
    std::uint64_t memory = parse_memory_option(o.memory);
    if (o.graph.empty()) throw config_error("bfs: give a graph: " + std::string(graph_spec_help()));
    const machine_spec spec = effective_machine_spec(o.choice);
    machine m(spec);
    // Without --br / --bw: the sizes of the device holding the cluster index (role static_data),
    // whose random Br reads dominate MM_BFS (seeds/000 Section 4).
    block_sizes blocks = resolve_block_sizes(m, role::static_data, o.br, o.bw);
    auto source = open_graph_source(o.graph);
    out_file out("bfs", o.out, o.force, o.graph, "node level parent, one line per node in discovery order");
    const plot_directory plots(o.plot, "--plot", o.force);
    plots.reserve("bfs-phases");
    progress_bar bar(stderr, !o.no_progress && !o.json);
    cli_visitor vis;
    vis.out = &out;
    vis.lines = out.get();
    vis.bar = &bar;
    bfs_experiment_options eo;
    eo.algo = o.algo;
    eo.memory = memory;
    eo.source = o.source;
    eo.mm.mu = o.mu;
    eo.mm.seed = o.seed;
    eo.mm.prefer_frontier_clusters = o.cache_ranks > 0;
    eo.mm.frontier_ranks = unsigned(std::max<std::uint64_t>(o.cache_ranks, 1));
    eo.mm.complete_straddling_clusters = o.cut_clusters == "complete";
    eo.mr.adjacency = adjacency;
    bfs_experiment_result r;
    // The translation layers' buffers and maps are charged to every phase's M.
    const std::uint64_t tl_memory = bfs_experiment_tl_memory(m, eo);
    require_memory("bfs", memory, bfs_experiment_min_memory(blocks) + tl_memory, o.memory, blocks, tl_memory);
    bar.update(0, "building CSR, preprocessing");
    // The bar's share is the nodes reached of |V|, known once the CSR graph is built (a graph
    // file tells its node count only once it has been read).
    eo.on_graph = [&vis](const csr_graph& g) { vis.nodes = std::max<std::uint64_t>(g.node_count(), 1); };
    r = run_bfs_experiment(m, *source, blocks, eo, static_cast<cli_bfs_visitor&>(vis));
    const std::vector<phase_prediction> predicted = predict_phases(m, r, eo, blocks);
    bar.finish();
    out.close();
    write_phase_plot(plots, "bfs", o.algo + "_bfs on " + r.graph + ": modelled busy time per device",
                     r.bfs.phases);
    if (o.json) {
        nlohmann::json j = {{"command", "bfs"},
                            {"machine", m.name()},
                            {"placement", m.describe_placement()},
                            {"algo", o.algo},
                            {"br_bytes", r.br},
                            {"bw_bytes", r.bw},
                            {"memory_bytes", memory},
                            {"graph", r.graph},
                            {"csr", r.csr},
                            {"translation_layer_memory_bytes", r.tl_memory},
                            {"result", r.bfs}};
        add_phase_predictions(j["result"]["phases"], r.bfs.phases, predicted);
        if (o.algo == "mm") {
            j["cache_ranks"] = o.cache_ranks;
            j["cut_clusters"] = o.cut_clusters;
        }
        if (o.algo == "mr") j["mr_adjacency"] = o.mr_adjacency;
        j["modelled_elapsed_s"] = m.modelled().elapsed_s; // the whole command on the virtual clock
        j["modelled_io_wait_s"] = m.modelled().io_wait_s;
        j["modelled_energy_j"] =
            energy_json(machine_total(m.stats())); // the machine's devices, whole command
        j.update(run_metadata(&spec));
        std::cout << j.dump(2) << "\n";
        return;
    }
    print_graph_and_machine("bfs", r.graph, r.csr, m);
    std::printf("algo %s_bfs, Br %s, Bw %s, M %s", o.algo.c_str(), format_bytes(double(r.br)).c_str(),
                format_bytes(double(r.bw)).c_str(), format_bytes(double(memory)).c_str());
    if (r.tl_memory > 0)
        std::printf(" (of which the translation layers' buffers and maps %s)",
                    format_bytes(double(r.tl_memory)).c_str());
    if (o.algo == "mm")
        std::printf(", mu %llu%s, seed %llu", (unsigned long long)r.bfs.mu, o.mu ? "" : " (default)",
                    (unsigned long long)o.seed);
    if (o.algo == "mr")
        std::printf(
            ", adjacency %s (%llu of %llu levels scanned)", o.mr_adjacency.c_str(),
            (unsigned long long)std::count(r.bfs.scanned_levels.begin(), r.bfs.scanned_levels.end(), true),
            (unsigned long long)r.bfs.scanned_levels.size());
    std::printf("\nsource %llu: %llu levels, %llu nodes reached\n", (unsigned long long)o.source,
                (unsigned long long)r.bfs.levels(), (unsigned long long)r.bfs.reached);
    if (o.algo == "mm") {
        std::uint64_t on_device = 0;
        for (const bfs_level_detail& d : r.bfs.level_details)
            on_device = std::max(on_device, d.pool_device_records);
        std::printf(
            "clusters %llu (%llu growth rounds, cluster file %s), %llu loaded in %llu reads; hot pool: %llu "
            "records scanned, %llu at most, %llu at most on the device (in-memory share %s); cache of "
            "neighbouring clusters (%llu ranks): at most %s, %llu given back (per level: --json)\n",
            (unsigned long long)r.bfs.clusters, (unsigned long long)r.bfs.growth_rounds,
            format_bytes(double(r.bfs.cluster_file_bytes)).c_str(), (unsigned long long)r.bfs.clusters_loaded,
            (unsigned long long)r.bfs.cluster_reads, (unsigned long long)r.bfs.pool_records_scanned,
            (unsigned long long)r.bfs.max_pool_records, (unsigned long long)on_device,
            format_bytes(double(r.bfs.pool_memory_bytes)).c_str(), (unsigned long long)o.cache_ranks,
            format_bytes(double(r.bfs.cache_peak_bytes)).c_str(), (unsigned long long)r.bfs.clusters_evicted);
    }
    for (const phase_stats& p : r.bfs.phases)
        print_phase(p);
    print_phase_predictions(r.bfs.phases, predicted);
    print_command_modelled_time("bfs", m);
}

} // namespace

void register_bfs_command(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("bfs", "external BFS (Mehlhorn-Meyer mm or Munagala-Ranade mr) with RDV, WRV and "
                                  "modelled time per device and role, per phase (csr, preprocessing, bfs)");
    auto o = std::make_shared<bfs_options>();
    graph_option_texts texts{"memory budget M of each phase (IEC units)", "BFS source node",
                             "`node level parent` lines (discovery order)"};
    add_graph_command_options(cmd, *o, texts, [&] {
        cmd->add_option("--algo", o->algo, "mm (Mehlhorn-Meyer) or mr (Munagala-Ranade)")
            ->capture_default_str()
            ->check(CLI::IsMember({"mm", "mr"}));
        cmd->add_option("--mu", o->mu, "mm: target cluster size in nodes (0: sqrt(Br / (12 x log2 |V|)))")
            ->capture_default_str();
        cmd->add_option("--seed", o->seed, "mm: seed of the master choice")->capture_default_str();
        cmd->add_option(
               "--cache-ranks", o->cache_ranks,
               "mm: ranks of nearness to the frontier by which the cache of neighbouring clusters keeps them "
               "(1: near or far; 0: first come)")
            ->capture_default_str()
            ->check(whole_number(0, 254));
        cmd->add_option(
               "--cut-clusters", o->cut_clusters,
               "mm: a cluster that a read's first or last block boundary cuts: complete (the read takes "
               "the blocks that complete it while the cache could hold the whole cluster file) or reread "
               "(it is read with both its blocks when requested)")
            ->capture_default_str()
            ->check(CLI::IsMember({"complete", "reread"}));
        cmd->add_option(
               "--mr-adjacency", o->mr_adjacency,
               "mr: how each level's adjacency lists are read: automatic (per level, the cheaper way by the "
               "devices' models), random (through the graph's page caches) or scan (one sequential scan)")
            ->capture_default_str();
    });
    cmd->callback([o] { run(*o); });
}

} // namespace flashxxl::cli
