// Example: Kruskal's minimum spanning forest of a random graph through a flashxxl pipeline, checked in
// memory.
//
// Usage: example_kruskal_forest [NODES [EDGES [MEMORY_MIB]]]   (default 20000 nodes, 60000 edges, 1 MiB)
// Runs on an emulated in-memory SSD with Br = 4 KiB, Bw = 16 KiB so that even small inputs
// form several runs; compares the forest with kruskal_in_memory and prints the I/O volumes.
// Exit status 0 when the forest is right, 1 when not.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "flashxxl/machine/machine.hpp"
#include "kruskal_forest.hpp"

using namespace flashxxl;
using namespace flashxxl_examples;

int main(int argc, char** argv) {
    const std::uint32_t nodes = argc > 1 ? std::uint32_t(std::stoul(argv[1])) : 20000;
    const std::uint64_t edges = argc > 2 ? std::stoull(argv[2]) : 60000;
    const std::uint64_t memory = (argc > 3 ? std::stoull(argv[3]) : 1) * MiB;
    const std::uint64_t seed = 42;
    machine m = machine::from_config_text("name=example\n"
                                          "flash=memory,256MiB,memory name=ssd\n"
                                          "placement=single device=ssd\n",
                                          "example");
    const block_sizes b(4 * KiB, 16 * KiB);
    vector<weighted_edge> forest(m, vector<weighted_edge>::min_memory(b), b);
    const kruskal_report r = kruskal_forest(m, memory, b, nodes, edges, seed, forest);

    std::vector<weighted_edge> want = kruskal_in_memory(nodes, edges, seed), got;
    for (vector<weighted_edge>::stream_reader in(forest); !in.empty(); ++in)
        got.push_back(*in);
    std::uint64_t read = 0, written = 0;
    for (const auto& s : m.stats()) {
        read += s.total.read_bytes;
        written += s.total.write_bytes;
    }
    std::cout << "kruskal: " << nodes << " nodes, " << edges << " edges, forest of " << r.forest_edges
              << " edges; sort passes " << r.sort_passes << ", peak memory " << r.peak_memory << " of "
              << memory << " bytes; read " << read << ", written " << written << " bytes\n";
    if (got != want || r.peak_memory > memory) {
        std::cerr << "kruskal: WRONG (forest of " << got.size() << " edges, expected " << want.size()
                  << "; peak " << r.peak_memory << ")\n";
        return 1;
    }
    std::cout << "kruskal: forest matches the in-memory oracle\n";
    return 0;
}
