// Timing model of a hybrid log-block FTL SSD (BAST / FAST family): units mapped whole, a shared log pool,
// batched merges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/log_pool.hpp"
#include "flashxxl/device/model_energy.hpp"
#include "flashxxl/device/model_fields.hpp"
#include "flashxxl/device/model_params.hpp"
#include "flashxxl/device/model_request_check.hpp"
#include "flashxxl/device/stream_slots.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! What the log-block model's merges have done since construction or reset().
struct log_block_stats {
    std::uint64_t full_merges = 0;    //!< a unit rebuilt from its data block and log pages (copy U)
    std::uint64_t partial_merges = 0; //!< a stream's unit completed by copying the rest (copy U - written)
    std::uint64_t switch_merges = 0;  //!< a unit written whole in order: the log becomes the data (no copy)
    std::uint64_t batches = 0;        //!< times the log pool ran out and a batch of it was reclaimed
    std::uint64_t idle_merges = 0;    //!< of full_merges, done in idle time (background cleaning)
    double waited_s = 0;              //!< request time spent waiting for a merge begun in idle time
};

//! Hybrid log-block SSD (docs/device-models.md, "log-block model"). The logical space is cut
//! into units of U bytes, each mapped whole to flash blocks (the data unit). Writes that do
//! not replace a unit go to log pages first:
//! - a write that continues its unit's stream goes on in it; one that continues the previous
//!   write or starts at offset 0 of a unit without a stream opens one (at most `streams`,
//!   LRU); when the stream
//!   reaches the unit's end the unit is completed by a switch merge (written whole from 0: no
//!   copy) or a partial merge (copy the U - written bytes the stream did not write);
//! - any other write appends its pages to a log pool shared by all units (FAST's random log),
//!   at no extra cost until the pool holds `log_pages`: then the oldest `batch_pages` are
//!   reclaimed at once, and each unit with a valid page among them costs a full merge (copy U,
//!   erase). This gives seeds/000 Figure 3.2's periodic spikes of seconds.
//! A merge costs copied / copy_mibps + t_erase_ms; the host transfer costs len / bw_w. Pool
//! state lasts across experiments (a 1 MiB fill of a unit invalidates its log pages, so it
//! drains the pool cheaply). In idle time the device merges pool units in the background;
//! a request that arrives while such a merge runs waits for the rest of it.
class log_block_ssd final : public device_model {
public:
    //! Parameters, each declared once in visit_fields; the keys are the override keys.
    struct config {
        std::uint64_t capacity = 32 * GiB;
        std::uint64_t unit = 8 * MiB;
        std::uint64_t page = 4 * KiB;
        std::uint64_t erase_block = 512 * KiB;
        std::uint64_t log_pages = 3072;
        std::uint64_t batch_pages = 2048;
        std::uint64_t streams = 2;
        std::uint64_t idle_clean = 1;
        double idle_ms = 0;
        double c_r_ms = 0.143;
        double t_read_ms = 0.0635;
        double bw_r_mibps = 28.07;
        double c_w_ms = 0.080;
        double bw_w_mibps = 24.53;
        double copy_mibps = 118;
        double t_erase_ms = 1.5;

        template <class Self, class V> static void visit_fields(Self& c, V& v) {
            using r = model_field_range;
            v.size("capacity", c.capacity, r::any(), "emulated capacity in bytes");
            v.size("unit", c.unit, r::any(), "mapping unit U (data unit, merged whole)");
            v.size("page", c.page, r::above(0), "flash page P (log pool granularity)");
            v.size("erase_block", c.erase_block, r::above(0), "flash erase block (erase counts, energy)");
            v.count("log_pages", c.log_pages, r::at_least(1), "pages of the shared log pool");
            v.count("batch_pages", c.batch_pages, r::at_least(1), "pool pages reclaimed when it runs out");
            v.count("streams", c.streams, r::at_least(1), "open sequential streams, LRU");
            v.count("idle_clean", c.idle_clean, r::closed(0, 1), "1: merge pool units in idle time");
            v.number("idle_ms", c.idle_ms, r::at_least(0), "host idle time before background merges start");
            v.number("c_r_ms", c.c_r_ms, r::at_least(0), "per-read command overhead");
            v.number("t_read_ms", c.t_read_ms, r::at_least(0), "t_R: a read that starts on a new page");
            v.number("bw_r_mibps", c.bw_r_mibps, r::above(0), "read transfer rate");
            v.number("c_w_ms", c.c_w_ms, r::at_least(0), "per-write command overhead");
            v.number("bw_w_mibps", c.bw_w_mibps, r::above(0), "host write (program) rate");
            v.number("copy_mibps", c.copy_mibps, r::above(0), "merge copy rate inside the device");
            v.number("t_erase_ms", c.t_erase_ms, r::at_least(0), "erase + remap of one unit per merge");
        }
        void take(model_params& p) { take_model_fields(*this, p); }
        std::vector<std::pair<std::string, std::string>> list() const { return list_model_fields(*this); }
        //! config_error naming `model` and the offending key: ranges, then bounds between fields.
        void validate(const std::string& model) const {
            auto fail = [&](const std::string& what) {
                throw config_error("device model " + model + ": " + what);
            };
            check_model_fields(*this, model);
            if (erase_block % page != 0)
                fail("parameter 'erase_block' = " + std::to_string(erase_block) +
                     " must be a multiple of 'page' (" + std::to_string(page) + ")");
            if (unit == 0 || unit % erase_block != 0)
                fail("parameter 'unit' = " + std::to_string(unit) +
                     " must be a positive multiple of 'erase_block' (" + std::to_string(erase_block) + ")");
            if (capacity < unit)
                fail("parameter 'capacity' = " + std::to_string(capacity) + " must be at least one unit (" +
                     std::to_string(unit) + ")");
            if (log_pages < unit / page)
                fail("parameter 'log_pages' = " + std::to_string(log_pages) +
                     " must hold one unit's pages (unit / page = " + std::to_string(unit / page) + ")");
            if (batch_pages > log_pages)
                fail("parameter 'batch_pages' = " + std::to_string(batch_pages) +
                     " must not exceed 'log_pages' (" + std::to_string(log_pages) + ")");
        }
    };

    //! Validates `cfg` and `energy` (config_error naming `preset_name`).
    explicit log_block_ssd(const config& cfg, std::string preset_name = "custom",
                           const flash_energy& energy = {})
        : cfg_(cfg), preset_(std::move(preset_name)), energy_(energy), streams_(cfg.streams) {
        cfg_.validate(name());
        energy_.validate(name());
    }

    double service(io_op op, std::uint64_t offset, std::uint64_t length) override {
        check_model_request(name(), cfg_.capacity, op, offset, length);
        return op == io_op::read ? read(offset, length) : write(offset, length);
    }

    //! Idle time (one host gap): first the rest of a merge begun earlier, then (idle_clean)
    //! pool units merged oldest first, from idle_ms after the gap began (an idle detector's
    //! threshold); a merge that does not fit is begun and its rest is waited for by the next
    //! request.
    void idle(double seconds) override {
        const double d = std::min(pending_s_, seconds);
        pending_s_ -= d;
        if (!cfg_.idle_clean) return;
        seconds -= std::max(d, cfg_.idle_ms * 1e-3);
        while (seconds > 0 && !pool_.empty()) {
            std::uint64_t unit = 0, pages = 0;
            if (!pool_.pop_oldest(unit, pages)) continue;
            ++stats_.idle_merges;
            const double m = full_merge(unit);
            if (m <= seconds) {
                seconds -= m;
            } else {
                pending_s_ = m - seconds;
                seconds = 0;
            }
        }
    }

    std::uint64_t capacity() const override { return cfg_.capacity; }
    device_class klass() const override { return device_class::flash; }
    std::string kind() const override { return "ssd-log-block"; }
    std::string preset() const override { return preset_; }
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
        stats_ = log_block_stats{};
        pool_.clear();
        streams_.clear();
        pending_s_ = 0;
        reclaimed_pages_ = 0;
        has_last_page_ = false;
        last_page_ = 0;
        last_write_end_ = no_write;
    }

    std::unique_ptr<device_model> clone_fresh() const override {
        return std::make_unique<log_block_ssd>(cfg_, preset_, energy_);
    }

    const config& cfg() const { return cfg_; }
    const flash_energy& energy() const { return energy_; }
    //! Merge counts and waiting time.
    const log_block_stats& stats() const { return stats_; }
    //! Log pages held now (pool entries, valid or stale, plus open streams).
    std::uint64_t log_pages_used() const { return pool_.used_pages() + streams_.pages(); }
    //! Open sequential streams.
    std::size_t open_streams() const { return streams_.size(); }
    //! Seconds of one full merge: U / copy_mibps + t_erase.
    double full_merge_seconds() const { return xfer(cfg_.unit, cfg_.copy_mibps) + cfg_.t_erase_ms * 1e-3; }
    //! Seconds of a merge begun in idle time that the next request still waits for.
    double pending_seconds() const { return pending_s_; }

private:
    static constexpr std::uint64_t no_write = ~std::uint64_t(0);

    std::string name() const { return preset_ + " (ssd-log-block)"; }

    static double xfer(std::uint64_t bytes, double mibps) {
        return static_cast<double>(bytes) / (mibps * static_cast<double>(MiB));
    }
    std::uint64_t pages_up_to(std::uint64_t unit_offset) const {
        return (unit_offset + cfg_.page - 1) / cfg_.page;
    }

    //! The rest of a background merge, which a request arriving now waits for.
    double take_pending() {
        const double t = pending_s_;
        stats_.waited_s += t;
        pending_s_ = 0;
        return t;
    }

    // read: c_r + len / bw_r + (first page != last page read ? t_R : 0), after any pending merge.
    double read(std::uint64_t off, std::uint64_t len) {
        double t = take_pending() + cfg_.c_r_ms * 1e-3 + xfer(len, cfg_.bw_r_mibps);
        if (!has_last_page_ || off / cfg_.page != last_page_) t += cfg_.t_read_ms * 1e-3;
        last_page_ = (off + len - 1) / cfg_.page;
        has_last_page_ = true;
        count_reads(last_page_ - off / cfg_.page + 1);
        return t;
    }

    // Operation counts and their energy (seeds/004 Table 2 figures per bit).
    void count_reads(std::uint64_t pages) {
        counters_.pages_read += pages;
        counters_.energy.read_j += double(pages) * energy_.read_j(cfg_.page);
    }
    void count_programs(std::uint64_t bytes) {
        const std::uint64_t pages = (bytes + cfg_.page - 1) / cfg_.page;
        counters_.pages_programmed += pages;
        counters_.media_bytes_written += bytes;
        counters_.energy.program_j += double(pages) * energy_.program_j(cfg_.page, false);
    }
    void count_erases(std::uint64_t bytes) {
        const std::uint64_t blocks = bytes / cfg_.erase_block;
        counters_.erases += blocks;
        counters_.energy.erase_j += double(blocks) * energy_.erase_j(cfg_.erase_block);
    }
    //! Copies `bytes` inside the device (read + program) and erases the old unit: the price of
    //! every merge.
    double merge_cost(std::uint64_t copied) {
        ++counters_.merges;
        count_reads(copied / cfg_.page);
        count_programs(copied);
        count_erases(cfg_.unit);
        return xfer(copied, cfg_.copy_mibps) + cfg_.t_erase_ms * 1e-3;
    }

    //! Rebuilds `unit` from its data unit and log pages: copy U, erase. Its stream (if any) and
    //! its pool pages are absorbed.
    double full_merge(std::uint64_t unit) {
        streams_.close(unit);
        pool_.invalidate(unit);
        ++stats_.full_merges;
        return merge_cost(cfg_.unit);
    }

    //! Completes `unit`'s stream: a switch when it wrote the whole unit from 0, else a partial
    //! merge copying what the stream did not write.
    double close_stream(std::uint64_t unit) {
        const std::optional<log_stream> s = streams_.close(unit);
        if (!s) return 0;
        pool_.invalidate(unit);
        const std::uint64_t copied = cfg_.unit - (s->write_pointer - s->start);
        ++(copied == 0 ? stats_.switch_merges : stats_.partial_merges);
        return merge_cost(copied);
    }

    //! The pool ran out: reclaims its oldest batch_pages pages, merging each unit still valid.
    double reclaim_batch() {
        ++stats_.batches;
        double t = 0;
        std::uint64_t freed = 0;
        while (freed < cfg_.batch_pages && !pool_.empty()) {
            std::uint64_t unit = 0, pages = 0;
            if (pool_.pop_oldest(unit, pages)) t += full_merge(unit);
            freed += pages;
        }
        // The reclaimed log blocks are erased (in the merges' erase time; counted here).
        reclaimed_pages_ += freed;
        const std::uint64_t per_block = cfg_.erase_block / cfg_.page;
        count_erases(reclaimed_pages_ / per_block * cfg_.erase_block);
        reclaimed_pages_ %= per_block;
        return t;
    }

    //! Makes room for `need` more log pages: batches of the pool first, then streams other
    //! than `keep`'s (validate() keeps one unit's pages within the pool).
    double make_room(std::uint64_t need, std::optional<std::uint64_t> keep) {
        double t = 0;
        while (log_pages_used() + need > cfg_.log_pages) {
            if (!pool_.empty()) {
                t += reclaim_batch();
                continue;
            }
            const std::optional<std::uint64_t> victim = streams_.least_recent(keep);
            if (!victim) break;
            t += close_stream(*victim);
        }
        return t;
    }

    //! A write of [a, b) inside `unit`; `in_order`: it starts where the previous write ended.
    double write_segment(std::uint64_t unit, std::uint64_t a, std::uint64_t b, bool in_order) {
        const std::uint64_t U = cfg_.unit;
        double t = xfer(b - a, cfg_.bw_w_mibps);
        count_programs(b - a);
        if (a == 0 && b == U) {
            // The whole unit: written into a fresh unit, the old one erased; logs are stale.
            streams_.close(unit);
            pool_.invalidate(unit);
            ++stats_.switch_merges;
            ++counters_.merges;
            count_erases(U);
            return t + cfg_.t_erase_ms * 1e-3;
        }
        log_stream* s = streams_.find(unit);
        const bool continues = s && s->write_pointer == a;
        // A new stream: the host continues its previous write, or starts a unit at offset 0,
        // and the unit has no stream yet. Anything else in a unit with a stream elsewhere is
        // out of order (random writes that happen to follow each other included): the pool.
        if (continues || (!s && (in_order || a == 0))) {
            if (!continues && streams_.full()) t += close_stream(*streams_.least_recent());
            const std::uint64_t need = pages_up_to(b) - (continues ? pages_up_to(a) : a / cfg_.page);
            t += make_room(need, unit);
            s = streams_.find(unit); // a batch may have merged the unit and closed its stream
            if (!s) s = &streams_.open(unit, a);
            s->write_pointer = b;
            s->pages += need;
            streams_.touch(*s);
            if (b == U) t += close_stream(unit);
            return t;
        }
        // Out of order: into the shared pool, merged later.
        const std::uint64_t need = pages_up_to(b) - a / cfg_.page;
        t += make_room(need, std::nullopt);
        pool_.append(unit, need);
        return t;
    }

    // write: pending merge + c_w + each unit's segment.
    double write(std::uint64_t off, std::uint64_t len) {
        double t = take_pending() + cfg_.c_w_ms * 1e-3;
        counters_.host_bytes_written += len;
        const std::uint64_t U = cfg_.unit, end = off + len;
        bool in_order = off == last_write_end_;
        while (off < end) {
            const std::uint64_t unit = off / U, a = off - unit * U;
            const std::uint64_t b = std::min(end - unit * U, U);
            t += write_segment(unit, a, b, in_order);
            off = unit * U + b;
            in_order = true; // the request's next unit continues it
        }
        last_write_end_ = end;
        return t;
    }

    config cfg_;
    std::string preset_;
    flash_energy energy_;
    model_counters counters_;
    log_block_stats stats_;
    log_pool pool_;
    stream_slots streams_;
    double pending_s_ = 0;
    std::uint64_t reclaimed_pages_ = 0;
    bool has_last_page_ = false;
    std::uint64_t last_page_ = 0;
    std::uint64_t last_write_end_ = no_write;
};

} // namespace flashxxl
