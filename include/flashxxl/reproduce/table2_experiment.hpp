// seeds/001 Table 2 as an experiment: MM_BFS on square grids with block size Br, Bw and the translation
// layer.
//
// Use (one configuration, one fresh machine, modelled time only):
//
//     flashxxl::reproduce::table2_options o;  // scale 32: Br 4 KiB, Bw 512 KiB, M 16 MiB
//     flashxxl::reproduce::table2_run r =
//         flashxxl::reproduce::run_table2(256, flashxxl::reproduce::table2_block_config::bw, o);
//     r.bfs_s / ...;  r.preprocessing_s, r.bfs_write_bytes, r.result (the full bfs_result)
//
// run_table2(side, config, options) builds the side x side grid on a machine with the 2009 SSD
// alone (hama-ssd-2009-block-mapped, on which table2_host_model.hpp was calibrated; `tl` puts the translation
// layer in front of it, Br pages and Bw segments), runs mm_bfs with the configuration's blocks (br: Br for
// everything, bw: Bw for everything, tl: Br behind the layer) and returns each phase's modelled time and
// device volumes. The paper's configuration is Br = 128 KiB, Bw = 16 MiB, M = 512 MiB; `scale` divides all
// three, which keeps M / B (4096 and 32 blocks) and the cluster sizes' ratio (default mu follows Br); the
// grid sides are chosen by the caller (reproduce/table2_paper.hpp has the paper's rows, docs/bfs.md the sides
// that match them). The SSD's fixed time per command does not scale, so a smaller scale is more faithful:
// `flashxxl reproduce` runs 8 (quick) and 4 (full); docs/bfs.md, "Which scale".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/device/block_mapped_ssd.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_experiment.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::reproduce {

//! The three columns of seeds/001 Table 2.
enum class table2_block_config { br, bw, tl };

//! "br", "bw" or "tl".
inline const char* to_string(table2_block_config c) {
    return c == table2_block_config::br ? "br" : c == table2_block_config::bw ? "bw" : "tl";
}

//! Parameters of run_table2.
struct table2_options {
    std::uint64_t scale =
        32; //!< divides Br = 128 KiB, Bw = 16 MiB and M = 512 MiB (Br stays a multiple of 4 KiB)
    std::uint64_t mu = 0;   //!< cluster size; 0: default_mu(the configuration's Br, |V|)
    std::uint64_t seed = 1; //!< masters
    //! Divide the 2009 SSD's per-command times (c_r, t_R, c_w) by `scale` as well, so that a
    //! scaled block carries the same share of command overhead as the paper's block did (at
    //! scale 32 a 4 KiB write otherwise pays 0.08 ms of overhead on 0.16 ms of transfer, a
    //! 128 KiB one 0.08 ms on 5.1 ms). Off by default: the preset as fitted.
    bool scale_device = false;
    std::uint64_t br() const { return 128 * KiB / scale; }
    std::uint64_t bw() const { return 16 * MiB / scale; }
    std::uint64_t memory() const { return 512 * MiB / scale; }
};

//! The translation layer's memory that `tl` charges to M: its open and cleaning segment
//! buffers (2 Bw; seeds/001 Section 4 reserves "O(1) Bw-sized buffers" in main memory).
inline std::uint64_t table2_tl_buffer_memory(const table2_options& o) { return 2 * o.bw(); }

//! What one configuration measured (modelled seconds, bytes summed over devices).
struct table2_run {
    std::uint64_t side = 0;
    table2_block_config config = table2_block_config::br;
    double preprocessing_s = 0, bfs_s = 0;
    std::uint64_t preprocessing_read_bytes = 0, preprocessing_write_bytes = 0;
    std::uint64_t bfs_read_bytes = 0, bfs_write_bytes = 0;
    std::uint64_t run_read_bytes = 0; //!< what reached the SSD in every phase (csr, preprocessing, bfs)
    std::uint64_t tl_memory =
        0; //!< charged to M: the layer's segment buffers for tl (table2_tl_buffer_memory), else 0
    //! tl: host reads the layer answered from its open segment buffer (whole run, csr phase
    //! included), so they never reached the SSD; 0 for br and bw.
    std::uint64_t tl_buffer_read_bytes = 0;
    bfs_result result; //!< levels, clusters, per-level details, phases
    double total_s() const { return preprocessing_s + bfs_s; }
};

//! The machine of a configuration: the 2009 SSD alone, behind the translation layer for `tl`.
inline machine table2_machine(table2_block_config c, const table2_options& o) {
    // The block-mapped Hama: TL / Br with host time 0.989-0.998 against the paper's 0.958-0.998;
    // the log-block hama-ssd-2009 gives 0.998-1.021 (docs/device-models.md).
    std::string flash = "flash=memory,8GiB,memory name=ssd model=hama-ssd-2009-block-mapped";
    if (o.scale_device) {
        const block_mapped_ssd::config preset;
        const double s = double(o.scale);
        flash += " c_r_ms=" + format_model_number(preset.c_r_ms / s) +
                 " t_read_ms=" + format_model_number(preset.t_read_ms / s) +
                 " c_w_ms=" + format_model_number(preset.c_w_ms / s);
    }
    if (c == table2_block_config::tl)
        flash += " tl=on tl_page=" + std::to_string(o.br()) + "B tl_segment=" + std::to_string(o.bw()) + "B";
    return machine::from_config_text("name=ssd-2009\n" + flash + "\nplacement=single device=ssd\n", "table2");
}

//! Runs one configuration on a fresh machine (see the top of this header).
inline table2_run run_table2(std::uint64_t side, table2_block_config c, const table2_options& o = {}) {
    if (o.scale == 0 || (128 * KiB) % o.scale != 0 || o.br() % (4 * KiB) != 0)
        throw config_error("table2: scale " + std::to_string(o.scale) +
                           " must divide 128 KiB into a multiple of 4 KiB (1, 2, 4, ..., 32)");
    if (side < 2) throw config_error("table2: grid side " + std::to_string(side) + " is below 2");
    machine m = table2_machine(c, o);
    const std::uint64_t block = c == table2_block_config::bw ? o.bw() : o.br();
    const block_sizes b(block, block);
    auto source = open_graph_source("grid:side=" + std::to_string(side));
    bfs_experiment_options eo;
    // M covers the translation layer's two Bw segment buffers (open and cleaning), as every
    // bfs experiment does: the open one answers reads of the pages it holds, so it must not be
    // a cache outside M. Its page maps (about 8 bytes per 4 KiB page of the device) are not
    // charged: they do not scale with the blocks (at scale 32, 16 MiB for the 8 GiB device,
    // all of M; the paper's were 0.4 % of its M).
    eo.memory = o.memory();
    eo.charge = tl_charge::buffers;
    eo.mm.mu = o.mu;
    eo.mm.seed = o.seed;
    bfs_visitor vis;
    bfs_experiment_result er = run_bfs_experiment(m, *source, b, eo, vis);
    table2_run r;
    r.side = side;
    r.config = c;
    const phase_stats* pre = er.bfs.phase("preprocessing");
    const phase_stats* bfs = er.bfs.phase("bfs");
    r.preprocessing_s = pre->modelled.elapsed_s;
    r.bfs_s = bfs->modelled.elapsed_s;
    r.preprocessing_read_bytes = pre->total().read_bytes;
    r.preprocessing_write_bytes = pre->total().write_bytes;
    r.bfs_read_bytes = bfs->total().read_bytes;
    r.bfs_write_bytes = bfs->total().write_bytes;
    for (const phase_stats& p : er.bfs.phases)
        r.run_read_bytes += p.total().read_bytes;
    r.tl_memory = er.tl_memory;
    if (const translation_layer* layer = m.dev(0).tl())
        r.tl_buffer_read_bytes = layer->stats().buffer_bytes_read;
    r.result = std::move(er.bfs);
    return r;
}

} // namespace flashxxl::reproduce
