// What Linux says of a block device (sysfs queue limits), for a device or for the device holding a file.
#pragma once

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

#include "flashxxl/characterize/fit_space.hpp"

namespace flashxxl::characterize {

//! The queue limits of /sys/dev/block/MAJOR:MINOR/queue (of the whole disk for a partition):
//! what the device reports (NVMe: NPWG / NOWS as minimum / optimal I/O size), each absent where
//! the kernel gives none (a file on tmpfs or overlayfs has no block device).
struct device_hints {
    std::string device; //!< the block device's sysfs name ("nvme0n1", "vda"), empty if none found
    std::optional<std::uint64_t> physical_block_size, minimum_io_size, optimal_io_size, nr_requests;
    std::optional<bool> rotational;

    bool empty() const { return device.empty(); }
    //! "vda: physical_block_size=4096 minimum_io_size=4096 optimal_io_size=0 rotational=1 nr_requests=256".
    std::string text() const {
        if (empty()) return "none (no block device found in sysfs)";
        std::string s = device + ":";
        auto add = [&](const char* key, const std::optional<std::uint64_t>& v) {
            if (v) s += std::string(" ") + key + "=" + std::to_string(*v);
        };
        add("physical_block_size", physical_block_size);
        add("minimum_io_size", minimum_io_size);
        add("optimal_io_size", optimal_io_size);
        if (rotational) s += std::string(" rotational=") + (*rotational ? "1" : "0");
        add("nr_requests", nr_requests);
        return s;
    }
    //! Where a fit starts: the flash page assumed is the physical block size (at least 4 KiB,
    //! a power of two); the rotational flag as given (virtio disks say 1 whatever backs them).
    fit_start_hints start() const {
        fit_start_hints h;
        std::uint64_t page = physical_block_size.value_or(0);
        if (minimum_io_size && *minimum_io_size > page) page = *minimum_io_size;
        if (page >= 4096 && (page & (page - 1)) == 0 && page <= 1024 * 1024) h.page = page;
        h.rotational = rotational;
        return h;
    }
};

namespace detail {
inline std::optional<std::uint64_t> read_sysfs_number(const std::string& path) {
    std::ifstream in(path);
    unsigned long long v = 0;
    if (!(in >> v)) return std::nullopt;
    return std::uint64_t(v);
}
} // namespace detail

//! The hints of the block device `major`:`minor` under `sysfs` (normally "/sys").
inline device_hints read_device_hints(unsigned major, unsigned minor, const std::string& sysfs = "/sys") {
    device_hints h;
    std::string dir = sysfs + "/dev/block/" + std::to_string(major) + ":" + std::to_string(minor);
    struct stat st {};
    if (::stat((dir + "/queue").c_str(), &st) != 0) {
        if (::stat((dir + "/partition").c_str(), &st) != 0) return h;
        dir += "/.."; // a partition: the queue is its disk's
        if (::stat((dir + "/queue").c_str(), &st) != 0) return h;
    }
    char resolved[4096];
    if (::realpath(dir.c_str(), resolved)) {
        const std::string r = resolved;
        h.device = r.substr(r.find_last_of('/') + 1);
    } else {
        h.device = std::to_string(major) + ":" + std::to_string(minor);
    }
    const std::string q = dir + "/queue/";
    h.physical_block_size = detail::read_sysfs_number(q + "physical_block_size");
    h.minimum_io_size = detail::read_sysfs_number(q + "minimum_io_size");
    h.optimal_io_size = detail::read_sysfs_number(q + "optimal_io_size");
    h.nr_requests = detail::read_sysfs_number(q + "nr_requests");
    if (auto r = detail::read_sysfs_number(q + "rotational")) h.rotational = *r != 0;
    return h;
}

//! The hints of `path`: a block device itself, or the device holding a file (or a directory);
//! empty when there is none (a missing path, tmpfs, overlayfs).
inline device_hints read_device_hints(const std::string& path, const std::string& sysfs = "/sys") {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    const dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    return read_device_hints(major(dev), minor(dev), sysfs);
}

} // namespace flashxxl::characterize
