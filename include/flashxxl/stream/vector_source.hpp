// A pipeline source reading items [first, last) of a flashxxl::vector with Br reads.
#pragma once

#include <cstdint>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/stream/stage_memory.hpp"

namespace flashxxl::stream {

//! Streams items [first, last) of a vector in order through the vector's stream_reader: Br reads,
//! one block of prefetch. Memory: 2 x Br (memory_usage(b)), charged to its own account, which
//! rolls up into the budget's. A read that fails throws io_failure from operator++ (or the
//! constructor) and leaves the vector unchanged. The vector must not change while the source
//! is alive.
template <class T> class vector_source {
public:
    using value_type = T;
    //! Bytes a source over a vector with block sizes `b` holds.
    static std::uint64_t memory_usage(const block_sizes& b) {
        return vector<T>::stream_reader::memory_usage(b, 1);
    }
    //! Its line in a pipeline's memory split (memory_usage(b), no share of the rest).
    static stage_memory memory_need(const block_sizes& b) { return {"vector source", memory_usage(b), 0}; }

    //! Items [first, min(last, size())) of `v`; config_error when `memory` is below memory_usage.
    vector_source(vector<T>& v, const memory_budget& memory, std::uint64_t first = 0,
                  std::uint64_t last = ~std::uint64_t(0))
        : account_((memory.require(memory_usage(v.blocks()), "flashxxl::stream::vector_source",
                                   "its reader's 2 Br, " + v.blocks().describe()),
                    memory.account())),
          reader_(v, first, last, 1, &account_) {}
    vector_source(const vector_source&) = delete;
    vector_source& operator=(const vector_source&) = delete;

    const T& operator*() const { return *reader_; }
    vector_source& operator++() {
        ++reader_;
        return *this;
    }
    bool empty() const { return reader_.empty(); }
    //! Items not streamed yet.
    std::uint64_t size() const { return reader_.size(); }
    //! Items contiguous in memory from &**this on; consume them with skip(k).
    std::uint64_t run() const { return reader_.run(); }
    void skip(std::uint64_t k) { reader_.skip(k); }
    const memory_account& account() const { return account_; }

private:
    memory_account account_;
    typename vector<T>::stream_reader reader_;
};

} // namespace flashxxl::stream
