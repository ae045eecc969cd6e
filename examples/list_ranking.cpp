// Example: list ranking by independent-set contraction and time-forward processing on flashxxl, checked.
//
// Usage: example_list_ranking [NODES [MEMORY_KIB]]   (default 200000 nodes, 512 KiB)
// Runs on an emulated in-memory SSD with Br = 4 KiB, Bw = 16 KiB so that small lists contract
// over several levels; checks every rank against its position in the list (rank = n - position)
// and prints the levels and I/O volumes. Exit status 0 when every rank is right, 1 when not.
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "flashxxl/machine/machine.hpp"
#include "list_ranking_flashxxl.hpp"

using namespace flashxxl;
using namespace flashxxl_examples;

int main(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::stoull(argv[1]) : 200000;
    const std::uint64_t memory = (argc > 2 ? std::stoull(argv[2]) : 512) * KiB;
    machine m = machine::from_config_text("name=example\n"
                                          "flash=memory,1GiB,memory name=ssd\n"
                                          "placement=single device=ssd\n",
                                          "example");
    const block_sizes b(4 * KiB, 16 * KiB);
    vector<list_node> nodes(m, vector<list_node>::min_memory(b), b);
    make_list(m, b, memory, n, 7, nodes);
    vector<node_rank> ranks(m, vector<node_rank>::min_memory(b), b);
    flashxxl_list_lib lib{m, b, memory};
    list_ranker<flashxxl_list_lib> ranker(lib);
    ranker.rank(nodes, ranks);

    const list_order order(n, 7);
    std::vector<std::uint64_t> want(n);
    for (std::uint64_t k = 0; k < n; ++k)
        want[order.id_at(k)] = n - k;
    std::uint64_t wrong = 0, seen = 0;
    for (vector<node_rank>::stream_reader in(ranks); !in.empty(); ++in, ++seen)
        wrong += in->id != seen || in->rank != want[seen];
    std::uint64_t read = 0, written = 0;
    for (const auto& s : m.stats()) {
        read += s.total.read_bytes;
        written += s.total.write_bytes;
    }
    std::cout << "list ranking: " << n << " nodes, " << ranker.levels() << " levels contracted; read " << read
              << ", written " << written << " bytes\n";
    if (wrong > 0 || seen != n) {
        std::cerr << "list ranking: WRONG (" << wrong << " wrong ranks, " << seen << " of " << n
                  << " nodes)\n";
        return 1;
    }
    std::cout << "list ranking: every rank matches the list's order\n";
    return 0;
}
