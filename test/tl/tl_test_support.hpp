// Test helpers for the translation layer: a recording in-memory lower file, aligned buffers, page patterns.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <stxxl/bits/io/disk_queued_file.h>

#include "flashxxl/tl/tl_config.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::testing {

//! Queue ids for tests: below the machine's pool (which starts at 2^20), one per role, reused
//! across tests because STXXL never deletes a queue.
inline int test_queue_id(int n) { return 1'000'000 + n; }

//! The small layer of the unit tests: 4 KiB pages, 64 KiB segments (16 pages) on a 4 MiB lower
//! file (64 segments, 1024 pages), 4 of them spare (logical capacity 960 pages).
namespace small_layer {
constexpr std::uint64_t page = 4 * KiB;
constexpr std::uint64_t segment = 64 * KiB;
constexpr std::uint64_t capacity = 4 * MiB;
inline tl_config config(cleaning_policy policy = cleaning_policy::greedy) {
    tl_config c;
    c.page_bytes = page;
    c.segment_bytes = segment;
    c.spare_bytes = 4 * segment;
    c.policy = policy;
    return c;
}
} // namespace small_layer

//! A 4 KiB-aligned heap buffer.
struct aligned_buffer {
    explicit aligned_buffer(std::size_t bytes) : size(bytes) {
        data = static_cast<char*>(std::aligned_alloc(4096, std::max<std::size_t>(bytes, 4096)));
        if (!data) throw std::bad_alloc();
        std::memset(data, 0, std::max<std::size_t>(bytes, 4096));
    }
    ~aligned_buffer() { std::free(data); }
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    char* data;
    std::size_t size;
};

//! Fills one page with a pattern that identifies (logical page, version).
inline void fill_page(char* dst, std::size_t page_bytes, std::uint64_t page, std::uint64_t version) {
    auto* w = reinterpret_cast<std::uint64_t*>(dst);
    for (std::size_t i = 0; i < page_bytes / 8; ++i)
        w[i] = (page << 32) ^ (version << 8) ^ (i * 0x9e3779b97f4a7c15ull);
}
inline bool page_matches(const char* src, std::size_t page_bytes, std::uint64_t page, std::uint64_t version) {
    const auto* w = reinterpret_cast<const std::uint64_t*>(src);
    for (std::size_t i = 0; i < page_bytes / 8; ++i)
        if (w[i] != ((page << 32) ^ (version << 8) ^ (i * 0x9e3779b97f4a7c15ull))) return false;
    return true;
}

//! An in-memory lower file that records every request it serves; discard() fills the range
//! with 0xDB so a read of a freed segment shows up as corrupted data.
class recording_file : public stxxl::disk_queued_file {
public:
    struct record {
        bool write;
        std::uint64_t offset, bytes;
    };
    recording_file(std::uint64_t capacity, int queue_id)
        : stxxl::file(DEFAULT_DEVICE_ID), stxxl::disk_queued_file(queue_id, NO_ALLOCATOR),
          data_(capacity, 0) {}

    //! Waits until the I/O thread has released its last request on this file.
    ~recording_file() override {
        for (long i = 0; i < 100000000L && get_request_nref() > 0; ++i)
            std::this_thread::yield();
    }

    void serve(void* buffer, offset_type offset, size_type bytes,
               stxxl::request::request_type type) override {
        std::lock_guard<std::mutex> lock(mutex_);
        if (offset + bytes > data_.size()) throw stxxl::io_error("recording_file: request beyond its end");
        if (fail_writes && type == stxxl::request::WRITE)
            throw stxxl::io_error("recording_file: injected write failure");
        if (fail_reads && type == stxxl::request::READ && bytes > 0) throw stxxl::io_error(read_failure_text);
        if (bytes == 0) return;
        if (type == stxxl::request::WRITE)
            std::memcpy(data_.data() + offset, buffer, bytes);
        else
            std::memcpy(buffer, data_.data() + offset, bytes);
        records_.push_back({type == stxxl::request::WRITE, offset, bytes});
    }
    offset_type size() override { return data_.size(); }
    void set_size(offset_type s) override {
        if (s > data_.size()) throw std::logic_error("recording_file cannot grow");
    }
    void lock() override {}
    void discard(offset_type offset, offset_type bytes) override {
        if (fail_discards) throw std::runtime_error("recording_file: injected discard failure");
        std::lock_guard<std::mutex> lock(mutex_);
        std::memset(data_.data() + offset, 0xDB, bytes);
        ++discards_;
    }
    const char* io_type() const override { return "recording"; }

    //! While true, every write fails with stxxl::io_error.
    std::atomic<bool> fail_writes{false};
    //! While true, every read fails with stxxl::io_error(read_failure_text).
    std::atomic<bool> fail_reads{false};
    //! The text of a failed read: what STXXL 1.4.1's syscall_file puts into its io_error for EIO.
    std::string read_failure_text =
        "Error in virtual void stxxl::syscall_file::serve(void*, stxxl::file::offset_type, "
        "stxxl::file::size_type, "
        "stxxl::request_interface::request_type) : this=0x55 call=::pread(fd,buf,bytes,offset) "
        "path=/x/ssd.img "
        "fd=5 offset=0 buffer=0x7f bytes=65536 type=READ rc=-1 : Input/output error";
    //! While true, discard() (TRIM) throws std::runtime_error.
    std::atomic<bool> fail_discards{false};

    std::vector<record> records() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return records_;
    }
    std::uint64_t discards() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return discards_;
    }
    //! The stored bytes at [offset, offset + bytes).
    std::vector<char> peek(std::uint64_t offset, std::uint64_t bytes) const {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::vector<char>(data_.begin() + offset, data_.begin() + offset + bytes);
    }

private:
    mutable std::mutex mutex_;
    std::vector<char> data_;
    std::vector<record> records_;
    std::uint64_t discards_ = 0;
};

} // namespace flashxxl::testing
