// Timed, complete pread/pwrite on a file descriptor, for the real characterization targets.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! Issues one complete request (looping over short transfers) and returns its wall time in
//! seconds; throws io_failure naming the path, the offset and errno.
inline double timed_pio(int fd, const std::string& path, io_op op, void* buf, std::uint64_t offset,
                        std::uint64_t length) {
    auto start = std::chrono::steady_clock::now();
    std::uint64_t done = 0;
    while (done < length) {
        ssize_t n = op == io_op::read
                        ? ::pread(fd, static_cast<char*>(buf) + done, length - done, static_cast<off_t>(offset + done))
                        : ::pwrite(fd, static_cast<const char*>(buf) + done, length - done,
                                   static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw io_failure(path + ": " + to_string(op) + " of " + std::to_string(length) + " bytes at offset " +
                             std::to_string(offset) + " failed: " + (n < 0 ? std::strerror(errno) : "end of file"));
        done += static_cast<std::uint64_t>(n);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace flashxxl::characterize
