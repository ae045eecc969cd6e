// DFS benchmark (seeds/001 Section 4): block size Br vs Bw vs translation layer on the 2009 SSD, table and JSON.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/bfs_result_json.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;

const char* ssd_machine_config = "name=ssd-2009\nflash=memory,32GiB,memory name=ssd model=hama-ssd-2009\nplacement=single device=ssd\n";
const char* tl_machine_config =
    "name=ssd-2009-tl\nflash=memory,32GiB,memory name=ssd model=hama-ssd-2009 tl=on tl_page=128KiB tl_segment=16MiB\n"
    "placement=single device=ssd\n";

nlohmann::json run(const std::string& label, const char* config, const block_sizes& b, std::uint64_t side,
                   std::uint64_t memory, std::uint64_t cache, dfs_marks marks) {
    machine m = machine::from_config_text(config, label);
    grid_generator gen(side);
    std::uint64_t build = std::max<std::uint64_t>(memory, csr_build_min_memory(b));
    auto g = build_csr(m, build, b, gen, cache);
    dfs_options o;
    o.marks = marks;
    dfs_result r = dfs(m, *g, std::max<std::uint64_t>(memory, dfs_min_memory(b)), b, 0, o);
    const phase_stats& p = r.phases[0];
    io_counters host;
    for (role x : all_roles) host += p.of(x);
    std::printf("%-4s %-10s |V| %10llu  RDV %10s  WRV %10s  (host %10s / %10s)  modelled %10.1f s  wall %7.2f s\n",
                label.c_str(), to_string(marks), (unsigned long long)(side * side),
                format_bytes(double(p.total().read_bytes)).c_str(), format_bytes(double(p.total().write_bytes)).c_str(),
                format_bytes(double(host.read_bytes)).c_str(), format_bytes(double(host.write_bytes)).c_str(),
                p.busiest_modelled_s(), p.wall_s);
    std::fflush(stdout);
    return {{"config", label}, {"marks", to_string(marks)}, {"nodes", side * side}, {"visited", r.visited},
            {"phase", p}};
}

} // namespace

int main(int argc, char** argv) {
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    if (argc > 1 && std::string(argv[1]) == "--help") {
        std::cout << "usage: bench_graph_dfs [side=256] [memory=64MiB] [graph cache=16MiB] [marks=separate|with_nodes]\n"
                     "DFS on a side x side grid with B = Br = 128 KiB, B = Bw = 16 MiB and the translation layer\n"
                     "(128 KiB pages, 16 MiB segments) on the emulated 2009 SSD; prints a table, then JSON.\n";
        return 0;
    }
    try {
        std::uint64_t side = argc > 1 ? std::stoull(argv[1]) : 256;
        std::uint64_t memory = argc > 2 ? parse_size(argv[2]) : 64 * MiB;
        std::uint64_t cache = argc > 3 ? parse_size(argv[3]) : 16 * MiB;
        dfs_marks marks = argc > 4 ? parse_dfs_marks(argv[4]) : dfs_marks::separate;
        nlohmann::json all = nlohmann::json::array();
        const block_sizes br(128 * KiB, 128 * KiB), bw(16 * MiB, 16 * MiB);
        all.push_back(run("Br", ssd_machine_config, br, side, memory, cache, marks));
        all.push_back(run("Bw", ssd_machine_config, bw, side, memory, cache, marks));
        all.push_back(run("TL", tl_machine_config, br, side, memory, cache, marks));
        std::cout << all.dump() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "bench_graph_dfs: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
