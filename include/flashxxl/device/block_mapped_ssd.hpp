// Timing model of a 2009-era SSD with a block-mapped FTL: logical chunks, K open log chunks, merges.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/model_energy.hpp"
#include "flashxxl/device/model_fields.hpp"
#include "flashxxl/device/model_params.hpp"
#include "flashxxl/device/model_request_check.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Block-mapped SSD (shared/DEVICE-MODELS.md, "SSD model, block-mapped mode"). The logical
//! space is cut into chunks of C bytes, each mapped to one flash block; up to K chunks have an
//! open log block that absorbs writes appended at its write pointer. Anything else costs a
//! merge: read the whole old chunk, program it, erase, remap. Defaults are the Hama 32 GB IDE
//! SSD fitted to shared/seeds/000 Table 3.1 (see model_presets.hpp).
class block_mapped_ssd final : public device_model {
public:
    //! Parameters, each declared once in visit_fields (key, range, meaning); the keys are the
    //! override keys (units in the names).
    struct config {
        std::uint64_t capacity = 32 * GiB;
        std::uint64_t chunk = 512 * KiB;
        std::uint64_t page = 4 * KiB;
        std::uint64_t open_logs = 1;
        double c_r_ms = 0.143;
        double t_read_ms = 0.0635;
        double bw_r_mibps = 28.07;
        double c_w_ms = 0.080;
        double bw_w_mibps = 24.53;
        double t_merge_ms = 2.42;

        //! Calls v.size / v.count / v.number(key, field, range, meaning) per parameter, in the
        //! order they are parsed and listed (model_fields.hpp). `Self` is config or const config.
        template <class Self, class V> static void visit_fields(Self& c, V& v) {
            using r = model_field_range;
            v.size("capacity", c.capacity, r::any(), "emulated capacity in bytes");
            v.size("chunk", c.chunk, r::any(), "mapping unit C");
            v.size("page", c.page, r::above(0), "flash page P");
            v.count("open_logs", c.open_logs, r::any(), "K open log chunks, LRU");
            v.number("c_r_ms", c.c_r_ms, r::at_least(0), "per-read command overhead");
            v.number("t_read_ms", c.t_read_ms, r::at_least(0), "t_R: a read that starts on a new page");
            v.number("bw_r_mibps", c.bw_r_mibps, r::above(0), "read transfer rate");
            v.number("c_w_ms", c.c_w_ms, r::at_least(0), "per-write command overhead");
            v.number("bw_w_mibps", c.bw_w_mibps, r::above(0), "program rate");
            v.number("t_merge_ms", c.t_merge_ms, r::at_least(0), "t_M: erase + remap part of a merge");
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
            if (chunk == 0 || chunk % page != 0)
                fail("parameter 'chunk' = " + std::to_string(chunk) +
                     " must be a positive multiple of 'page' (" + std::to_string(page) + ")");
            if (capacity < chunk)
                fail("parameter 'capacity' = " + std::to_string(capacity) + " must be at least one chunk (" +
                     std::to_string(chunk) + ")");
            // More open logs than chunks would mean nothing: every chunk has one already.
            if (open_logs > capacity / chunk)
                fail("parameter 'open_logs' = " + std::to_string(open_logs) +
                     " must lie in [0, capacity / chunk = " + std::to_string(capacity / chunk) + "]");
        }
    };

    //! Validates `cfg` and `energy` (config_error naming `preset_name`). A chunk is one erase
    //! block, so an erase costs e_erase for C bytes.
    explicit block_mapped_ssd(const config& cfg, std::string preset_name = "custom",
                              const flash_energy& energy = {})
        : cfg_(cfg), preset_(std::move(preset_name)), energy_(energy) {
        cfg_.validate(name());
        energy_.validate(name());
    }

    double service(io_op op, std::uint64_t offset, std::uint64_t length) override {
        check_model_request(name(), cfg_.capacity, op, offset, length);
        return op == io_op::read ? read(offset, length) : write(offset, length);
    }

    std::uint64_t capacity() const override { return cfg_.capacity; }
    device_class klass() const override { return device_class::flash; }
    std::string kind() const override { return "ssd-block-mapped"; }
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
        has_last_page_ = false;
        last_page_ = 0;
        lru_.clear();
        logs_.clear();
    }

    std::unique_ptr<device_model> clone_fresh() const override {
        return std::make_unique<block_mapped_ssd>(cfg_, preset_, energy_);
    }

    //! The configuration in use.
    const config& cfg() const { return cfg_; }
    //! The energy figures in use.
    const flash_energy& energy() const { return energy_; }
    //! Number of chunks that currently have an open log.
    std::size_t open_log_count() const { return logs_.size(); }
    //! Seconds of one merge: C / bw_r + C / bw_w + t_M (about 40.6 ms for the Hama preset).
    double merge_seconds() const {
        return xfer(cfg_.chunk, cfg_.bw_r_mibps) + xfer(cfg_.chunk, cfg_.bw_w_mibps) + cfg_.t_merge_ms * 1e-3;
    }

private:
    std::string name() const { return preset_ + " (ssd-block-mapped)"; }

    static double xfer(std::uint64_t bytes, double mibps) {
        return static_cast<double>(bytes) / (mibps * static_cast<double>(MiB));
    }

    // read: c_r + len / bw_r + (first page != last page read ? t_R : 0)
    double read(std::uint64_t off, std::uint64_t len) {
        double t = cfg_.c_r_ms * 1e-3 + xfer(len, cfg_.bw_r_mibps);
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
        counters_.energy.program_j += double(pages) * energy_.program_j(cfg_.page, false);
    }
    void count_erase() {
        ++counters_.erases;
        counters_.energy.erase_j += energy_.erase_j(cfg_.chunk);
    }

    // A merge reads the chunk's pages, programs them into a fresh block and erases the old one.
    double merge() {
        ++counters_.merges;
        count_reads(cfg_.chunk / cfg_.page);
        count_programs(cfg_.chunk);
        count_erase();
        counters_.media_bytes_written += cfg_.chunk;
        return merge_seconds();
    }

    // Moves chunk k's log to the most recently used end with write pointer wp.
    void touch_log(std::uint64_t k, std::uint64_t wp) {
        drop_log(k);
        lru_.emplace_back(k, wp);
        logs_[k] = std::prev(lru_.end());
    }
    void drop_log(std::uint64_t k) {
        auto it = logs_.find(k);
        if (it == logs_.end()) return;
        lru_.erase(it->second);
        logs_.erase(it);
    }

    // write: c_w + the cost of each chunk the request touches (DEVICE-MODELS.md rules, in order).
    double write(std::uint64_t off, std::uint64_t len) {
        const std::uint64_t C = cfg_.chunk, end = off + len;
        double t = cfg_.c_w_ms * 1e-3;
        counters_.host_bytes_written += len;
        while (off < end) {
            const std::uint64_t k = off / C;
            const std::uint64_t a = off - k * C; // [a, b) inside chunk k
            const std::uint64_t b = (end - k * C < C) ? end - k * C : C;
            off = k * C + b;
            auto it = logs_.find(k);
            if (it != logs_.end() && it->second->second == a) {
                // Continues the chunk's open log at its write pointer; a full log becomes the chunk.
                t += xfer(b - a, cfg_.bw_w_mibps);
                counters_.media_bytes_written += b - a;
                count_programs(b - a);
                if (b < C) {
                    touch_log(k, b);
                } else {
                    drop_log(k);
                    count_erase(); // the old data block is retired
                }
            } else if (a == 0 && b == C) {
                // Covers the whole chunk: programmed into a fresh block, no log slot needed.
                // (The Python reference evicts an LRU log here; the doc's rule does not. Both give
                // the same totals on the golden patterns, which always pay that merge elsewhere.)
                drop_log(k);
                t += xfer(C, cfg_.bw_w_mibps);
                counters_.media_bytes_written += C;
                count_programs(C);
                count_erase();
            } else if (a == 0 && cfg_.open_logs > 0) {
                // Starts at chunk offset 0: open a new log, evicting the LRU one with a merge.
                drop_log(k);
                if (logs_.size() >= cfg_.open_logs) {
                    drop_log(lru_.front().first);
                    t += merge();
                }
                t += xfer(b, cfg_.bw_w_mibps);
                counters_.media_bytes_written += b;
                count_programs(b);
                touch_log(k, b);
            } else {
                // Starts mid-chunk (or no log slots at all, K = 0): read-modify-write of the chunk.
                drop_log(k);
                t += merge();
            }
        }
        return t;
    }

    config cfg_;
    std::string preset_;
    flash_energy energy_;
    model_counters counters_;
    bool has_last_page_ = false;
    std::uint64_t last_page_ = 0;
    std::list<std::pair<std::uint64_t, std::uint64_t>> lru_; // (chunk, write pointer), LRU first
    std::unordered_map<std::uint64_t, std::list<std::pair<std::uint64_t, std::uint64_t>>::iterator> logs_;
};

} // namespace flashxxl
