// `flashxxl sort`: the bundled sort benchmark (seeds/001 Table 1) on any machine and (Br, Bw) pair.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "block_dispatch.hpp"
#include "commands.hpp"
#include "container_report.hpp"
#include "flashxxl/characterize/progress_bar.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "machine_options.hpp"

namespace flashxxl::cli {
namespace {

struct sort_options {
    machine_choice choice;
    std::string device;
    std::string br = "128KiB", bw = "16MiB", memory = "256MiB", bytes;
    std::uint64_t items = 0;
    int element_size = 8;
    std::uint64_t seed = 1;
    std::string mode = "vector";
    bool json = false, no_progress = false;
};

template <class T, class B>
container_run run_sort(machine& m, const sort_options& o, std::uint64_t n, std::uint64_t memory) {
    characterize::progress_bar bar(stderr, !o.no_progress && !o.json);
    container_run r;
    r.command = "sort";
    r.mode = o.mode;
    r.br = B::read_block;
    r.bw = B::write_block;
    r.memory = memory;
    r.items = n;
    r.element_size = sizeof(T);
    for (std::size_t i = 0; i < m.device_count(); ++i) r.device_names.push_back(m.dev(i).name());
    std::uint64_t key_sum = 0, out_sum = 0, out_count = 0;
    bool sorted = true;
    auto check = [&](const T& x, std::uint64_t& prev) {
        if (out_count > 0 && x.key < prev) sorted = false;
        prev = x.key;
        out_sum += x.key;
        ++out_count;
    };
    if (o.mode == "vector") {
        using V = vector<T, B>;
        V v(m, V::min_memory(), role::stream);
        {
            typename V::stream_writer w(v);
            for (std::uint64_t i = 0; i < n; ++i) {
                std::uint64_t k = mix64(o.seed * 0x9e3779b97f4a7c15ull + i);
                key_sum += k;
                w.push(T(k));
                if ((i & 0xfffff) == 0) bar.update(0.3 * double(i) / double(n), "generating");
            }
        }
        bar.update(0.3, "sorting");
        auto before = snapshot(m);
        auto t0 = std::chrono::steady_clock::now();
        sort_report rep = flashxxl::sort(v, key_less(), memory);
        r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.devices = difference(snapshot(m), before);
        r.passes = rep.passes;
        r.runs = rep.runs;
        std::uint64_t prev = 0, i = 0;
        for (typename V::stream_reader in(v); !in.empty(); ++in, ++i) {
            check(*in, prev);
            if ((i & 0xfffff) == 0) bar.update(0.9 + 0.1 * double(i) / double(n), "verifying");
        }
    } else if (o.mode == "sorter") {
        auto before = snapshot(m);
        auto t0 = std::chrono::steady_clock::now();
        sorter<T, key_less, B> s(m, memory);
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t k = mix64(o.seed * 0x9e3779b97f4a7c15ull + i);
            key_sum += k;
            s.push(T(k));
            if ((i & 0xfffff) == 0) bar.update(0.5 * double(i) / double(n), "run formation");
        }
        bar.update(0.5, "merging");
        s.sort();
        std::uint64_t prev = 0, i = 0;
        for (; !s.empty(); ++s, ++i) {
            check(*s, prev);
            if ((i & 0xfffff) == 0) bar.update(0.5 + 0.5 * double(i) / double(n), "streaming out");
        }
        r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.devices = difference(snapshot(m), before);
        r.passes = s.passes();
        r.runs = s.runs_formed();
    } else {
        throw config_error("--mode '" + o.mode + "' (expected vector or sorter)");
    }
    bar.finish();
    r.verified = sorted && out_count == n && out_sum == key_sum;
    if (!r.verified)
        throw error("flashxxl sort: output check failed (" + std::string(sorted ? "sorted" : "NOT sorted") + ", " +
                    std::to_string(out_count) + " of " + std::to_string(n) + " items, checksum " +
                    (out_sum == key_sum ? "ok" : "differs") + ")");
    return r;
}

void run(const sort_options& o) {
    std::uint64_t br = parse_size(o.br), bw = parse_size(o.bw), memory = parse_size(o.memory);
    if ((o.items == 0) == o.bytes.empty()) throw config_error("give exactly one of --items N and --bytes SIZE");
    machine m = make_bench_machine(o.choice, o.device);
    dispatch_blocks(br, bw, [&](auto b) {
        using B = decltype(b);
        dispatch_element(o.element_size, [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            std::uint64_t n = o.items ? o.items : parse_size(o.bytes) / sizeof(T);
            print_run(run_sort<T, B>(m, o, n, memory), o.json);
        });
    });
}

} // namespace

void register_sort_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("sort", "sort random items with flashxxl's Br/Bw merge sort and report seeds/001 "
                                           "Table 1's columns (input volume, RDV, WRV, passes, modelled time, wall time)");
    auto o = std::make_shared<sort_options>();
    add_machine_options(cmd, o->choice);
    cmd->add_option("--device", o->device, "put every role on this device (placement single), e.g. ssd");
    cmd->add_option("--br", o->br, "read block size Br; supported pairs: " + supported_block_pairs())
        ->capture_default_str();
    cmd->add_option("--bw", o->bw, "write block size Bw")->capture_default_str();
    cmd->add_option("--memory", o->memory, "memory budget M of the sort (IEC units)")->capture_default_str();
    cmd->add_option("--items", o->items, "number of items");
    cmd->add_option("--bytes", o->bytes, "input volume instead of --items (IEC units)");
    cmd->add_option("--element-size", o->element_size, "item size in bytes: 8, 16 or 40")->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of the random keys")->capture_default_str();
    cmd->add_option("--mode", o->mode,
                    "vector: flashxxl::sort of an external vector (input read from the device); "
                    "sorter: push / sort / stream out")
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->add_flag("--no-progress", o->no_progress, "no progress bar");
    cmd->callback([o] { run(*o); });
}

} // namespace flashxxl::cli
