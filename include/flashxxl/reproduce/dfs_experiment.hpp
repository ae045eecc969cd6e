// seeds/001 Section 4's DFS experiment: block size Br, Bw and the translation layer on the emulated Hama SSD.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/device/block_mapped_ssd.hpp"
#include "flashxxl/device/log_block_ssd.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/node_permutation.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::reproduce {

//! The experiment's parameters: a side x side grid (seeds/001 ran square grids) on a lone
//! Hama SSD (`preset`) of `device_bytes`, DFS with budget `memory` and the graph's page caches of
//! `graph_cache` bytes per vector (both capped at cache_share of their structure when set).
//! Defaults: seeds/001's Br = 128 KiB and Bw = 16 MiB scaled down 32 times (block ratio 128
//! kept, so the Bw / Br read-volume ratio can be compared with it), docs/reproduce.md says why.
struct dfs_experiment_options {
    std::uint64_t side = 256;
    std::uint64_t br = 4 * KiB;
    std::uint64_t bw = 512 * KiB;
    std::uint64_t memory = 4 * MiB;
    std::uint64_t graph_cache = 1 * MiB;
    std::uint64_t device_bytes = 1 * GiB;
    dfs_marks marks = dfs_marks::separate;
    double cache_share = 0; //!< dfs_options::cache_share; also caps each graph vector's cache
    //! Node ids through a seeded node_permutation (a random layout on the device), as the
    //! paper's volumes imply: about 0.6 block reads per node with Br and with Bw alike, which a
    //! row-major grid, walked row by row, never needs. 0: the generator's row-major ids.
    std::uint64_t shuffle_seed = 1;
    //! The SSD scaled down with the blocks: its erase unit (chunk) and per-command times (c_r,
    //! t_R, c_w, t_M) divided by this, its transfer rates and page kept, so that a request of
    //! B / s costs 1 / s of what a request of B costs the fitted device (a random Br write then
    //! merges a chunk s times smaller, as the paper's 128 KiB writes merged its 512 KiB chunks).
    //! 1: the preset as fitted.
    std::uint64_t device_scale = 1;
    //! The SSD's model preset: the log-block hama-ssd-2009 (with the marks in the nodes, scaled,
    //! TL / Br 0.65 against the paper's 0.53, where hama-ssd-2009-block-mapped gives 0.30:
    //! docs/device-models.md) or hama-ssd-2009-block-mapped, each scaled by device_scale in its
    //! own keys.
    std::string preset = "hama-ssd-2009";
};

//! One column: "TL", "Br" or "Bw".
struct dfs_experiment_row {
    std::string label;
    bool ran = false;
    std::string why_not; //!< the config_error of a run that cannot be set up (Bw with the cache cap)
    std::uint64_t br = 0, bw = 0;
    std::uint64_t read_bytes = 0, write_bytes = 0; //!< device volumes of the DFS phase
    double modelled_s = 0;                         //!< the DFS phase on the machine's virtual clock
    std::uint64_t visited = 0;
    std::uint64_t marks_cache = 0, tl_memory = 0;
};

namespace detail {
//! A time in ms as a config value, every digit kept.
inline std::string exact_ms(double ms) {
    std::ostringstream out;
    out << std::setprecision(17) << ms;
    return out.str();
}
//! The hama-ssd-2009-block-mapped parameters divided by `scale`
//! (dfs_experiment_options::device_scale): chunk, c_r, t_R, c_w, t_M.
inline std::string scaled_hama_parameters(std::uint64_t scale) {
    const block_mapped_ssd::config c; // the preset's values
    const double s = double(scale);
    return " chunk=" + std::to_string(c.chunk / scale) + "B c_r_ms=" + exact_ms(c.c_r_ms / s) +
           " t_read_ms=" + exact_ms(c.t_read_ms / s) + " c_w_ms=" + exact_ms(c.c_w_ms / s) +
           " t_merge_ms=" + exact_ms(c.t_merge_ms / s);
}
//! The log-block hama-ssd-2009 scaled the same way: the unit, its erase block, the log pool and
//! its batch (in pages, so that they hold as many units), and the per-command times (c_r, t_R,
//! c_w, t_erase) divided by `scale`; transfer and copy rates and the page kept.
inline std::string scaled_log_block_parameters(std::uint64_t scale) {
    const log_block_ssd::config c; // the preset's values
    const double s = double(scale);
    const std::uint64_t unit = c.unit / scale;
    return " unit=" + std::to_string(unit) +
           "B erase_block=" + std::to_string(std::min(c.erase_block, unit)) +
           "B log_pages=" + std::to_string(c.log_pages / scale) +
           " batch_pages=" + std::to_string(c.batch_pages / scale) + " c_r_ms=" + exact_ms(c.c_r_ms / s) +
           " t_read_ms=" + exact_ms(c.t_read_ms / s) + " c_w_ms=" + exact_ms(c.c_w_ms / s) +
           " t_erase_ms=" + exact_ms(c.t_erase_ms / s);
}
inline std::string dfs_machine_config(const dfs_experiment_options& o, bool tl) {
    std::string line =
        "flash=memory," + std::to_string(o.device_bytes) + "B,memory name=ssd model=" + o.preset;
    if (o.device_scale > 1 && o.preset == "hama-ssd-2009")
        line += scaled_log_block_parameters(o.device_scale);
    else if (o.device_scale > 1)
        line += scaled_hama_parameters(o.device_scale);
    if (tl) line += " tl=on tl_page=" + std::to_string(o.br) + "B tl_segment=" + std::to_string(o.bw) + "B";
    return std::string("name=dfs-") + (tl ? "tl" : "ssd") + "\n" + line + "\nplacement=single device=ssd\n";
}
} // namespace detail

//! Runs one column on a fresh machine: "Br" (B = Br), "Bw" (B = Bw) or "TL" (pages of Br,
//! segments of Bw). A configuration DFS cannot set up (config_error) comes back with ran =
//! false and the reason.
inline dfs_experiment_row run_dfs_column(const std::string& label, const dfs_experiment_options& o) {
    dfs_experiment_row row;
    row.label = label;
    const bool tl = label == "TL";
    const std::uint64_t b_size = label == "Bw" ? o.bw : o.br;
    const block_sizes b(b_size, b_size);
    row.br = row.bw = b_size;
    machine m = machine::from_config_text(detail::dfs_machine_config(o, tl), "dfs experiment " + label);
    const std::uint64_t n = o.side * o.side;
    std::uint64_t cache = o.graph_cache;
    // The targets vector (4 arcs per inner node) is the graph's larger structure.
    const double target_bytes = double(n) * 4 * sizeof(bfs_node);
    if (o.cache_share > 0)
        cache = std::min<std::uint64_t>(cache, std::uint64_t(o.cache_share * target_bytes));
    try {
        if (o.cache_share > 0 && cache < csr_graph::target_vector::min_memory(b))
            throw config_error("dfs: a graph cache of " + format_bytes(double(cache)) + " is below the " +
                               format_bytes(double(csr_graph::target_vector::min_memory(b))) + " that " +
                               b.describe() + " need");
        const std::uint64_t build_memory = std::max(o.memory, csr_build_min_memory(b));
        std::unique_ptr<csr_graph> g;
        if (o.shuffle_seed) {
            relabeled_source<grid_generator> gen(grid_generator(o.side), o.shuffle_seed);
            g = build_csr(m, build_memory, b, gen, cache);
        } else {
            grid_generator gen(o.side);
            g = build_csr(m, build_memory, b, gen, cache);
        }
        dfs_options d;
        d.marks = o.marks;
        d.cache_share = o.cache_share;
        dfs_result r = dfs(m, *g, o.memory, b, 0, d);
        const phase_stats& p = r.phases.at(0);
        row.ran = true;
        row.read_bytes = p.total().read_bytes;
        row.write_bytes = p.total().write_bytes;
        row.modelled_s = p.modelled.elapsed_s;
        row.visited = r.visited;
        row.marks_cache = r.marks_cache;
        row.tl_memory = r.tl_memory;
    } catch (const config_error& e) {
        row.why_not = e.what();
    }
    return row;
}

//! The three columns in seeds/001's order (TL, Br, Bw); `before(label)` runs before each.
inline std::vector<dfs_experiment_row>
run_dfs_experiment(const dfs_experiment_options& o,
                   const std::function<void(const std::string&)>& before = {}) {
    std::vector<dfs_experiment_row> rows;
    for (const char* label : {"TL", "Br", "Bw"}) {
        if (before) before(label);
        rows.push_back(run_dfs_column(label, o));
    }
    return rows;
}

} // namespace flashxxl::reproduce
