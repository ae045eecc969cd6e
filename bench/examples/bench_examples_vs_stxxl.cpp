// Driver: the examples (Kruskal's forest through a flashxxl pipeline) against their STXXL versions.
//
// Usage: bench_examples_vs_stxxl [--dir DIR] [--edges N] [--nodes N] [--memory SIZE] [--br SIZE --bw SIZE]
//                                [--threads T] [--repeats R] [--json FILE]
// Both programs get the same generated input (random_edge, examples/kruskal_edges.hpp), the same
// memory M for their pipeline (flashxxl: split among generator, sort and writer; STXXL: its
// stream::sort gets M less its bufwriter's two 2 MiB blocks) and a syscall file (O_DIRECT where
// possible) in DIR. Each runs R times; the table and JSON give the median wall time, the I/O
// volumes and the ratios flashxxl / STXXL. Exit status 0 when both forests agree with each other
// (edges and weight sum), 1 when not or a run failed, 2 for bad options.
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

using namespace flashxxl;
using namespace flashxxl_examples;

namespace {

struct settings {
    std::string dir = "bench-work";
    std::uint64_t edges = 24 * 1024 * 1024, nodes = 0, memory = 512 * MiB;
    std::uint64_t br = 256 * KiB, bw = 2 * MiB;
    std::size_t threads = 0, repeats = 3;
    std::string json_path;
};

//! One library's runs: wall seconds of each, I/O of the last, the forest's edges and weight sum.
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

side run_flashxxl(const settings& s) {
    side out;
    const block_sizes b(s.br, s.bw);
    const std::uint64_t capacity = (3 * s.edges * sizeof(weighted_edge) + GiB + MiB - 1) / MiB * MiB;
    for (std::size_t r = 0; r < s.repeats; ++r) {
        machine m = machine::from_config_text(
            "name=bench\ndisk=" + s.dir + "/flashxxl-examples.img," + format_size(capacity) +
                ",syscall name=disk direct=try\nplacement=single device=disk\n",
            "bench");
        vector<weighted_edge> forest(m, vector<weighted_edge>::min_memory(b), b);
        const auto t0 = std::chrono::steady_clock::now();
        const kruskal_report rep =
            kruskal_forest(m, s.memory, b, std::uint32_t(s.nodes), s.edges, 42, forest, s.threads);
        out.wall_s.push_back(seconds_since(t0));
        out.read = out.written = 0;
        for (const auto& d : m.stats()) {
            out.read += d.total.read_bytes;
            out.written += d.total.write_bytes;
        }
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

nlohmann::json side_json(const side& x) {
    return {{"wall_s", x.wall_s},         {"median_wall_s", x.median()},    {"read_bytes", x.read},
            {"written_bytes", x.written}, {"forest_edges", x.forest_edges}, {"weight_sum", x.weight_sum}};
}

//! Writes STXXL's config (a syscall disk in DIR) and points STXXLCFG at it; false when DIR is not writable.
bool configure_stxxl(const settings& s, const std::string& cfg) {
    std::ofstream out(cfg);
    out << "disk=" << s.dir << "/stxxl-examples.img,"
        << format_size(3 * s.edges * sizeof(weighted_edge) + GiB) << ",syscall direct=try unlink\n";
    out.close();
    if (out.fail()) return false;
    setenv("STXXLCFG", cfg.c_str(), 1);
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    return true;
}

int run(int argc, char** argv) {
    settings s;
    bench::arg_parser args(
        "bench_examples_vs_stxxl",
        "bench_examples_vs_stxxl: Kruskal's minimum spanning forest through a flashxxl "
        "pipeline and through\nstxxl::stream::sort, same input and M, syscall files in DIR.",
        "Exit status: 0 when both forests agree, 1 when not or a run failed, 2 for bad options.");
    args.text("--dir", s.dir, "folder of both libraries' files (created)");
    args.count("--edges", s.edges, "edges of the random graph", 1, std::uint64_t(1) << 32);
    args.count("--nodes", s.nodes, "nodes (0: edges / 3)", 0, std::uint64_t(1) << 32);
    args.size("--memory", s.memory,
              "memory M of each program's pipeline (the union-find's 4 bytes per node besides)");
    args.size("--br", s.br, "flashxxl's Br");
    args.size("--bw", s.bw, "flashxxl's Bw");
    args.count("--threads", s.threads, "threads of both libraries (0: the machine's)", 0, 9999);
    args.count("--repeats", s.repeats, "runs of each program (the median is compared)", 1, 99);
    args.text("--json", s.json_path, "also write the results as JSON to FILE");
    if (int status = args.parse(argc, argv); status >= 0) return status;
    if (s.nodes == 0) s.nodes = std::max<std::uint64_t>(2, s.edges / 3);
    if (s.memory < 64 * MiB && s.memory < 2 * bench_examples::stxxl_block_bytes + 16 * MiB) {
        std::cerr << "--memory " << format_size(s.memory)
                  << ": expected at least 20MiB (STXXL's writer and sort)\n";
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

    const side fx = run_flashxxl(s);
    const side st = run_stxxl(s);
    ::unlink(cfg.c_str());
    ::unlink((s.dir + "/flashxxl-examples.img").c_str());
    const bool agree = fx.forest_edges == st.forest_edges && fx.weight_sum == st.weight_sum;
    auto mib = [](std::uint64_t b) { return double(b) / double(MiB); };
    auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };

    std::printf("Kruskal's forest: %llu edges, %llu nodes, M = %s, flashxxl Br/Bw %s/%s, %zu threads, "
                "median of %zu (%u cores on this host)\n",
                (unsigned long long)s.edges, (unsigned long long)s.nodes, format_size(s.memory).c_str(),
                format_size(s.br).c_str(), format_size(s.bw).c_str(), s.threads, s.repeats,
                std::thread::hardware_concurrency());
    std::printf("%-10s %10s %12s %12s %12s\n", "library", "wall_s", "read_MiB", "written_MiB", "forest");
    std::printf("%-10s %10.3f %12.1f %12.1f %12llu\n", "flashxxl", fx.median(), mib(fx.read), mib(fx.written),
                (unsigned long long)fx.forest_edges);
    std::printf("%-10s %10.3f %12.1f %12.1f %12llu\n", "stxxl", st.median(), mib(st.read), mib(st.written),
                (unsigned long long)st.forest_edges);
    std::printf("%-10s %10.3f %12.3f %12.3f %12s\n", "fx/stxxl", ratio(fx.median(), st.median()),
                ratio(double(fx.read), double(st.read)), ratio(double(fx.written), double(st.written)),
                agree ? "agree" : "DIFFER");

    nlohmann::json j = bench::document("bench_examples_vs_stxxl");
    j["settings"] = {{"edges", s.edges}, {"nodes", s.nodes},     {"memory_bytes", s.memory}, {"br", s.br},
                     {"bw", s.bw},       {"threads", s.threads}, {"repeats", s.repeats}};
    j["kruskal"] = {{"flashxxl", side_json(fx)},
                    {"stxxl", side_json(st)},
                    {"ratio_wall", ratio(fx.median(), st.median())},
                    {"ratio_read", ratio(double(fx.read), double(st.read))},
                    {"ratio_written", ratio(double(fx.written), double(st.written))},
                    {"forests_agree", agree}};
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
