// The two kinds of storage a device can be: flash (SSD) or a hard disk.
#pragma once

#include <string>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! What a device is made of; placement policies decide by it.
enum class device_class { flash, hdd };

inline const char* to_string(device_class c) { return c == device_class::flash ? "flash" : "hdd"; }

inline device_class parse_device_class(const std::string& s) {
    if (s == "flash" || s == "ssd") return device_class::flash;
    if (s == "hdd" || s == "disk") return device_class::hdd;
    throw config_error("unknown device class '" + s + "' (expected flash or hdd)");
}

//! Direction of one I/O request.
enum class io_op { read, write };

inline const char* to_string(io_op op) { return op == io_op::read ? "read" : "write"; }

} // namespace flashxxl
