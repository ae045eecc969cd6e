// DFS benchmark (seeds/001 Section 4): block size Br vs Bw vs translation layer on the 2009 SSD, table and JSON.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "flashxxl/graph/dfs_experiment.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;

//! Reads key=value arguments into the options; throws config_error naming a bad one.
dfs_experiment_options parse(int argc, char** argv) {
    dfs_experiment_options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto eq = a.find('=');
        if (eq == std::string::npos) throw config_error("argument '" + a + "' (expected key=value; see --help)");
        std::string k = a.substr(0, eq), v = a.substr(eq + 1);
        if (k == "side") o.side = std::stoull(v);
        else if (k == "br") o.br = parse_size(v);
        else if (k == "bw") o.bw = parse_size(v);
        else if (k == "memory") o.memory = parse_size(v);
        else if (k == "cache") o.graph_cache = parse_size(v);
        else if (k == "device") o.device_bytes = parse_size(v);
        else if (k == "marks") o.marks = parse_dfs_marks(v);
        else if (k == "share") o.cache_share = std::stod(v);
        else if (k == "shuffle") o.shuffle_seed = std::stoull(v);
        else throw config_error("unknown key '" + k + "' (expected side, br, bw, memory, cache, device, marks, share, shuffle)");
    }
    return o;
}

} // namespace

int main(int argc, char** argv) {
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    if (argc > 1 && std::string(argv[1]) == "--help") {
        std::cout << "usage: bench_graph_dfs [side=256] [br=4KiB] [bw=512KiB] [memory=4MiB] [cache=1MiB] [device=1GiB]\n"
                     "                       [marks=separate|with_nodes] [share=0] [shuffle=1]\n"
                     "DFS on a side x side grid with B = Br, B = Bw and the translation layer (pages Br, segments\n"
                     "Bw) on the emulated 2009 Hama SSD (seeds/001 Section 4); share=0.5 caps every cache at half\n"
                     "its structure, as the paper's with-nodes run did; shuffle=S numbers the nodes\n"
                     "through a permutation seeded S (0: row-major). Prints a table, then JSON.\n";
        return 0;
    }
    try {
        const dfs_experiment_options o = parse(argc, argv);
        nlohmann::json all = nlohmann::json::array();
        std::printf("DFS, %s marks, %llu x %llu grid, Br %s, Bw %s, M %s, cache share %.2f\n", to_string(o.marks),
                    (unsigned long long)o.side, (unsigned long long)o.side, format_bytes(double(o.br)).c_str(),
                    format_bytes(double(o.bw)).c_str(), format_bytes(double(o.memory)).c_str(), o.cache_share);
        for (const dfs_experiment_row& r : run_dfs_experiment(o)) {
            if (!r.ran) {
                std::printf("%-3s not run: %s\n", r.label.c_str(), r.why_not.c_str());
                all.push_back({{"config", r.label}, {"ran", false}, {"why_not", r.why_not}});
                continue;
            }
            std::printf("%-3s RDV %10s  WRV %10s  modelled %10.2f s  marks cache %9s  TL memory %9s\n", r.label.c_str(),
                        format_bytes(double(r.read_bytes)).c_str(), format_bytes(double(r.write_bytes)).c_str(),
                        r.modelled_s, format_bytes(double(r.marks_cache)).c_str(),
                        format_bytes(double(r.tl_memory)).c_str());
            all.push_back({{"config", r.label}, {"ran", true}, {"read_bytes", r.read_bytes},
                           {"write_bytes", r.write_bytes}, {"modelled_s", r.modelled_s}, {"visited", r.visited},
                           {"marks_cache_bytes", r.marks_cache}, {"tl_memory_bytes", r.tl_memory}});
        }
        std::cout << all.dump() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "bench_graph_dfs: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
