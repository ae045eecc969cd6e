// A pipeline stage dropping items equal to the one before (std::unique on a stream).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "flashxxl/stream/stage_memory.hpp"
#include "flashxxl/stream/stream_concept.hpp"

namespace flashxxl::stream {

//! Streams the first item of every run of consecutive items of `in` equal under `same`
//! (after a sort stage: each distinct item once). Holds a copy of the last item passed on
//! (memory_usage() == its size).
template <class In, class Eq = std::equal_to<value_t<In>>> class unique {
public:
    static_assert(is_stream_v<In>, "flashxxl::stream::unique: the input must be a stream");
    using value_type = value_t<In>;
    static constexpr std::uint64_t memory_usage() { return sizeof(value_type); }
    static stage_memory memory_need() { return {"unique", memory_usage(), 0}; }

    explicit unique(In& in, Eq same = Eq()) : in_(&in), same_(std::move(same)) {}
    decltype(auto) operator*() const { return **in_; }
    unique& operator++() {
        const value_type last = **in_;
        do
            ++*in_;
        while (!in_->empty() && same_(last, **in_));
        return *this;
    }
    bool empty() const { return in_->empty(); }

private:
    In* in_;
    Eq same_;
};

} // namespace flashxxl::stream
