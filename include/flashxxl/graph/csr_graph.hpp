// An undirected graph in CSR form on a machine: offsets and targets vectors (role static_data).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! What building a CSR graph did with its edge list (csr_builder.hpp).
struct csr_build_stats {
    std::uint64_t nodes = 0;          //!< |V| (declared node count of the source)
    std::uint64_t input_edges = 0;    //!< edges read, as given
    std::uint64_t self_loops = 0;     //!< input edges with u == v, dropped
    std::uint64_t duplicate_arcs = 0; //!< arcs (v, w) dropped because they repeated after symmetrizing
    std::uint64_t arcs = 0;           //!< adjacency entries kept (each undirected edge twice)
    std::uint64_t passes = 0;         //!< read passes of the external sort (0: it fit in memory)
    //! Undirected edges kept (arcs / 2).
    std::uint64_t edges() const { return arcs / 2; }
};

//! A symmetric graph on nodes [0, n) stored as two external vectors: offsets (n + 1 entries,
//! 64-bit) and targets (the arcs sorted by (v, w), 32-bit ids). Both have role static_data
//! (written once, read randomly: on flash under flash_aware). Random access to adjacency lists
//! goes through the vectors' Br page caches (budget `cache_memory` each); sequential scans use
//! arc_stream. The block sizes are a run-time value (blocks()): one type for every (Br, Bw).
//! Build one with build_csr (csr_builder.hpp). Not thread-safe.
class csr_graph {
public:
    using offset_vector = vector<std::uint64_t>;
    using target_vector = vector<bfs_node>;

    //! An empty graph whose vectors live on `m` with block sizes `b` and `cache_memory` bytes of
    //! page cache each (at least vector::min_memory(b)); config_error for an invalid pair.
    csr_graph(machine& m, std::uint64_t cache_memory, const block_sizes& b, role r = role::static_data)
        : machine_(&m), blocks_((b.validate(), b)),
          offsets_(m, std::max(cache_memory, offset_vector::min_memory(b)), b, r),
          targets_(m, std::max(cache_memory, target_vector::min_memory(b)), b, r) {}

    //! |V|.
    std::uint64_t node_count() const { return offsets_.size() == 0 ? 0 : offsets_.size() - 1; }
    //! Adjacency entries (2 x undirected edges).
    std::uint64_t arc_count() const { return targets_.size(); }
    machine& get_machine() const { return *machine_; }
    //! The block sizes of both vectors.
    const block_sizes& blocks() const { return blocks_; }
    //! How the graph was built.
    const csr_build_stats& build_stats() const { return stats_; }
    //! Bytes on the devices (offsets + targets, without block padding).
    std::uint64_t bytes() const { return offsets_.size() * 8 + targets_.size() * sizeof(bfs_node); }

    //! [begin, end) of v's list in targets() (random access through the page cache).
    std::pair<std::uint64_t, std::uint64_t> range(std::uint64_t v) {
        if (v >= node_count())
            throw invalid_request("csr_graph: node " + std::to_string(v) +
                                  " out of range (|V| = " + std::to_string(node_count()) + ")");
        return {offsets_.get(v), offsets_.get(v + 1)};
    }
    //! Calls f(w) for every neighbour w of v, in increasing order of w.
    template <class F> void for_each_neighbour(std::uint64_t v, F&& f) {
        auto [b, e] = range(v);
        for (std::uint64_t i = b; i < e; ++i)
            f(targets_.get(i));
    }
    std::uint64_t degree(std::uint64_t v) {
        auto [b, e] = range(v);
        return e - b;
    }

    offset_vector& offsets() { return offsets_; }
    target_vector& targets() { return targets_; }

    //! Streams every arc (v, w) in (v, w) order with Br reads of both vectors.
    //! Memory: memory_usage(g.blocks()), a stream_reader of each vector.
    class arc_stream {
    public:
        explicit arc_stream(csr_graph& g)
            : offsets_(g.offsets_, 0, g.offsets_.size()), targets_(g.targets_, 0, g.targets_.size()) {
            if (!offsets_.empty()) ++offsets_; // offsets[0] == 0
            advance_node();
        }
        //! Two readers with one block of prefetch each: 4 x Br.
        static std::uint64_t memory_usage(const block_sizes& b) {
            return offset_vector::stream_reader::memory_usage(b, 1) +
                   target_vector::stream_reader::memory_usage(b, 1);
        }
        bool empty() const { return targets_.empty(); }
        //! The current arc.
        bfs_arc operator*() const { return bfs_arc{bfs_node(v_), *targets_}; }
        arc_stream& operator++() {
            ++targets_;
            ++pos_;
            advance_node();
            return *this;
        }

    private:
        // Moves v_ to the node owning arc pos_ (skipping empty lists).
        void advance_node() {
            while (!offsets_.empty() && *offsets_ <= pos_) {
                ++offsets_;
                ++v_;
            }
        }
        typename offset_vector::stream_reader offsets_;
        typename target_vector::stream_reader targets_;
        std::uint64_t v_ = 0, pos_ = 0;
    };

    //! Used by the builder.
    void set_build_stats(const csr_build_stats& s) { stats_ = s; }

private:
    machine* machine_;
    block_sizes blocks_;
    offset_vector offsets_;
    target_vector targets_;
    csr_build_stats stats_;
};

} // namespace flashxxl
