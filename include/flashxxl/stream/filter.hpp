// A pipeline stage passing on the items of its input stream that satisfy a predicate.
#pragma once

#include <cstdint>
#include <utility>

#include "flashxxl/stream/stage_memory.hpp"
#include "flashxxl/stream/stream_concept.hpp"

namespace flashxxl::stream {

//! Streams the items x of `in` with keep(x), in order. Holds nothing but the input's reference
//! (memory_usage() == 0); the current item is the input's.
template <class In, class Pred> class filter {
public:
    static_assert(is_stream_v<In>, "flashxxl::stream::filter: the input must be a stream");
    using value_type = value_t<In>;
    static constexpr std::uint64_t memory_usage() { return 0; }
    static stage_memory memory_need() { return {"filter", 0, 0}; }

    filter(In& in, Pred keep) : in_(&in), keep_(std::move(keep)) { skip_rejected(); }
    decltype(auto) operator*() const { return **in_; }
    filter& operator++() {
        ++*in_;
        skip_rejected();
        return *this;
    }
    bool empty() const { return in_->empty(); }

private:
    void skip_rejected() {
        while (!in_->empty() && !keep_(**in_))
            ++*in_;
    }
    In* in_;
    Pred keep_;
};

} // namespace flashxxl::stream
