// A pipeline stage applying a function to every item of its input stream.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "flashxxl/stream/stage_memory.hpp"
#include "flashxxl/stream/stream_concept.hpp"

namespace flashxxl::stream {

//! Streams f(x) for every item x of `in`, in order; f is called once per item (the result is
//! held, memory_usage() == its size). `in` is held by reference and must outlive the stage.
template <class In, class F> class transform {
public:
    static_assert(is_stream_v<In>, "flashxxl::stream::transform: the input must be a stream");
    using value_type = std::decay_t<std::invoke_result_t<F&, const value_t<In>&>>;
    static constexpr std::uint64_t memory_usage() { return sizeof(value_type); }
    static stage_memory memory_need() { return {"transform", memory_usage(), 0}; }

    transform(In& in, F f) : in_(&in), f_(std::move(f)) { load(); }
    const value_type& operator*() const { return current_; }
    transform& operator++() {
        ++*in_;
        load();
        return *this;
    }
    bool empty() const { return in_->empty(); }

private:
    void load() {
        if (!in_->empty()) current_ = f_(**in_);
    }
    In* in_;
    F f_;
    value_type current_{};
};

} // namespace flashxxl::stream
