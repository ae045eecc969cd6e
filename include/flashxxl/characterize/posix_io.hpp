// Timed, complete pread/pwrite on a file descriptor, one at a time or several in flight, for the real
// characterization targets.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "flashxxl/characterize/pattern_buffer.hpp"
#include "flashxxl/characterize/target.hpp"
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
        ssize_t n = op == io_op::read ? ::pread(fd, static_cast<char*>(buf) + done, length - done,
                                                static_cast<off_t>(offset + done))
                                      : ::pwrite(fd, static_cast<const char*>(buf) + done, length - done,
                                                 static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw io_failure(path + ": " + to_string(op) + " of " + std::to_string(length) +
                             " bytes at offset " + std::to_string(offset) +
                             " failed: " + (n < 0 ? std::strerror(errno) : "end of file"));
        done += static_cast<std::uint64_t>(n);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

//! Reads `length` bytes at base + offsets[i] for every i with `depth` threads, each issuing
//! one synchronous read at a time from its own huge-page buffer and taking the next offset,
//! so that `depth` requests are in flight; stops taking offsets after `time_limit` seconds.
//! The first failure (io_failure naming the path) is rethrown after every thread ended.
inline concurrent_reads_result concurrent_preads(int fd, const std::string& path, std::uint64_t base,
                                                 const std::vector<std::uint64_t>& offsets,
                                                 std::uint64_t length, unsigned depth, double time_limit) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto start = std::chrono::steady_clock::now();
    auto reader = [&] {
        pattern_buffer buf;
        try {
            std::uint8_t* b = buf.get(length);
            for (;;) {
                const std::size_t i = next.fetch_add(1);
                if (i >= offsets.size() || stop.load()) break;
                if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
                    time_limit)
                    break;
                (void)timed_pio(fd, path, io_op::read, b, base + offsets[i], length);
                done.fetch_add(1);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            stop = true;
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(depth);
    for (unsigned t = 0; t < depth; ++t)
        threads.emplace_back(reader);
    for (auto& t : threads)
        t.join();
    if (failure) std::rethrow_exception(failure);
    return {done.load(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

} // namespace flashxxl::characterize
