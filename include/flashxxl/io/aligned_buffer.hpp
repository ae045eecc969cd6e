// A move-only, 4 KiB-aligned byte buffer (the O_DIRECT rule) that reports to a memory_account.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "flashxxl/io/memory_account.hpp"

namespace flashxxl {

//! An uninitialised byte buffer aligned to 4 KiB, freed on destruction. When given a
//! memory_account it adds its size there while it lives.
class aligned_buffer {
public:
    static constexpr std::size_t alignment = 4096;

    aligned_buffer() = default;
    explicit aligned_buffer(std::size_t bytes, memory_account* account = nullptr) : size_(bytes), account_(account) {
        if (bytes == 0) return;
        data_ = static_cast<char*>(::operator new(bytes, std::align_val_t(alignment)));
        if (account_) account_->add(size_);
    }
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    aligned_buffer(aligned_buffer&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
          account_(std::exchange(o.account_, nullptr)) {}
    aligned_buffer& operator=(aligned_buffer&& o) noexcept {
        if (this != &o) {
            reset();
            data_ = std::exchange(o.data_, nullptr);
            size_ = std::exchange(o.size_, 0);
            account_ = std::exchange(o.account_, nullptr);
        }
        return *this;
    }
    ~aligned_buffer() { reset(); }

    //! Frees the memory.
    void reset() {
        if (data_) {
            ::operator delete(data_, std::align_val_t(alignment));
            if (account_) account_->remove(size_);
        }
        data_ = nullptr;
        size_ = 0;
    }

    char* data() { return data_; }
    const char* data() const { return data_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    //! The buffer viewed as an array of T (T trivially copyable).
    template <class T>
    T* as() {
        return std::launder(reinterpret_cast<T*>(data_));
    }
    template <class T>
    const T* as() const {
        return std::launder(reinterpret_cast<const T*>(data_));
    }

private:
    char* data_ = nullptr;
    std::size_t size_ = 0;
    memory_account* account_ = nullptr;
};

} // namespace flashxxl
