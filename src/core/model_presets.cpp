// The named device-model presets and their factory (core library).
#include "flashxxl/device/model_presets.hpp"

namespace flashxxl {

namespace {

//! A `Model` from `c` with `overrides` taken; config_error for a key left over or a bad value.
template <class Model>
std::unique_ptr<device_model> build(typename Model::config c, const std::string& name,
                                    model_params& overrides) {
    c.take(overrides);
    overrides.finish(name);
    return std::make_unique<Model>(c, name);
}

std::unique_ptr<device_model> make_hama_ssd_2009(const std::string& name, model_params& overrides) {
    // seeds/000 Table 3.1 fit (DEVICE-MODELS.md presets): C = 512 KiB, K = 1, P = 4 KiB,
    // c_r 0.143 ms, t_R 0.0635 ms, 28.07 MiB/s read; c_w 0.080 ms, 24.53 MiB/s; t_M 2.42 ms.
    block_mapped_ssd::config c; // the defaults are this preset
    c.capacity = 32 * GiB;
    return build<block_mapped_ssd>(c, name, overrides);
}

std::unique_ptr<device_model> make_barracuda_7200_11(const std::string& name, model_params& overrides) {
    // seeds/000 Table 3.1 fit: R_od 87.8 MiB/s, rho 0.5 (assumed), 7200 rpm, t1 0.8 ms
    // (assumed), a 11.72 ms, c_r 0.073 ms, c_w 0.090 ms, n_ws 14; 500 GB = 500e9 bytes.
    hdd_model::config c;
    c.capacity = 500000000000ull;
    return build<hdd_model>(c, name, overrides);
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
    return build<page_mapped_ssd>(c, name, overrides);
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
    return build<hdd_model>(c, name, overrides);
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
         "Hama 32 GB IDE SSD (2009), block-mapped FTL, 512 KiB chunks, 1 open log; "
         "fitted to seeds/000 Table 3.1",
         make_hama_ssd_2009},
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
