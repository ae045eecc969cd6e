// DFS benchmark (seeds/001 Section 4): block size Br vs Bw vs translation layer on the 2009 SSD, table and JSON.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

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
        if (eq == std::string::npos) throw config_error("argument '" + a + "': expected key=value (see --help)");
        std::string k = a.substr(0, eq), v = a.substr(eq + 1);
        auto whole = [&] {
            if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
                throw config_error(a + ": expected a whole number");
            return std::stoull(v);
        };
        if (k == "side") o.side = whole();
        else if (k == "br") o.br = parse_size(v);
        else if (k == "bw") o.bw = parse_size(v);
        else if (k == "memory") o.memory = parse_size(v);
        else if (k == "cache") o.graph_cache = parse_size(v);
        else if (k == "device") o.device_bytes = parse_size(v);
        else if (k == "marks") o.marks = parse_dfs_marks(v);
        else if (k == "share") {
            std::size_t used = 0;
            double share = -1;
            try {
                share = std::stod(v, &used);
            } catch (const std::exception&) {
            }
            if (used != v.size() || !(share >= 0 && share <= 1)) throw config_error(a + ": expected a number from 0 to 1");
            o.cache_share = share;
        } else if (k == "shuffle") o.shuffle_seed = whole();
        else throw config_error("unknown key '" + k + "' (expected side, br, bw, memory, cache, device, marks, share, shuffle)");
    }
    if (o.side == 0) throw config_error("side=0: expected a grid side of at least 1");
    return o;
}

//! `row`'s figure over Br's (null when either did not run or Br's is 0).
nlohmann::json ratio_to_br(double value, double br_value, bool both_ran) {
    if (!both_ran || br_value <= 0) return nullptr;
    return value / br_value;
}

std::string ratio_text(const nlohmann::json& ratio) {
    if (ratio.is_null()) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", ratio.get<double>());
    return text;
}

} // namespace

int main(int argc, char** argv) {
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::cout << "usage: bench_graph_dfs [side=256] [br=4KiB] [bw=512KiB] [memory=4MiB] [cache=1MiB] [device=1GiB]\n"
                     "                       [marks=separate|with_nodes] [share=0] [shuffle=1]\n"
                     "DFS on a side x side grid with B = Br, B = Bw and the translation layer (pages Br, segments\n"
                     "Bw) on the emulated 2009 Hama SSD (seeds/001 Section 4); share=0.5 caps every cache at half\n"
                     "its structure, as the paper's with-nodes run did; shuffle=S numbers the nodes\n"
                     "through a permutation seeded S (0: row-major). Prints a table with each configuration's\n"
                     "modelled time and read volume over Br's (Bw/Br, TL/Br; all three run on the same grid in\n"
                     "this one run), then JSON. Exit status 1 when a configuration could not run or visited the\n"
                     "wrong number of nodes, 2 for a bad argument.\n";
        return 0;
    }
    dfs_experiment_options o;
    try {
        o = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "bench_graph_dfs: " << e.what() << "\n";
        return 2;
    }
    std::vector<dfs_experiment_row> rows;
    try {
        std::printf("DFS, %s marks, %llu x %llu grid, Br %s, Bw %s, M %s, cache share %.2f\n", to_string(o.marks),
                    (unsigned long long)o.side, (unsigned long long)o.side, format_bytes(double(o.br)).c_str(),
                    format_bytes(double(o.bw)).c_str(), format_bytes(double(o.memory)).c_str(), o.cache_share);
        std::fflush(stdout);
        rows = run_dfs_experiment(o);
    } catch (const std::exception& e) {
        std::cerr << "bench_graph_dfs: " << e.what() << "\n";
        return 1;
    }
    const dfs_experiment_row* br_row = nullptr;
    for (const dfs_experiment_row& r : rows)
        if (r.label == "Br" && r.ran) br_row = &r;
    const std::uint64_t nodes = o.side * o.side;
    nlohmann::json all = nlohmann::json::array();
    std::vector<std::string> failures;
    std::printf("%-3s %12s %12s %12s %8s %8s %12s %12s\n", "B", "RDV", "WRV", "modelled_s", "time/Br", "RDV/Br",
                "marks cache", "TL memory");
    for (const dfs_experiment_row& r : rows) {
        if (!r.ran) {
            std::printf("%-3s not run: %s\n", r.label.c_str(), r.why_not.c_str());
            all.push_back({{"config", r.label}, {"ran", false}, {"why_not", r.why_not}});
            failures.push_back(r.label + " did not run: " + r.why_not);
            continue;
        }
        const bool comparable = br_row != nullptr;
        const nlohmann::json time_ratio = ratio_to_br(r.modelled_s, comparable ? br_row->modelled_s : 0, comparable);
        const nlohmann::json read_ratio =
            ratio_to_br(double(r.read_bytes), comparable ? double(br_row->read_bytes) : 0, comparable);
        std::printf("%-3s %12s %12s %12.2f %8s %8s %12s %12s\n", r.label.c_str(), format_bytes(double(r.read_bytes)).c_str(),
                    format_bytes(double(r.write_bytes)).c_str(), r.modelled_s, ratio_text(time_ratio).c_str(),
                    ratio_text(read_ratio).c_str(), format_bytes(double(r.marks_cache)).c_str(),
                    format_bytes(double(r.tl_memory)).c_str());
        all.push_back({{"config", r.label}, {"ran", true}, {"read_bytes", r.read_bytes}, {"write_bytes", r.write_bytes},
                       {"modelled_s", r.modelled_s}, {"visited", r.visited}, {"marks_cache_bytes", r.marks_cache},
                       {"tl_memory_bytes", r.tl_memory}, {"modelled_s_over_br", time_ratio},
                       {"read_bytes_over_br", read_ratio}});
        if (r.visited != nodes)
            failures.push_back(r.label + " visited " + std::to_string(r.visited) + " of " + std::to_string(nodes) +
                               " nodes");
    }
    for (const char* label : {"Bw", "TL"}) {
        for (const nlohmann::json& row : all)
            if (row["config"] == label && row["ran"] == true)
                std::printf("%s/Br: modelled time %s, read volume %s\n", label,
                            ratio_text(row["modelled_s_over_br"]).c_str(), ratio_text(row["read_bytes_over_br"]).c_str());
    }
    std::cout << all.dump() << "\n";
    for (const std::string& f : failures) std::cerr << "bench_graph_dfs: " << f << "\n";
    return failures.empty() ? 0 : 1;
}
