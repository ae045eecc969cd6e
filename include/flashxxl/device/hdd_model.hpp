// Timing model of a hard disk: zoned transfer rate, square-root seek curve, rotation, write cache.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
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

//! Hard-disk model (shared/DEVICE-MODELS.md, "HDD model"). With x = offset / capacity:
//! rate R(x) = R_od sqrt(1 - x (1 - rho^2)) (constant linear density, radius shrinking to rho
//! of the outer one), radial head position y(x) = (1 - sqrt(1 - x (1 - rho^2))) / (1 - rho) in
//! [0, 1], seek(d) = t1 + a sqrt(d) with seek(0) = 0 (the DiskSim-style square-root curve).
//! A request that does not start where the previous one ended pays a seek and a rotation:
//! reads T/2 - T p^2/2 (p = share of the first track covered; the drive reads from wherever the
//! head lands), writes T / (n_ws + 1) (write cache with n_ws segments reorders them).
//! Defaults: Seagate Barracuda 7200.11 500 GB fitted to shared/seeds/000 Table 3.1.
class hdd_model final : public device_model {
public:
    //! Parameters, each declared once in visit_fields (key, range, meaning); the keys are the
    //! override keys (units in the names).
    struct config {
        std::uint64_t capacity = 500000000000ull;
        double r_od_mibps = 87.8;
        double rho = 0.5;
        double rpm = 7200;
        double seek_t1_ms = 0.8;
        double seek_a_ms = 11.72;
        double c_r_ms = 0.073;
        double c_w_ms = 0.090;
        std::uint64_t n_ws = 14;
        //! The most write-cache segments: a drive's cache has tens of them (the Barracuda's 14).
        static constexpr std::uint64_t max_write_segments = 1024;

        //! Calls v.size / v.count / v.number(key, field, range, meaning) per parameter, in the
        //! order they are parsed and listed (model_fields.hpp). `Self` is config or const config.
        template <class Self, class V> static void visit_fields(Self& c, V& v) {
            using r = model_field_range;
            v.size("capacity", c.capacity, r::above(0), "emulated capacity in bytes");
            v.number("r_od_mibps", c.r_od_mibps, r::above(0), "transfer rate at the outer diameter");
            v.number("rho", c.rho, r::open(0, 1), "inner / outer radius ratio, assumed");
            v.number("rpm", c.rpm, r::above(0), "spindle speed, T = 60 / rpm");
            v.number("seek_t1_ms", c.seek_t1_ms, r::at_least(0), "seek settle time, assumed");
            v.number("seek_a_ms", c.seek_a_ms, r::at_least(0), "seek(d) = t1 + a sqrt(d)");
            v.number("c_r_ms", c.c_r_ms, r::at_least(0), "per-read command overhead");
            v.number("c_w_ms", c.c_w_ms, r::at_least(0), "per-write command overhead");
            v.count("n_ws", c.n_ws, r::closed(0, double(max_write_segments)), "write-cache segments");
        }
        //! Reads every key from `p` (the current values are the defaults).
        void take(model_params& p) { take_model_fields(*this, p); }
        //! key=value pairs that take() reads back to the same config.
        std::vector<std::pair<std::string, std::string>> list() const { return list_model_fields(*this); }
        //! Throws config_error naming `model` and the offending key.
        void validate(const std::string& model) const { check_model_fields(*this, model); }
    };

    //! Validates `cfg` and `energy` (config_error naming `preset_name`).
    explicit hdd_model(const config& cfg, std::string preset_name = "custom", const hdd_energy& energy = {})
        : cfg_(cfg), preset_(std::move(preset_name)), energy_(energy) {
        cfg_.validate(name());
        energy_.validate(name());
    }

    double service(io_op op, std::uint64_t offset, std::uint64_t length) override {
        check_model_request(name(), cfg_.capacity, op, offset, length);
        const bool write = op == io_op::write;
        double t = (write ? cfg_.c_w_ms : cfg_.c_r_ms) * 1e-3;
        const double rate = rate_bytes_per_s(offset);
        double seek = 0;
        if (!has_next_ || offset != next_) {
            seek = seek_seconds(std::fabs(radial_position(offset) - head_));
            t += seek;
            const double T = revolution_seconds();
            if (write) {
                t += T / static_cast<double>(cfg_.n_ws + 1);
            } else {
                const double track = rate * T; // bytes on the first track
                const double rest = track - std::fmod(static_cast<double>(offset), track);
                const double p = std::min(1.0, std::min(static_cast<double>(length), rest) / track);
                t += T / 2 - T * p * p / 2;
            }
        }
        t += static_cast<double>(length) / rate;
        if (write) {
            counters_.host_bytes_written += length;
            counters_.media_bytes_written += length;
        }
        counters_.seek_s += seek;
        if (energy_.known()) {
            counters_.energy.seek_j += seek * energy_.seek_w();
            counters_.energy.active_j += (t - seek) * energy_.p_active_w;
        }
        head_ = radial_position(offset + length);
        next_ = offset + length;
        has_next_ = true;
        return t;
    }

    std::uint64_t capacity() const override { return cfg_.capacity; }
    device_class klass() const override { return device_class::hdd; }
    std::string kind() const override { return "hdd"; }
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
    double idle_power_w() const override { return energy_.known() ? energy_.p_idle_w : 0.0; }

    void reset() override {
        counters_ = model_counters{};
        head_ = 0;
        next_ = 0;
        has_next_ = false;
    }

    std::unique_ptr<device_model> clone_fresh() const override {
        return std::make_unique<hdd_model>(cfg_, preset_, energy_);
    }

    //! The configuration in use.
    const config& cfg() const { return cfg_; }
    //! The energy figures in use.
    const hdd_energy& energy() const { return energy_; }
    //! One revolution T in seconds.
    double revolution_seconds() const { return 60.0 / cfg_.rpm; }
    //! Sustained transfer rate R(x) in bytes/s at byte `offset`.
    double rate_bytes_per_s(std::uint64_t offset) const {
        return cfg_.r_od_mibps * static_cast<double>(MiB) * std::sqrt(zone_factor(offset));
    }
    //! Radial head position y in [0, 1] (0 = outer edge) of byte `offset`.
    double radial_position(std::uint64_t offset) const {
        return (1 - std::sqrt(zone_factor(offset))) / (1 - cfg_.rho);
    }
    //! Seek time in seconds over radial distance d in [0, 1]: t1 + a sqrt(d), and 0 for d = 0.
    double seek_seconds(double d) const {
        return d < 1e-12 ? 0.0 : (cfg_.seek_t1_ms + cfg_.seek_a_ms * std::sqrt(d)) * 1e-3;
    }
    //! Current radial head position.
    double head_position() const { return head_; }

private:
    std::string name() const { return preset_ + " (hdd)"; }
    double zone_factor(std::uint64_t offset) const {
        const double x = static_cast<double>(offset) / static_cast<double>(cfg_.capacity);
        return 1 - x * (1 - cfg_.rho * cfg_.rho);
    }

    config cfg_;
    std::string preset_;
    hdd_energy energy_;
    model_counters counters_;
    double head_ = 0;
    std::uint64_t next_ = 0;
    bool has_next_ = false;
};

} // namespace flashxxl
