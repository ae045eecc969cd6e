// A 4 KiB-aligned, growable O_DIRECT buffer holding the 0x00 .. 0xff pattern, in huge pages where allowed.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <new>

#include "flashxxl/characterize/page_backing.hpp"
#include "flashxxl/device/device_class.hpp"
#include "flashxxl/io/huge_pages.hpp"

namespace flashxxl::characterize {

//! Owns a 4 KiB-aligned buffer for characterize's O_DIRECT requests, grown on demand. The bytes
//! are 0x00 .. 0xff cyclically, as the benchmark of seeds/000 Appendix A writes ("the values 0x00
//! to 0xff, cyclically"). (The containers' buffers are flashxxl::aligned_buffer, io/: fixed size,
//! uninitialised, accounted.)
//!
//! A buffer larger than one page is mapped at a huge-page boundary, rounded up to whole huge
//! pages and advised MADV_HUGEPAGE before it is first touched, so a request of up to one huge
//! page is one physically contiguous DMA segment instead of one segment per 4 KiB page. Without
//! that, the measured throughput of large requests depends on how fragmented the free memory
//! was when the buffer was allocated (2x apart on a virtio disk, see page_backing.hpp), which is
//! luck, not the device. backing() says what the kernel actually gave.
class pattern_buffer {
public:
    static constexpr std::size_t alignment = 4096;

    pattern_buffer() = default;
    pattern_buffer(const pattern_buffer&) = delete;
    pattern_buffer& operator=(const pattern_buffer&) = delete;
    ~pattern_buffer() { release(); }

    //! At least `bytes` bytes; reallocates (and refills) when the buffer is too small.
    std::uint8_t* get(std::size_t bytes) {
        if (bytes > size_) allocate(bytes);
        return data_;
    }
    std::size_t size() const { return size_; }
    //! How the current buffer is backed (base_pages for a single page, which is contiguous anyway).
    page_backing backing() const { return backing_; }

private:
    void allocate(std::size_t bytes) {
        const bool huge = bytes > alignment;
        const std::size_t granule = huge ? huge_page_bytes() : alignment;
        const std::size_t n = (bytes + granule - 1) / granule * granule;
        // whole huge pages from a huge-page boundary, advised before the first touch (the
        // containers' large I/O buffers come from the same function)
        auto* p = static_cast<std::uint8_t*>(map_huge_aligned(n));
        release();
        data_ = p;
        size_ = n;
        for (std::size_t i = 0; i < n; ++i)
            data_[i] = static_cast<std::uint8_t>(i & 0xff);
        backing_ = huge ? backing_of(data_, n) : page_backing::base_pages;
    }
    void release() {
        unmap_huge_aligned(data_, size_);
        data_ = nullptr;
        size_ = 0;
        backing_ = page_backing::unknown;
    }

    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    page_backing backing_ = page_backing::unknown;
};

//! The request buffers of a real target: reads land in one buffer, writes come from another, so
//! every write carries the 0x00 .. 0xff pattern, never data read before (seeds/000 Appendix A).
class request_buffers {
public:
    //! The buffer for a request of `op` and `length` bytes.
    std::uint8_t* get(io_op op, std::size_t length) {
        pattern_buffer& b = op == io_op::read ? read_ : write_;
        std::uint8_t* p = b.get(length);
        last_ = &b;
        return p;
    }
    //! How the buffer of the latest request is backed (unknown before the first).
    page_backing backing() const { return last_ ? last_->backing() : page_backing::unknown; }

private:
    pattern_buffer read_, write_;
    const pattern_buffer* last_ = nullptr;
};

} // namespace flashxxl::characterize
