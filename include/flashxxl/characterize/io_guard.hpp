// The last check before any characterization I/O is issued: inside the target range, aligned.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! Checks every request against [0, capacity) and the alignment, right before it is issued.
//! Always on (release builds too): a characterization writes to real devices, so a planner
//! bug must end in an exception, never in a write outside the range the user consented to.
class io_guard {
public:
    io_guard(std::string target_name, std::uint64_t capacity, std::uint64_t alignment)
        : name_(std::move(target_name)), capacity_(capacity), alignment_(alignment ? alignment : 1) {}

    //! Throws invalid_request naming the target, the request and the rule it breaks.
    void check(io_op op, std::uint64_t offset, std::uint64_t length) const {
        const char* why = nullptr;
        if (length == 0)
            why = "zero length";
        else if (offset > capacity_ || length > capacity_ - offset)
            why = "outside the target range";
        else if (offset % alignment_ != 0)
            why = "offset not aligned";
        else if (length % alignment_ != 0)
            why = "length not aligned";
        if (!why) return;
        throw invalid_request("characterize target '" + name_ + "': refused " + to_string(op) + " of " +
                              std::to_string(length) + " bytes at offset " + std::to_string(offset) + ": " +
                              why + " (range [0, " + std::to_string(capacity_) + "), alignment " +
                              std::to_string(alignment_) + " bytes)");
    }

    std::uint64_t capacity() const { return capacity_; }
    std::uint64_t alignment() const { return alignment_; }

private:
    std::string name_;
    std::uint64_t capacity_;
    std::uint64_t alignment_;
};

} // namespace flashxxl::characterize
