// Per-device I/O statistics by role: a value type with difference, sum and a human table.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/role.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Counts of one stream of requests. Times in seconds.
struct io_counters {
    std::uint64_t read_ops = 0;
    std::uint64_t read_bytes = 0;
    std::uint64_t write_ops = 0;
    std::uint64_t write_bytes = 0;
    std::uint64_t sequential_write_ops = 0; //!< writes that began where the device's previous write ended
    double modelled_s = 0;                  //!< service time charged by the device model
    double service_s = 0;                   //!< real time spent serving in the device's I/O thread
    double wait_s = 0;                      //!< time callers blocked waiting for completion
    //! Joules the device model charged for these requests: their operations' energy plus the
    //! device's idle power over the gap before each request (docs/device-models.md, "Energy").
    double modelled_energy_j = 0;
    //! False when a device without energy figures contributed: the energy is unknown, not 0.
    bool energy_known = true;

    std::uint64_t ops() const { return read_ops + write_ops; }
    std::uint64_t bytes() const { return read_bytes + write_bytes; }
    bool empty() const { return ops() == 0 && wait_s == 0; }

    //! Share of writes that were sequential on the device (0 without writes).
    double sequential_write_share() const {
        return write_ops ? double(sequential_write_ops) / double(write_ops) : 0.0;
    }

    void add(io_op op, std::uint64_t bytes, bool sequential_write = false) {
        if (op == io_op::read) {
            ++read_ops;
            read_bytes += bytes;
        } else {
            ++write_ops;
            write_bytes += bytes;
            if (sequential_write) ++sequential_write_ops;
        }
    }
    io_counters& operator+=(const io_counters& o) {
        read_ops += o.read_ops;
        read_bytes += o.read_bytes;
        write_ops += o.write_ops;
        write_bytes += o.write_bytes;
        sequential_write_ops += o.sequential_write_ops;
        modelled_s += o.modelled_s;
        service_s += o.service_s;
        wait_s += o.wait_s;
        modelled_energy_j += o.modelled_energy_j;
        energy_known = energy_known && o.energy_known;
        return *this;
    }
    io_counters& operator-=(const io_counters& o) {
        read_ops -= o.read_ops;
        read_bytes -= o.read_bytes;
        write_ops -= o.write_ops;
        write_bytes -= o.write_bytes;
        sequential_write_ops -= o.sequential_write_ops;
        modelled_s -= o.modelled_s;
        service_s -= o.service_s;
        wait_s -= o.wait_s;
        modelled_energy_j -= o.modelled_energy_j;
        energy_known = energy_known && o.energy_known;
        return *this;
    }
    friend io_counters operator+(io_counters a, const io_counters& b) { return a += b; }
    friend io_counters operator-(io_counters a, const io_counters& b) { return a -= b; }
};

//! Statistics of one device: the total, the share of each role, and `internal` I/O issued by
//! layers inside the device (translation-layer segment writes and cleaning) that has no role.
struct device_stats {
    io_counters total;
    std::array<io_counters, role_count> by_role{};
    io_counters internal;
    double lag_s = 0; //!< pacing: how far the backing store fell behind the model (summed)

    io_counters& slot(std::optional<role> r) { return r ? by_role[index_of(*r)] : internal; }
    //! Marks every slot's energy unknown (a device whose model has no energy figures).
    void mark_energy_unknown() {
        total.energy_known = false;
        internal.energy_known = false;
        for (io_counters& c : by_role)
            c.energy_known = false;
    }
    const io_counters& of(role r) const { return by_role[index_of(r)]; }

    device_stats& operator+=(const device_stats& o) {
        total += o.total;
        for (std::size_t i = 0; i < role_count; ++i)
            by_role[i] += o.by_role[i];
        internal += o.internal;
        lag_s += o.lag_s;
        return *this;
    }
    device_stats& operator-=(const device_stats& o) {
        total -= o.total;
        for (std::size_t i = 0; i < role_count; ++i)
            by_role[i] -= o.by_role[i];
        internal -= o.internal;
        lag_s -= o.lag_s;
        return *this;
    }
    friend device_stats operator+(device_stats a, const device_stats& b) { return a += b; }
    friend device_stats operator-(device_stats a, const device_stats& b) { return a -= b; }
};

//! The machine's total over devices: the sum of their totals (energy unknown if any device's is).
inline io_counters machine_total(const std::vector<device_stats>& devices) {
    io_counters sum;
    for (const device_stats& d : devices)
        sum += d.total;
    return sum;
}

//! The modelled energy of `c` as text: "12.345 J", or "unknown" without energy figures.
std::string format_energy(const io_counters& c);

//! One row of a stats table: name, ops, volumes, modelled / service / wait seconds.
void print_counters_row(std::ostream& out, const std::string& name, const io_counters& c);

//! The header matching print_counters_row.
void print_counters_header(std::ostream& out);

//! A human table of one device's stats: the header, the total, then each role and internal I/O
//! that occurred.
void print_stats_table(std::ostream& out, const std::string& device_name, const device_stats& s);

//! print_stats_table without the header: for a table of several devices under one header.
void print_stats_rows(std::ostream& out, const std::string& device_name, const device_stats& s);

} // namespace flashxxl
