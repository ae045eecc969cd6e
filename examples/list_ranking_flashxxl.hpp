// flashxxl's side of the list ranking: vectors, stream readers and writers, sorters and a priority queue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/machine/machine.hpp"
#include "list_ranking.hpp"

namespace flashxxl_examples {

//! What list_ranker needs, made of flashxxl containers on one machine: each sorter and the
//! priority queue get M / 2 (at most two of them are alive at once), vectors their minimum
//! (they are only streamed: a writer's 2 Bw and a reader's 2 Br each come besides M).
struct flashxxl_list_lib {
    flashxxl::machine& m;
    flashxxl::block_sizes b;
    std::uint64_t memory;
    std::size_t threads = 0;

    template <class T> using vector_type = flashxxl::vector<T>;
    template <class T> struct writer_type {
        typename flashxxl::vector<T>::stream_writer w;
        explicit writer_type(flashxxl::vector<T>& v) : w(v) {}
        void push(const T& x) { w.push(x); }
        void finish() { w.finish(); }
    };

    std::uint64_t base_items() const { return memory / 4 / sizeof(list_node); }
    template <class T> std::unique_ptr<flashxxl::vector<T>> new_vector() {
        return std::make_unique<flashxxl::vector<T>>(m, flashxxl::vector<T>::min_memory(b), b);
    }
    template <class T> auto writer(flashxxl::vector<T>& v) { return std::make_unique<writer_type<T>>(v); }
    template <class T> auto reader(flashxxl::vector<T>& v) {
        return std::make_unique<typename flashxxl::vector<T>::stream_reader>(v);
    }
    template <class T, class Cmp> auto new_sorter(Cmp cmp) {
        auto s = std::make_unique<flashxxl::sorter<T, Cmp>>(m, memory / 2, b, cmp);
        s->set_threads(threads);
        return s;
    }
    auto new_queue() {
        return std::make_unique<flashxxl::priority_queue<std::uint64_t, std::greater<std::uint64_t>>>(
            m, memory / 2, b);
    }
};

//! The list of n nodes in the order of list_order(n, seed), as a vector sorted by id (made with
//! a sorter of budget `memory`).
inline void make_list(flashxxl::machine& m, const flashxxl::block_sizes& b, std::uint64_t memory,
                      std::uint64_t n, std::uint64_t seed, flashxxl::vector<list_node>& out) {
    const list_order order(n, seed);
    flashxxl::sorter<list_node, node_by_id> s(m, memory, b);
    for (std::uint64_t k = 0; k < n; ++k)
        s.push(order.node_at(k));
    s.sort();
    typename flashxxl::vector<list_node>::stream_writer w(out);
    for (; !s.empty(); ++s)
        w.push(*s);
    w.finish();
}

} // namespace flashxxl_examples
