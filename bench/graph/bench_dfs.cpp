// DFS benchmark (seeds/001 Section 4): block size Br vs Bw vs translation layer on the 2009 SSD, table and
// JSON.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_args.hpp"
#include "bench_json.hpp"
#include "flashxxl/reproduce/dfs_experiment.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;
using namespace flashxxl::reproduce;

//! Reads the options (`side=64`, as docs/bfs.md writes them, or `--side 64`) into `o`; returns
//! -1 to go on, else the exit status (0 after --help, 2 for a bad option, named).
int parse(int argc, char** argv, dfs_experiment_options& o) {
    bench::arg_parser args(
        "bench_graph_dfs",
        "bench_graph_dfs: DFS on a side x side grid with B = Br, B = Bw and the translation layer (pages\n"
        "Br, segments Bw) on the emulated 2009 Hama SSD (seeds/001 Section 4). Prints a table with each\n"
        "configuration's modelled time and read volume over Br's (Bw/Br, TL/Br; all three run on the same\n"
        "grid in this one run), then JSON. Options are written key=value (side=64) or --key value.",
        "Exit status 1 when a configuration could not run or visited the wrong number of nodes, 2 for a bad "
        "argument.");
    std::string marks = to_string(o.marks);
    args.allow_bare_key_value();
    args.count("--side", o.side, "grid side", 1);
    args.size("--br", o.br, "read block size Br");
    args.size("--bw", o.bw, "write block size Bw");
    args.size("--memory", o.memory, "memory M");
    args.size("--cache", o.graph_cache, "the graph's cache");
    args.size("--device", o.device_bytes, "the emulated device's bytes");
    args.choice("--marks", marks, {"separate", "with_nodes"}, "where the visited marks live");
    args.number("--share", o.cache_share,
                "0.5 caps every cache at half its structure, as the paper's with-nodes run did", 0, 1);
    args.count("--shuffle", o.shuffle_seed,
               "numbers the nodes through a permutation seeded S (0: row-major)");
    const int status = args.parse(argc, argv);
    o.marks = parse_dfs_marks(marks);
    return status;
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
    dfs_experiment_options o;
    if (int status = parse(argc, argv, o); status >= 0) return status;
    std::vector<dfs_experiment_row> rows;
    try {
        std::printf("DFS, %s marks, %llu x %llu grid, Br %s, Bw %s, M %s, cache share %.2f\n",
                    to_string(o.marks), (unsigned long long)o.side, (unsigned long long)o.side,
                    format_bytes(double(o.br)).c_str(), format_bytes(double(o.bw)).c_str(),
                    format_bytes(double(o.memory)).c_str(), o.cache_share);
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
    std::printf("%-3s %12s %12s %12s %8s %8s %12s %12s\n", "B", "RDV", "WRV", "modelled_s", "time/Br",
                "RDV/Br", "marks cache", "TL memory");
    for (const dfs_experiment_row& r : rows) {
        if (!r.ran) {
            std::printf("%-3s not run: %s\n", r.label.c_str(), r.why_not.c_str());
            all.push_back({{"config", r.label}, {"ran", false}, {"why_not", r.why_not}});
            failures.push_back(r.label + " did not run: " + r.why_not);
            continue;
        }
        const bool comparable = br_row != nullptr;
        const nlohmann::json time_ratio =
            ratio_to_br(r.modelled_s, comparable ? br_row->modelled_s : 0, comparable);
        const nlohmann::json read_ratio =
            ratio_to_br(double(r.read_bytes), comparable ? double(br_row->read_bytes) : 0, comparable);
        std::printf("%-3s %12s %12s %12.2f %8s %8s %12s %12s\n", r.label.c_str(),
                    format_bytes(double(r.read_bytes)).c_str(), format_bytes(double(r.write_bytes)).c_str(),
                    r.modelled_s, ratio_text(time_ratio).c_str(), ratio_text(read_ratio).c_str(),
                    format_bytes(double(r.marks_cache)).c_str(), format_bytes(double(r.tl_memory)).c_str());
        all.push_back({{"config", r.label},
                       {"ran", true},
                       {"read_bytes", r.read_bytes},
                       {"write_bytes", r.write_bytes},
                       {"modelled_s", r.modelled_s},
                       {"visited", r.visited},
                       {"marks_cache_bytes", r.marks_cache},
                       {"tl_memory_bytes", r.tl_memory},
                       {"modelled_s_over_br", time_ratio},
                       {"read_bytes_over_br", read_ratio}});
        if (r.visited != nodes)
            failures.push_back(r.label + " visited " + std::to_string(r.visited) + " of " +
                               std::to_string(nodes) + " nodes");
    }
    for (const char* label : {"Bw", "TL"}) {
        for (const nlohmann::json& row : all)
            if (row["config"] == label && row["ran"] == true)
                std::printf("%s/Br: modelled time %s, read volume %s\n", label,
                            ratio_text(row["modelled_s_over_br"]).c_str(),
                            ratio_text(row["read_bytes_over_br"]).c_str());
    }
    nlohmann::json doc = bench::document("bench_graph_dfs");
    doc["results"] = all;
    std::cout << doc.dump() << "\n";
    for (const std::string& f : failures)
        std::cerr << "bench_graph_dfs: " << f << "\n";
    return failures.empty() ? 0 : 1;
}
