// `flashxxl pq`: the priority-queue benchmark (n pushes then n pops, or interleaved) on any machine.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "block_dispatch.hpp"
#include "commands.hpp"
#include "container_report.hpp"
#include "flashxxl/characterize/progress_bar.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "machine_options.hpp"

namespace flashxxl::cli {
namespace {

struct pq_options {
    machine_choice choice;
    std::string device;
    std::string br = "128KiB", bw = "16MiB", memory = "256MiB", bytes;
    std::uint64_t items = 0;
    int element_size = 8;
    std::uint64_t seed = 1;
    std::string mode = "push-pop";
    bool json = false, no_progress = false;
};

// A min-queue. push-pop: n random pushes, then n pops. interleaved: the monotone use of
// time-forward processing and Dijkstra: each pop is followed on average by one or two pushes of
// keys not smaller than the popped one, until n items were pushed; then the rest is drained.
// Either way the popped keys must come out non-decreasing, and every item exactly once
// (count and key checksum).
template <class T, class B>
container_run run_pq(machine& m, const pq_options& o, std::uint64_t n, std::uint64_t memory) {
    characterize::progress_bar bar(stderr, !o.no_progress && !o.json);
    container_run r;
    r.command = "pq";
    r.mode = o.mode;
    r.br = B::read_block;
    r.bw = B::write_block;
    r.memory = memory;
    r.items = n;
    r.element_size = sizeof(T);
    for (std::size_t i = 0; i < m.device_count(); ++i) r.device_names.push_back(m.dev(i).name());
    std::uint64_t push_sum = 0, pop_sum = 0, pushed = 0, popped = 0, last = 0;
    bool ordered = true;
    auto before = snapshot(m);
    auto t0 = std::chrono::steady_clock::now();
    priority_queue<T, key_greater, B> pq(m, memory);
    auto pop_one = [&] {
        std::uint64_t k = pq.top().key;
        if (popped > 0 && k < last) ordered = false;
        last = k;
        pop_sum += k;
        ++popped;
        pq.pop();
    };
    auto push_one = [&](std::uint64_t k) {
        push_sum += k;
        ++pushed;
        pq.push(T(k));
    };
    if (o.mode == "push-pop") {
        for (std::uint64_t i = 0; i < n; ++i) {
            push_one(mix64(o.seed * 0x9e3779b97f4a7c15ull + i) >> 1);
            if ((i & 0xfffff) == 0) bar.update(0.5 * double(i) / double(n), "pushing");
        }
    } else if (o.mode == "interleaved") {
        for (std::uint64_t i = 0; i < n / 2; ++i) push_one(mix64(o.seed + i) >> 20);
        std::uint64_t step = 0;
        while (pushed < n) {
            pop_one();
            std::uint64_t x = mix64(o.seed * 31 + step++);
            for (std::uint64_t j = 0; j < 1 + (x & 1) && pushed < n; ++j) push_one(last + ((x >> 8) & 0xffffff) + j);
            if ((step & 0xfffff) == 0) bar.update(0.5 * double(pushed) / double(n), "interleaved");
        }
    } else {
        throw config_error("--mode '" + o.mode + "' (expected push-pop or interleaved)");
    }
    while (!pq.empty()) {
        pop_one();
        if ((popped & 0xfffff) == 0) bar.update(0.5 + 0.5 * double(popped) / double(n), "popping");
    }
    r.merges = pq.merges();
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.devices = difference(snapshot(m), before);
    bar.finish();
    r.verified = ordered && popped == pushed && pop_sum == push_sum;
    if (!r.verified)
        throw error("flashxxl pq: output check failed (" + std::string(ordered ? "ordered" : "NOT ordered") + ", " +
                    std::to_string(popped) + " of " + std::to_string(pushed) + " items, checksum " +
                    (pop_sum == push_sum ? "ok" : "differs") + ")");
    return r;
}

void run(const pq_options& o) {
    std::uint64_t br = parse_size(o.br), bw = parse_size(o.bw), memory = parse_size(o.memory);
    if ((o.items == 0) == o.bytes.empty()) throw config_error("give exactly one of --items N and --bytes SIZE");
    machine m = make_bench_machine(o.choice, o.device);
    dispatch_blocks(br, bw, [&](auto b) {
        using B = decltype(b);
        dispatch_element(o.element_size, [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            std::uint64_t n = o.items ? o.items : parse_size(o.bytes) / sizeof(T);
            print_run(run_pq<T, B>(m, o, n, memory), o.json);
        });
    });
}

} // namespace

void register_pq_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("pq", "run flashxxl's merge-based priority queue (n pushes then n pops, or "
                                         "interleaved) and report volumes, merges, modelled and wall time");
    auto o = std::make_shared<pq_options>();
    add_machine_options(cmd, o->choice);
    cmd->add_option("--device", o->device, "put every role on this device (placement single), e.g. ssd");
    cmd->add_option("--br", o->br, "read block size Br; supported pairs: " + supported_block_pairs())
        ->capture_default_str();
    cmd->add_option("--bw", o->bw, "write block size Bw")->capture_default_str();
    cmd->add_option("--memory", o->memory, "memory budget M of the queue (IEC units)")->capture_default_str();
    cmd->add_option("--items", o->items, "number of items pushed");
    cmd->add_option("--bytes", o->bytes, "volume pushed instead of --items (IEC units)");
    cmd->add_option("--element-size", o->element_size, "item size in bytes: 8, 16 or 40")->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of the random keys")->capture_default_str();
    cmd->add_option("--mode", o->mode, "push-pop or interleaved")->capture_default_str();
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->add_flag("--no-progress", o->no_progress, "no progress bar");
    cmd->callback([o] { run(*o); });
}

} // namespace flashxxl::cli
