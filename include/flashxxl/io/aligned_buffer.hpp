// A move-only, 4 KiB-aligned byte buffer (the O_DIRECT rule), in huge pages from 2 MiB on, that reports to a
// memory_account.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "flashxxl/io/huge_pages.hpp"
#include "flashxxl/io/memory_account.hpp"

namespace flashxxl {

//! An uninitialised byte buffer aligned to 4 KiB, freed on destruction. When given a
//! memory_account it adds its size there while it lives.
//!
//! A buffer of at least one huge page (huge_page_bytes(), 2 MiB) is mapped on its own at a
//! huge-page boundary and advised MADV_HUGEPAGE over its whole huge pages
//! (map_huge_aligned, the allocation characterize's request buffer uses too), so that a
//! large O_DIRECT request is one DMA segment per huge page; smaller buffers come from the
//! aligned operator new. Accounting is exact: the account counts the requested bytes. The
//! alignment slack of a mapped buffer is address space only (unmapped at once; its tail past
//! the last whole huge page stays in 4 KiB pages), so no more than the requested bytes,
//! rounded up to 4 KiB, ever become resident. (Test allocation trackers that replace
//! operator new see only the smaller buffers; the account sees all.)
class aligned_buffer {
public:
    static constexpr std::size_t alignment = 4096;

    aligned_buffer() = default;
    explicit aligned_buffer(std::size_t bytes, memory_account* account = nullptr)
        : size_(bytes), account_(account) {
        if (bytes == 0) return;
        mapped_ = bytes >= huge_page_bytes();
        data_ = mapped_ ? static_cast<char*>(map_huge_aligned(bytes))
                        : static_cast<char*>(::operator new(bytes, std::align_val_t(alignment)));
        if (account_) account_->add(size_);
    }
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    aligned_buffer(aligned_buffer&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
          account_(std::exchange(o.account_, nullptr)), mapped_(std::exchange(o.mapped_, false)) {}
    aligned_buffer& operator=(aligned_buffer&& o) noexcept {
        if (this != &o) {
            reset();
            data_ = std::exchange(o.data_, nullptr);
            size_ = std::exchange(o.size_, 0);
            account_ = std::exchange(o.account_, nullptr);
            mapped_ = std::exchange(o.mapped_, false);
        }
        return *this;
    }
    ~aligned_buffer() { reset(); }

    //! Frees the memory.
    void reset() {
        if (data_) {
            if (mapped_)
                unmap_huge_aligned(data_, size_);
            else
                ::operator delete(data_, std::align_val_t(alignment));
            if (account_) account_->remove(size_);
        }
        data_ = nullptr;
        size_ = 0;
        mapped_ = false;
    }

    char* data() { return data_; }
    const char* data() const { return data_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    //! True when the buffer is a mapping of its own at a huge-page boundary (map_huge_aligned).
    bool huge_page_aligned() const { return mapped_; }

    //! The buffer viewed as an array of T (T trivially copyable).
    template <class T> T* as() { return std::launder(reinterpret_cast<T*>(data_)); }
    template <class T> const T* as() const { return std::launder(reinterpret_cast<const T*>(data_)); }

private:
    char* data_ = nullptr;
    std::size_t size_ = 0;
    memory_account* account_ = nullptr;
    bool mapped_ = false; // map_huge_aligned, else operator new
};

} // namespace flashxxl
