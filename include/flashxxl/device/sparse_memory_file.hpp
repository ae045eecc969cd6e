// A memory-backed stxxl::file that allocates its storage in chunks on first write (sparse).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include <stxxl/bits/io/disk_queued_file.h>

#include "flashxxl/device/memory_backing_budget.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Backing store for emulated devices: a 500 GB emulated disk must not need 500 GB of RAM, so
//! memory is allocated in chunks (4 KiB by default, the O_DIRECT unit) when first written. Reads of
//! never-written bytes return zeros. `size()` is the capacity given at construction; set_size can shrink or
//! grow the addressable range but never allocates.
class sparse_memory_file : public stxxl::disk_queued_file {
public:
    //! \param capacity addressable bytes; \param chunk_bytes allocation unit (power of two);
    //! \param budget when given (the machine's), every chunk is taken from it and a write that
    //! would pass its limit fails (stxxl::io_error naming `name`) instead of exhausting RAM.
    sparse_memory_file(std::uint64_t capacity, int queue_id = DEFAULT_QUEUE,
                       std::uint64_t chunk_bytes = 4 * KiB, memory_backing_budget* budget = nullptr,
                       std::string name = "memory")
        : stxxl::file(DEFAULT_DEVICE_ID), stxxl::disk_queued_file(queue_id, NO_ALLOCATOR),
          capacity_(capacity), chunk_bytes_(chunk_bytes), budget_(budget), name_(std::move(name)) {
        if (chunk_bytes == 0 || (chunk_bytes & (chunk_bytes - 1)) != 0)
            throw config_error("sparse_memory_file: chunk size must be a power of two");
    }
    sparse_memory_file(const sparse_memory_file&) = delete;
    sparse_memory_file& operator=(const sparse_memory_file&) = delete;
    ~sparse_memory_file() override {
        if (budget_) budget_->give_back(allocated_bytes_);
    }

    void serve(void* buffer, offset_type offset, size_type bytes,
               stxxl::request::request_type type) override {
        if (offset + bytes > capacity_)
            throw stxxl::io_error("sparse_memory_file: request [" + std::to_string(offset) + ", " +
                                  std::to_string(offset + bytes) + ") beyond capacity " +
                                  std::to_string(capacity_));
        char* data = static_cast<char*>(buffer);
        std::lock_guard<std::mutex> lock(mutex_);
        while (bytes > 0) {
            std::uint64_t index = offset / chunk_bytes_;
            std::uint64_t within = offset % chunk_bytes_;
            std::uint64_t n = std::min<std::uint64_t>(bytes, chunk_bytes_ - within);
            if (type == stxxl::request::READ) {
                auto it = chunks_.find(index);
                if (it != chunks_.end())
                    std::memcpy(data, it->second.get() + within, n);
                else
                    std::memset(data, 0, n);
            } else {
                auto it = chunks_.find(index);
                if (it == chunks_.end()) {
                    // Taken from the budget and allocated before the map holds it: a refusal or
                    // a bad_alloc leaves neither a null chunk nor budget taken behind.
                    if (budget_ && !budget_->try_take(chunk_bytes_))
                        throw stxxl::io_error(over_budget_message());
                    std::unique_ptr<char[]> fresh;
                    try {
                        fresh.reset(new char[chunk_bytes_]());
                        it = chunks_.emplace(index, std::move(fresh)).first;
                    } catch (...) {
                        if (budget_) budget_->give_back(chunk_bytes_);
                        throw;
                    }
                    allocated_bytes_ += chunk_bytes_;
                }
                std::memcpy(it->second.get() + within, data, n);
            }
            data += n;
            offset += n;
            bytes -= n;
        }
    }

    offset_type size() override { return capacity_; }
    void set_size(offset_type new_size) override {
        std::lock_guard<std::mutex> lock(mutex_);
        capacity_ = new_size;
    }
    void lock() override {}
    //! Frees whole chunks inside the discarded range.
    void discard(offset_type offset, offset_type length) override {
        std::lock_guard<std::mutex> lock(mutex_);
        std::uint64_t first = (offset + chunk_bytes_ - 1) / chunk_bytes_;
        std::uint64_t end = (offset + length) / chunk_bytes_;
        if (end <= first) return;
        if (end - first <= chunks_.size()) {
            for (std::uint64_t i = first; i < end; ++i)
                if (chunks_.erase(i)) release_chunk();
            return;
        }
        for (auto it = chunks_.begin(); it != chunks_.end();) {
            if (it->first >= first && it->first < end) {
                it = chunks_.erase(it);
                release_chunk();
            } else {
                ++it;
            }
        }
    }
    const char* io_type() const override { return "sparse_memory"; }

    //! Bytes of memory actually allocated for data.
    std::uint64_t allocated_bytes() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return allocated_bytes_;
    }

private:
    void release_chunk() {
        allocated_bytes_ -= chunk_bytes_;
        if (budget_) budget_->give_back(chunk_bytes_);
    }
    std::string over_budget_message() const {
        return "memory-backed device '" + name_ + "' holds " + format_bytes(double(allocated_bytes_)) +
               ", and the machine's memory-backed devices together may hold at most " +
               format_bytes(double(budget_->limit())) +
               " (by default three quarters of this host's physical memory, " +
               format_bytes(double(physical_memory_bytes())) +
               "): back the device by a file instead (--backing-dir DIR, or a file path in the machine "
               "config)";
    }

    std::uint64_t capacity_;
    std::uint64_t chunk_bytes_;
    memory_backing_budget* budget_;
    std::string name_;
    std::unordered_map<std::uint64_t, std::unique_ptr<char[]>> chunks_;
    std::uint64_t allocated_bytes_ = 0;
    mutable std::mutex mutex_;
};

} // namespace flashxxl
