// The range check every device model applies to a request before charging it.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl {

//! Throws invalid_request unless 0 < length and offset + length <= capacity (without overflow).
//! `model_name` names the model in the message, e.g. "hama-ssd-2009 (ssd-block-mapped)";
//! `what` names the request ("read", "write", "discard").
inline void check_model_request(const std::string& model_name, std::uint64_t capacity,
                                const std::string& what, std::uint64_t offset, std::uint64_t length) {
    if (length == 0)
        throw invalid_request("device model " + model_name + ": zero-length " + what + " at offset " +
                              std::to_string(offset) + " (expected length > 0)");
    if (offset > capacity || length > capacity - offset)
        throw invalid_request("device model " + model_name + ": " + what + " of " + std::to_string(length) +
                              " bytes at offset " + std::to_string(offset) +
                              " ends beyond the emulated capacity of " + std::to_string(capacity) + " bytes");
}

//! The same check for a read or write request.
inline void check_model_request(const std::string& model_name, std::uint64_t capacity, io_op op,
                                std::uint64_t offset, std::uint64_t length) {
    check_model_request(model_name, capacity, std::string(to_string(op)), offset, length);
}

} // namespace flashxxl
