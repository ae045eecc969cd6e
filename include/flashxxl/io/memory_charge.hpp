// Charges memory held outside aligned_buffer (std::vector capacity) to a memory_account for a scope.
#pragma once

#include <cstdint>

#include "flashxxl/io/memory_account.hpp"

namespace flashxxl {

//! Charges `bytes` to an account for the lifetime of the guard (memory held outside
//! aligned_buffer: std::vector capacity, stream buffers counted by their memory_usage).
class memory_charge {
public:
    memory_charge() = default;
    memory_charge(memory_account* a, std::uint64_t bytes) : account_(a), bytes_(bytes) {
        if (account_) account_->add(bytes_);
    }
    memory_charge(const memory_charge&) = delete;
    memory_charge& operator=(const memory_charge&) = delete;
    memory_charge(memory_charge&& o) noexcept : account_(o.account_), bytes_(o.bytes_) {
        o.account_ = nullptr;
    }
    memory_charge& operator=(memory_charge&& o) noexcept {
        if (this != &o) {
            release();
            account_ = o.account_;
            bytes_ = o.bytes_;
            o.account_ = nullptr;
        }
        return *this;
    }
    ~memory_charge() { release(); }
    //! Changes the charge to `bytes` (the new amount is added before the old one is removed,
    //! as a reallocation holds both).
    void set(std::uint64_t bytes) {
        if (!account_) return;
        account_->add(bytes);
        account_->remove(bytes_);
        bytes_ = bytes;
    }
    std::uint64_t bytes() const { return account_ ? bytes_ : 0; }

private:
    void release() {
        if (account_) account_->remove(bytes_);
        account_ = nullptr;
    }
    memory_account* account_ = nullptr;
    std::uint64_t bytes_ = 0;
};

} // namespace flashxxl
