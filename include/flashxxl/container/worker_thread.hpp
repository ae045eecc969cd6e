// Starting a container's worker thread, with an error that says which of how many failed to start.
#pragma once

#include <cstddef>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! Starts thread `index` (1-based) of the `count` that `owner` ("flashxxl::sorter") asked for.
//! When the system refuses (std::system_error: too many threads, no memory for a stack) the
//! error names the owner, the thread and the count, instead of a bare "Resource temporarily
//! unavailable"; threads already started keep running and are joined by their owner as usual.
template <class Body>
std::thread start_worker_thread(const char* owner, std::size_t index, std::size_t count, Body&& body) {
    try {
        return std::thread(std::forward<Body>(body));
    } catch (const std::system_error& e) {
        throw error(std::string(owner) + ": could not start thread " + std::to_string(index) + " of " +
                    std::to_string(count) + " (" + e.what() +
                    "); ask for fewer threads (set_threads, --threads)");
    }
}

} // namespace flashxxl
