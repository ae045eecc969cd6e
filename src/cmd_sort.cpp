// `flashxxl sort`: the bundled sort benchmark (seeds/001 Table 1) on any machine and (Br, Bw) pair.
#include <chrono>
#include <cstdint>
#include <string>

#include "bench_items.hpp"
#include "commands.hpp"
#include "container_command.hpp"
#include "container_report.hpp"
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/cost/predict_containers.hpp"

namespace flashxxl::cli {
namespace {

//! Runs one sort benchmark: random keys in, Br/Bw merge sort, output checked for order, count and checksum.
struct sort_benchmark {
    static const char* name() { return "sort"; }
    //! The smallest --memory the run accepts: sort()'s streams and sorter (vector mode), the sorter alone
    //! (sorter mode).
    template <class T> static std::uint64_t min_memory(const container_options& o, const block_sizes& b) {
        const std::uint64_t sorter_min = sorter<T, key_less>::min_memory(b);
        return o.mode == "vector" ? sort_stream_memory<T>(b) + sorter_min : sorter_min;
    }
    //! What the roles hold at once, at least: the input vector (vector mode) on `stream`, and the
    //! sorter's runs on `scratch`, which hold all but what stays in `memory`.
    static std::vector<role_demand> roles_holding_input(const container_options& o, std::uint64_t volume,
                                                        std::uint64_t memory) {
        std::vector<role_demand> demands;
        if (o.mode == "vector") demands.push_back({role::stream, volume});
        if (volume > memory) demands.push_back({role::scratch, volume - memory});
        return demands;
    }
    template <class T>
    static container_run run(machine& m, const container_options& o, const block_sizes& b, std::uint64_t n,
                             std::uint64_t memory) {
        progress_bar bar(stderr, !o.no_progress && !o.json);
        container_run r = start_container_run<T>(m, "sort", o.mode, b, n, memory);
        std::uint64_t key_sum = 0, out_sum = 0, out_count = 0;
        bool sorted = true;
        // Pushes the n random keys into `push`, reporting progress over [0, share].
        auto generate = [&](auto&& push, double share, const char* what) {
            for (std::uint64_t i = 0; i < n; ++i) {
                std::uint64_t k = bench_key(o.seed, i);
                key_sum += k;
                push(T(k));
                if ((i & 0xfffff) == 0) bar.update(share * double(i) / double(n), what);
            }
        };
        // Reads `sorted_stream` to its end, checking the order, reporting progress over [base, 1].
        auto check = [&](auto& sorted_stream, double base, const char* what) {
            std::uint64_t prev = 0;
            for (std::uint64_t i = 0; !sorted_stream.empty(); ++sorted_stream, ++i) {
                const T& x = *sorted_stream;
                if (out_count > 0 && x.key < prev) sorted = false;
                prev = x.key;
                out_sum += x.key;
                ++out_count;
                if ((i & 0xfffff) == 0) bar.update(base + (1 - base) * double(i) / double(n), what);
            }
        };
        if (o.mode == "vector") {
            using V = vector<T>;
            V v(m, V::min_memory(b), b, role::stream);
            {
                typename V::stream_writer w(v);
                generate([&](const T& x) { w.push(x); }, 0.3, "generating");
                w.finish(); // its failure must reach the user: the destructor would latch the vector
            }
            bar.update(0.3, "sorting");
            auto before = snapshot(m);
            auto t0 = std::chrono::steady_clock::now();
            sort_report rep = flashxxl::sort(v, key_less(), memory, role::scratch, o.threads);
            r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            record_difference(r, m, before);
            r.passes = rep.passes;
            r.runs = rep.runs;
            set_prediction(r, m, role::scratch, predict::sort(n, sizeof(T), memory, b));
            typename V::stream_reader in(v);
            check(in, 0.9, "verifying");
        } else if (o.mode == "sorter") {
            auto before = snapshot(m);
            auto t0 = std::chrono::steady_clock::now();
            sorter<T, key_less> s(m, memory, b);
            s.set_threads(o.threads);
            generate([&](const T& x) { s.push(x); }, 0.5, "run formation");
            bar.update(0.5, "merging");
            s.sort();
            check(s, 0.5, "streaming out");
            r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            record_difference(r, m, before);
            r.passes = s.passes();
            r.runs = s.runs_formed();
            set_prediction(r, m, role::scratch, predict::sorter(n, sizeof(T), memory, b));
        } else {
            throw config_error("--mode '" + o.mode + "' (expected vector or sorter)");
        }
        bar.finish();
        verify_output(r, "sorted", sorted, out_count, n, out_sum == key_sum);
        return r;
    }
};

} // namespace

void register_sort_command(CLI::App& app) {
    container_command_text text;
    text.description =
        "sort random items with flashxxl's Br/Bw merge sort and report seeds/001 Table 1's columns "
        "(input volume, RDV, WRV, passes, modelled time, wall time)";
    text.default_mode = "vector";
    text.memory_help = "memory budget M of the sort (IEC units)";
    text.items_help = "number of items";
    text.bytes_help = "input volume instead of --items (IEC units)";
    text.mode_help = "vector: flashxxl::sort of an external vector (input read from the device); "
                     "sorter: push / sort / stream out";
    add_container_command<sort_benchmark>(app, "sort", text);
}

} // namespace flashxxl::cli
