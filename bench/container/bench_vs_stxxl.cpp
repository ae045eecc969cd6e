// Driver: flashxxl sorter / sort / priority queue / vector scan vs STXXL's on the same disk (syscall files).
//
// Usage: bench_container_vs_stxxl [--dir DIR] [--bytes SIZE] [--memory SIZE] [--json FILE]
//                                 [--only sorter|sort|pq|pq-interleaved|scan] [--side flashxxl|stxxl|both]
//                                 [--io-threads N] [--blocks split|same|both] [--br SIZE --bw SIZE]
//                                 [--threads T | --sweep T1,T2,...|auto]
// Both libraries get a syscall file (O_DIRECT where possible) in DIR and the same memory M, and
// the same thread count (OpenMP's team size for STXXL's parallel mode, set_threads for flashxxl).
// STXXL reads a generated config file DIR/flashxxl-bench.stxxl (STXXLCFG), so it never creates
// /var/tmp/stxxl. Prints one table row per benchmark (wall times, ratio, volumes) and JSON.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <type_traits>
#include <vector>

#include <omp.h>

#include <nlohmann/json.hpp>
#include <stxxl/io>
#include <stxxl/priority_queue>
#include <stxxl/sort>
#include <stxxl/sorter>
#include <stxxl/stats>
#include <stxxl/vector>

#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;
using item = std::uint64_t;
// flashxxl runs in two block configurations by default: the flash model's split (reads of
// 256 KiB, writes of 2 MiB) and STXXL's default block size for both (2 MiB), which compares the
// implementations alone. --br / --bw run one other pair instead. The sizes are run-time values:
// one container type serves every pair.
const block_sizes split_blocks(256 * 1024, 2 * 1024 * 1024);
const block_sizes same_blocks(2 * 1024 * 1024, 2 * 1024 * 1024);
std::string blocks_label(const block_sizes& b) {
    return format_bytes(double(b.br)) + "/" + format_bytes(double(b.bw));
}
constexpr std::size_t stxxl_block = 2 * 1024 * 1024;

struct stxxl_less {
    bool operator()(item a, item b) const { return a < b; }
    item min_value() const { return std::numeric_limits<item>::min(); }
    item max_value() const { return std::numeric_limits<item>::max(); }
};
// STXXL's PQ returns the largest under cmp: greater gives a min-queue.
struct stxxl_greater {
    bool operator()(item a, item b) const { return a > b; }
    item min_value() const { return std::numeric_limits<item>::max(); }
};

// --side: run only one library's half of each benchmark (for profiling); ratios need both.
bool run_flashxxl = true, run_stxxl = true;
// --io-threads: STXXL queues serving flashxxl's file (its queue depth); STXXL always has one.
unsigned fx_io_threads = 1;
// --threads / --sweep: the thread count of the current run (flashxxl's set_threads; STXXL's
// parallel mode gets the same through omp_set_num_threads).
std::size_t fx_threads = 1;

//! Sequential bandwidth of the benchmark disk through flashxxl's syscall file (bytes/s),
//! measured once by writing and scanning `bytes` with a vector: the I/O floor of a run is its
//! bytes read / read_bw + bytes written / write_bw.
struct bandwidth {
    double read = 0, write = 0;
};

std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

using stxxl_vector = stxxl::VECTOR_GENERATOR<item, 4, 8, stxxl_block>::result;

//! Appends the n benchmark keys to a flashxxl vector (stream writer) or an stxxl::vector.
template <class V>
void fill_with_keys(V& v, std::uint64_t n) {
    if constexpr (std::is_same_v<V, stxxl_vector>) {
        typename V::bufwriter_type w(v);
        for (std::uint64_t i = 0; i < n; ++i) w << mix64(i);
        w.finish();
    } else {
        typename V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i) w.push(mix64(i));
    }
}

//! True when a stream (flashxxl stream_reader, STXXL bufreader) yields its items in order.
template <class Stream>
bool is_sorted_stream(Stream&& in) {
    bool ok = true;
    item prev = 0;
    for (; !in.empty(); ++in) {
        ok = ok && prev <= *in;
        prev = *in;
    }
    return ok;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct result {
    std::string name;
    std::string blocks;  // flashxxl's Br/Bw
    std::size_t threads = 0;
    std::uint64_t items = 0;
    double fx_s = 0, st_s = 0;
    //! flashxxl's merge phase: the sorter's sort() and streaming out (intermediate and final
    //! merges); sort(vector)'s whole run (formation and merges cannot be told apart there).
    double fx_merge_s = 0;
    std::uint64_t fx_read = 0, fx_written = 0, st_read = 0, st_written = 0;
    bool ok = true;
};

struct volumes {
    std::uint64_t read = 0, written = 0;
};
volumes fx_volume(const machine& m) {
    volumes v;
    for (const auto& s : m.stats()) {
        v.read += s.total.read_bytes;
        v.written += s.total.write_bytes;
    }
    return v;
}
volumes st_volume(const stxxl::stats_data& d) { return {std::uint64_t(d.get_read_volume()), std::uint64_t(d.get_written_volume())}; }

machine fx_machine(const std::string& dir, std::uint64_t capacity) {
    return machine::from_config_text("name=bench\n"
                                     "disk=" + dir + "/flashxxl-bench.img," + format_size(capacity) +
                                         ",syscall name=disk direct=try io_threads=" + std::to_string(fx_io_threads) + "\n"
                                         "placement=single device=disk\n",
                                     "bench");
}

bandwidth measure_bandwidth(const std::string& dir, std::uint64_t n) {
    machine m = fx_machine(dir, 2 * n * sizeof(item) + GiB);
    using V = vector<item>;
    V v(m, V::min_memory(same_blocks), same_blocks);
    auto t0 = std::chrono::steady_clock::now();
    fill_with_keys(v, n);
    v.flush();
    double w = seconds_since(t0);
    item sum = 0;
    t0 = std::chrono::steady_clock::now();
    for (typename V::stream_reader in(v, 0, n, 16); !in.empty();) {
        std::uint64_t k = in.run();
        sum += (&*in)[k - 1];
        in.skip(k);
    }
    double r = seconds_since(t0);
    volumes vol = fx_volume(m);
    return {r > 0 ? double(vol.read) / r : 0, w > 0 ? double(vol.written) / w : 0.0 * double(sum)};
}

result bench_sorter(const std::string& dir, std::uint64_t n, std::uint64_t memory, const block_sizes& fx_blocks) {
    result r{"sorter push/sort/pop", blocks_label(fx_blocks)};
    if (run_flashxxl) {
        machine m = fx_machine(dir, 4 * n * sizeof(item) + GiB);
        auto t0 = std::chrono::steady_clock::now();
        sorter<item> s(m, memory, fx_blocks);
        s.expect(n);  // the input size is known: double-buffered run formation if it costs no pass
        s.set_threads(fx_threads);
        for (std::uint64_t i = 0; i < n; ++i) s.push(mix64(i));
        auto t_merge = std::chrono::steady_clock::now();
        s.sort();
        item prev = 0, sum = 0;
        for (; !s.empty(); ++s) {
            r.ok = r.ok && prev <= *s;
            prev = *s;
            sum += *s;
        }
        r.fx_s = seconds_since(t0);
        r.fx_merge_s = seconds_since(t_merge);
        volumes v = fx_volume(m);
        r.fx_read = v.read;
        r.fx_written = v.written;
    }
    if (run_stxxl) {
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        stxxl::sorter<item, stxxl_less, stxxl_block> s(stxxl_less(), memory);
        for (std::uint64_t i = 0; i < n; ++i) s.push(mix64(i));
        s.sort();
        item prev = 0;
        for (; !s.empty(); ++s) {
            r.ok = r.ok && prev <= *s;
            prev = *s;
        }
        r.st_s = seconds_since(t0);
        volumes v = st_volume(stxxl::stats_data(*stxxl::stats::get_instance()) - before);
        r.st_read = v.read;
        r.st_written = v.written;
    }
    return r;
}

result bench_sort(const std::string& dir, std::uint64_t n, std::uint64_t memory, const block_sizes& fx_blocks) {
    result r{"sort(vector)", blocks_label(fx_blocks)};
    if (run_flashxxl) {
        machine m = fx_machine(dir, 4 * n * sizeof(item) + GiB);
        using V = vector<item>;
        V v(m, V::min_memory(fx_blocks), fx_blocks);
        fill_with_keys(v, n);
        volumes v0 = fx_volume(m);
        auto t0 = std::chrono::steady_clock::now();
        flashxxl::sort(v, std::less<item>(), memory, role::scratch, fx_threads);
        r.fx_s = seconds_since(t0);
        r.fx_merge_s = r.fx_s;
        volumes v1 = fx_volume(m);
        r.fx_read = v1.read - v0.read;
        r.fx_written = v1.written - v0.written;
        r.ok = r.ok && is_sorted_stream(typename V::stream_reader(v));
    }
    if (run_stxxl) {
        using SV = stxxl_vector;
        SV v;
        fill_with_keys(v, n);
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        stxxl::sort(v.begin(), v.end(), stxxl_less(), memory);
        r.st_s = seconds_since(t0);
        volumes vv = st_volume(stxxl::stats_data(*stxxl::stats::get_instance()) - before);
        r.st_read = vv.read;
        r.st_written = vv.written;
        r.ok = r.ok && is_sorted_stream(typename SV::bufreader_type(v));
    }
    return r;
}

result bench_vector_scan(const std::string& dir, std::uint64_t n, const block_sizes& fx_blocks) {
    result r{"vector scan", blocks_label(fx_blocks)};
    item fx_sum = 0, st_sum = 0;
    if (run_flashxxl) {
        machine m = fx_machine(dir, 2 * n * sizeof(item) + GiB);
        using V = vector<item>;
        V v(m, V::min_memory(fx_blocks), fx_blocks);
        fill_with_keys(v, n);
        volumes v0 = fx_volume(m);
        auto t0 = std::chrono::steady_clock::now();
        for (typename V::stream_reader in(v, 0, n, 16); !in.empty();) {  // 16 blocks (4 MiB) of prefetch
            std::uint64_t k = in.run();
            const item* p = &*in;
            for (std::uint64_t i = 0; i < k; ++i) fx_sum += p[i];
            in.skip(k);
        }
        r.fx_s = seconds_since(t0);
        volumes v1 = fx_volume(m);
        r.fx_read = v1.read - v0.read;
    }
    if (run_stxxl) {
        using SV = stxxl_vector;
        SV v;
        fill_with_keys(v, n);
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        for (SV::bufreader_type in(v); !in.empty(); ++in) st_sum += *in;
        r.st_s = seconds_since(t0);
        r.st_read = st_volume(stxxl::stats_data(*stxxl::stats::get_instance()) - before).read;
    }
    r.ok = !(run_flashxxl && run_stxxl) || fx_sum == st_sum;
    return r;
}

template <class PushPop>
void pq_workload(PushPop& q, std::uint64_t n, bool interleaved, bool& ok) {
    item last = 0;
    std::uint64_t pushed = 0, popped = 0;
    auto pop = [&] {
        item k = q.top();
        ok = ok && (popped == 0 || k >= last);
        last = k;
        q.pop();
        ++popped;
    };
    if (!interleaved) {
        for (; pushed < n; ++pushed) q.push(mix64(pushed) >> 1);
    } else {
        for (; pushed < n / 2; ++pushed) q.push(mix64(pushed) >> 20);
        std::uint64_t step = 0;
        while (pushed < n) {
            pop();
            std::uint64_t x = mix64(~step++);
            for (std::uint64_t j = 0; j < 1 + (x & 1) && pushed < n; ++j, ++pushed) q.push(last + ((x >> 8) & 0xffffff));
        }
    }
    while (!q.empty()) pop();
    ok = ok && popped == pushed;
}

// STXXL fixes the PQ's internal memory at compile time: half of the default M (64 MiB); the
// prefetch and write pools get the other half, so both queues hold M in total.
constexpr std::uint64_t stxxl_pq_internal = 32 * 1024 * 1024;
using stxxl_pq = stxxl::PRIORITY_QUEUE_GENERATOR<item, stxxl_greater, stxxl_pq_internal, (1ull << 28) / 1024>::result;

result bench_pq(const std::string& dir, std::uint64_t n, std::uint64_t memory, bool interleaved,
                const block_sizes& fx_blocks) {
    result r{interleaved ? "priority_queue interleaved" : "priority_queue n push, n pop", blocks_label(fx_blocks)};
    if (run_flashxxl) {
        machine m = fx_machine(dir, 4 * n * sizeof(item) + GiB);
        auto t0 = std::chrono::steady_clock::now();
        {
            flashxxl::priority_queue<item, std::greater<item>> q(m, memory, fx_blocks);
            pq_workload(q, n, interleaved, r.ok);
        }
        r.fx_s = seconds_since(t0);
        volumes v = fx_volume(m);
        r.fx_read = v.read;
        r.fx_written = v.written;
    }
    if (run_stxxl) {
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        {
            // The internal part is fixed at compile time; the pools get the rest of M.
            std::uint64_t pools = memory > stxxl_pq_internal + 8 * MiB ? memory - stxxl_pq_internal : 8 * MiB;
            stxxl_pq q(pools / 2, pools / 2);
            pq_workload(q, n, interleaved, r.ok);
        }
        r.st_s = seconds_since(t0);
        volumes v = st_volume(stxxl::stats_data(*stxxl::stats::get_instance()) - before);
        r.st_read = v.read;
        r.st_written = v.written;
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir = "bench-work", json_path, only, block_choice = "both", sweep;
    std::size_t threads_option = 0;
    std::uint64_t bytes = 512 * MiB, memory = 64 * MiB, custom_br = 0, custom_bw = 0;
    const char* usage =
        "usage: bench_container_vs_stxxl [--dir DIR] [--bytes SIZE] [--memory SIZE] [--json FILE]\n"
        "         [--only sorter|sort|pq|pq-interleaved|scan] [--side flashxxl|stxxl|both] [--io-threads N]\n"
        "         [--blocks split|same|both] [--br SIZE --bw SIZE] [--threads T | --sweep T1,T2,...|auto]\n"
        "Runs flashxxl's containers and STXXL's on syscall files in DIR (default ./bench-work, created)\n"
        "with the same memory M (default 64MiB) on SIZE bytes of uint64 (default 512MiB). --io-threads\n"
        "gives flashxxl's file N I/O threads (queue depth N; default 1, as STXXL has). --blocks: flashxxl\n"
        "with Br 256KiB / Bw 2MiB (split), with Br = Bw = 2MiB like STXXL (same), or both (default).\n"
        "--br and --bw (both, e.g. --br 192KiB --bw 3MiB) run flashxxl with that pair instead of --blocks.\n"
        "--threads T: both libraries sort and merge on T threads (default: the machine's, OpenMP's count).\n"
        "--sweep: every benchmark at each thread count listed (auto: 1, 2, 4, ... up to the machine's),\n"
        "with merge throughput, speedup and parallel efficiency against the first count, and the I/O floor\n"
        "(bytes moved / sequential bandwidth of DIR, measured first).\n";
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
        if (a == "--dir") dir = v;
        else if (a == "--bytes") bytes = parse_size(v);
        else if (a == "--memory") memory = parse_size(v);
        else if (a == "--json") json_path = v;
        else if (a == "--only") only = v;
        else if (a == "--blocks" && (v == "split" || v == "same" || v == "both")) block_choice = v;
        else if (a == "--io-threads") fx_io_threads = unsigned(std::stoul(v));
        else if (a == "--threads" && v.find_first_not_of("0123456789") == std::string::npos) threads_option = std::stoul(v);
        else if (a == "--sweep") sweep = v;
        else if (a == "--br") custom_br = parse_size(v);
        else if (a == "--bw") custom_bw = parse_size(v);
        else if (a == "--side" && (v == "flashxxl" || v == "stxxl" || v == "both")) {
            run_flashxxl = v != "stxxl";
            run_stxxl = v != "flashxxl";
        } else {
            std::cerr << "unknown option or value: " << a << " " << v << "\n" << usage;
            return 2;
        }
    }
    if (!only.empty() && only != "sorter" && only != "sort" && only != "pq" && only != "pq-interleaved" && only != "scan") {
        std::cerr << "--only " << only << ": expected sorter, sort, pq, pq-interleaved or scan\n";
        return 2;
    }
    std::vector<block_sizes> pairs;
    if (custom_br != 0 || custom_bw != 0) {
        if (custom_br == 0 || custom_bw == 0) {
            std::cerr << "--br and --bw go together\n" << usage;
            return 2;
        }
        try {
            pairs.push_back(block_sizes(custom_br, custom_bw));
        } catch (const config_error& e) {
            std::cerr << "--br / --bw: " << e.what() << "\n";
            return 2;
        }
    } else {
        if (block_choice != "same") pairs.push_back(split_blocks);
        if (block_choice != "split") pairs.push_back(same_blocks);
    }
    ::mkdir(dir.c_str(), 0755);
    std::string cfg = dir + "/flashxxl-bench.stxxl";
    {
        std::ofstream out(cfg);
        out << "disk=" << dir << "/stxxl-bench.img," << format_size(4 * bytes + GiB) << ",syscall direct=try unlink\n";
    }
    setenv("STXXLCFG", cfg.c_str(), 1);
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    std::vector<std::size_t> thread_counts;
    const std::size_t machine_threads = default_threads();
    if (sweep == "auto") {
        for (std::size_t t = 1; t < machine_threads; t *= 2) thread_counts.push_back(t);
        thread_counts.push_back(machine_threads);
    } else if (!sweep.empty()) {
        std::stringstream list(sweep);
        for (std::string t; std::getline(list, t, ',');) {
            if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || std::stoul(t) == 0) {
                std::cerr << "--sweep " << sweep << ": expected thread counts like 1,2,4 or auto\n";
                return 2;
            }
            thread_counts.push_back(std::stoul(t));
        }
    } else {
        thread_counts.push_back(resolve_threads(threads_option));
    }
    std::uint64_t n = bytes / sizeof(item);
    bandwidth bw{};
    if (run_flashxxl) bw = measure_bandwidth(dir, n);
    std::vector<result> results;
    auto want = [&](const std::string& k) { return only.empty() || only == k; };
    for (const block_sizes& b : pairs) {
        for (std::size_t t : thread_counts) {
            fx_threads = t;
            omp_set_num_threads(int(t));  // STXXL's parallel mode
            std::size_t first = results.size();
            if (want("sorter")) results.push_back(bench_sorter(dir, n, memory, b));
            if (want("sort")) results.push_back(bench_sort(dir, n, memory, b));
            if (want("pq")) results.push_back(bench_pq(dir, n / 2, memory, false, b));
            if (want("pq-interleaved")) results.push_back(bench_pq(dir, n / 2, memory, true, b));
            if (want("scan")) results.push_back(bench_vector_scan(dir, n, b));
            for (std::size_t i = first; i < results.size(); ++i) {
                results[i].threads = t;
                results[i].items = results[i].name.rfind("priority", 0) == 0 ? n / 2 : n;
            }
        }
    }
    //! The same benchmark and blocks at the first thread count: the base of speedup and efficiency.
    auto base_of = [&](const result& r) -> const result& {
        for (const result& o : results)
            if (o.name == r.name && o.blocks == r.blocks) return o;
        return r;
    };
    auto floor_s = [&](const result& r) {
        return (bw.read > 0 ? double(r.fx_read) / bw.read : 0) + (bw.write > 0 ? double(r.fx_written) / bw.write : 0);
    };

    std::printf("flashxxl (Br/Bw as listed, %u I/O thread(s)) vs STXXL 1.4.1 (B 2 MiB, 1 I/O thread): %s of "
                "uint64, M = %s, files in %s; %zu hardware threads (OpenMP)\n",
                fx_io_threads, format_bytes(double(bytes)).c_str(), format_bytes(double(memory)).c_str(), dir.c_str(),
                machine_threads);
    std::printf("sequential bandwidth of %s through flashxxl's file: read %s/s, write %s/s (the I/O floor's divisor)\n",
                dir.c_str(), format_bytes(bw.read).c_str(), format_bytes(bw.write).c_str());
    std::printf("%-30s %-15s %3s %10s %10s %7s %9s %9s %7s %5s %8s %7s %12s %12s %12s %12s %4s\n", "benchmark", "fx Br/Bw",
                "thr", "flashxxl_s", "stxxl_s", "ratio", "fx_merge", "Mitems/s", "speedup", "eff", "floor_s", "fx/flr",
                "fx_RDV", "fx_WRV", "stxxl_RDV", "stxxl_WRV", "ok");
    nlohmann::json j = nlohmann::json::array();
    for (const result& r : results) {
        const result& base = base_of(r);
        double throughput = r.fx_merge_s > 0 ? double(r.items) / r.fx_merge_s : 0;
        double speedup = r.fx_merge_s > 0 ? base.fx_merge_s / r.fx_merge_s : 0;
        double efficiency = speedup * double(base.threads) / double(r.threads);
        double floor = floor_s(r);
        std::printf("%-30s %-15s %3zu %10.3f %10.3f %7.3f %9.3f %9.2f %7.2f %5.2f %8.3f %7.2f %12s %12s %12s %12s %4s\n",
                    r.name.c_str(), r.blocks.c_str(), r.threads, r.fx_s, r.st_s, r.st_s > 0 ? r.fx_s / r.st_s : 0.0,
                    r.fx_merge_s, throughput / 1e6, speedup, efficiency, floor, floor > 0 ? r.fx_s / floor : 0.0,
                    format_bytes(double(r.fx_read)).c_str(), format_bytes(double(r.fx_written)).c_str(),
                    format_bytes(double(r.st_read)).c_str(), format_bytes(double(r.st_written)).c_str(),
                    r.ok ? "yes" : "NO");
        j.push_back({{"benchmark", r.name}, {"flashxxl_blocks", r.blocks}, {"threads", r.threads},
                     {"flashxxl_s", r.fx_s}, {"stxxl_s", r.st_s}, {"ratio", r.st_s > 0 ? r.fx_s / r.st_s : 0.0},
                     {"flashxxl_merge_s", r.fx_merge_s}, {"merge_items_per_s", throughput},
                     {"merge_speedup", speedup}, {"parallel_efficiency", efficiency}, {"io_floor_s", floor},
                     {"flashxxl_over_floor", floor > 0 ? r.fx_s / floor : 0.0}, {"flashxxl_read_bytes", r.fx_read},
                     {"flashxxl_write_bytes", r.fx_written}, {"stxxl_read_bytes", r.st_read},
                     {"stxxl_write_bytes", r.st_written}, {"ok", r.ok}, {"input_bytes", bytes}, {"memory_bytes", memory},
                     {"flashxxl_io_threads", fx_io_threads}, {"hardware_threads", machine_threads},
                     {"read_bandwidth", bw.read}, {"write_bandwidth", bw.write}});
    }
    std::printf("fx_merge: the sorter's sort() + streaming out (sort(vector): its whole run); Mitems/s = items / "
                "fx_merge; speedup and eff(iciency) against the first thread count; floor_s = fx bytes read / read "
                "bandwidth + written / write bandwidth.\n");
    if (!json_path.empty()) std::ofstream(json_path) << j.dump(2) << "\n";
    ::unlink(cfg.c_str());
    bool ok = true;
    for (const result& r : results) ok = ok && r.ok;
    return ok ? 0 : 1;
}
