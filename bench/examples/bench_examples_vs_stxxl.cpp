// Driver: the examples (Kruskal's forest through a flashxxl pipeline, list ranking) against their STXXL
// versions.
//
// Usage: bench_examples_vs_stxxl [--dir DIR] [--only kruskal|list-ranking|both] [--edges N] [--nodes N]
//                                [--list-nodes N] [--memory SIZE] [--br SIZE --bw SIZE]
//                                [--threads T] [--repeats R] [--json FILE]
// Both programs get the same generated input (random_edge, examples/kruskal_edges.hpp; the list
// of list_order, examples/list_ranking.hpp, built before the clock starts), the same memory M
// (Kruskal: flashxxl's pipeline split among generator, sort and writer, STXXL's stream::sort M
// less its bufwriter's two 2 MiB blocks; list ranking: M / 2 for each sorter and the priority
// queue on both sides) and a syscall file (O_DIRECT where possible) in DIR. Each runs R times;
// the table and JSON give the median wall time, the I/O volumes and the ratios flashxxl / STXXL.
// Exit status 0 when both sides' results agree (forest edges and weight sum; every rank), 1 when
// not or a run failed, 2 for bad options.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>
#include <stxxl/stats>

#include "bench_args.hpp"
#include "bench_json.hpp"
#include "flashxxl/machine/machine.hpp"
#include "kruskal_forest.hpp" // examples/
#include "kruskal_stxxl.hpp"
#include "list_ranking_flashxxl.hpp" // examples/
#include "list_ranking_stxxl.hpp"

using namespace flashxxl;
using namespace flashxxl_examples;

namespace {

struct settings {
    std::string dir = "bench-work";
    std::string only = "both";
    std::uint64_t edges = 24 * 1024 * 1024, nodes = 0, list_nodes = 32 * 1024 * 1024, memory = 512 * MiB;
    std::uint64_t br = 256 * KiB, bw = 2 * MiB;
    std::size_t threads = 0, repeats = 3;
    std::string json_path;
};

//! One library's runs: wall seconds of each, I/O of the last, what it found (the forest's edges
//! and weight sum; the ranks' count and a checksum).
struct side {
    std::vector<double> wall_s;
    std::uint64_t read = 0, written = 0, forest_edges = 0, weight_sum = 0;
    double median() const {
        std::vector<double> w = wall_s;
        std::sort(w.begin(), w.end());
        return w.empty() ? 0 : w[w.size() / 2];
    }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

//! flashxxl's one-disk machine: a syscall file of `bytes` (rounded up to MiB) in DIR.
machine bench_machine(const settings& s, std::uint64_t bytes) {
    const std::uint64_t capacity = (bytes + GiB + MiB - 1) / MiB * MiB;
    return machine::from_config_text("name=bench\ndisk=" + s.dir + "/flashxxl-examples.img," +
                                         format_size(capacity) +
                                         ",syscall name=disk direct=try\nplacement=single device=disk\n",
                                     "bench");
}

std::uint64_t volume(const machine& m, bool written) {
    std::uint64_t bytes = 0;
    for (const auto& d : m.stats())
        bytes += written ? d.total.write_bytes : d.total.read_bytes;
    return bytes;
}

//! A checksum of ranks in id order (ids must be 0, 1, 2, ...: anything else gives 0).
struct rank_checksum {
    std::uint64_t next = 0, sum = 0;
    bool ordered = true;
    void add(const node_rank& r) {
        ordered = ordered && r.id == next++;
        sum += mix64(r.id) * r.rank;
    }
    std::uint64_t value() const { return ordered ? sum : 0; }
};

side run_list_flashxxl(const settings& s) {
    side out;
    const block_sizes b(s.br, s.bw);
    for (std::size_t r = 0; r < s.repeats; ++r) {
        machine m = bench_machine(s, 12 * s.list_nodes * sizeof(list_node));
        vector<list_node> nodes(m, vector<list_node>::min_memory(b), b);
        make_list(m, b, s.memory, s.list_nodes, 7, nodes);
        vector<node_rank> ranks(m, vector<node_rank>::min_memory(b), b);
        const std::uint64_t read0 = volume(m, false), written0 = volume(m, true);
        flashxxl_list_lib lib{m, b, s.memory, s.threads};
        list_ranker<flashxxl_list_lib> ranker(lib);
        const auto t0 = std::chrono::steady_clock::now();
        ranker.rank(nodes, ranks);
        out.wall_s.push_back(seconds_since(t0));
        out.read = volume(m, false) - read0;
        out.written = volume(m, true) - written0;
        rank_checksum sum;
        for (vector<node_rank>::stream_reader in(ranks); !in.empty(); ++in)
            sum.add(*in);
        out.forest_edges = sum.next;
        out.weight_sum = sum.value();
    }
    return out;
}

side run_list_stxxl(const settings& s) {
    side out;
    bench_examples::stxxl_list_lib lib{s.memory};
    for (std::size_t r = 0; r < s.repeats; ++r) {
        bench_examples::stxxl_list_lib::vector_type<list_node> nodes;
        bench_examples::make_list_stxxl(s.memory, s.list_nodes, 7, nodes);
        bench_examples::stxxl_list_lib::vector_type<node_rank> ranks;
        stxxl::stats_data before(*stxxl::stats::get_instance());
        list_ranker<bench_examples::stxxl_list_lib> ranker(lib);
        const auto t0 = std::chrono::steady_clock::now();
        ranker.rank(nodes, ranks);
        out.wall_s.push_back(seconds_since(t0));
        stxxl::stats_data d = stxxl::stats_data(*stxxl::stats::get_instance()) - before;
        out.read = std::uint64_t(d.get_read_volume());
        out.written = std::uint64_t(d.get_written_volume());
        rank_checksum sum;
        for (bench_examples::stxxl_list_lib::vector_type<node_rank>::bufreader_type in(ranks); !in.empty();
             ++in)
            sum.add(*in);
        out.forest_edges = sum.next;
        out.weight_sum = sum.value();
    }
    return out;
}

side run_flashxxl(const settings& s) {
    side out;
    const block_sizes b(s.br, s.bw);
    for (std::size_t r = 0; r < s.repeats; ++r) {
        machine m = bench_machine(s, 3 * s.edges * sizeof(weighted_edge));
        vector<weighted_edge> forest(m, vector<weighted_edge>::min_memory(b), b);
        const auto t0 = std::chrono::steady_clock::now();
        const kruskal_report rep =
            kruskal_forest(m, s.memory, b, std::uint32_t(s.nodes), s.edges, 42, forest, s.threads);
        out.wall_s.push_back(seconds_since(t0));
        out.read = volume(m, false);
        out.written = volume(m, true);
        out.forest_edges = rep.forest_edges;
        out.weight_sum = 0;
        for (vector<weighted_edge>::stream_reader in(forest); !in.empty(); ++in)
            out.weight_sum += in->w;
    }
    return out;
}

side run_stxxl(const settings& s) {
    side out;
    const std::uint64_t sort_memory = s.memory - 2 * bench_examples::stxxl_block_bytes;
    for (std::size_t r = 0; r < s.repeats; ++r) {
        bench_examples::stxxl_edge_vector forest;
        stxxl::stats_data before(*stxxl::stats::get_instance());
        const auto t0 = std::chrono::steady_clock::now();
        out.forest_edges =
            bench_examples::kruskal_forest_stxxl(std::uint32_t(s.nodes), s.edges, 42, sort_memory, forest);
        out.wall_s.push_back(seconds_since(t0));
        stxxl::stats_data d = stxxl::stats_data(*stxxl::stats::get_instance()) - before;
        out.read = std::uint64_t(d.get_read_volume());
        out.written = std::uint64_t(d.get_written_volume());
        out.weight_sum = 0;
        for (bench_examples::stxxl_edge_vector::bufreader_type in(forest); !in.empty(); ++in)
            out.weight_sum += in->w;
    }
    return out;
}

nlohmann::json side_json(const side& x, const char* found, const char* checksum) {
    return {{"wall_s", x.wall_s},         {"median_wall_s", x.median()}, {"read_bytes", x.read},
            {"written_bytes", x.written}, {found, x.forest_edges},       {checksum, x.weight_sum}};
}

//! Writes STXXL's config (a syscall disk in DIR) and points STXXLCFG at it; false when DIR is not writable.
bool configure_stxxl(const settings& s, const std::string& cfg) {
    const std::uint64_t bytes =
        std::max(3 * s.edges * sizeof(weighted_edge), 12 * s.list_nodes * sizeof(list_node)) + GiB;
    std::ofstream out(cfg);
    out << "disk=" << s.dir << "/stxxl-examples.img," << format_size(bytes) << ",syscall direct=try unlink\n";
    out.close();
    if (out.fail()) return false;
    setenv("STXXLCFG", cfg.c_str(), 1);
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    return true;
}

//! Prints one benchmark's table (flashxxl, STXXL, their ratios) and returns its JSON.
nlohmann::json report(const char* title, const char* found, const char* checksum, const side& fx,
                      const side& st) {
    const bool agree =
        fx.forest_edges == st.forest_edges && fx.weight_sum == st.weight_sum && fx.weight_sum != 0;
    auto mib = [](std::uint64_t b) { return double(b) / double(MiB); };
    auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    std::printf("%s\n", title);
    std::printf("%-10s %10s %12s %12s %12s\n", "library", "wall_s", "read_MiB", "written_MiB", found);
    std::printf("%-10s %10.3f %12.1f %12.1f %12llu\n", "flashxxl", fx.median(), mib(fx.read), mib(fx.written),
                (unsigned long long)fx.forest_edges);
    std::printf("%-10s %10.3f %12.1f %12.1f %12llu\n", "stxxl", st.median(), mib(st.read), mib(st.written),
                (unsigned long long)st.forest_edges);
    std::printf("%-10s %10.3f %12.3f %12.3f %12s\n", "fx/stxxl", ratio(fx.median(), st.median()),
                ratio(double(fx.read), double(st.read)), ratio(double(fx.written), double(st.written)),
                agree ? "agree" : "DIFFER");
    return {{"flashxxl", side_json(fx, found, checksum)},
            {"stxxl", side_json(st, found, checksum)},
            {"ratio_wall", ratio(fx.median(), st.median())},
            {"ratio_read", ratio(double(fx.read), double(st.read))},
            {"ratio_written", ratio(double(fx.written), double(st.written))},
            {"results_agree", agree}};
}

int run(int argc, char** argv) {
    settings s;
    bench::arg_parser args(
        "bench_examples_vs_stxxl",
        "bench_examples_vs_stxxl: the examples against their STXXL versions, same input and M, syscall\n"
        "files in DIR: Kruskal's minimum spanning forest through a flashxxl pipeline and through\n"
        "stxxl::stream::sort; list ranking (one algorithm over each library's vectors, sorters and\n"
        "priority queue).",
        "Exit status: 0 when both sides' results agree, 1 when not or a run failed, 2 for bad options.");
    args.text("--dir", s.dir, "folder of both libraries' files (created)");
    args.choice("--only", s.only, {"kruskal", "list-ranking", "both"}, "the benchmarks to run");
    args.count("--edges", s.edges, "Kruskal: edges of the random graph", 1, std::uint64_t(1) << 32);
    args.count("--nodes", s.nodes, "Kruskal: nodes (0: edges / 3)", 0, std::uint64_t(1) << 32);
    args.count("--list-nodes", s.list_nodes, "list ranking: nodes of the list", 1, std::uint64_t(1) << 34);
    args.size("--memory", s.memory,
              "memory M of each program (Kruskal's union-find, 4 bytes per node, and the list ranking's "
              "stream buffers besides)");
    args.size("--br", s.br, "flashxxl's Br");
    args.size("--bw", s.bw, "flashxxl's Bw");
    args.count("--threads", s.threads, "threads of both libraries (0: the machine's)", 0, 9999);
    args.count("--repeats", s.repeats, "runs of each program (the median is compared)", 1, 99);
    args.text("--json", s.json_path, "also write the results as JSON to FILE");
    if (int status = args.parse(argc, argv); status >= 0) return status;
    if (s.nodes == 0) s.nodes = std::max<std::uint64_t>(2, s.edges / 3);
    if (s.memory < 64 * MiB) {
        std::cerr << "--memory " << format_size(s.memory)
                  << ": expected at least 64MiB (STXXL's priority queue has 16MiB of internal memory and "
                     "pools beside it in M / 2)\n";
        return 2;
    }
    if (!bench::check_writable(s.json_path)) return 2;
    ::mkdir(s.dir.c_str(), 0755);
    const std::string cfg = s.dir + "/flashxxl-examples.stxxl";
    if (!configure_stxxl(s, cfg)) {
        std::cerr << "--dir " << s.dir << ": cannot write STXXL's config file " << cfg
                  << "; expected a writable directory\n";
        return 2;
    }
    if (s.threads == 0) s.threads = default_threads();
    omp_set_num_threads(int(s.threads));

    nlohmann::json j = bench::document("bench_examples_vs_stxxl");
    j["settings"] = {{"edges", s.edges},         {"nodes", s.nodes},    {"list_nodes", s.list_nodes},
                     {"memory_bytes", s.memory}, {"br", s.br},          {"bw", s.bw},
                     {"threads", s.threads},     {"repeats", s.repeats}};
    std::printf("M = %s, flashxxl Br/Bw %s/%s, %zu threads, median of %zu runs (%u cores on this host)\n",
                format_size(s.memory).c_str(), format_size(s.br).c_str(), format_size(s.bw).c_str(),
                s.threads, s.repeats, std::thread::hardware_concurrency());
    bool agree = true;
    if (s.only != "list-ranking") {
        const side fx = run_flashxxl(s);
        const side st = run_stxxl(s);
        const std::string title =
            "Kruskal's forest: " + std::to_string(s.edges) + " edges, " + std::to_string(s.nodes) + " nodes";
        j["kruskal"] = report(title.c_str(), "forest_edges", "weight_sum", fx, st);
        agree = agree && j["kruskal"]["results_agree"].get<bool>();
    }
    if (s.only != "kruskal") {
        const side fx = run_list_flashxxl(s);
        const side st = run_list_stxxl(s);
        const std::string title = "list ranking: " + std::to_string(s.list_nodes) + " nodes";
        j["list_ranking"] = report(title.c_str(), "ranks", "rank_checksum", fx, st);
        agree = agree && j["list_ranking"]["results_agree"].get<bool>();
    }
    ::unlink(cfg.c_str());
    ::unlink((s.dir + "/flashxxl-examples.img").c_str());
    std::printf("%s\n", j.dump().c_str());
    if (!s.json_path.empty() && !bench::write("bench_examples_vs_stxxl", s.json_path, j)) return 1;
    return agree ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "bench_examples_vs_stxxl: " << e.what() << "\n";
        return 1;
    }
}
