// A pipeline source of n items made by a function of their index (STXXL's streamify of a generator).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "flashxxl/stream/stage_memory.hpp"

namespace flashxxl::stream {

//! Streams make(0), make(1), ..., make(n - 1): the input of a pipeline that never sits on a
//! device (a graph's edges, a benchmark's keys). make is called once per item, in order; the
//! current item is held (memory_usage() == sizeof of one item).
template <class Make> class generator {
public:
    using value_type = std::decay_t<std::invoke_result_t<Make&, std::uint64_t>>;
    static constexpr std::uint64_t memory_usage() { return sizeof(value_type); }
    static stage_memory memory_need() { return {"generator", memory_usage(), 0}; }

    generator(std::uint64_t n, Make make) : n_(n), make_(std::move(make)) {
        if (n_ > 0) current_ = make_(0);
    }
    const value_type& operator*() const { return current_; }
    generator& operator++() {
        if (++i_ < n_) current_ = make_(i_);
        return *this;
    }
    bool empty() const { return i_ >= n_; }
    //! Items not streamed yet.
    std::uint64_t size() const { return n_ - i_; }

private:
    std::uint64_t i_ = 0, n_;
    Make make_;
    value_type current_{};
};

} // namespace flashxxl::stream
