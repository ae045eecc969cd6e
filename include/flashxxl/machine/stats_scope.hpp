// RAII reporter: prints what a machine's devices did between construction and destruction.
#pragma once

#include <chrono>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Snapshots every device's stats when constructed; `delta()` gives what happened since, and
//! the destructor prints it as a table (FOXXLL's scoped_print_iostats habit):
//!
//!     { flashxxl::stats_scope scope(m, "sort phase"); ... }   // prints RDV / WRV per device and role
class stats_scope {
public:
    stats_scope(machine& m, std::string label, std::ostream& out = std::cerr, bool print = true)
        : machine_(m), label_(std::move(label)), out_(out), print_(print), before_(m.stats()),
          clock_before_(m.modelled()), begin_(std::chrono::steady_clock::now()) {}

    stats_scope(const stats_scope&) = delete;
    stats_scope& operator=(const stats_scope&) = delete;

    ~stats_scope() {
        if (!print_) return;
        try {
            print(out_);
        } catch (...) { // never throw from a destructor
        }
    }

    //! Per device (in machine order): stats now minus stats at construction.
    std::vector<device_stats> delta() const {
        std::vector<device_stats> now = machine_.stats();
        for (std::size_t i = 0; i < now.size() && i < before_.size(); ++i)
            now[i] -= before_[i];
        return now;
    }
    //! The machine's virtual clock since construction: modelled elapsed time and I/O wait.
    modelled_time modelled() const { return machine_.modelled() - clock_before_; }
    //! Wall seconds since construction.
    double wall_seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
    }

    //! The table the destructor prints.
    void print(std::ostream& out) const {
        std::vector<device_stats> d = delta();
        modelled_time t = modelled();
        out << "[" << label_ << "] modelled " << t.elapsed_s << " s (I/O wait " << t.io_wait_s << " s), wall "
            << wall_seconds() << " s\n";
        print_counters_header(out);
        for (std::size_t i = 0; i < d.size(); ++i)
            print_stats_rows(out, machine_.dev(i).name(), d[i]);
    }

private:
    machine& machine_;
    std::string label_;
    std::ostream& out_;
    bool print_;
    std::vector<device_stats> before_;
    modelled_time clock_before_;
    std::chrono::steady_clock::time_point begin_;
};

} // namespace flashxxl
