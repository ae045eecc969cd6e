// seeds/004's chip measurements regenerated from a model: per-operation energy, fast/slow pages, wear.
//
// Use (model only, no machine, milliseconds):
//
//     auto e = flashxxl::reproduce::measure_chip_energy("chip-a-slc2");
//     e.read_nj_per_bit, e.prog_nj_per_bit, e.erase_nj_per_bit  // from the model's op counts
//     auto p = flashxxl::reproduce::measure_fast_slow("chip-b-mlc32");   // p.slow_over_fast()
//     double us = flashxxl::reproduce::program_us_at_wear("chip-a-slc2", 50000);
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/page_mapped_ssd.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::reproduce {

//! A chip preset's model shrunk to `blocks_per_unit` erase blocks per unit (the per-operation
//! figures do not depend on the capacity), with `op_percent` spare (0: the preset's) and
//! `extra` overrides.
inline std::unique_ptr<page_mapped_ssd> small_chip_model(const std::string& preset,
                                                         std::uint64_t blocks_per_unit,
                                                         model_params extra = {}, double op_percent = 0) {
    const auto probe = make_model(preset);
    const auto* chip = dynamic_cast<const page_mapped_ssd*>(probe.get());
    if (!chip) throw config_error("preset '" + preset + "' is not a page-mapped model");
    const page_mapped_ssd::config& c = chip->cfg();
    const double op = op_percent > 0 ? op_percent : c.op_percent;
    const std::uint64_t stripe = c.page * c.units;
    const double physical = double(blocks_per_unit * c.block * c.units);
    const std::uint64_t capacity = std::uint64_t(physical / (1 + op / 100) / double(stripe)) * stripe;
    extra.set("capacity", std::to_string(capacity));
    extra.set("op_percent", format_model_number(op));
    auto m = make_model(preset, extra);
    return std::unique_ptr<page_mapped_ssd>(static_cast<page_mapped_ssd*>(m.release()));
}

//! Per-operation energy recomputed from a model's op counts and Joules (nJ per bit).
struct chip_energy_measure {
    std::uint64_t pages_read = 0, fast_pages = 0, slow_pages = 0, erases = 0;
    double read_nj_per_bit = 0, prog_nj_per_bit = 0, prog_slow_nj_per_bit = 0, erase_nj_per_bit = 0;
    double total_j = 0;
};

//! The micro-benchmark: write the whole (shrunk) device sequentially, read it all, overwrite it
//! all (garbage collection then erases blocks whose pages are all invalid, copying none); then
//! each operation's Joules over its count and bits.
inline chip_energy_measure measure_chip_energy(const std::string& preset,
                                               std::uint64_t blocks_per_unit = 32) {
    auto m = small_chip_model(preset, blocks_per_unit);
    const page_mapped_ssd::config& c = m->cfg();
    const std::uint64_t request = c.page * c.units * 4;
    for (int pass = 0; pass < 3; ++pass)
        for (std::uint64_t off = 0; off + request <= m->capacity(); off += request)
            m->service(pass == 1 ? io_op::read : io_op::write, off, request);
    const model_counters k = m->counters();
    chip_energy_measure r;
    r.pages_read = k.pages_read;
    r.slow_pages = k.slow_pages_programmed;
    r.fast_pages = k.pages_programmed - k.slow_pages_programmed;
    r.erases = k.erases;
    auto per_bit = [](double joules, std::uint64_t ops, std::uint64_t bytes) {
        return ops ? joules * 1e9 / (double(ops) * double(bytes) * 8) : 0.0;
    };
    r.read_nj_per_bit = per_bit(k.energy.read_j, r.pages_read, c.page);
    r.prog_nj_per_bit = per_bit(k.energy.program_j, r.fast_pages, c.page);
    r.prog_slow_nj_per_bit = per_bit(k.energy.program_slow_j, r.slow_pages, c.page);
    r.erase_nj_per_bit = per_bit(k.energy.erase_j, r.erases, c.block);
    r.total_j = k.energy.total_j();
    return r;
}

//! Program latency of a chip's fast and slow pages on modelled time (unit busy time per page).
struct fast_slow_measure {
    double fast_us = 0, slow_us = 0;
    std::uint64_t fast_pages = 0, slow_pages = 0;
    double slow_over_fast() const { return fast_us > 0 && slow_pages ? slow_us / fast_us : 1.0; }
};

//! Programs every page of unit 0's first block in order, one page per request, and averages
//! the unit's busy time per page over the fast and the slow pages.
inline fast_slow_measure measure_fast_slow(const std::string& preset) {
    auto m = small_chip_model(preset, 32);
    const page_mapped_ssd::config& c = m->cfg();
    const std::uint64_t ppb = c.block / c.page;
    fast_slow_measure r;
    double fast_sum = 0, slow_sum = 0;
    for (std::uint64_t k = 0; k < ppb; ++k) {
        const double busy_from = std::max(m->unit_busy_until(0), m->now_seconds());
        m->service(io_op::write, k * c.units * c.page, c.page); // logical page k * units: unit 0
        const double us = (m->unit_busy_until(0) - busy_from) * 1e6;
        if (m->is_slow_page(static_cast<std::uint32_t>(k))) {
            slow_sum += us;
            ++r.slow_pages;
        } else {
            fast_sum += us;
            ++r.fast_pages;
        }
    }
    r.fast_us = r.fast_pages ? fast_sum / double(r.fast_pages) : 0;
    r.slow_us = r.slow_pages ? slow_sum / double(r.slow_pages) : 0;
    return r;
}

//! Modelled program time (us) of a fast page on a chip whose blocks have had `erases` cycles.
inline double program_us_at_wear(const std::string& preset, std::uint64_t erases) {
    auto m = small_chip_model(preset, 32, {{"initial_erase_count", std::to_string(erases)}});
    m->service(io_op::write, 0, m->cfg().page);
    return m->unit_busy_until(0) * 1e6;
}

} // namespace flashxxl::reproduce
