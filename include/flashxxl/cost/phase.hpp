// A named phase of a program: what the machine's devices did between its construction and its end.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! What one phase did: per device (machine order) the stats delta, and the virtual clock's.
struct phase_record {
    std::string name;
    std::vector<std::string> device_names;
    std::vector<device_stats> devices;
    modelled_time modelled;
};

//! The phases of a program in the order they ended (each phase appends itself when it ends).
using phase_log = std::vector<phase_record>;

//! RAII: snapshots the machine's stats and clock when constructed; record() gives what happened
//! since, and the destructor appends it to `log` when one is given. Phases may nest (each counts
//! everything in its span).
//!
//!     flashxxl::phase_log log;
//!     { flashxxl::phase p(m, "splice", &log); ... }
//!     cost_model::for_device(m.dev(0), b).cost(log.back().devices)
class phase {
public:
    phase(machine& m, std::string name, phase_log* log = nullptr)
        : machine_(m), name_(std::move(name)), log_(log), before_(m.stats()), clock_before_(m.modelled()) {}
    phase(const phase&) = delete;
    phase& operator=(const phase&) = delete;
    ~phase() {
        if (!log_) return;
        try {
            log_->push_back(record());
        } catch (...) { // never throw from a destructor (out of memory: the record is lost)
        }
    }

    const std::string& name() const { return name_; }

    //! The phase so far: per device stats now minus at construction, and the clock's difference.
    phase_record record() const {
        phase_record r{name_, {}, machine_.stats(), machine_.modelled() - clock_before_};
        for (std::size_t i = 0; i < r.devices.size(); ++i) {
            if (i < before_.size()) r.devices[i] -= before_[i];
            r.device_names.push_back(machine_.dev(i).name());
        }
        return r;
    }

private:
    machine& machine_;
    std::string name_;
    phase_log* log_;
    std::vector<device_stats> before_;
    modelled_time clock_before_;
};

} // namespace flashxxl
