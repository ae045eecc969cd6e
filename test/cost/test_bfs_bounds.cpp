// The BFS bounds of cost/predict_bfs.hpp against measured volumes: MR_BFS and MM_BFS (both phases) stay at
// or below their bounds on grids and random graphs with two block pairs; the CSR build is within 10 %.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/predict_bfs.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

machine memory_machine() {
    return machine::from_config_text(
        "name=cost\nflash=memory,256MiB,memory name=ssd\nplacement=single device=ssd\n", "bfs-bound-test");
}

//! A graph held in memory: its edge list (as the generator gives it) and symmetric adjacency.
struct memory_graph {
    std::string name;
    std::uint64_t nodes = 0;
    std::vector<edge> edges;
    std::vector<std::vector<std::uint64_t>> adjacency; // sorted, no repeats, no self-loops

    std::uint64_t arcs() const {
        std::uint64_t a = 0;
        for (const auto& l : adjacency)
            a += l.size();
        return a;
    }
    //! Hops from the nearest of `sources` (-1: unreached).
    std::vector<std::int64_t> distances(const std::vector<std::uint64_t>& sources) const {
        std::vector<std::int64_t> d(nodes, -1);
        std::vector<std::uint64_t> frontier;
        for (std::uint64_t s : sources) {
            d[s] = 0;
            frontier.push_back(s);
        }
        while (!frontier.empty()) {
            std::vector<std::uint64_t> next;
            for (std::uint64_t v : frontier)
                for (std::uint64_t w : adjacency[v])
                    if (d[w] < 0) {
                        d[w] = d[v] + 1;
                        next.push_back(w);
                    }
            frontier = std::move(next);
        }
        return d;
    }
    //! Largest distance + 1: the BFS levels from `sources` (one source), or the growth rounds
    //! of the clustering (its masters).
    std::uint64_t depth(const std::vector<std::uint64_t>& sources) const {
        const std::vector<std::int64_t> d = distances(sources);
        return std::uint64_t(*std::max_element(d.begin(), d.end()) + 1);
    }
};

template <class Gen> memory_graph collect(const std::string& name, Gen gen) {
    memory_graph g;
    g.name = name;
    edge e;
    while (gen.next(e))
        g.edges.push_back(e);
    g.nodes = gen.node_count();
    g.adjacency.resize(g.nodes);
    for (const edge& x : g.edges)
        if (x.u != x.v) {
            g.adjacency[x.u].push_back(x.v);
            g.adjacency[x.v].push_back(x.u);
        }
    for (auto& l : g.adjacency) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
    }
    return g;
}

//! The edge list as an edge source (edge_source.hpp protocol).
class list_source {
public:
    explicit list_source(const memory_graph& g) : g_(&g) {}
    bool next(edge& e) {
        if (i_ == g_->edges.size()) return false;
        e = g_->edges[i_++];
        return true;
    }
    node_id node_count() const { return g_->nodes; }

private:
    const memory_graph* g_;
    std::size_t i_ = 0;
};

//! measured / bound of reads and writes; fails where measured exceeds the bound.
struct ratio {
    double read = 0, write = 0;
};
ratio check_below(const phase_stats& p, const io_prediction& bound, const std::string& what) {
    const io_counters c = cost_model::host_total(p.devices);
    EXPECT_TRUE(bound.bound) << what;
    EXPECT_LE(double(c.read_bytes), bound.read_bytes) << what;
    EXPECT_LE(double(c.write_bytes), bound.write_bytes) << what;
    const ratio r{bound.read_bytes > 0 ? double(c.read_bytes) / bound.read_bytes : 0,
                  bound.write_bytes > 0 ? double(c.write_bytes) / bound.write_bytes : 0};
    std::printf("%-60s RDV %10llu / %12.0f = %.4f  WRV %10llu / %12.0f = %.4f\n", what.c_str(),
                (unsigned long long)c.read_bytes, bound.read_bytes, r.read, (unsigned long long)c.write_bytes,
                bound.write_bytes, r.write);
    return r;
}

//! The smallest share of its bound a phase's volume (reads + writes) came to in this test:
//! docs/cost-model.md states the factor, the test keeps it.
double volume_ratio(const phase_stats& p, const io_prediction& bound) {
    const io_counters c = cost_model::host_total(p.devices);
    return double(c.read_bytes + c.write_bytes) / bound.volume();
}

struct bfs_setup {
    block_sizes b;
    std::uint64_t memory = 0;
    std::uint64_t cache = 64 * KiB; // each graph vector's page cache
};

std::unique_ptr<csr_graph> build(machine& m, const memory_graph& mg, const bfs_setup& s) {
    list_source src(mg);
    const std::uint64_t build_memory = std::max<std::uint64_t>(256 * KiB, csr_build_min_memory(s.b));
    phase_meter meter(m, "csr");
    auto g = build_csr(m, build_memory, s.b, src, s.cache);
    const phase_stats p = meter.finish();
    // The build is an estimate, not a bound: within 10 % of its closed form.
    const csr_build_stats& st = g->build_stats();
    const io_prediction want = predict::csr_build(2 * (st.input_edges - st.self_loops), g->node_count(),
                                                  g->arc_count(), build_memory, s.b);
    const io_counters c = cost_model::host_total(p.devices);
    EXPECT_NEAR(double(c.write_bytes), want.write_bytes, 0.1 * want.write_bytes) << mg.name;
    EXPECT_NEAR(double(c.read_bytes), want.read_bytes, 0.1 * want.read_bytes + 1) << mg.name;
    return g;
}

//! MR_BFS with each way of reading the lists; returns the smallest volume / bound.
double check_mr(const memory_graph& mg, const bfs_setup& s) {
    double lowest = 1;
    for (mr_adjacency how : {mr_adjacency::random, mr_adjacency::scan, mr_adjacency::automatic}) {
        machine m = memory_machine();
        auto g = build(m, mg, s);
        mr_bfs_options o;
        o.adjacency = how;
        const bfs_result r = mr_bfs(m, *g, s.memory, s.b, 0, o);
        const predict::bfs_graph shape{mg.nodes, mg.arcs(), mg.depth({0})};
        EXPECT_EQ(r.levels(), shape.levels) << mg.name;
        const io_prediction bound = predict::mr_bfs_bound(shape, s.memory, s.b, s.b, s.cache, how);
        const std::string what = "mr " + std::string(to_string(how)) + ", " + mg.name + ", " +
                                 s.b.describe() + ", M " + format_bytes(double(s.memory));
        check_below(r.phases.at(0), bound, what);
        lowest = std::min(lowest, volume_ratio(r.phases.at(0), bound));
    }
    return lowest;
}

//! MM_BFS with default options, with the pool on the device (pool_memory 0) and with the cluster
//! file in blocks of its own (4 KiB / 16 KiB, as a hybrid machine's flash would have it); returns
//! the smallest volume / bound of each phase.
std::pair<double, double> check_mm(const memory_graph& mg, const bfs_setup& s) {
    double pre = 1, phase = 1;
    const block_sizes small_file(4 * KiB, 16 * KiB);
    for (const std::string variant : {"mm", "mm pool on device", "mm file in 4/16 KiB"}) {
        machine m = memory_machine();
        auto g = build(m, mg, s);
        mm_bfs_options o;
        if (variant == "mm pool on device") o.pool_memory = 0;
        if (variant == "mm file in 4/16 KiB") {
            if (s.b == small_file) continue;
            o.cluster_blocks = small_file;
        }
        const block_sizes file = o.cluster_blocks ? *o.cluster_blocks : s.b;
        const bfs_result r = mm_bfs(m, *g, s.memory, s.b, 0, o);
        const std::uint64_t mu = default_mu(file.br, mg.nodes);
        EXPECT_EQ(r.mu, mu);
        std::vector<std::uint64_t> masters{0};
        for (std::uint64_t v = 1; v < mg.nodes; ++v)
            if (is_master(v, o.seed, mu)) masters.push_back(v);
        const predict::mm_clusters c{predict::count_masters(mg.nodes, 0, mu, o.seed), mg.depth(masters)};
        EXPECT_EQ(c.clusters, r.clusters) << mg.name;
        EXPECT_EQ(c.rounds, r.growth_rounds) << mg.name;
        const predict::bfs_graph shape{mg.nodes, mg.arcs(), mg.depth({0})};
        const std::string what =
            variant + ", " + mg.name + ", " + s.b.describe() + ", M " + format_bytes(double(s.memory));
        const io_prediction pb = predict::mm_preprocessing_bound(shape, c, s.memory, s.b, file, s.b);
        const io_prediction bb = predict::mm_bfs_phase_bound(shape, c, s.memory, s.b, file, o);
        check_below(r.phases.at(0), pb, what + " preprocessing");
        check_below(r.phases.at(1), bb, what + " bfs");
        pre = std::min(pre, volume_ratio(r.phases.at(0), pb));
        phase = std::min(phase, volume_ratio(r.phases.at(1), bb));
    }
    return {pre, phase};
}

std::vector<memory_graph> graphs() {
    return {collect("grid 100^2", grid_generator(100)),
            collect("random 10000 nodes 20000 edges", random_graph_generator(10000, 20000, 7))};
}

std::vector<bfs_setup> setups() {
    std::vector<bfs_setup> s;
    for (const block_sizes b : {block_sizes(4 * KiB, 16 * KiB), block_sizes(8 * KiB, 64 * KiB)})
        for (std::uint64_t memory : {std::uint64_t(0), std::uint64_t(8 * MiB)})
            s.push_back(
                {b, memory ? memory : std::max(mm_bfs_min_memory(b), mr_bfs_min_memory(b)) + 64 * KiB});
    return s;
}

} // namespace

// The floors are below the factors docs/cost-model.md states (volume over bound: MR 0.46 to 0.91; MM's
// preprocessing 0.61 to 1, its bfs phase 0.015 to 0.55): a bound far looser than that has lost touch.
TEST(BfsBounds, MrBfsStaysBelowItsBound) {
    for (const memory_graph& g : graphs())
        for (const bfs_setup& s : setups())
            EXPECT_GE(check_mr(g, s), 0.1) << g.name << ", " << s.b.describe();
}

TEST(BfsBounds, MmBfsPhasesStayBelowTheirBounds) {
    for (const memory_graph& g : graphs())
        for (const bfs_setup& s : setups()) {
            const auto [pre, phase] = check_mm(g, s);
            EXPECT_GE(pre, 0.3) << g.name << ", " << s.b.describe();
            EXPECT_GE(phase, 0.005) << g.name << ", " << s.b.describe();
        }
}

TEST(BfsBounds, SorterPartsBoundCoversAnySplit) {
    // The sorts of a BFS's levels (or growth rounds) take parts of one total: whatever the split,
    // their summed closed forms stay within sorter_parts_bound, and nothing is predicted when the
    // total fits one run.
    const block_sizes b(16 * KiB, 64 * KiB);
    const std::uint64_t memory = 2 * MiB, total = 3000000, item = 12;
    std::uint64_t seed = 12345;
    for (std::uint64_t parts : {1u, 2u, 7u, 40u, 300u}) {
        std::vector<std::uint64_t> sizes(parts, 0);
        for (std::uint64_t i = 0; i < total; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            // uneven: part k gets about (2k + 1) / parts^2 of the items
            const double x = double((seed >> 33) % (parts * parts));
            sizes[std::min<std::uint64_t>(parts - 1, std::uint64_t(std::sqrt(x)))] += 1;
        }
        io_prediction sum;
        for (std::uint64_t n : sizes)
            sum += predict::sorter(n, item, memory, b);
        const io_prediction bound = predict::sorter_parts_bound(total, item, memory, b);
        EXPECT_TRUE(bound.bound);
        EXPECT_LE(sum.read_bytes, bound.read_bytes) << parts << " parts";
        EXPECT_LE(sum.write_bytes, bound.write_bytes) << parts << " parts";
    }
    const predict::sorter_plan plan = predict::plan_sorter(1, item, memory, b);
    EXPECT_EQ(predict::sorter_parts_bound(plan.run_items, item, memory, b).volume(), 0);
}
