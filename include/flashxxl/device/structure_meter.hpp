// The I/O of one named structure (a sorter, a vector, a map): reads and writes counted where they reach a
// device.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "flashxxl/device/device_stats.hpp"

namespace flashxxl {

//! Counts the requests that touch the extents of one named structure, on every device, whatever
//! its role: roles are too coarse when a program holds several sorters (all scratch). A
//! container finds its meter through its memory account (memory_account::meter(), set on the
//! account of the budget it was given); machine::allocate registers each extent with the meter
//! and the device counts every read and write of that range here until the extent goes back.
//! Thread-safe (the sorter writes and prefetches from other threads). It must outlive the
//! structures that count into it.
class structure_meter {
public:
    explicit structure_meter(std::string name) : name_(std::move(name)) {}
    structure_meter(const structure_meter&) = delete;
    structure_meter& operator=(const structure_meter&) = delete;

    const std::string& name() const { return name_; }

    //! One request of `bytes` on one of this structure's extents.
    void count(io_op op, std::uint64_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        counters_.add(op, bytes);
    }
    //! What was counted so far (read / write operations and bytes; no times).
    io_counters counters() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return counters_;
    }

private:
    std::string name_;
    mutable std::mutex mutex_;
    io_counters counters_;
};

} // namespace flashxxl
