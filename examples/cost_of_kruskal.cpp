// Stating and checking the cost of one's own algorithm: Kruskal's forest by flashxxl::sort, predicted,
// measured, compared.
//
// Usage: example_cost_of_kruskal [nodes] [edges]   (default 200000 nodes, 1500000 edges; 8 s on 2 cores)
//
// The algorithm: write the edges (u, v, weight) into an external vector, sort them by weight, scan them once
// with an in-memory union-find and write the forest's edges into a second vector. Its cost in the unit-cost
// flash model (seeds/001), composed from the predictors of include/flashxxl/cost/:
//   fill(E) + sort(E, M) + scan(E) + fill(F)
// The program states that prediction before it runs, measures each phase (flashxxl::phase) and each structure
// (flashxxl::named_structure), prints both with their ratio and the JSON document, and fails when a measured
// volume is not within 10 % of its prediction. docs/cost-model.md walks through it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/cost_report.hpp"
#include "flashxxl/cost/named_structure.hpp"
#include "flashxxl/cost/phase.hpp"
#include "flashxxl/cost/predict_containers.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;

struct weighted_edge {
    std::uint32_t u, v;
    std::uint64_t weight;
};
struct by_weight {
    bool operator()(const weighted_edge& a, const weighted_edge& b) const { return a.weight < b.weight; }
};

//! An in-memory union-find with path halving (the nodes fit in memory; the edges do not).
struct union_find {
    std::vector<std::uint32_t> parent;
    explicit union_find(std::uint32_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    std::uint32_t find(std::uint32_t x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
    bool unite(std::uint32_t a, std::uint32_t b) {
        a = find(a), b = find(b);
        if (a == b) return false;
        parent[a] = b;
        return true;
    }
};

//! One line: what was predicted, what was measured, their ratio.
bool compare(const std::string& what, const io_prediction& predicted, const io_counters& measured) {
    auto ratio = [](double m, double p) { return p > 0 ? m / p : (m == 0 ? 1.0 : 0.0); };
    const double r = ratio(double(measured.read_bytes), predicted.read_bytes);
    const double w = ratio(double(measured.write_bytes), predicted.write_bytes);
    std::printf("  %-22s predicted RDV %10.2f MiB WRV %10.2f MiB | measured RDV %10.2f MiB WRV %10.2f MiB | "
                "ratio %.3f %.3f\n",
                what.c_str(), predicted.read_bytes / double(MiB), predicted.write_bytes / double(MiB),
                double(measured.read_bytes) / double(MiB), double(measured.write_bytes) / double(MiB), r, w);
    return r > 0.9 && r < 1.1 && w > 0.9 && w < 1.1;
}

io_counters host_io(const phase_record& p) { return cost_model::host_total(p.devices); }

} // namespace

int main(int argc, char** argv) {
    const std::uint32_t nodes = argc > 1 ? std::uint32_t(std::strtoul(argv[1], nullptr, 10)) : 200000;
    const std::uint64_t edges = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1500000;
    machine m = machine::from_config_text("name=example\nflash=memory,512MiB,memory name=ssd "
                                          "model=hama-ssd-2009\nplacement=single device=ssd\n",
                                          "cost_of_kruskal");
    const block_sizes b(32 * KiB, 256 * KiB);
    const std::uint64_t M = 4 * MiB; // the sort's budget: the edges (24 MiB by default) do not fit
    const std::uint64_t item = sizeof(weighted_edge);

    // 1. The prediction, from N, the item size, M, Br and Bw alone.
    const io_prediction generate = predict::fill(edges, item, b);
    const io_prediction sorting = predict::sort(edges, item, M, b);
    const io_prediction scanning = predict::scan(edges, item, b);
    const io_prediction forest_out =
        predict::fill(nodes - 1, item, b); // at most |V| - 1 edges; checked below
    const predict::sorter_plan plan =
        predict::plan_sorter(edges, item, M - predict::sort_streams(b), b, true);
    std::printf("Kruskal on %u nodes, %llu edges of %llu B, M = %s, %s: the sort forms %llu runs and merges "
                "them in %llu pass(es)\n",
                nodes, static_cast<unsigned long long>(edges), static_cast<unsigned long long>(item),
                format_bytes(double(M)).c_str(), b.describe().c_str(),
                static_cast<unsigned long long>(plan.runs),
                static_cast<unsigned long long>(plan.merge_levels + 1));

    // 2. The run: each structure named, each phase measured.
    const cost_model model = cost_model::for_device(m.dev(0), b);
    cost_report report(model);
    named_structure edge_list("edge list", 4 * MiB), forest("forest", 4 * MiB), runs("sort runs", M);
    report.add(edge_list);
    report.add(runs);
    report.add(forest);
    vector<weighted_edge> e(m, edge_list.budget(), b);
    vector<weighted_edge> f(m, forest.budget(), b);
    {
        phase p(m, "generate", &report.phases());
        vector<weighted_edge>::stream_writer w(e);
        std::mt19937_64 rng(2009);
        for (std::uint64_t i = 0; i < edges; ++i)
            w.push({std::uint32_t(rng() % nodes), std::uint32_t(rng() % nodes), rng()});
        w.finish();
    }
    {
        phase p(m, "sort by weight", &report.phases());
        flashxxl::sort(e, by_weight(), runs.budget()); // the sorter's runs count as "sort runs"
    }
    std::uint64_t forest_edges = 0;
    {
        phase p(m, "scan and unite", &report.phases());
        union_find uf(nodes);
        vector<weighted_edge>::stream_writer w(f);
        std::uint64_t previous = 0;
        for (vector<weighted_edge>::stream_reader r(e); !r.empty(); ++r) {
            if (r->weight < previous) {
                std::cerr << "cost_of_kruskal: the edges are not sorted by weight\n";
                return 1;
            }
            previous = r->weight;
            if (uf.unite(r->u, r->v)) {
                w.push(*r);
                ++forest_edges;
            }
        }
        w.finish();
    }

    // 3. Measured beside predicted, per phase. The forest's size is known only now: its fill is
    // predicted for the edges it got (the bound |V| - 1 above is what one states in advance).
    const io_prediction forest_actual = predict::fill(forest_edges, item, b);
    std::printf("  forest: %llu edges (at most %u predicted in advance)\n",
                static_cast<unsigned long long>(forest_edges), nodes - 1);
    bool ok = forest_edges <= nodes - 1 && forest_actual.write_bytes <= forest_out.write_bytes;
    ok = compare("generate", generate, host_io(report.phases()[0])) && ok;
    ok = compare("sort by weight", sorting, host_io(report.phases()[1])) && ok;
    ok = compare("scan and unite", scanning + forest_actual, host_io(report.phases()[2])) && ok;
    // Per structure: the edge list is written twice (generation, sorted output) and read twice
    // (sort input, scan); the sort's runs are the sorter's alone; the forest is written once.
    ok = compare("edge list (structure)", generate + generate + scanning + scanning, edge_list.counters()) &&
         ok;
    ok = compare("sort runs (structure)", predict::sorter(edges, item, M - predict::sort_streams(b), b, true),
                 runs.counters()) &&
         ok;
    ok = compare("forest (structure)", forest_actual, forest.counters()) && ok;
    const cost_figures whole = model.cost(cost_model::host_total(m.stats()));
    std::printf(
        "  whole run: x = %.0f reads of Br, y = %.0f writes of Bw, unit cost %.2f MiB, general flash model "
        "x + %.1f y = %.0f, modelled %.3f s\n",
        whole.reads, whole.writes, whole.unit_cost_bytes / double(MiB), whole.write_penalty, whole.flash_cost,
        whole.modelled_s);
    std::cout << report.json().dump(2) << "\n";
    if (!ok) {
        std::cerr << "cost_of_kruskal: a measured volume is not within 10 % of its prediction\n";
        return 1;
    }
    return 0;
}
