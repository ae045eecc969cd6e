// Driver: flashxxl::map (the two-level B-tree) vs one-block-size layouts and stxxl::map: bulk load, random finds, random inserts, range scans.
//
// Usage: bench_map [--dir DIR] [--items N] [--memory SIZE] [--finds N] [--inserts N] [--scans N]
//                  [--batch N] [--scan-length N] [--part model|real|both] [--json FILE]
// (a) model: hybrid-2009's emulated SSD (Hama 2009, memory-backed), flashxxl::map with Br =
//     128 KiB, Bw = 16 MiB (two-level), and with one block size for nodes, Br or Bw, the layout
//     of stxxl::map: modelled seconds and items transferred per operation.
// (b) real: a syscall file in DIR (O_DIRECT where possible): flashxxl::map two-level against
//     stxxl::map with nodes and leaves of Br and of Bw, the same memory M: wall seconds and
//     volumes. STXXL reads a generated config DIR/flashxxl-bench-map.stxxl (STXXLCFG).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>
#include <stxxl/io>
#include <stxxl/map>
#include <stxxl/stats>

#include "btree_workload.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;
using flashxxl::cli::btree_phase;
using flashxxl::cli::btree_run;
using flashxxl::cli::btree_workload;
using key_t = std::uint64_t;
using value_t = std::uint64_t;

constexpr unsigned br_bytes = 128 * 1024;
constexpr unsigned bw_bytes = 16 * 1024 * 1024;

struct stxxl_key_less {
    bool operator()(key_t a, key_t b) const { return a < b; }
    static key_t max_value() { return std::numeric_limits<key_t>::max(); }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

//! The workload of btree_workload.hpp on stxxl::map with nodes and leaves of `Block` bytes:
//! node cache M / 3, leaf cache 2M / 3; bulk construction from the sorted input, filled 90%.
template <unsigned Block>
btree_run run_stxxl(std::uint64_t memory, const btree_workload& w, const std::string& layout) {
    using map_t = stxxl::map<key_t, value_t, stxxl_key_less, Block, Block>;
    btree_run r;
    r.layout = layout;
    r.blocks = block_sizes(Block, Block);
    r.memory = memory;
    r.entry_bytes = sizeof(key_t) + sizeof(value_t);
    r.items = w.items;
    auto measure = [&](const std::string& name, std::uint64_t ops, auto&& body) {
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        body();
        btree_phase p;
        p.name = name;
        p.ops = ops;
        p.wall_s = seconds_since(t0);
        stxxl::stats_data d = stxxl::stats_data(*stxxl::stats::get_instance()) - before;
        p.io.read_ops = d.get_reads();
        p.io.read_bytes = d.get_read_volume();
        p.io.write_ops = d.get_writes();
        p.io.write_bytes = d.get_written_volume();
        r.phases.push_back(p);
    };
    std::unique_ptr<map_t> t;
    measure("bulk load", w.items, [&] {
        flashxxl::cli::detail_btree::input_iterator first(0), last(w.items);
        // stxxl::map's bulk constructor wants an input iterator with value_type pair<key, value>.
        t = std::make_unique<map_t>(first, last, memory / 3, memory / 3 * 2, true, 0.9, 0.9);
    });
    measure("random finds", w.finds, [&] {
        for (std::uint64_t i = 0; i < w.finds; ++i) {
            key_t k = flashxxl::cli::mix64(w.seed * 0x9e37 + i) % (4 * w.items);
            auto it = t->find(k);
            bool hit = k % 4 == 0 && k / 4 < w.items;
            if ((it != t->end()) != hit || (hit && it->second != flashxxl::cli::mix64(k))) r.verified = false;
        }
    });
    measure("random inserts", w.inserts, [&] {
        for (std::uint64_t i = 0; i < w.inserts; ++i) {
            key_t k = 4 * (flashxxl::cli::mix64(w.seed * 0x51ed + i) % w.items) + 1 + i % 3;
            t->insert(std::make_pair(k, flashxxl::cli::mix64(k)));
        }
    });
    measure("batched inserts", w.batch, [&] {
        for (key_t k : flashxxl::cli::detail_btree::batch_keys(w)) t->insert(std::make_pair(k, flashxxl::cli::mix64(k)));
    });
    measure("range scans", w.scans * w.scan_length, [&] {
        for (std::uint64_t i = 0; i < w.scans; ++i) {
            key_t from = flashxxl::cli::mix64(w.seed * 0x7f4a + i) % (4 * w.items);
            key_t last = 0;
            std::uint64_t seen = 0;
            for (auto it = t->lower_bound(from); it != t->end() && seen < w.scan_length; ++it, ++seen) {
                if (it->first < from || (seen > 0 && it->first <= last)) r.verified = false;
                last = it->first;
            }
        }
    });
    return r;
}

//! Real-file part: phases side by side in wall seconds, ratios to the first run.
void print_wall_table(const std::vector<btree_run>& runs) {
    std::printf("(b) real file, wall seconds (STXXL's dirty leaves stay in its cache after the inserts; flashxxl's "
                "insert phase includes the flush)\n");
    std::printf("  %-15s %-22s %10s %10s %14s %14s %4s\n", "phase", "implementation", "wall_s", "vs first",
                "items read/op", "items wrtn/op", "ok");
    for (std::size_t p = 0; p < runs[0].phases.size(); ++p) {
        for (const btree_run& r : runs) {
            const btree_phase& ph = r.phases[p];
            const double ops = double(std::max<std::uint64_t>(ph.ops, 1));
            const double base = runs[0].phases[p].wall_s;
            std::printf("  %-15s %-22s %10.3f %10.2f %14.1f %14.1f %4s\n", ph.name.c_str(), r.layout.c_str(),
                        ph.wall_s, base > 0 ? ph.wall_s / base : 0.0,
                        double(ph.io.read_bytes) / double(r.entry_bytes) / ops,
                        double(ph.io.write_bytes) / double(r.entry_bytes) / ops, r.verified ? "yes" : "NO");
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    std::string dir = "bench-work", json_path, part = "both";
    std::uint64_t memory = 160 * MiB;
    btree_workload w;
    w.items = 20000000;
    w.finds = 500;
    w.inserts = 200;
    w.batch = 20000;
    w.scans = 20;
    w.scan_length = 20000;
    const char* usage =
        "usage: bench_map [--dir DIR] [--items N] [--memory SIZE] [--finds N] [--inserts N] [--batch N] [--scans N]\n"
        "                 [--scan-length N] [--part model|real|both] [--json FILE]\n"
        "(a) model: flashxxl::map on hybrid-2009's emulated SSD with Br 128KiB / Bw 16MiB (two-level) and with\n"
        "    one block size Br or Bw for its nodes (stxxl::map's layout): modelled seconds, items transferred.\n"
        "(b) real: flashxxl::map two-level vs stxxl::map (nodes of 128KiB and of 16MiB) on syscall files in DIR\n"
        "    (default ./bench-work, created) with the same memory M (default 160MiB): wall seconds.\n";
    for (int i = 1; i < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << usage;
            return 0;
        }
        if (i + 1 >= argc) {
            std::cerr << "option " << a << " needs a value\n" << usage;
            return 2;
        }
        std::string v = argv[i + 1];
        try {
            if (a == "--dir") dir = v;
            else if (a == "--items") w.items = std::stoull(v);
            else if (a == "--memory") memory = parse_size(v);
            else if (a == "--finds") w.finds = std::stoull(v);
            else if (a == "--inserts") w.inserts = std::stoull(v);
            else if (a == "--batch") w.batch = std::stoull(v);
            else if (a == "--scans") w.scans = std::stoull(v);
            else if (a == "--scan-length") w.scan_length = std::stoull(v);
            else if (a == "--json") json_path = v;
            else if (a == "--part" && (v == "model" || v == "real" || v == "both")) part = v;
            else {
                std::cerr << "unknown option or value: " << a << " " << v << "\n" << usage;
                return 2;
            }
        } catch (const std::exception& e) {
            std::cerr << a << " " << v << ": " << e.what() << "\n" << usage;
            return 2;
        }
    }
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    const block_sizes two_level(br_bytes, bw_bytes);
    nlohmann::json j;
    j["items"] = w.items;
    j["memory_bytes"] = memory;
    bool ok = true;
    try {
        if (part != "real") {
            std::vector<btree_run> runs;
            for (const auto& [name, b] : std::vector<std::pair<std::string, block_sizes>>{
                     {"two-level", two_level},
                     {"one block Br", block_sizes(br_bytes, br_bytes)},
                     {"one block Bw", block_sizes(bw_bytes, bw_bytes)}}) {
                machine m = machine::from_preset("hybrid-2009");
                runs.push_back(flashxxl::cli::run_btree_workload(m, memory, b, w, name));
            }
            flashxxl::cli::print_btree_table(
                runs, "(a) hybrid-2009's emulated SSD, modelled seconds: " + std::to_string(w.items) +
                          " items of 16 B, M = " + format_bytes(double(memory)));
            for (const btree_run& r : runs) j["model"].push_back(flashxxl::cli::btree_run_json(r));
        }
        if (part != "model") {
            ::mkdir(dir.c_str(), 0755);
            const std::uint64_t file_bytes = 4 * w.items * 16 + 64 * bw_bytes;
            std::string cfg = dir + "/flashxxl-bench-map.stxxl";
            std::ofstream(cfg) << "disk=" << dir << "/stxxl-bench-map.img," << format_size(file_bytes)
                               << ",syscall direct=try unlink\n";
            setenv("STXXLCFG", cfg.c_str(), 1);
            std::vector<btree_run> runs;
            {
                machine m = machine::from_config_text("name=real\nflash=" + dir + "/flashxxl-bench-map.img," +
                                                          format_size(file_bytes) +
                                                          ",syscall name=file direct=try\nplacement=single device=file\n",
                                                      "bench_map");
                runs.push_back(flashxxl::cli::run_btree_workload(m, memory, two_level, w, "flashxxl two-level"));
            }
            runs.push_back(run_stxxl<br_bytes>(memory, w, "stxxl::map B=128KiB"));
            runs.push_back(run_stxxl<bw_bytes>(memory, w, "stxxl::map B=16MiB"));
            print_wall_table(runs);
            for (const btree_run& r : runs) {
                j["real"].push_back(flashxxl::cli::btree_run_json(r));
                ok = ok && r.verified;
            }
            ::unlink(cfg.c_str());
        }
    } catch (const std::exception& e) {
        std::cerr << "bench_map: " << e.what() << "\n";
        return 1;
    }
    if (!json_path.empty()) std::ofstream(json_path) << j.dump(2) << "\n";
    return ok ? 0 : 1;
}
