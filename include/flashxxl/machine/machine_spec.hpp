// A machine described as data: devices and placement, as parsed from a config or a preset.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/pacing_options.hpp"
#include "flashxxl/device/model_params.hpp"

namespace flashxxl {

//! One `disk=` / `flash=` line.
struct device_spec {
    std::string name; //!< unique within the machine; default "flash0", "disk1", ...
    device_class klass = device_class::hdd;
    std::string path;       //!< backing file path; "memory" for a sparse memory backing
    std::uint64_t size = 0; //!< bytes the allocator may hand out
    std::string io_impl;    //!< memory, syscall or linuxaio
    std::string model;      //!< model preset name, empty for a real device
    model_params params;    //!< model parameter overrides
    pacing_options pacing;
    std::string direct = "off"; //!< O_DIRECT for file backings: on, off, try
    bool keep = false;          //!< keep a file backing after the machine is gone
    bool reuse = false;         //!< allow opening an existing file not created by this machine
    bool tl = false;            //!< put a translation layer on this device
    std::uint64_t br = 0;       //!< read block size (br=), 0: not stated
    std::uint64_t bw = 0;       //!< write block size (bw=), 0: not stated
    unsigned io_threads = 1;    //!< STXXL queues (I/O threads) serving a real device: its queue depth
    std::map<std::string, std::string> tl_options; //!< tl_page, tl_segment, tl_spare, ...
    std::string origin;                            //!< "FILE:LINE", for messages
};

//! The `placement=` line.
struct placement_spec {
    std::string policy = "flash_aware";
    std::map<std::string, std::string> options;
    std::string origin;
};

//! A whole machine.
struct machine_spec {
    std::string name;
    std::string origin;
    std::vector<device_spec> devices;
    placement_spec placement;
    //! Bytes the memory-backed devices may hold together (memory_backing_budget); 0: its
    //! default_limit(), three quarters of physical memory.
    std::uint64_t memory_backing_limit = 0;
    //! The host model (`host=` line, device/host_model.hpp): none, 2008 or measured.
    std::string host = "none";
    std::string host_origin; //!< "FILE:LINE" of the host= line, for messages
};

} // namespace flashxxl
