// `flashxxl reproduce`: the BFS tables, seeds/000 Table 4.1 (placement) and seeds/001 Table 2 (grids, Br / Bw / TL).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_graph_algorithms.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_experiment.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/graph/table2_experiment.hpp"
#include "flashxxl/graph/table41_experiment.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "reproduce_tables.hpp"

namespace flashxxl::cli::reproduce {
namespace {

std::optional<double> ratio(double a, double b) {
    if (b == 0) return std::nullopt;
    return a / b;
}

struct phase_figures {
    double pp_s = 0, bfs_s = 0, pp_read = 0, bfs_read = 0, pp_write = 0, bfs_write = 0;
    double total_s() const { return pp_s + bfs_s; }
};

//! seeds/001 Table 2, one column: graph/table2_experiment.hpp's run (the in-memory-pool MM_BFS
//! on a fresh machine with the 2009 SSD alone, TL in front of it for `tl`).
phase_figures run_table2_column(std::uint64_t side, table2_block_config c, const table2_options& o) {
    const table2_run r = run_table2(side, c, o);
    phase_figures f;
    f.pp_s = r.preprocessing_s;
    f.bfs_s = r.bfs_s;
    f.pp_read = double(r.preprocessing_read_bytes);
    f.pp_write = double(r.preprocessing_write_bytes);
    f.bfs_read = double(r.bfs_read_bytes);
    f.bfs_write = double(r.bfs_write_bytes);
    return f;
}

//! One row of seeds/001 Table 2 (seconds, GB), read from the garbled seed text by the
//! ratios issue 14 quotes (1.29 / 0.50, 0.76 / 0.66, 2.75 / 2.01, 2.70 / 2.75).
struct table2_paper_figures {
    int log2_nodes;
    double br_pp_s, br_bfs_s, bw_pp_s, bw_bfs_s, tl_total_s;
    double br_pp_write, br_bfs_write, br_bfs_read, bw_bfs_read;
};

const std::vector<table2_paper_figures>& table2_paper() {
    static const std::vector<table2_paper_figures> rows = {
        {20, 31.5, 768.4, 40.5, 381.4, 766.0, 0.560, 0.009, 1.924, 0.094},
        {22, 100.0, 1697.0, 76.2, 1126.0, 1763.4, 2.271, 0.104, 8.080, 0.188},
        {24, 632.9, 4570.4, 1738.2, 9184.6, 5191.0, 9.251, 1.654, 61.660, 457.750},
        {26, 2524.2, 15778.9, 6824.8, 43329.1, 18182.2, 36.783, 5.531, 320.881, 2621.047},
    };
    return rows;
}

} // namespace

report_table seeds000_table4_1(scale s, const progress_fn& progress) {
    report_table t;
    t.id = "seeds000_table4_1";
    t.title = "seeds/000 Table 4.1: MM_BFS phase on 1 flash + 1 HDD vs 2 HDDs (ratios to random striping)";
    t.unit = "ratio to random striping";
    const std::uint64_t nodes = s == scale::tiny ? 100000 : s == scale::quick ? 500000 : 3000000;
    const std::string graph = "tree:nodes=" + std::to_string(nodes);
    table41_options o;  // the `flashxxl placement` defaults (docs/bfs.md)
    cli_bfs_visitor vis;
    const auto& columns = table41_configurations();
    std::vector<table41_row> rows = run_table41<cli_bfs_visitor>(
        [&] { return open_graph_source(graph); }, o, vis, [&](std::size_t i) {
            if (progress) progress(columns[i].label);
        });
    const table41_comparison cmp(rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        t.rows.push_back({rows[i].conf.label + ": total time", cmp.paper_total[i], cmp.total[i],
                          "paper " + std::to_string(rows[i].conf.paper_total_h).substr(0, 4) + " h; ours " +
                              std::to_string(rows[i].bfs_phase().modelled.elapsed_s) + " s modelled"});
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
        t.rows.push_back({rows[i].conf.label + ": I/O wait", cmp.paper_io_wait[i], cmp.io_wait[i], ""});
    t.notes = {"Graph: the Figure 4.1 tree with " + std::to_string(nodes) + " nodes (the paper: 2^28); streams in " +
                   format_size(o.streams.br) + " blocks, the cluster file read in " + format_size(o.cluster_br) +
                   " and striped in " + format_size(o.cluster_write_block()) + " blocks, M " + format_size(o.memory) +
                   ", mu " + std::to_string(o.mu) + " / " + std::to_string(o.small_mu) +
                   ": `flashxxl placement`'s defaults, chosen as docs/bfs.md says.",
               std::string("The paper's order in both rows: ") + (cmp.same_order ? "yes" : "NO") +
                   "; largest difference between the ratios: " + std::to_string(cmp.largest_difference) +
                   (nodes < 3000000 ? " (the 3 M-node full run is the calibrated one; smaller trees may swap the "
                                      "two middle columns, docs/bfs.md)"
                                    : ""),
               "CPU time is not modelled, so I/O wait equals the elapsed time."};
    return t;
}

report_table seeds001_table2(scale s, const progress_fn& progress) {
    report_table t;
    t.id = "seeds001_table2";
    t.title = "seeds/001 Table 2: MM_BFS on square grids with block size Br, Bw and the translation layer (TL)";
    t.unit = "ratio";
    // graph/table2_experiment.hpp at scale 32: Br 4 KiB, Bw 512 KiB, M 16 MiB (the paper's
    // 128 KiB / 16 MiB / 512 MiB over 32: M / Br and M / Bw kept), |V| 32 times smaller.
    const table2_options o;
    // quick and full: all four rows, so that both reach the crossover (the paper's Bw loses from
    // 2^24 on, ours from 2^21: docs/bfs.md); tiny: the first.
    std::size_t grids = s == scale::tiny ? 1 : 4;
    for (std::size_t k = 0; k < grids; ++k) {
        const table2_paper_figures& p = table2_paper()[k];
        const int log2_nodes = p.log2_nodes - 5;
        const std::uint64_t side = std::uint64_t(std::llround(std::sqrt(std::ldexp(1.0, log2_nodes))));
        const std::string graph = "grid:side=" + std::to_string(side);
        const std::string tag = "2^" + std::to_string(log2_nodes) + " (paper 2^" + std::to_string(p.log2_nodes) + ")";
        if (progress) progress(graph + ", TL");
        const phase_figures tl = run_table2_column(side, table2_block_config::tl, o);
        if (progress) progress(graph + ", Br");
        const phase_figures fbr = run_table2_column(side, table2_block_config::br, o);
        if (progress) progress(graph + ", Bw");
        const phase_figures fbw = run_table2_column(side, table2_block_config::bw, o);
        t.rows.push_back({tag + ": Bw / Br preprocessing time", p.bw_pp_s / p.br_pp_s, ratio(fbw.pp_s, fbr.pp_s), ""});
        t.rows.push_back({tag + ": Bw / Br BFS-phase time", p.bw_bfs_s / p.br_bfs_s, ratio(fbw.bfs_s, fbr.bfs_s),
                          "issue 14's target: below 1 on the smallest grid, above 1 on the largest"});
        t.rows.push_back({tag + ": TL / Br total time", p.tl_total_s / (p.br_pp_s + p.br_bfs_s),
                          ratio(tl.total_s(), fbr.total_s()), "target: within 10%"});
        t.rows.push_back({tag + ": Br BFS-phase write volume / preprocessing write volume",
                          p.br_bfs_write / p.br_pp_write, ratio(fbr.bfs_write, fbr.pp_write), "target: at most 0.05"});
        t.rows.push_back({tag + ": Bw / Br BFS-phase read volume", p.bw_bfs_read / p.br_bfs_read,
                          ratio(fbw.bfs_read, fbr.bfs_read), ""});
        t.notes.push_back(graph + ": modelled s (preprocessing + BFS) TL " + std::to_string(tl.total_s()) + ", Br " +
                          std::to_string(fbr.pp_s) + " + " + std::to_string(fbr.bfs_s) + ", Bw " +
                          std::to_string(fbw.pp_s) + " + " + std::to_string(fbw.bfs_s));
    }
    t.notes.push_back("Scaling (graph/table2_experiment.hpp, scale 32): Br " + format_size(o.br()) + ", Bw " +
                      format_size(o.bw()) + ", M " + format_size(o.memory()) +
                      " (the paper's 128 KiB / 16 MiB / 512 MiB over 32: block ratio 128 and M / Bw = 32 kept), "
                      "|V| over 32 per row. The paper's |V| per row is inferred: Bw loses from 2^24 on (the text), "
                      "volumes grow 4 times per row.");
    t.notes.push_back("MM_BFS with the in-memory hot pool and a cache of the clusters a read brings along, which "
                      "fills whatever of M the other structures leave idle and ranks clusters by nearness to the "
                      "frontier (next to a loaded cluster, next to such a one, ... 32 ranks; docs/bfs.md): Bw wins "
                      "the BFS phase while the cache holds the band of clusters the frontier reaches next and loses "
                      "once it does not (a request then reads a whole Bw block). So our crossover comes one row "
                      "later than the paper's: on 2^19 nodes Bw wins, 0.62, where the paper's lost by 2.01 (with "
                      "two ranks, near and far, ours lost by 1.05; with the cache fixed at its share and first come "
                      "kept, by 15.3), and on 2^21 nodes it loses 1.15 to 1 against the paper's 2.75 on 2^26 (9.2 "
                      "with two ranks). The paper's Bw lost because its hot pool outgrew M; ours stays in memory "
                      "(it grows into the cache's share first). Neither Br nor Bw writes in the BFS phase.");
    t.notes.push_back("TL / Br: TL's M is less its two Bw segment buffers. TL is faster than Br by 11 % on the larger "
                      "grids because the 2009 SSD's per-command overhead (0.08 ms per write) weighs 32 times more on "
                      "a 4 KiB block than on the paper's 128 KiB one; with the SSD's command times scaled too "
                      "(table2_options::scale_device) TL / Br is 0.99 on 2^17 and 2^19 nodes, but Bw then loses the "
                      "BFS phase on 2^17 (docs/bfs.md). On 2^15 nodes TL also serves reads from its open segment. "
                      "The paper's times are mostly host time, which ours (I/O only) leave out: its Bw BFS phase "
                      "on 2^20 nodes read 0.094 GB in 381 s, and Br's preprocessing, where the writes TL changes "
                      "are, is 31.5 s of Br's 799.9 s total, so its TL / Br could not fall much below 0.96.");
    return t;
}

} // namespace flashxxl::cli::reproduce
