// The host memory a machine's memory-backed devices may fill together, so an emulated disk cannot exhaust
// RAM.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace flashxxl {

//! This host's physical memory in bytes (sysconf), 0 when the system does not say.
inline std::uint64_t physical_memory_bytes() {
    long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

//! Bytes that the memory-backed devices (sparse_memory_file) of one machine may hold at once.
//! An emulated 500 GB disk allocates only what is written, so its stated capacity says nothing
//! about the RAM it will take: a graph whose largest node id is 4 * 10^9 writes a 32 GB CSR
//! offset array, which on a 24 GiB host ended in the OOM killer. Each device takes its chunks
//! from this budget and gives them back when they are discarded or the device goes; a write
//! that would pass the limit fails with an error that names the device and the way out (a
//! file-backed device). Owned by the machine (no process-wide state); thread-safe.
class memory_backing_budget {
public:
    //! Three quarters of physical memory (the rest is for M and the program), or unlimited
    //! when the system does not say how much there is.
    static std::uint64_t default_limit() {
        const std::uint64_t physical = physical_memory_bytes();
        return physical ? physical / 4 * 3 : UINT64_MAX;
    }

    explicit memory_backing_budget(std::uint64_t limit) : limit_(limit) {}
    memory_backing_budget(const memory_backing_budget&) = delete;
    memory_backing_budget& operator=(const memory_backing_budget&) = delete;

    //! Takes `bytes` if they fit under the limit; false (and nothing taken) otherwise.
    bool try_take(std::uint64_t bytes) {
        std::uint64_t used = used_.load(std::memory_order_relaxed);
        do {
            if (bytes > limit_ || used > limit_ - bytes) return false;
        } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
        return true;
    }
    //! Returns bytes taken earlier.
    void give_back(std::uint64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

    std::uint64_t limit() const { return limit_; }
    std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }

private:
    const std::uint64_t limit_;
    std::atomic<std::uint64_t> used_{0};
};

} // namespace flashxxl
