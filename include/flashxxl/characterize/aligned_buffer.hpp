// A 4 KiB-aligned, growable I/O buffer for O_DIRECT requests, filled with a cyclic byte pattern.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <new>

namespace flashxxl::characterize {

//! Owns a 4 KiB-aligned buffer. The bytes are 0x00 .. 0xff cyclically, as the benchmark of
//! seeds/000 Appendix A writes ("the values 0x00 to 0xff, cyclically").
class aligned_buffer {
public:
    static constexpr std::size_t alignment = 4096;

    aligned_buffer() = default;
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    ~aligned_buffer() { std::free(data_); }

    //! At least `bytes` bytes; reallocates (and refills) when the buffer is too small.
    std::uint8_t* get(std::size_t bytes) {
        if (bytes > size_) {
            std::size_t n = (bytes + alignment - 1) / alignment * alignment;
            void* p = std::aligned_alloc(alignment, n);
            if (!p) throw std::bad_alloc();
            std::free(data_);
            data_ = static_cast<std::uint8_t*>(p);
            size_ = n;
            for (std::size_t i = 0; i < n; ++i) data_[i] = static_cast<std::uint8_t>(i & 0xff);
        }
        return data_;
    }
    std::size_t size() const { return size_; }

private:
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace flashxxl::characterize
