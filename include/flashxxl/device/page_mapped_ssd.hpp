// Timing model of a modern SSD with a page-mapped FTL: greedy GC, over-provisioning, parallel units.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/model_energy.hpp"
#include "flashxxl/device/model_fields.hpp"
#include "flashxxl/device/model_number_format.hpp"
#include "flashxxl/device/model_params.hpp"
#include "flashxxl/device/model_request_check.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Page-mapped SSD (shared/DEVICE-MODELS.md, "SSD model, page-mapped mode").
//!
//! Geometry: logical page p lives on unit p mod N (static striping, so a unit never holds more
//! logical pages than its share and its over-provisioning is exact). Each unit has
//! ceil(share * (1 + OP) / pages_per_block) erase blocks, one open (active) block that takes
//! host writes and GC copies, and greedy garbage collection (victim = the full block with the
//! fewest valid pages) whenever it needs a block and only the one reserve block is free.
//!
//! Time: the model keeps its own clock `now` (the sum of the times it has returned, i.e. the
//! emulated device's busy time; requests are served one after another in submission order)
//! and a busy-until time per unit, as FEMU does (`max(now, unit_busy_until) + t_op`).
//! - read: every page costs t_read on its unit, units work in parallel, the transfer is capped
//!   by bw_r: done = c_r + max(max over units of finish, now + len / bw_r).
//! - write: acknowledged from the write cache after c_w + len / bw_w and never waits. The
//!   post-cache write rate of the modern devices is unknown (DEVICE-MODELS.md: measure, do not
//!   invent), so only cached writes are modelled. The flash work behind the cache (t_prog per
//!   programmed page, t_read + t_prog per page copied by GC) is charged to the unit doing it,
//!   and later reads on that unit wait for it.
//!
//! Memory grows with what was written, not with the emulated capacity: a unit's forward map
//! is created on its first write and filled in pieces of map_piece_entries entries (at 4 KiB
//! pages a piece is 4 KiB of map per 4 MiB of the unit's logical space, so scattered page
//! writes cost about their own size in map, sequential ones about 0.2%), and the reverse map
//! exists only for blocks that have been opened. A fresh 1 TB model holds about 10 KiB.
class page_mapped_ssd final : public device_model {
public:
    //! Parameters, each declared once in visit_fields (key, range, meaning); the keys are the
    //! override keys (units in the names).
    struct config {
        std::uint64_t capacity = 1000000000000ull;
        std::uint64_t page = 4 * KiB;
        std::uint64_t block = 4 * MiB;
        double op_percent = 7;
        std::uint64_t units = 64;
        double c_r_us = 0;
        double t_read_us = 45;
        double bw_r_mibps = 7.45e9 / MiB;
        double c_w_us = 17.5;
        double bw_w_mibps = 6.9e9 / MiB;
        double t_prog_us = 0;
        // Chip-level options (seeds/004 section 3.3 and 4.1); the defaults leave them off.
        double t_prog_slow_us = 0;           // MLC slow pages; 0 = every page takes t_prog_us
        std::uint64_t fast_page_pattern = 0; // which pages of a block are fast (see is_slow_page)
        double t_erase_us = 0;
        double wear_prog_speedup = 0; // program time and energy fall by this share over rated_cycles
        std::uint64_t rated_cycles = 100000;
        std::uint64_t initial_erase_count = 0;
        std::uint64_t gc_low_blocks = 0; // 0 = collect only when the last free block is needed
        std::uint64_t gc_medium_blocks = 0;
        std::uint64_t gc_high_blocks = 0; // 0 = no background cleaning
        std::uint64_t write_through = 0;  // 1 = a write ends when its pages are programmed

        //! Calls v.size / v.count / v.number(key, field, range, meaning) per parameter, in the
        //! order they are parsed and listed (model_fields.hpp). `Self` is config or const config.
        template <class Self, class V> static void visit_fields(Self& c, V& v) {
            using r = model_field_range;
            v.size("capacity", c.capacity, r::any(), "logical capacity in bytes");
            v.size("page", c.page, r::above(0), "mapping unit and flash page");
            v.size("block", c.block, r::any(), "erase block");
            v.number("op_percent", c.op_percent, r::left_open(0, 1000), "over-provisioning, % of capacity");
            v.count("units", c.units, r::any(), "parallel units (dies/planes)");
            v.number("c_r_us", c.c_r_us, r::at_least(0), "per-read command overhead");
            v.number("t_read_us", c.t_read_us, r::at_least(0), "unit time per page read");
            v.number("bw_r_mibps", c.bw_r_mibps, r::above(0), "host read transfer cap");
            v.number("c_w_us", c.c_w_us, r::at_least(0), "per-write cached latency");
            v.number("bw_w_mibps", c.bw_w_mibps, r::above(0), "cached write rate");
            v.number("t_prog_us", c.t_prog_us, r::at_least(0), "unit time per page program, 0 = free");
            v.number("t_prog_slow_us", c.t_prog_slow_us, r::at_least(0),
                     "unit time per MLC slow page program, 0 = as t_prog_us");
            v.count("fast_page_pattern", c.fast_page_pattern, r::closed(0, 2),
                    "MLC slow pages: 0 none, 1 every other page, 2 after the first four every other pair");
            v.number("t_erase_us", c.t_erase_us, r::at_least(0), "unit time per block erase, 0 = free");
            v.number("wear_prog_speedup", c.wear_prog_speedup, r::closed(0, 1),
                     "share by which program time and energy fall from 0 to rated_cycles erases");
            v.count("rated_cycles", c.rated_cycles, r::closed(1, 1e9), "erase cycles of the wear curve");
            v.count("initial_erase_count", c.initial_erase_count, r::closed(0, 1e9),
                    "erases every block has had before the model starts");
            v.count("gc_low_blocks", c.gc_low_blocks, r::any(),
                    "GC low water mark: free blocks per unit below which GC runs, 0 = only when out");
            v.count("gc_medium_blocks", c.gc_medium_blocks, r::any(),
                    "GC medium water mark: free blocks per unit GC collects up to");
            v.count("gc_high_blocks", c.gc_high_blocks, r::any(),
                    "GC high water mark: idle units clean up to this many free blocks, 0 = never");
            v.count("write_through", c.write_through, r::closed(0, 1),
                    "1 = a write ends when its pages are programmed (no write cache)");
        }
        //! Reads every key from `p` (the current values are the defaults).
        void take(model_params& p) { take_model_fields(*this, p); }
        //! key=value pairs that take() reads back to the same config.
        std::vector<std::pair<std::string, std::string>> list() const { return list_model_fields(*this); }
        //! Throws config_error naming `model` and the offending key: each field's range, then the
        //! bounds between fields.
        void validate(const std::string& model) const {
            auto fail = [&](const std::string& what) {
                throw config_error("device model " + model + ": " + what);
            };
            check_model_fields(*this, model);
            if (block == 0 || block % page != 0)
                fail("parameter 'block' = " + std::to_string(block) +
                     " must be a positive multiple of 'page' (" + std::to_string(page) + ")");
            if (capacity == 0 || capacity % page != 0)
                fail("parameter 'capacity' = " + std::to_string(capacity) +
                     " must be a positive multiple of 'page' (" + std::to_string(page) + ")");
            if (units == 0 || units > capacity / page)
                fail("parameter 'units' = " + std::to_string(units) + " must lie in [1, capacity / page]");
            const std::uint64_t ppb = block / page;
            const std::uint64_t share = (capacity / page + units - 1) / units;
            const std::uint64_t logical_blocks = (share + ppb - 1) / ppb;
            const std::uint64_t blocks = physical_blocks_per_unit();
            if (blocks < logical_blocks + 2)
                fail("parameter 'op_percent' = " + format_model_number(op_percent) + " leaves " +
                     std::to_string(blocks) + " blocks per unit for " + std::to_string(logical_blocks) +
                     " blocks of data; garbage collection needs at least 2 spare blocks per unit "
                     "(raise op_percent or capacity, or lower block or units)");
            if (gc_low_blocks > 0 &&
                (gc_medium_blocks < gc_low_blocks || gc_medium_blocks > blocks - logical_blocks))
                fail("parameter 'gc_medium_blocks' = " + std::to_string(gc_medium_blocks) + " must lie in [" +
                     "gc_low_blocks = " + std::to_string(gc_low_blocks) +
                     ", spare blocks per unit = " + std::to_string(blocks - logical_blocks) + "]");
            if (gc_low_blocks == 0 && gc_medium_blocks > 0)
                fail("parameter 'gc_medium_blocks' needs gc_low_blocks > 0");
            if (gc_high_blocks > 0 &&
                (gc_high_blocks < gc_medium_blocks || gc_high_blocks > blocks - logical_blocks))
                fail("parameter 'gc_high_blocks' = " + std::to_string(gc_high_blocks) + " must lie in [" +
                     "gc_medium_blocks = " + std::to_string(gc_medium_blocks) +
                     ", spare blocks per unit = " + std::to_string(blocks - logical_blocks) + "]");
            if (double(blocks) * double(ppb) >= double(std::numeric_limits<std::uint32_t>::max()))
                fail("too many pages per unit for the 32-bit map (raise 'page' or 'units')");
        }
        //! Erase blocks per unit: ceil(logical pages per unit * (1 + OP) / pages per block).
        std::uint64_t physical_blocks_per_unit() const {
            const std::uint64_t ppb = block / page;
            const std::uint64_t share = (capacity / page + units - 1) / units;
            return static_cast<std::uint64_t>(
                std::ceil(double(share) * (1 + op_percent / 100) / double(ppb) - 1e-9));
        }
    };

    //! Entries per lazily allocated piece of a unit's forward map.
    static constexpr std::uint32_t map_piece_entries = 1024;

    //! Validates `cfg` and `energy` (config_error naming `preset_name`).
    explicit page_mapped_ssd(const config& cfg, std::string preset_name = "custom",
                             const flash_energy& energy = {})
        : cfg_(cfg), preset_(std::move(preset_name)), energy_(energy) {
        cfg_.validate(name());
        energy_.validate(name());
        ppb_ = static_cast<std::uint32_t>(cfg_.block / cfg_.page);
        logical_pages_ = cfg_.capacity / cfg_.page;
        blocks_per_unit_ = static_cast<std::uint32_t>(cfg_.physical_blocks_per_unit());
        const std::uint64_t share = (logical_pages_ + cfg_.units - 1) / cfg_.units;
        map_pieces_ = static_cast<std::size_t>((share + map_piece_entries - 1) / map_piece_entries);
        reset();
    }

    double service(io_op op, std::uint64_t offset, std::uint64_t length) override {
        check_model_request(name(), cfg_.capacity, op, offset, length);
        const std::uint64_t first = offset / cfg_.page, last = (offset + length - 1) / cfg_.page;
        const double start = now_;
        double done;
        if (op == io_op::read) {
            // Pages per unit of [first, last] under static striping, without a per-page loop.
            const std::uint64_t n = last - first + 1, N = cfg_.units;
            const std::uint64_t full = n / N, rem = n % N;
            double finish = start;
            const std::uint64_t touched = std::min<std::uint64_t>(n, N);
            for (std::uint64_t i = 0; i < touched; ++i) {
                const std::uint64_t u = (first + i) % N;
                const double pages = double(full + (i < rem ? 1 : 0));
                unit& un = units_[u];
                clean_while_idle(un, u, start);
                un.busy_until = std::max(un.busy_until, start) + pages * cfg_.t_read_us * 1e-6;
                finish = std::max(finish, un.busy_until);
            }
            done = cfg_.c_r_us * 1e-6 +
                   std::max(finish, start + double(length) / (cfg_.bw_r_mibps * double(MiB)));
            counters_.pages_read += n;
            counters_.energy.read_j += double(n) * energy_.read_j(cfg_.page);
        } else {
            counters_.host_bytes_written += length;
            double programmed = start;
            for (std::uint64_t p = first; p <= last; ++p)
                programmed = std::max(programmed, write_page(p, start));
            done = start + cfg_.c_w_us * 1e-6 + double(length) / (cfg_.bw_w_mibps * double(MiB));
            if (cfg_.write_through) done = std::max(done, programmed);
        }
        now_ = done;
        return done - start;
    }

    //! TRIM: pages wholly inside [offset, offset + length) become invalid (GC need not copy them).
    void discard(std::uint64_t offset, std::uint64_t length) override {
        check_model_request(name(), cfg_.capacity, "discard", offset, length);
        const std::uint64_t first = (offset + cfg_.page - 1) / cfg_.page;
        const std::uint64_t end = (offset + length) / cfg_.page;
        for (std::uint64_t p = first; p < end; ++p) {
            unit& un = units_[p % cfg_.units];
            invalidate(un, static_cast<std::uint32_t>(p / cfg_.units));
        }
    }

    //! With gc_high_blocks, the model's clock moves over the host's idle gap and every unit idle
    //! in it cleans up to the high water mark; without, idle time changes nothing.
    void idle(double seconds) override {
        if (cfg_.gc_high_blocks == 0 || !(seconds > 0)) return;
        now_ += seconds;
        for (std::uint64_t u = 0; u < units_.size(); ++u)
            clean_while_idle(units_[u], u, now_);
    }

    std::uint64_t capacity() const override { return cfg_.capacity; }
    device_class klass() const override { return device_class::flash; }
    std::string kind() const override { return "ssd-page-mapped"; }
    std::string preset() const override { return preset_; }
    //! The timing parameters, then the energy figures.
    std::vector<std::pair<std::string, std::string>> parameters() const override {
        auto p = cfg_.list();
        for (auto& kv : energy_.list())
            p.push_back(std::move(kv));
        return p;
    }
    model_counters counters() const override { return counters_; }
    bool has_energy() const override { return energy_.known(); }
    double idle_power_w() const override { return energy_.known() ? energy_.idle_w() : 0.0; }

    void reset() override {
        counters_ = model_counters{};
        now_ = 0;
        units_.clear();
        units_.resize(cfg_.units); // maps and blocks are allocated on a unit's first write
    }

    std::unique_ptr<device_model> clone_fresh() const override {
        return std::make_unique<page_mapped_ssd>(cfg_, preset_, energy_);
    }

    //! The configuration in use.
    const config& cfg() const { return cfg_; }
    //! The energy figures in use.
    const flash_energy& energy() const { return energy_; }
    //! Whether page `pos` of a block is an MLC slow page under fast_page_pattern (seeds/004
    //! section 3.3): 1 = every other page (C-MLC64), 2 = the first four pages fast, then pairs
    //! alternating slow, fast (B-MLC32). Never with pattern 0 (SLC).
    bool is_slow_page(std::uint32_t pos) const {
        if (cfg_.fast_page_pattern == 1) return pos % 2 == 1;
        if (cfg_.fast_page_pattern == 2) return pos >= 4 && ((pos - 4) / 2) % 2 == 0;
        return false;
    }
    //! Program time and energy relative to a fresh block after `erases` erase cycles:
    //! 1 - wear_prog_speedup * min(1, erases / rated_cycles) (seeds/004 Figure 4, linear).
    double wear_factor(std::uint64_t erases) const {
        return 1 - cfg_.wear_prog_speedup * std::min(1.0, double(erases) / double(cfg_.rated_cycles));
    }
    //! Seconds of programming page `pos` of a block erased `erases` times.
    double program_seconds(std::uint32_t pos, std::uint64_t erases) const {
        const bool slow = is_slow_page(pos) && cfg_.t_prog_slow_us > 0;
        return (slow ? cfg_.t_prog_slow_us : cfg_.t_prog_us) * 1e-6 * wear_factor(erases);
    }
    //! Free (erased or never opened) blocks of unit `u`.
    std::uint32_t free_blocks(std::uint64_t u) const { return free_count(units_.at(u)); }
    //! The model's clock: the sum of all service times returned since the last reset().
    double now_seconds() const { return now_; }
    //! Busy-until time of unit `u` on the model's clock (flash work queued behind the cache).
    double unit_busy_until(std::uint64_t u) const { return units_.at(u).busy_until; }
    //! Erase blocks per unit.
    std::uint32_t blocks_per_unit() const { return blocks_per_unit_; }
    //! Bytes of heap this model holds (maps, block states); grows with what was written.
    std::size_t memory_bytes() const {
        std::size_t bytes = units_.capacity() * sizeof(unit);
        for (const auto& un : units_) {
            bytes += un.map.capacity() * sizeof(un.map[0]);
            for (const auto& piece : un.map)
                if (piece) bytes += map_piece_entries * sizeof(std::uint32_t);
            bytes += un.blocks.capacity() * sizeof(block_state) +
                     un.free_blocks.capacity() * sizeof(std::uint32_t);
            for (const auto& b : un.blocks)
                bytes += b.rmap.capacity() * sizeof(std::uint32_t);
        }
        return bytes;
    }

private:
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

    struct block_state {
        std::uint32_t valid = 0;         // pages still mapped
        std::uint32_t written = 0;       // write pointer
        std::uint64_t erases = 0;        // erase cycles, initial_erase_count included
        std::vector<std::uint32_t> rmap; // page in block -> unit-local logical page, or none
    };
    struct unit {
        double busy_until = 0;
        std::vector<std::unique_ptr<std::uint32_t[]>> map; // local logical page -> local physical page
        std::vector<block_state> blocks;                   // blocks opened so far (ids = indices)
        std::vector<std::uint32_t> free_blocks;            // erased blocks
        std::uint32_t active = none;                       // block taking writes
    };

    std::string name() const { return preset_ + " (ssd-page-mapped)"; }

    std::uint32_t free_count(const unit& un) const {
        return static_cast<std::uint32_t>(un.free_blocks.size()) + blocks_per_unit_ -
               static_cast<std::uint32_t>(un.blocks.size());
    }
    std::uint32_t take_block(unit& un) {
        if (!un.free_blocks.empty()) {
            std::uint32_t b = un.free_blocks.back();
            un.free_blocks.pop_back();
            return b;
        }
        un.blocks.emplace_back();
        un.blocks.back().rmap.assign(ppb_, none);
        un.blocks.back().erases = cfg_.initial_erase_count;
        return static_cast<std::uint32_t>(un.blocks.size() - 1);
    }
    std::uint32_t& map_entry(unit& un, std::uint32_t local) {
        if (un.map.empty()) un.map.resize(map_pieces_);
        auto& piece = un.map[local / map_piece_entries];
        if (!piece) {
            piece.reset(new std::uint32_t[map_piece_entries]);
            std::fill(piece.get(), piece.get() + map_piece_entries, none);
        }
        return piece[local % map_piece_entries];
    }
    void invalidate(unit& un, std::uint32_t local) {
        if (un.map.empty()) return;
        const auto& piece = un.map[local / map_piece_entries];
        if (!piece) return;
        std::uint32_t& ppn = piece[local % map_piece_entries];
        if (ppn == none) return;
        block_state& b = un.blocks[ppn / ppb_];
        b.rmap[ppn % ppb_] = none;
        --b.valid;
        ppn = none;
    }
    // Appends `local` to the unit's active block (which must have room), maps it, and charges
    // the program's time to the unit and its energy.
    void append(unit& un, std::uint32_t local) {
        block_state& b = un.blocks[un.active];
        const std::uint32_t pos = b.written++;
        b.rmap[pos] = local;
        ++b.valid;
        map_entry(un, local) = un.active * ppb_ + pos;
        counters_.media_bytes_written += cfg_.page;
        const bool slow = is_slow_page(pos);
        ++counters_.pages_programmed;
        if (slow) ++counters_.slow_pages_programmed;
        un.busy_until += program_seconds(pos, b.erases);
        (slow ? counters_.energy.program_slow_j : counters_.energy.program_j) +=
            energy_.program_j(cfg_.page, slow) * wear_factor(b.erases);
    }
    bool active_full(const unit& un) const {
        return un.active == none || un.blocks[un.active].written == ppb_;
    }

    // Greedy GC: copy the valid pages of the full block with the fewest into the active block, erase it.
    // Returns false when no full block has an invalid page; throws out_of_space then if `required`.
    bool collect(unit& un, std::uint64_t unit_index, bool required = true) {
        std::uint32_t victim = none, best = ppb_;
        for (std::uint32_t i = 0; i < un.blocks.size(); ++i) {
            const block_state& b = un.blocks[i];
            if (i != un.active && b.written == ppb_ && b.valid < best) {
                best = b.valid;
                victim = i;
            }
        }
        if (victim == none && !required) return false;
        if (victim == none)
            throw out_of_space(name(), "garbage collection in unit " + std::to_string(unit_index) +
                                           " found no block with invalid pages to reclaim");
        for (std::uint32_t pos = 0; pos < ppb_ && un.blocks[victim].valid > 0; ++pos) {
            const std::uint32_t local = un.blocks[victim].rmap[pos];
            if (local == none) continue;
            un.blocks[victim].rmap[pos] = none;
            --un.blocks[victim].valid;
            if (active_full(un)) un.active = take_block(un); // at most once: victim had < ppb valid
            un.busy_until += cfg_.t_read_us * 1e-6;          // the copy's read; append charges its program
            ++counters_.pages_read;
            counters_.energy.read_j += energy_.read_j(cfg_.page);
            append(un, local);
            ++counters_.gc_page_copies;
        }
        block_state& v = un.blocks[victim];
        v.written = 0;
        ++v.erases;
        std::fill(v.rmap.begin(), v.rmap.end(), none);
        un.free_blocks.push_back(victim);
        ++counters_.erases;
        un.busy_until += cfg_.t_erase_us * 1e-6;
        counters_.energy.erase_j += energy_.erase_j(cfg_.block);
        return true;
    }

    // seeds/004's baseline FTL cleaning while a unit is idle: while it has been free since
    // before `start` and holds fewer than gc_high_blocks free blocks, collect one more block.
    void clean_while_idle(unit& un, std::uint64_t u, double start) {
        if (cfg_.gc_high_blocks == 0) return;
        while (un.busy_until < start && free_count(un) < cfg_.gc_high_blocks && !un.blocks.empty())
            if (!collect(un, u, false)) break;
    }

    // Makes the active block one with room. Without water marks, collects only when the last free
    // block is needed (it stays the copy destination); with them, once fewer than gc_low_blocks
    // are free, collects until gc_medium_blocks are (as far as blocks with invalid pages allow).
    void open_room(unit& un, std::uint64_t u) {
        const std::uint64_t low = cfg_.gc_low_blocks, medium = cfg_.gc_medium_blocks;
        if (low > 0 && active_full(un) && free_count(un) < low)
            while (free_count(un) < medium && collect(un, u, false)) {
            }
        while (active_full(un)) {
            if (free_count(un) > 1) {
                un.active = take_block(un);
                break;
            }
            collect(un, u); // keeps one reserve block as the copy destination
        }
    }

    // Writes logical page `page`; returns when its unit has programmed it.
    double write_page(std::uint64_t page, double start) {
        const std::uint64_t u = page % cfg_.units;
        const auto local = static_cast<std::uint32_t>(page / cfg_.units);
        unit& un = units_[u];
        clean_while_idle(un, u, start);
        un.busy_until = std::max(un.busy_until, start);
        invalidate(un, local);
        open_room(un, u);
        append(un, local);
        return un.busy_until;
    }

    config cfg_;
    std::string preset_;
    flash_energy energy_;
    std::uint32_t ppb_ = 0;
    std::uint64_t logical_pages_ = 0;
    std::uint32_t blocks_per_unit_ = 0;
    std::size_t map_pieces_ = 0; // forward-map pieces per unit
    model_counters counters_;
    double now_ = 0;
    std::vector<unit> units_;
};

} // namespace flashxxl
