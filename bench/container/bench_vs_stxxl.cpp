// Driver: flashxxl sorter / sort / priority queue / vector scan vs STXXL's on the same disk (syscall files).
//
// Usage: bench_container_vs_stxxl [--dir DIR] [--bytes SIZE] [--memory SIZE] [--json FILE]
//                                 [--item 8|16|100[,...]] [--only sorter|sort|pq|pq-interleaved|scan]
//                                 [--side flashxxl|stxxl|both] [--io-threads N]
//                                 [--blocks split|same|both] [--br SIZE --bw SIZE]
//                                 [--threads T | --sweep T1,T2,...|auto]
// Both libraries get a syscall file (O_DIRECT where possible) in DIR and the same memory M, and
// the same thread count (OpenMP's team size for STXXL's parallel mode, set_threads for flashxxl).
// STXXL reads a generated config file DIR/flashxxl-bench.stxxl (STXXLCFG), so it never creates
// /var/tmp/stxxl. Prints one table row per benchmark (wall times, ratio, volumes) and JSON.
// The benchmark bodies are templates over the item type (bench_vs_stxxl_items.hpp), one TU each.
// A sweep over the sorter first times its final merge without the disk (merge_ceiling.hpp) and
// prints the sorter's merge speedup beside that ceiling.
// Exit status: 0 when every output was right, 1 when a run failed or was wrong (or the JSON
// could not be written), 2 for bad options (a --memory below a selected benchmark's minimum,
// an unwritable --json path: both found before any run).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_args.hpp"
#include "bench_json.hpp"
#include "bench_vs_stxxl_items.hpp"
#include "merge_ceiling.hpp"

using namespace bench_vs_stxxl;

namespace {
// flashxxl runs in two block configurations by default: the flash model's split (reads of
// 256 KiB, writes of 2 MiB) and STXXL's default block size for both (2 MiB), which compares the
// implementations alone. --br / --bw run one other pair instead. The sizes are run-time values:
// one container type serves every pair.
const block_sizes split_blocks(256 * 1024, 2 * 1024 * 1024);
const block_sizes same_blocks(2 * 1024 * 1024, 2 * 1024 * 1024);

//! Parses a comma list such as "1,2,4" into positive numbers; false on anything else.
bool parse_count_list(const std::string& text, std::vector<std::size_t>& out) {
    std::stringstream list(text);
    for (std::string t; std::getline(list, t, ',');) {
        if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(t) == 0)
            return false;
        out.push_back(std::stoul(t));
    }
    return !out.empty();
}

//! Removes the generated STXXL config file when the run ends, however it ends.
struct remove_on_exit {
    std::string path;
    ~remove_on_exit() {
        if (!path.empty()) ::unlink(path.c_str());
    }
};

//! The selected benchmarks whose minimum M is above `memory`, one line each (empty: none).
std::vector<std::string> memory_shortfalls(const bench_settings& st,
                                           const std::vector<std::size_t>& item_sizes) {
    std::vector<std::string> lines;
    for (std::size_t s : item_sizes) {
        const std::vector<memory_need> needs = s == 8    ? memory_needs_u64(st)
                                               : s == 16 ? memory_needs_pair16(st)
                                                         : memory_needs_rec100(st);
        for (const memory_need& n : needs)
            if (st.memory < n.minimum)
                lines.push_back(n.benchmark + ", " + std::to_string(s) + "-byte items" +
                                (n.blocks.empty() ? "" : ", flashxxl Br/Bw " + n.blocks) + ": " + n.why +
                                " needs " + format_bytes(double(n.minimum)));
    }
    return lines;
}

int run_benchmarks(int argc, char** argv);
} // namespace

int main(int argc, char** argv) {
    try {
        return run_benchmarks(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "bench_container_vs_stxxl: " << e.what() << "\n";
        return 1;
    }
}

namespace {
int run_benchmarks(int argc, char** argv) {
    bench_settings st;
    st.dir = "bench-work";
    st.bytes = 512 * MiB;
    st.memory = 64 * MiB;
    std::string json_path, block_choice = "both", sweep, item_list = "8";
    std::size_t threads_option = 0;
    std::uint64_t custom_br = 0, custom_bw = 0;
    std::string side = "both";
    bench::arg_parser args(
        "bench_container_vs_stxxl",
        "bench_container_vs_stxxl: flashxxl's containers and STXXL's on syscall files in DIR (created)\n"
        "with the same memory M on SIZE bytes of items. --blocks: flashxxl with Br 256KiB / Bw 2MiB\n"
        "(split), with Br = Bw = 2MiB like STXXL (same), or both. --br and --bw (both, e.g. --br 192KiB\n"
        "--bw 3MiB) run flashxxl with that pair instead. --sweep: every benchmark at each thread count\n"
        "listed (auto: 1, 2, 4, ... up to the machine's), with merge throughput, speedup and parallel\n"
        "efficiency against the first count, and the I/O floor (bytes moved / sequential bandwidth of DIR,\n"
        "measured first). A sweep first times the same merge in memory (8-byte keys, as many runs as the\n"
        "sorter forms, its output stage and one consumer; no disk): the speedup this machine allows the\n"
        "merge phase, printed beside the sorter's.",
        "A --memory below a selected benchmark's minimum is refused before any run (STXXL's priority\n"
        "queue needs 40MiB: 32MiB fixed internal memory and at least 8MiB of pools), and so is an\n"
        "unwritable --json. Exit status: 0 when every output was right, 1 when a run failed or was wrong\n"
        "(or the JSON could not be written), 2 for bad options.");
    args.text("--dir", st.dir, "folder of both libraries' files (created)");
    args.size("--bytes", st.bytes, "input bytes of items");
    args.size("--memory", st.memory, "memory M of each library");
    args.text("--json", json_path, "also write the results as JSON to FILE");
    args.text("--item", item_list,
              "8: uint64; 16: 16-byte items with an 8-byte key; 100: 100-byte records with a 10-byte key (no "
              "priority queue); or a comma list of these");
    args.text("--only", st.only, "one benchmark: sorter, sort, pq, pq-interleaved or scan (default: all)");
    args.choice("--side", side, {"flashxxl", "stxxl", "both"}, "the libraries to run");
    args.count("--io-threads", st.fx_io_threads, "flashxxl's file's I/O threads (queue depth; STXXL: 1)", 0,
               999);
    args.choice("--blocks", block_choice, {"split", "same", "both"}, "flashxxl's block sizes (see above)");
    args.size("--br", custom_br, "flashxxl's Br, with --bw (0: --blocks)");
    args.size("--bw", custom_bw, "flashxxl's Bw, with --br (0: --blocks)");
    args.count("--threads", threads_option, "threads of both libraries (0: the machine's, OpenMP's count)", 0,
               9999);
    args.text("--sweep", sweep, "thread counts T1,T2,... or auto (instead of --threads)");
    if (int status = args.parse(argc, argv); status >= 0) return status;
    st.run_flashxxl = side != "stxxl";
    st.run_stxxl = side != "flashxxl";
    if (!st.only.empty() && st.only != "sorter" && st.only != "sort" && st.only != "pq" &&
        st.only != "pq-interleaved" && st.only != "scan") {
        std::cerr << "--only " << st.only << ": expected sorter, sort, pq, pq-interleaved or scan\n";
        return 2;
    }
    std::vector<std::size_t> item_sizes;
    if (!parse_count_list(item_list, item_sizes)) item_sizes = {0};
    for (std::size_t s : item_sizes) {
        if (s != 8 && s != 16 && s != 100) {
            std::cerr << "--item " << item_list
                      << ": expected 8, 16 or 100 (bytes), or a comma list of them\n";
            return 2;
        }
    }
    if (custom_br != 0 || custom_bw != 0) {
        if (custom_br == 0 || custom_bw == 0) {
            std::cerr << "--br and --bw go together\n";
            return 2;
        }
        try {
            st.pairs.push_back(block_sizes(custom_br, custom_bw));
        } catch (const config_error& e) {
            std::cerr << "--br / --bw: " << e.what() << "\n";
            return 2;
        }
    } else {
        if (block_choice != "same") st.pairs.push_back(split_blocks);
        if (block_choice != "split") st.pairs.push_back(same_blocks);
    }
    // Checked before any run, so that a long run does not end in a refusal.
    if (const std::vector<std::string> short_of = memory_shortfalls(st, item_sizes); !short_of.empty()) {
        std::cerr << "--memory " << format_bytes(double(st.memory))
                  << ": below the minimum of a selected benchmark; raise --memory or leave the benchmark out "
                     "(--only, "
                     "--item, --blocks, --side):\n";
        for (const std::string& line : short_of)
            std::cerr << "  " << line << "\n";
        return 2;
    }
    if (!bench::check_writable(json_path)) return 2;
    ::mkdir(st.dir.c_str(), 0755);
    remove_on_exit cfg_file{st.dir + "/flashxxl-bench.stxxl"};
    const std::string& cfg = cfg_file.path;
    {
        std::ofstream out(cfg);
        out << "disk=" << st.dir << "/stxxl-bench.img," << format_size(4 * st.bytes + GiB)
            << ",syscall direct=try unlink\n";
        out.close();
        if (out.fail()) {
            std::cerr << "--dir " << st.dir << ": cannot write STXXL's config file " << cfg
                      << "; expected a writable directory\n";
            return 2;
        }
    }
    setenv("STXXLCFG", cfg.c_str(), 1);
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    const std::size_t machine_threads = default_threads();
    if (sweep == "auto") {
        for (std::size_t t = 1; t < machine_threads; t *= 2)
            st.thread_counts.push_back(t);
        st.thread_counts.push_back(machine_threads);
    } else if (!sweep.empty()) {
        if (!parse_count_list(sweep, st.thread_counts)) {
            std::cerr << "--sweep " << sweep << ": expected thread counts like 1,2,4 or auto\n";
            return 2;
        }
    } else {
        st.thread_counts.push_back(resolve_threads(threads_option));
    }
    bandwidth bw{};
    if (st.run_flashxxl) bw = measure_bandwidth(st);
    // The in-memory merge: the ceiling of the merge phase's speedup on this machine (memory
    // bandwidth, the steps and the single consumer bound it, not the disk), once per output
    // stage size: a block pair's stage is the sorter's (a 64th of M less its reserve, at least 2 Br).
    struct ceiling_set {
        std::uint64_t stage_bytes = 0;
        std::vector<ceiling_row> rows;
    };
    std::vector<ceiling_set> ceilings;
    auto stage_of = [&](const block_sizes& b) {
        return sorter<std::uint64_t>::output_stage_bytes(st.memory, b.br);
    };
    const std::uint64_t ceiling_items = std::min<std::uint64_t>(st.bytes, GiB) / 8;
    // About as many runs as the sorter forms: its runs fill half of M less its reserve (18 runs
    // of 512 MiB at M = 64 MiB; this gives 19).
    const std::uint64_t run_bytes = std::max<std::uint64_t>(1, st.memory * 7 / 16);
    const std::size_t ceiling_runs =
        std::size_t(std::max<std::uint64_t>(2, (st.bytes + run_bytes - 1) / run_bytes));
    if (st.run_flashxxl && st.thread_counts.size() > 1 && (st.only.empty() || st.only == "sorter")) {
        for (const block_sizes& b : st.pairs) {
            bool seen = false;
            for (const ceiling_set& c : ceilings)
                seen = seen || c.stage_bytes == stage_of(b);
            if (!seen)
                ceilings.push_back(
                    {stage_of(b), measure_merge_ceiling(ceiling_items, ceiling_runs, stage_of(b) / 8,
                                                        st.thread_counts, 5)});
        }
    }
    struct item_results {
        std::size_t item_bytes;
        std::vector<result> rows;
    };
    std::vector<item_results> all;
    for (std::size_t s : item_sizes)
        all.push_back({s, s == 8 ? run_u64(st) : s == 16 ? run_pair16(st) : run_rec100(st)});

    auto floor_s = [&](const result& r) {
        return (bw.read > 0 ? double(r.fx_read) / bw.read : 0) +
               (bw.write > 0 ? double(r.fx_written) / bw.write : 0);
    };
    std::printf(
        "flashxxl (Br/Bw as listed, %u I/O thread(s)) vs STXXL 1.4.1 (block size in column st_B: 2 MiB, the "
        "priority queue's as PRIORITY_QUEUE_GENERATOR picks it; 1 I/O thread): %s of items, M = %s, files in "
        "%s; %zu hardware threads (OpenMP)\n",
        st.fx_io_threads, format_bytes(double(st.bytes)).c_str(), format_bytes(double(st.memory)).c_str(),
        st.dir.c_str(), machine_threads);
    std::printf("sequential bandwidth of %s through flashxxl's file: read %s/s, write %s/s (the I/O floor's "
                "divisor)\n",
                st.dir.c_str(), format_bytes(bw.read).c_str(), format_bytes(bw.write).c_str());
    for (const auto& [br, rate] : bw.read_at_br)
        std::printf("  reads of Br = %s, queue depth %u: %s/s\n", format_bytes(double(br)).c_str(),
                    st.fx_io_threads, format_bytes(rate).c_str());
    nlohmann::json j = nlohmann::json::array(); // the rows, "results" of the document
    bool ok = true;
    if (!ceilings.empty()) {
        std::printf(
            "in-memory merge (no I/O): %zu runs (about the sorter's), %s of 8-byte keys, the sorter's "
            "output stage and one consumer; median of 5 alternating runs\n",
            ceiling_runs, format_bytes(double(ceiling_items * 8)).c_str());
        std::printf("%-9s %4s %9s %9s %7s %5s  %s\n", "stage", "thr", "merge_s", "Mitems/s", "speedup", "eff",
                    "runs (s)");
        for (const ceiling_set& set : ceilings) {
            for (const ceiling_row& c : set.rows) {
                std::string rounds;
                for (double x : c.round_s)
                    rounds += (rounds.empty() ? "" : " ") + std::to_string(x).substr(0, 5);
                double eff = c.speedup * double(set.rows.front().threads) / double(c.threads);
                std::printf("%-9s %4zu %9.3f %9.2f %7.2f %5.2f  %s%s\n",
                            format_bytes(double(set.stage_bytes)).c_str(), c.threads, c.seconds,
                            c.items_per_s / 1e6, c.speedup, eff, rounds.c_str(),
                            c.ok ? "" : "  OUTPUT WRONG");
                j.push_back({{"benchmark", "in-memory merge"},
                             {"item_bytes", 8},
                             {"threads", c.threads},
                             {"stage_bytes", set.stage_bytes},
                             {"runs", ceiling_runs},
                             {"items", ceiling_items},
                             {"flashxxl_merge_s", c.seconds},
                             {"round_s", c.round_s},
                             {"merge_items_per_s", c.items_per_s},
                             {"merge_speedup", c.speedup},
                             {"parallel_efficiency", eff},
                             {"ok", c.ok},
                             {"hardware_threads", machine_threads}});
                ok = ok && c.ok;
            }
        }
    }
    std::printf("%4s %-30s %-15s %9s %3s %10s %10s %7s %9s %9s %7s %5s %8s %7s %12s %12s %12s %12s %4s\n",
                "item", "benchmark", "fx Br/Bw", "st_B", "thr", "flashxxl_s", "stxxl_s", "ratio", "fx_merge",
                "Mitems/s", "speedup", "eff", "floor_s", "fx/flr", "fx_RDV", "fx_WRV", "stxxl_RDV",
                "stxxl_WRV", "ok");
    //! The in-memory merge's speedup at `threads` with the output stage of the pair labelled
    //! `blocks` (0 when not measured).
    auto ceiling_at = [&](const std::string& blocks, std::size_t threads) {
        for (const block_sizes& b : st.pairs) {
            if (blocks_label(b) != blocks) continue;
            for (const ceiling_set& set : ceilings)
                if (set.stage_bytes == stage_of(b))
                    for (const ceiling_row& c : set.rows)
                        if (c.threads == threads) return c.speedup;
        }
        return 0.0;
    };
    //! Br of the pair labelled `blocks` (0 when none is).
    auto br_of = [&](const std::string& blocks) -> std::uint64_t {
        for (const block_sizes& b : st.pairs)
            if (blocks_label(b) == blocks) return b.br;
        return 0;
    };
    for (const item_results& ir : all) {
        //! The same benchmark and blocks at the first thread count: the base of speedup and efficiency.
        auto base_of = [&](const result& r) -> const result& {
            for (const result& o : ir.rows)
                if (o.name == r.name && o.blocks == r.blocks) return o;
            return r;
        };
        for (const result& r : ir.rows) {
            const result& base = base_of(r);
            double throughput = r.fx_merge_s > 0 ? double(r.items) / r.fx_merge_s : 0;
            double speedup = r.fx_merge_s > 0 ? base.fx_merge_s / r.fx_merge_s : 0;
            double efficiency = speedup * double(base.threads) / double(r.threads);
            double floor = floor_s(r);
            std::printf(
                "%4zu %-30s %-15s %9s %3zu %10.3f %10.3f %7.3f %9.3f %9.2f %7.2f %5.2f %8.3f %7.2f %12s %12s "
                "%12s %12s %4s\n",
                ir.item_bytes, r.name.c_str(), r.blocks.c_str(), format_bytes(double(r.st_block)).c_str(),
                r.threads, r.fx_s, r.st_s, r.st_s > 0 ? r.fx_s / r.st_s : 0.0, r.fx_merge_s, throughput / 1e6,
                speedup, efficiency, floor, floor > 0 ? r.fx_s / floor : 0.0,
                format_bytes(double(r.fx_read)).c_str(), format_bytes(double(r.fx_written)).c_str(),
                format_bytes(double(r.st_read)).c_str(), format_bytes(double(r.st_written)).c_str(),
                r.ok ? "yes" : "NO");
            j.push_back(
                {{"benchmark", r.name},
                 {"item_bytes", ir.item_bytes},
                 {"flashxxl_blocks", r.blocks},
                 {"threads", r.threads},
                 {"flashxxl_s", r.fx_s},
                 {"stxxl_s", r.st_s},
                 {"ratio", r.st_s > 0 ? r.fx_s / r.st_s : 0.0},
                 {"flashxxl_merge_s", r.fx_merge_s},
                 {"merge_items_per_s", throughput},
                 {"merge_speedup", speedup},
                 {"parallel_efficiency", efficiency},
                 {"io_floor_s", floor},
                 {"flashxxl_over_floor", floor > 0 ? r.fx_s / floor : 0.0},
                 {"flashxxl_read_bytes", r.fx_read},
                 {"flashxxl_write_bytes", r.fx_written},
                 {"stxxl_read_bytes", r.st_read},
                 {"stxxl_write_bytes", r.st_written},
                 {"stxxl_block_bytes", r.st_block},
                 {"ok", r.ok},
                 {"input_bytes", st.bytes},
                 {"memory_bytes", st.memory},
                 {"flashxxl_io_threads", st.fx_io_threads},
                 {"hardware_threads", machine_threads},
                 {"read_bandwidth_bytes_s", bw.read},
                 {"write_bandwidth_bytes_s", bw.write},
                 {"br_read_bandwidth_bytes_s", bw.at_br(br_of(r.blocks))},
                 {"merge_read_bytes_s", r.fx_merge_s > 0 ? double(r.fx_read) / r.fx_merge_s : 0.0},
                 {"flashxxl_io_wait_s", r.fx_wait_s},
                 {"flashxxl_merge_io_wait_s", r.fx_merge_wait_s},
                 {"stxxl_io_wait_s", r.st_wait_s},
                 {"in_memory_merge_speedup", ir.item_bytes == 8 ? ceiling_at(r.blocks, r.threads) : 0.0}});
            if (r.fx_readahead > 0) {
                j.back()["flashxxl_readahead_bytes"] = r.fx_readahead;
                j.back()["stxxl_readahead_bytes"] = r.st_readahead;
                j.back()["scan_consumer"] = "per item (operator* and ++) on both sides";
            }
            ok = ok && r.ok;
        }
    }
    std::printf(
        "fx_merge: the sorter's sort() + streaming out (sort(vector): its whole run); Mitems/s = items / "
        "fx_merge; speedup and eff(iciency) against the first thread count; floor_s = fx bytes read / read "
        "bandwidth + written / write bandwidth.\n");
    for (const item_results& ir : all)
        for (const result& r : ir.rows)
            if (r.fx_readahead > 0 && r.threads == st.thread_counts.front())
                std::printf(
                    "vector scan, %zu-byte items, fx %s: both sides have the same bytes of reads in flight "
                    "beyond the block being consumed (flashxxl %s in blocks of Br, STXXL %s in blocks of 2 "
                    "MiB) "
                    "and consume one item at a time (operator* and ++; STXXL's reader has no span API)\n",
                    ir.item_bytes, r.blocks.c_str(), format_bytes(double(r.fx_readahead)).c_str(),
                    format_bytes(double(r.st_readahead)).c_str());
    if (!ceilings.empty() && all.front().item_bytes == 8) {
        std::printf(
            "merge speedup against the in-memory merge's with the same stage and threads (8-byte items):\n");
        for (const result& r : all.front().rows) {
            double c = ceiling_at(r.blocks, r.threads);
            if (r.name.find("sorter") == std::string::npos || r.threads == st.thread_counts.front() || c <= 0)
                continue;
            double speedup = 0;
            for (const result& o : all.front().rows)
                if (o.name == r.name && o.blocks == r.blocks && o.threads == st.thread_counts.front())
                    speedup = r.fx_merge_s > 0 ? o.fx_merge_s / r.fx_merge_s : 0;
            std::printf("  %s %s, %zu threads: %.2f against %.2f in memory (%.0f %%)\n", r.name.c_str(),
                        r.blocks.c_str(), r.threads, speedup, c, 100 * speedup / c);
        }
    }
    // The sorter reads only while it merges (one pass), so its reading rate there against the
    // disk's rate for Br-sized requests tells whether the merge phase could wait for the disk,
    // and the time it blocked on requests (the device's wait_s) whether it did.
    bool said = false;
    for (const item_results& ir : all)
        for (const result& r : ir.rows) {
            double limit = bw.at_br(br_of(r.blocks));
            if (r.name.find("sorter") == std::string::npos || r.fx_merge_s <= 0 || limit <= 0 ||
                r.fx_read == 0)
                continue;
            if (!said)
                std::printf(
                    "the sorter's merge phase reads at (against reads of its Br at queue depth %u; near 100 "
                    "%% "
                    "the disk bounds it, and --io-threads N may help), and blocks waiting for I/O (seconds "
                    "callers waited on requests, of the phase's):\n",
                    st.fx_io_threads);
            said = true;
            double rate = double(r.fx_read) / r.fx_merge_s;
            std::printf("  %4zu-byte items, %s, %zu threads: %s/s (%.0f %% of %s/s); waited %.3f s of %.3f s "
                        "(%.1f %%)\n",
                        ir.item_bytes, r.blocks.c_str(), r.threads, format_bytes(rate).c_str(),
                        100 * rate / limit, format_bytes(limit).c_str(), r.fx_merge_wait_s, r.fx_merge_s,
                        100 * r.fx_merge_wait_s / r.fx_merge_s);
        }
    if (!json_path.empty()) {
        nlohmann::json doc = bench::document("bench_container_vs_stxxl");
        doc["results"] = std::move(j);
        if (!bench::write("bench_container_vs_stxxl", json_path, doc)) return 1;
    }
    return ok ? 0 : 1;
}
} // namespace
