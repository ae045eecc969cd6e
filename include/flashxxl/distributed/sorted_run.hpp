// A sorted run on a machine's devices with an in-memory index of its Br pages' first items.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl::distributed {

//! A sorted run written with Bw writes into a flashxxl::vector, with the first item of every Br
//! page kept in memory (sizeof(T) per Br: 100 bytes per 128 KiB for records). The index is the
//! sample the splitters are chosen from (select_index_splitters) without reading the run.
template <class T> class sorted_run {
public:
    using vector_type = vector<T>;

    //! An empty run on `m` (role `r`) with block sizes `b`.
    sorted_run(machine& m, const block_sizes& b, role r)
        : items_(std::make_unique<vector_type>(m, vector_type::min_memory(b), b, r)),
          per_page_(items_->items_per_page()) {}

    vector_type& items() { return *items_; }
    std::uint64_t size() const { return size_; }
    std::uint64_t items_per_page() const { return per_page_; }
    std::uint64_t pages() const { return page_firsts_.size(); }
    //! The first item of every Br page, in order.
    const std::vector<T>& page_firsts() const { return page_firsts_; }

    //! Writes the sorted items of `source` (a sorter after sort(): pop_into) as this run.
    template <class Source> void write_from(Source& source, memory_account* account) {
        typename vector_type::stream_writer w(*items_, account);
        while (!source.empty()) {
            std::uint64_t k = source.pop_into(w.free_begin(), w.free_run());
            const T* first = w.free_begin();
            for (std::uint64_t i = 0; i < k; ++i)
                if ((size_ + i) % per_page_ == 0) page_firsts_.push_back(first[i]);
            w.commit(k);
            size_ += k;
        }
        w.finish();
    }

private:
    std::unique_ptr<vector_type> items_;
    std::uint64_t per_page_;
    std::uint64_t size_ = 0;
    std::vector<T> page_firsts_;
};

} // namespace flashxxl::distributed
