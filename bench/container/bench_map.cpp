// Driver: flashxxl::map (the two-level B-tree) vs one-block-size layouts and stxxl::map: bulk load, random
// finds, random inserts, range scans.
//
// Usage: bench_map [--dir DIR] [--items N] [--memory SIZE] [--finds N] [--inserts N] [--scans N]
//                  [--batch N] [--scan-length N] [--part model|real|both] [--stxxl-cache cold|warm]
//                  [--json FILE]
// (a) model: hybrid-2009's emulated SSD (Hama 2009, memory-backed), flashxxl::map with Br =
//     128 KiB, Bw = 16 MiB (two-level), and with one block size for nodes, Br or Bw, the layout
//     of stxxl::map: modelled seconds and items transferred per operation.
// (b) real: a syscall file in DIR (O_DIRECT where possible): flashxxl::map two-level against
//     stxxl::map with nodes and leaves of Br and of Bw, the same memory M: wall seconds and
//     volumes. STXXL reads a generated config DIR/flashxxl-bench-map.stxxl (STXXLCFG).
//     Both sides do the same work (--stxxl-cache cold, the default): every phase starts with
//     empty caches and the bulk load and insert phases end with their dirty nodes written back
//     (flashxxl: drop_cache() and flush() in btree_workload.hpp; stxxl::map: the same through
//     its private cache members, see stxxl_cache_control). Finds and scans use const access
//     on stxxl::map (flashxxl's do not dirty nodes either).
// Exit status: 0 when every result was right, 1 when a run failed or was wrong (or the JSON
// could not be written), 2 for bad options.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <stxxl/io>
#include <stxxl/map>
#include <stxxl/stats>

#include "btree_workload.hpp"
#include "bench_args.hpp"
#include "bench_json.hpp"
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

template <unsigned Block> using stxxl_map = stxxl::map<key_t, value_t, stxxl_key_less, Block, Block>;
//! stxxl::map's implementation type (map.h's private impl_type, spelled out; SR is map's default).
template <unsigned Block>
using stxxl_btree = stxxl::btree::btree<key_t, value_t, stxxl_key_less, Block, Block, stxxl::SR>;

// ---- stxxl_cache_control: writing back and emptying stxxl::map's caches ----------------------
// stxxl::map 1.4.1 offers no call that writes back or empties its node and leaf caches (map.h,
// btree/btree.h, btree/node_cache.h), which flashxxl::map's flush() and drop_cache() do. The
// cold runs reach the few private members this needs the one way C++ allows: an explicit
// instantiation may name a private member ([temp.spec]: access is not checked there), and a
// friend defined by that instantiation hands the member pointer out.
static_assert(STXXL_VERSION_MAJOR == 1 && STXXL_VERSION_MINOR == 4,
              "stxxl_cache_control relies on STXXL 1.4's btree::node_cache members");

template <class Tag, typename Tag::type Member> struct private_member {
    friend typename Tag::type member_pointer(Tag) { return Member; }
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
template <unsigned Block> struct map_impl_tag {
    using type = stxxl_btree<Block> stxxl_map<Block>::*;
    friend type member_pointer(map_impl_tag);
};
template <class Btree> struct node_cache_tag {
    using type = typename Btree::node_cache_type Btree::*;
    friend type member_pointer(node_cache_tag);
};
template <class Btree> struct leaf_cache_tag {
    using type = typename Btree::leaf_cache_type Btree::*;
    friend type member_pointer(leaf_cache_tag);
};
template <class Cache> struct cache_nodes_tag {
    using type = std::vector<typename Cache::node_type*> Cache::*;
    friend type member_pointer(cache_nodes_tag);
};
template <class Cache> struct cache_requests_tag {
    using type = std::vector<stxxl::request_ptr> Cache::*;
    friend type member_pointer(cache_requests_tag);
};
template <class Cache> struct cache_dirty_tag {
    using type = std::vector<bool> Cache::*;
    friend type member_pointer(cache_dirty_tag);
};
template <class Cache> struct cache_free_tag {
    using type = std::vector<stxxl::int_type> Cache::*;
    friend type member_pointer(cache_free_tag);
};
#pragma GCC diagnostic pop

#define BENCH_MAP_STXXL_PRIVATE_MEMBERS(Block)                                                               \
    template struct private_member<map_impl_tag<Block>, &stxxl_map<Block>::impl>;                            \
    template struct private_member<node_cache_tag<stxxl_btree<Block>>, &stxxl_btree<Block>::m_node_cache>;   \
    template struct private_member<leaf_cache_tag<stxxl_btree<Block>>, &stxxl_btree<Block>::m_leaf_cache>;   \
    BENCH_MAP_STXXL_CACHE_MEMBERS(stxxl_btree<Block>::node_cache_type)                                       \
    BENCH_MAP_STXXL_CACHE_MEMBERS(stxxl_btree<Block>::leaf_cache_type)
#define BENCH_MAP_STXXL_CACHE_MEMBERS(Cache)                                                                 \
    template struct private_member<cache_nodes_tag<Cache>, &Cache::m_nodes>;                                 \
    template struct private_member<cache_requests_tag<Cache>, &Cache::m_reqs>;                               \
    template struct private_member<cache_dirty_tag<Cache>, &Cache::m_dirty>;                                 \
    template struct private_member<cache_free_tag<Cache>, &Cache::m_free_nodes>;
BENCH_MAP_STXXL_PRIVATE_MEMBERS(br_bytes)
BENCH_MAP_STXXL_PRIVATE_MEMBERS(bw_bytes)
#undef BENCH_MAP_STXXL_PRIVATE_MEMBERS
#undef BENCH_MAP_STXXL_CACHE_MEMBERS

//! Writes the cached nodes marked dirty back and marks them clean (flashxxl::map::flush()).
template <class Cache> void write_back(Cache& cache) {
    std::vector<typename Cache::node_type*>& nodes = cache.*member_pointer(cache_nodes_tag<Cache>());
    std::vector<stxxl::request_ptr>& requests = cache.*member_pointer(cache_requests_tag<Cache>());
    std::vector<bool>& dirty = cache.*member_pointer(cache_dirty_tag<Cache>());
    std::vector<bool> free_slot(nodes.size(), false); // free slots hold no node (and are marked dirty)
    for (stxxl::int_type i : cache.*member_pointer(cache_free_tag<Cache>()))
        free_slot[std::size_t(i)] = true;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (free_slot[i]) continue;
        if (requests[i].valid()) requests[i]->wait(); // a prefetch in flight
        if (dirty[i]) {
            nodes[i]->save();
            dirty[i] = false;
        }
    }
}

//! write_back(), then swaps in an empty cache of the same size: the next operation starts cold
//! (flashxxl::map::drop_cache()). node_cache::swap leaves the dirty flags behind, so they are
//! swapped too; the old nodes, all clean, go with `emptied` without a write.
template <class Cache, class Btree> void empty_cache(Cache& cache, Btree& tree) {
    write_back(cache);
    Cache emptied(cache.size() * Cache::block_type::raw_size, &tree, typename Btree::key_compare());
    cache.swap(emptied);
    std::swap(cache.*member_pointer(cache_dirty_tag<Cache>()),
              emptied.*member_pointer(cache_dirty_tag<Cache>()));
}

//! flush() and drop_cache() for an stxxl::map with nodes and leaves of `Block` bytes.
template <unsigned Block> struct stxxl_cache_control {
    stxxl_btree<Block>& tree;
    explicit stxxl_cache_control(stxxl_map<Block>& m) : tree(m.*member_pointer(map_impl_tag<Block>())) {}
    typename stxxl_btree<Block>::node_cache_type& nodes() {
        return tree.*member_pointer(node_cache_tag<stxxl_btree<Block>>());
    }
    typename stxxl_btree<Block>::leaf_cache_type& leaves() {
        return tree.*member_pointer(leaf_cache_tag<stxxl_btree<Block>>());
    }
    void flush() {
        write_back(leaves());
        write_back(nodes());
    }
    void drop_cache() {
        empty_cache(leaves(), tree);
        empty_cache(nodes(), tree);
    }
};

//! The workload of btree_workload.hpp on stxxl::map with nodes and leaves of `Block` bytes:
//! node cache M / 3, leaf cache 2M / 3; bulk construction from the sorted input, filled 90%.
//! `cold`: as run_btree_workload does with flashxxl::map, the bulk load and the insert phases
//! end with a write-back and every phase after the bulk load starts with empty caches.
template <unsigned Block>
btree_run run_stxxl(std::uint64_t memory, const btree_workload& w, const std::string& layout, bool cold) {
    using map_t = stxxl_map<Block>;
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
    // Both no-ops with --stxxl-cache warm.
    auto flush = [&] {
        if (cold) stxxl_cache_control<Block>(*t).flush();
    };
    auto drop_cache = [&] {
        if (cold) stxxl_cache_control<Block>(*t).drop_cache();
    };
    measure("bulk load", w.items, [&] {
        flashxxl::cli::detail_btree::input_iterator first(0), last(w.items);
        // stxxl::map's bulk constructor wants an input iterator with value_type pair<key, value>.
        t = std::make_unique<map_t>(first, last, memory / 3, memory / 3 * 2, true, 0.9, 0.9);
        flush(); // the leaves still in the cache: flashxxl's bulk load has written every node
    });
    // Reads go through the const map: a non-const find or iterator marks each leaf it loads
    // dirty, to be written back when evicted; flashxxl's reads write nothing.
    const map_t& reader = *t;
    drop_cache();
    measure("random finds", w.finds, [&] {
        for (std::uint64_t i = 0; i < w.finds; ++i) {
            key_t k = flashxxl::cli::mix64(w.seed * 0x9e37 + i) % (4 * w.items);
            auto it = reader.find(k);
            bool hit = k % 4 == 0 && k / 4 < w.items;
            if ((it != reader.end()) != hit || (hit && it->second != flashxxl::cli::mix64(k)))
                r.verified = false;
        }
    });
    drop_cache();
    measure("random inserts", w.inserts, [&] {
        for (std::uint64_t i = 0; i < w.inserts; ++i) {
            key_t k = 4 * (flashxxl::cli::mix64(w.seed * 0x51ed + i) % w.items) + 1 + i % 3;
            t->insert(std::make_pair(k, flashxxl::cli::mix64(k)));
        }
        flush(); // the writes the inserts owe
    });
    drop_cache();
    measure("batched inserts", w.batch, [&] {
        for (key_t k : flashxxl::cli::detail_btree::batch_keys(w))
            t->insert(std::make_pair(k, flashxxl::cli::mix64(k)));
        flush();
    });
    drop_cache();
    measure("range scans", w.scans * w.scan_length, [&] {
        for (std::uint64_t i = 0; i < w.scans; ++i) {
            key_t from = flashxxl::cli::mix64(w.seed * 0x7f4a + i) % (4 * w.items);
            key_t last = 0;
            std::uint64_t seen = 0;
            for (auto it = reader.lower_bound(from); it != reader.end() && seen < w.scan_length;
                 ++it, ++seen) {
                if (it->first < from || (seen > 0 && it->first <= last)) r.verified = false;
                last = it->first;
            }
        }
    });
    return r;
}

//! Real-file part: phases side by side in wall seconds, ratios to the first run.
void print_wall_table(const std::vector<btree_run>& runs, bool stxxl_cold) {
    if (stxxl_cold)
        std::printf(
            "(b) real file, wall seconds; stxxl_cache: cold (both sides: every phase after the bulk load "
            "starts "
            "with empty caches, the bulk load and insert phases include writing their dirty nodes back)\n");
    else
        std::printf(
            "(b) real file, wall seconds; stxxl_cache: warm (--stxxl-cache warm: stxxl::map keeps its caches "
            "between phases and its dirty leaves after the inserts; flashxxl starts every phase cold and its "
            "insert phases include the flush)\n");
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
    std::string dir = "bench-work", json_path, part = "both", stxxl_cache = "cold";
    std::uint64_t memory = 160 * MiB;
    btree_workload w;
    w.items = 20000000;
    w.finds = 500;
    w.inserts = 200;
    w.batch = 20000;
    w.scans = 20;
    w.scan_length = 20000;
    bench::arg_parser args(
        "bench_map",
        "bench_map: flashxxl::map (two-level B-tree) vs one-block-size layouts and stxxl::map\n"
        "(a) model: flashxxl::map on hybrid-2009's emulated SSD with Br 128KiB / Bw 16MiB (two-level) and "
        "with\n"
        "    one block size Br or Bw for its nodes (stxxl::map's layout): modelled seconds, items "
        "transferred.\n"
        "(b) real: flashxxl::map two-level vs stxxl::map (nodes of 128KiB and of 16MiB) on syscall files in "
        "DIR\n"
        "    (created) with the same memory M: wall seconds.",
        "Exit status: 0 when every result was right, 1 when a run failed or was wrong (or the JSON could\n"
        "not be written), 2 for bad options.");
    args.text("--dir", dir, "folder of the real-file part's files (created)");
    args.count("--items", w.items, "items in the tree (16 bytes each)");
    args.size("--memory", memory, "memory M of each implementation");
    args.count("--finds", w.finds, "random finds");
    args.count("--inserts", w.inserts, "random inserts");
    args.count("--batch", w.batch, "batched inserts");
    args.count("--scans", w.scans, "range scans");
    args.count("--scan-length", w.scan_length, "items per range scan");
    args.choice("--part", part, {"model", "real", "both"}, "(a) the model, (b) the real files, or both");
    args.choice("--stxxl-cache", stxxl_cache, {"cold", "warm"},
                "cold: stxxl::map's caches are written back and emptied where flashxxl's are (every phase "
                "starts cold, the bulk load and inserts include the write-back); warm: never");
    args.text("--json", json_path, "also write the results as JSON to FILE");
    if (int status = args.parse(argc, argv); status >= 0) return status;
    if (!bench::check_writable(json_path)) return 2; // before the runs, so that a typo does not waste them
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    const block_sizes two_level(br_bytes, bw_bytes);
    const bool stxxl_cold = stxxl_cache == "cold";
    nlohmann::json j = bench::document("bench_map");
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
            for (const btree_run& r : runs)
                j["model"].push_back(flashxxl::cli::btree_run_json(r));
        }
        if (part != "model") {
            ::mkdir(dir.c_str(), 0755);
            const std::uint64_t file_bytes = 4 * w.items * 16 + 64 * bw_bytes;
            std::string cfg = dir + "/flashxxl-bench-map.stxxl";
            {
                std::ofstream out(cfg);
                out << "disk=" << dir << "/stxxl-bench-map.img," << format_size(file_bytes)
                    << ",syscall direct=try unlink\n";
                out.close();
                if (out.fail()) {
                    std::cerr << "--dir " << dir << ": cannot write STXXL's config file " << cfg
                              << "; expected a writable directory\n";
                    return 2;
                }
            }
            setenv("STXXLCFG", cfg.c_str(), 1);
            std::vector<btree_run> runs;
            {
                machine m = machine::from_config_text(
                    "name=real\nflash=" + dir + "/flashxxl-bench-map.img," + format_size(file_bytes) +
                        ",syscall name=file direct=try\nplacement=single device=file\n",
                    "bench_map");
                runs.push_back(
                    flashxxl::cli::run_btree_workload(m, memory, two_level, w, "flashxxl two-level"));
            }
            runs.push_back(run_stxxl<br_bytes>(memory, w, "stxxl::map B=128KiB", stxxl_cold));
            runs.push_back(run_stxxl<bw_bytes>(memory, w, "stxxl::map B=16MiB", stxxl_cold));
            print_wall_table(runs, stxxl_cold);
            j["stxxl_cache"] = stxxl_cache;
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
    if (!json_path.empty() && !bench::write("bench_map", json_path, j)) return 1;
    return ok ? 0 : 1;
}
