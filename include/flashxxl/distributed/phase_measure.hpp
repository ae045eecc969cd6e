// What one phase of the distributed sort cost on this rank: device volume, modelled time, traffic, wall time.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/distributed/metered_communicator.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl::distributed {

//! One phase's figures on one rank.
struct phase_figures {
    std::string name;
    std::uint64_t read_bytes = 0, write_bytes = 0;
    double device_modelled_s = 0; //!< the machine's virtual clock (devices in parallel)
    traffic network;              //!< collectives of the phase, priced by the network model
    double wall_s = 0;
};

//! Measures a phase from construction to finish(): the machine's counters and clock, the
//! communicator's traffic and the wall clock.
class phase_measure {
public:
    phase_measure(std::string name, const machine& m, const metered_communicator& c)
        : name_(std::move(name)), machine_(&m), comm_(&c), devices_(m.stats()), clock_(m.modelled()),
          traffic_(c.counted()), start_(std::chrono::steady_clock::now()) {}

    phase_figures finish() const {
        phase_figures f;
        f.name = name_;
        const std::vector<device_stats> now = machine_->stats();
        for (std::size_t i = 0; i < now.size(); ++i) {
            f.read_bytes += now[i].total.read_bytes - devices_[i].total.read_bytes;
            f.write_bytes += now[i].total.write_bytes - devices_[i].total.write_bytes;
        }
        f.device_modelled_s = (machine_->modelled() - clock_).elapsed_s;
        f.network = comm_->counted() - traffic_;
        f.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        return f;
    }

private:
    std::string name_;
    const machine* machine_;
    const metered_communicator* comm_;
    std::vector<device_stats> devices_;
    modelled_time clock_;
    traffic traffic_;
    std::chrono::steady_clock::time_point start_;
};

} // namespace flashxxl::distributed
