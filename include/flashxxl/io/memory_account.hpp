// Per-container accounting of the memory its buffers occupy: current and peak bytes.
#pragma once

#include <algorithm>
#include <cstdint>

namespace flashxxl {

//! Counts the bytes of the buffers one container holds (every aligned_buffer it allocates
//! reports here), with the peak. Not a global: each container owns one. Not thread-safe (the
//! containers are not either).
class memory_account {
public:
    void add(std::uint64_t bytes) {
        current_ += bytes;
        peak_ = std::max(peak_, current_);
    }
    void remove(std::uint64_t bytes) { current_ -= std::min(bytes, current_); }
    //! Bytes held now.
    std::uint64_t current() const { return current_; }
    //! The most bytes ever held at once.
    std::uint64_t peak() const { return peak_; }
    void reset_peak() { peak_ = current_; }

private:
    std::uint64_t current_ = 0;
    std::uint64_t peak_ = 0;
};

} // namespace flashxxl
