// Shared helpers of the BFS / CSR tests: edge lists with noise, an in-memory edge source, machines.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/graph/rmat_generator.hpp"
#include "flashxxl/graph/splitmix64.hpp"
#include "flashxxl/graph/tree_generator.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::testing {

//! An edge source over a std::vector<edge> (edge_source.hpp protocol).
class vector_edge_source {
public:
    vector_edge_source(std::uint64_t n, const std::vector<edge>& edges) : n_(n), edges_(&edges) {}
    bool next(edge& e) {
        if (i_ == edges_->size()) return false;
        e = (*edges_)[i_++];
        return true;
    }
    node_id node_count() const { return n_; }

private:
    std::uint64_t n_;
    const std::vector<edge>* edges_;
    std::size_t i_ = 0;
};

//! A graph for the tests: node count and raw edge list.
struct test_graph {
    std::string name;
    std::uint64_t n = 0;
    std::vector<edge> edges;
};

//! Every edge of a generator.
template <class Gen> test_graph collect(const std::string& name, Gen gen) {
    test_graph g;
    g.name = name;
    g.n = gen.node_count();
    edge e;
    while (gen.next(e))
        g.edges.push_back(e);
    return g;
}

//! Adds self-loops, repeated edges and reversed copies (deterministic), which the CSR builder
//! must drop.
inline test_graph with_noise(test_graph g, std::uint64_t seed = 7) {
    splitmix64 rng(seed);
    const std::size_t m = g.edges.size();
    for (std::size_t i = 0; i < m / 10 + 3 && g.n > 0; ++i) {
        node_id v = rng.below(g.n);
        g.edges.push_back({v, v});
        if (m > 0) {
            edge e = g.edges[rng.below(m)];
            g.edges.push_back(e);
            g.edges.push_back({e.v, e.u});
        }
    }
    return g;
}

//! The graph classes of the tests, a few thousand nodes each (built once).
inline const std::vector<test_graph>& test_graphs() {
    static const std::vector<test_graph> graphs = [] {
        std::vector<test_graph> v;
        v.push_back(with_noise(collect("random", random_graph_generator(6000, 15000, 3))));
        v.push_back(with_noise(collect("grid", grid_generator(60))));
        v.push_back(with_noise(collect("tree", tree_generator(5000, 40))));
        rmat_params p;
        p.scale = 12;
        p.edge_factor = 6;
        v.push_back(with_noise(collect("rmat", rmat_generator(p, 5))));
        // Disconnected: two grids side by side, plus isolated nodes at the end.
        test_graph d = collect("disconnected", grid_generator(30));
        test_graph r = collect("", random_graph_generator(2000, 2500, 11));
        for (const edge& e : r.edges)
            d.edges.push_back({e.u + 900, e.v + 900});
        d.n = 900 + 2000 + 50;
        v.push_back(with_noise(d));
        return v;
    }();
    return graphs;
}

//! A one-device memory-backed machine without a timing model.
inline machine plain_machine() {
    return machine::from_config_text(
        "name=plain\nflash=memory,1GiB,memory name=ssd\nplacement=single device=ssd\n", "plain-machine");
}

//! Two memory-backed devices (flash + hdd) without models, under `placement`.
inline machine two_device_machine(const std::string& placement) {
    return machine::from_config_text(
        "name=duo\nflash=memory,1GiB,memory name=ssd\ndisk=memory,1GiB,memory name=hdd\n"
        "placement=" +
            placement + "\n",
        "duo-machine");
}

//! The run-time block-size pairs of the parameterized graph tests, beside the (4 KiB, 16 KiB)
//! of the fixed ones: non-powers of two (Br = 12 KiB holds 1024 12-byte records, 20 KiB is
//! padded for them; Bw = 3 Br) and a wide ratio (Bw = 16 Br).
inline std::vector<block_sizes> runtime_block_pairs() {
    return {block_sizes(12 * KiB, 36 * KiB), block_sizes(20 * KiB, 60 * KiB), block_sizes(4 * KiB, 64 * KiB)};
}

//! "br12KiB_bw36KiB", a GoogleTest parameter name.
inline std::string pair_name(const block_sizes& b) {
    return "br" + std::to_string(b.br / KiB) + "KiB_bw" + std::to_string(b.bw / KiB) + "KiB";
}

} // namespace flashxxl::testing

#include <ostream>

namespace flashxxl {
//! GoogleTest prints a block_sizes parameter as "Br = 12KiB, Bw = 36KiB".
inline void PrintTo(const block_sizes& b, std::ostream* os) { *os << b.describe(); }
} // namespace flashxxl

#include <gtest/gtest.h>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "graph/reference_graph.hpp"

namespace flashxxl::testing {

//! Checks a recorded BFS against Boost.Graph: equal levels, and each parent one level up and
//! adjacent (through the raw edge list).
inline void expect_levels_match_boost(const test_graph& tg, std::uint64_t source,
                                      const bfs_level_recorder& rec) {
    std::vector<std::uint64_t> want = boost_bfs_levels(tg.n, tg.edges, source);
    std::uint64_t mismatches = 0;
    for (std::uint64_t v = 0; v < tg.n; ++v) {
        std::uint64_t got = rec.level[v] == no_node ? unreached : rec.level[v];
        if (got != want[v] && ++mismatches <= 5)
            ADD_FAILURE() << tg.name << ": node " << v << " level " << got << ", Boost says " << want[v];
    }
    EXPECT_EQ(mismatches, 0u) << tg.name;
    std::set<std::pair<node_id, node_id>> arcs;
    for (const edge& e : tg.edges) {
        arcs.insert({e.u, e.v});
        arcs.insert({e.v, e.u});
    }
    std::uint64_t bad_parents = 0;
    for (std::uint64_t v = 0; v < tg.n; ++v) {
        if (rec.level[v] == no_node || v == source) continue;
        node_id p = rec.parent[v];
        bool ok = p < tg.n && rec.level[p] + 1 == rec.level[v] && arcs.count({p, v});
        if (!ok && ++bad_parents <= 5) ADD_FAILURE() << tg.name << ": node " << v << " has bad parent " << p;
    }
    EXPECT_EQ(bad_parents, 0u) << tg.name;
    EXPECT_EQ(rec.parent[source], source);
}

//! The I/O shapes of the model with block sizes `b` in counters `c`: every request a whole
//! number of Br blocks, every read at least Br, every write at most Bw.
inline void expect_block_shapes(const io_counters& c, const block_sizes& b, const std::string& what) {
    EXPECT_EQ(c.read_bytes % b.br, 0u)
        << what << ": reads of " << c.read_bytes << " bytes for " << b.describe();
    EXPECT_EQ(c.write_bytes % b.br, 0u)
        << what << ": writes of " << c.write_bytes << " bytes for " << b.describe();
    EXPECT_GE(c.read_bytes, c.read_ops * b.br) << what << ": a read below Br for " << b.describe();
    EXPECT_LE(c.write_bytes, c.write_ops * b.bw) << what << ": a write above Bw for " << b.describe();
}

//! An invalid pair (Bw not a multiple of Br) as the algorithms get it: built unchecked.
inline block_sizes invalid_pair() {
    block_sizes b;
    b.br = 12 * KiB;
    b.bw = 32 * KiB;
    return b;
}

//! Runs f and expects a config_error whose message names both values of invalid_pair().
template <class F> void expect_invalid_pair_rejected(F&& f) {
    try {
        f();
        ADD_FAILURE() << "an invalid block-size pair was accepted";
    } catch (const config_error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("12KiB"), std::string::npos) << msg;
        EXPECT_NE(msg.find("32KiB"), std::string::npos) << msg;
    }
}

} // namespace flashxxl::testing
