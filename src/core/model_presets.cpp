// The named device-model presets and their factory (core library).
#include "flashxxl/device/model_presets.hpp"

#include "flashxxl/device/log_block_ssd.hpp"

namespace flashxxl {

namespace {

//! A `Model` from `c` and energy figures `e` with `overrides` taken (timing keys, then energy
//! keys); config_error for a key left over or a bad value.
template <class Model, class Energy>
std::unique_ptr<device_model> build(typename Model::config c, Energy e, const std::string& name,
                                    model_params& overrides) {
    c.take(overrides);
    e.take(overrides);
    overrides.finish(name);
    return std::make_unique<Model>(c, name, e);
}

//! seeds/004 Table 2's per-operation energies (nJ/bit) and idle power (mW) of one chip.
flash_energy table2_energy(double read, double prog, double prog_slow, double erase, double idle_mw) {
    flash_energy e;
    e.e_read_nj_per_bit = read;
    e.e_prog_nj_per_bit = prog;
    e.e_prog_slow_nj_per_bit = prog_slow;
    e.e_erase_nj_per_bit = erase;
    e.p_idle_mw = idle_mw;
    return e;
}

//! Power of the Barracuda family from the Seagate Barracuda 7200.7 Serial ATA Product Manual,
//! Rev. N (publication 100270024), Table 4: idle 7.5 W, seeking 12.5 W, operating 12.0 W. The
//! 7200.11 manual's table was not at hand; the 7200.7 is the same 3.5" 7200 rpm family.
hdd_energy barracuda_energy() {
    hdd_energy e;
    e.p_active_w = 12.0;
    e.p_seek_w = 12.5;
    e.p_idle_w = 7.5;
    return e;
}

std::unique_ptr<device_model> make_hama_ssd_2009_block_mapped(const std::string& name,
                                                              model_params& overrides) {
    // seeds/000 Table 3.1 fit (DEVICE-MODELS.md presets): C = 512 KiB, K = 1, P = 4 KiB,
    // c_r 0.143 ms, t_R 0.0635 ms, 28.07 MiB/s read; c_w 0.080 ms, 24.53 MiB/s; t_M 2.42 ms.
    // Energy: the chips are not known; assumed MLC with the mean of seeds/004 Table 2's five MLC
    // chips (read 0.1096, erase 0.0441 nJ/bit; program 1.835 nJ/bit, the mean of fast 0.794 and
    // slow 2.876, as pages alternate). Idle power is not counted (the chip count is unknown).
    block_mapped_ssd::config c; // the defaults are this preset
    c.capacity = 32 * GiB;
    const flash_energy e = table2_energy(0.1096, (0.794 + 2.876) / 2, 0, 0.04414, 0);
    return build<block_mapped_ssd>(c, e, name, overrides);
}

std::unique_ptr<device_model> make_hama_ssd_2009_log_block(const std::string& name, model_params& overrides) {
    // seeds/000 Table 3.1 cells measured as Appendix A measures them (docs/device-models.md,
    // "log-block model"); energy as the block-mapped Hama preset.
    log_block_ssd::config c; // the defaults are this preset
    const flash_energy e = table2_energy(0.1096, (0.794 + 2.876) / 2, 0, 0.04414, 0);
    return build<log_block_ssd>(c, e, name, overrides);
}

std::unique_ptr<device_model> make_barracuda_7200_11(const std::string& name, model_params& overrides) {
    // seeds/000 Table 3.1 fit: R_od 87.8 MiB/s, rho 0.5 (assumed), 7200 rpm, t1 0.8 ms
    // (assumed), a 11.72 ms, c_r 0.073 ms, c_w 0.090 ms, n_ws 14; 500 GB = 500e9 bytes.
    hdd_model::config c;
    c.capacity = 500000000000ull;
    return build<hdd_model>(c, barracuda_energy(), name, overrides);
}

std::unique_ptr<device_model> make_nvme_gen4(const std::string& name, model_params& overrides) {
    // Samsung 990 PRO 1 TB data sheet: 7450 MB/s read, 6900 MB/s write (cached), 1.4 M IOPS
    // random read = 64 units / 45 us; QD1 reviews: 20-23 K IOPS read (about 45 us), about
    // 17.5 us cached write. t_prog = units * page / bw_w = 38 us is derived, not measured: the
    // flash just keeps up with the cache at write amplification 1. The erase-block size
    // (4 MiB) only sets the GC granularity; it is a placeholder.
    page_mapped_ssd::config c;
    c.capacity = 1000000000000ull;
    c.page = 4 * KiB;
    c.block = 4 * MiB;
    c.op_percent = 7;
    c.units = 64;
    c.c_r_us = 0;
    c.t_read_us = 45;
    c.bw_r_mibps = 7.45e9 / double(MiB);
    c.c_w_us = 17.5;
    c.bw_w_mibps = 6.9e9 / double(MiB);
    c.t_prog_us = double(c.units * c.page) / 6.9e9 * 1e6;
    // Energy unknown: TLC is not among seeds/004's chips (set e_* / p_idle_mw to give figures).
    return build<page_mapped_ssd>(c, flash_energy{}, name, overrides);
}

std::unique_ptr<device_model> make_hdd_modern(const std::string& name, model_params& overrides) {
    // Exos X18 class: 18 TB, 7200 rpm, 270 MB/s outer zone (data sheet). rho 0.5 assumed;
    // t1 0.8 ms and a = 14.4375 ms are placeholders giving the ~8.5 ms average seek
    // (t1 + 8a/15) until checked against a data sheet; c_r, c_w, n_ws taken from the Barracuda.
    hdd_model::config c;
    c.capacity = 18000000000000ull;
    c.r_od_mibps = 270e6 / double(MiB);
    c.rho = 0.5;
    c.rpm = 7200;
    c.seek_t1_ms = 0.8;
    c.seek_a_ms = (8.5 - 0.8) * 15 / 8;
    // Energy unknown until taken from a data sheet (set p_active_w, p_seek_w, p_idle_w).
    return build<hdd_model>(c, hdd_energy{}, name, overrides);
}

//! One flash chip of seeds/004: Table 1's geometry, Table 2's peak power (mW) and energy (nJ/bit).
struct grupp_chip {
    const char* preset;
    bool mlc;
    double gbit;
    std::uint64_t page, pages_per_block, blocks_per_plane, planes, dies;
    double peak_read_mw, peak_erase_mw, peak_prog_mw, idle_mw;
    double read_nj, prog_nj, prog_slow_nj, erase_nj;
    std::uint64_t fast_page_pattern; //!< is_slow_page's pattern (section 3.3), 0 for SLC
    double slow_over_fast;           //!< the text's fast/slow latency ratio, 0 = from Table 2
};

//! The chips whose numbers seeds/004 gives in full: the six SLC chips, and the two MLC chips
//! whose fast/slow page pattern the text describes (B-MLC32, C-MLC64).
const std::vector<grupp_chip>& grupp_chips() {
    static const std::vector<grupp_chip> chips = {
        {"chip-a-slc2", false, 2, 2048, 64, 1024, 2, 1, 35.3, 30.9, 55.2, 2.7, 0.055, 0.72, 0, 0.06, 0, 0},
        {"chip-a-slc4", false, 4, 2048, 64, 4096, 1, 1, 41.1, 35.5, 59.9, 7.1, 0.067, 0.61, 0, 0.067, 0, 0},
        {"chip-a-slc8", false, 8, 2048, 64, 4096, 2, 1, 58.8, 47.6, 78.4, 17.0, 0.098, 0.85, 0, 0.093, 0, 0},
        {"chip-b-slc2", false, 2, 2048, 64, 2048, 1, 1, 27.2, 25.3, 35.0, 2.9, 0.049, 0.48, 0, 0.011, 0, 0},
        {"chip-b-slc4", false, 4, 2048, 64, 2048, 2, 1, 29.9, 20.0, 35.0, 2.9, 0.043, 0.41, 0, 0.025, 0, 0},
        {"chip-e-slc8", false, 8, 2048, 64, 4096, 1, 2, 19.1, 25.5, 56.0, 13.3, 0.0061, 1.01, 0, 0.031, 0, 0},
        {"chip-b-mlc32", true, 32, 4096, 128, 2048, 2, 2, 75.9, 70.6, 94.7, 8.5, 0.11, 0.96, 3.30, 0.056, 2,
         5.8},
        {"chip-c-mlc64", true, 64, 8192, 128, 4096, 1, 2, 112.0, 111.8, 132.2, 27.3, 0.19, 0.67, 2.86, 0.038,
         1, 0},
    };
    return chips;
}

//! Seconds of an operation of `nj_per_bit` over `bytes` at `peak_mw`: seeds/004 defines peak
//! power as one operation's energy over its latency, so latency = energy / peak power.
double latency_from_table2(double nj_per_bit, std::uint64_t bytes, double peak_mw) {
    return nj_per_bit * 1e-9 * 8.0 * double(bytes) / (peak_mw * 1e-3);
}

//! A page-mapped SSD of one chip, as the simulator of seeds/004 section 4.1 models one: a unit
//! per plane and die, the chip's pages and blocks, 7% of it spare, a 30 ns 8-bit bus (section
//! 3.3: 33.3 MB/s), no write cache, latencies derived from Table 2, wear from section 3.3.
std::unique_ptr<device_model> make_grupp_chip(const std::string& name, model_params& overrides) {
    const grupp_chip* chip = nullptr;
    for (const auto& c : grupp_chips())
        if (name == c.preset) chip = &c;
    if (!chip) throw config_error("no seeds/004 chip named '" + name + "'");
    page_mapped_ssd::config c;
    c.page = chip->page;
    c.block = chip->page * chip->pages_per_block;
    c.units = chip->planes * chip->dies;
    c.op_percent = 7;
    const double raw = chip->gbit * double(GiB) / 8;
    const std::uint64_t stripe = c.page * c.units;
    c.capacity = std::uint64_t(raw / (1 + c.op_percent / 100) / double(stripe)) * stripe;
    c.c_r_us = 0;
    c.c_w_us = 0;
    c.bw_r_mibps = 1e9 / 30 / double(MiB);
    c.bw_w_mibps = c.bw_r_mibps;
    c.t_read_us = latency_from_table2(chip->read_nj, c.page, chip->peak_read_mw) * 1e6;
    c.t_prog_us = latency_from_table2(chip->prog_nj, c.page, chip->peak_prog_mw) * 1e6;
    if (chip->mlc)
        c.t_prog_slow_us = chip->slow_over_fast > 0
                               ? c.t_prog_us * chip->slow_over_fast
                               : latency_from_table2(chip->prog_slow_nj, c.page, chip->peak_prog_mw) * 1e6;
    c.fast_page_pattern = chip->fast_page_pattern;
    c.t_erase_us = latency_from_table2(chip->erase_nj, c.block, chip->peak_erase_mw) * 1e6;
    c.wear_prog_speedup = chip->mlc ? 0.125 : 0.5; // "nearly 50%" SLC, "10-15%" MLC
    c.rated_cycles = chip->mlc ? 10000 : 100000;   // the typical ratings of section 3.4
    c.write_through = 1;
    const flash_energy e =
        table2_energy(chip->read_nj, chip->prog_nj, chip->prog_slow_nj, chip->erase_nj, chip->idle_mw);
    return build<page_mapped_ssd>(c, e, name, overrides);
}

//! config_error naming `preset` and listing the presets.
[[noreturn]] void unknown_preset(const std::string& preset) {
    throw config_error("unknown device model preset '" + preset +
                       "' (known presets: " + detail::model_preset_list() + ")");
}

//! The row of `preset`; unknown_preset if none.
const model_preset_info& find_preset(const std::string& preset) {
    for (const auto& p : model_presets())
        if (p.name == preset) return p;
    unknown_preset(preset);
}

} // namespace

const std::vector<model_preset_info>& model_presets() {
    static const std::vector<model_preset_info> table = {
        {"hama-ssd-2009",
         "Hama 32 GB IDE SSD (2009), hybrid log-block FTL (8 MiB units, shared log pool, batched merges); "
         "fitted to seeds/000 Table 3.1 under Appendix A's method (all 8 cells within 10 %)",
         make_hama_ssd_2009_log_block},
        {"hama-ssd-2009-block-mapped",
         "Hama 32 GB IDE SSD (2009), the earlier block-mapped FTL model (512 KiB chunks, 1 open log), kept "
         "for "
         "comparison; fitted to seeds/000 Table 3.1 with 512 B-granular random offsets (aligned RW 2 MB: "
         "1.95x "
         "the paper)",
         make_hama_ssd_2009_block_mapped},
        {"barracuda-7200.11",
         "Seagate Barracuda 7200.11 500 GB HDD, 87.8 MiB/s outer zone, 7200 rpm; "
         "fitted to seeds/000 Table 3.1",
         make_barracuda_7200_11},
        {"nvme-gen4",
         "modern TLC NVMe SSD (Samsung 990 PRO class, 1 TB), page-mapped, 64 units, 7% OP; "
         "cached writes only",
         make_nvme_gen4},
        {"hdd-modern",
         "modern 18 TB 7200 rpm HDD (Exos X18 class), 270 MB/s outer zone; "
         "seek parameters are placeholders",
         make_hdd_modern},
        {"chip-a-slc2", "seeds/004 chip A-SLC2 (2 Gbit SLC, 2 KiB pages), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-a-slc4", "seeds/004 chip A-SLC4 (4 Gbit SLC, 2 KiB pages), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-a-slc8", "seeds/004 chip A-SLC8 (8 Gbit SLC, 2 KiB pages), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-b-slc2", "seeds/004 chip B-SLC2 (2 Gbit SLC, 2 KiB pages), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-b-slc4", "seeds/004 chip B-SLC4 (4 Gbit SLC, 2 KiB pages), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-e-slc8", "seeds/004 chip E-SLC8 (8 Gbit SLC, 2 KiB pages), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-b-mlc32",
         "seeds/004 chip B-MLC32 (32 Gbit MLC, 4 KiB pages, slow pages 5.8x), one-chip page-mapped SSD",
         make_grupp_chip},
        {"chip-c-mlc64",
         "seeds/004 chip C-MLC64 (64 Gbit MLC, 8 KiB pages, every other page slow), one-chip page-mapped SSD",
         make_grupp_chip},
    };
    return table;
}

std::vector<std::string> model_preset_names() {
    std::vector<std::string> names;
    for (const auto& p : model_presets())
        names.push_back(p.name);
    return names;
}

std::string detail::model_preset_list() {
    std::string s;
    for (const auto& n : model_preset_names())
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

std::string model_preset_description(const std::string& preset) { return find_preset(preset).description; }

std::unique_ptr<device_model> make_model(const std::string& preset, model_params overrides) {
    return find_preset(preset).make(preset, overrides);
}

} // namespace flashxxl
