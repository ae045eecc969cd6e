// STXXL 1.4.1's side of the list ranking (examples/list_ranking.hpp): vectors, buffered streams, sorters, a
// PQ.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include <stxxl/priority_queue>
#include <stxxl/sorter>
#include <stxxl/vector>

#include "list_ranking.hpp" // examples/

namespace bench_examples {

using flashxxl_examples::list_node;
using flashxxl_examples::node_rank;

constexpr unsigned stxxl_list_block = 2 * 1024 * 1024;
//! STXXL fixes its priority queue's internal memory at compile time; the pools get the rest of M / 2.
constexpr std::uint64_t stxxl_list_pq_internal = 16 * 1024 * 1024;

//! A min-queue of ids for STXXL (its queue pops the largest under the comparator).
struct id_greater {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a > b; }
    std::uint64_t min_value() const { return std::numeric_limits<std::uint64_t>::max(); }
};
typedef stxxl::PRIORITY_QUEUE_GENERATOR<std::uint64_t, id_greater, stxxl_list_pq_internal,
                                        (std::uint64_t(1) << 28) / 1024>::result stxxl_id_queue;

//! What list_ranker needs, made of STXXL containers: each sorter gets M / 2, the priority queue
//! its fixed internal memory plus pools up to M / 2; vectors with a small page cache (they are
//! only streamed, by bufreader and bufwriter).
struct stxxl_list_lib {
    std::uint64_t memory;

    template <class T>
    using vector_type = typename stxxl::VECTOR_GENERATOR<T, 1, 2, stxxl_list_block>::result;
    template <class T> struct writer_type {
        typename vector_type<T>::bufwriter_type w;
        explicit writer_type(vector_type<T>& v) : w(v) {}
        void push(const T& x) { w << x; }
        void finish() { w.finish(); }
    };
    //! An STXXL sorter with operator-> (list_ranker reads fields through it).
    template <class T, class Cmp> struct sorter_type : stxxl::sorter<T, Cmp, stxxl_list_block> {
        sorter_type(const Cmp& cmp, std::uint64_t m) : stxxl::sorter<T, Cmp, stxxl_list_block>(cmp, m) {}
        const T* operator->() const { return &**this; }
    };

    std::uint64_t base_items() const { return memory / 4 / sizeof(list_node); }
    template <class T> std::unique_ptr<vector_type<T>> new_vector() {
        return std::make_unique<vector_type<T>>();
    }
    template <class T> auto writer(vector_type<T>& v) { return std::make_unique<writer_type<T>>(v); }
    template <class T> auto reader(vector_type<T>& v) {
        return std::make_unique<typename vector_type<T>::bufreader_type>(v);
    }
    template <class T, class Cmp> auto new_sorter(Cmp cmp) {
        return std::make_unique<sorter_type<T, Cmp>>(cmp, memory / 2);
    }
    auto new_queue() {
        const std::uint64_t pools = memory / 2 - stxxl_list_pq_internal;
        return std::make_unique<stxxl_id_queue>(pools / 2, pools / 2);
    }
};

//! The list of list_order(n, seed) as an STXXL vector sorted by id (made with an stxxl::sorter).
inline void make_list_stxxl(std::uint64_t memory, std::uint64_t n, std::uint64_t seed,
                            stxxl_list_lib::vector_type<list_node>& out) {
    const flashxxl_examples::list_order order(n, seed);
    stxxl::sorter<list_node, flashxxl_examples::node_by_id, stxxl_list_block> s(
        flashxxl_examples::node_by_id(), memory);
    for (std::uint64_t k = 0; k < n; ++k)
        s.push(order.node_at(k));
    s.sort();
    stxxl_list_lib::vector_type<list_node>::bufwriter_type w(out);
    for (; !s.empty(); ++s)
        w << *s;
    w.finish();
}

} // namespace bench_examples
