// `flashxxl pq`: the priority-queue benchmark (n pushes then n pops, or interleaved) on any machine.
#include <chrono>
#include <cstdint>
#include <string>

#include "bench_items.hpp"
#include "commands.hpp"
#include "container_command.hpp"
#include "container_report.hpp"
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/cost/predict_containers.hpp"

namespace flashxxl::cli {
namespace {

// A min-queue. push-pop: n random pushes, then n pops. interleaved: the monotone use of
// time-forward processing and Dijkstra: each pop is followed on average by one or two pushes of
// keys not smaller than the popped one, until n items were pushed; then the rest is drained.
// Either way the popped keys must come out non-decreasing, and every item exactly once
// (count and key checksum).
struct pq_benchmark {
    static const char* name() { return "pq"; }
    //! The smallest --memory the run accepts: the queue's.
    template <class T> static std::uint64_t min_memory(const container_options&, const block_sizes& b) {
        return priority_queue<T, key_greater>::min_memory(b);
    }
    //! What the queue's external arrays on `hot` hold at once, at least: all the items queued at
    //! once (push-pop: all of them; interleaved: the first half) but what stays in `memory`.
    static std::vector<role_demand> roles_holding_input(const container_options& o, std::uint64_t volume,
                                                        std::uint64_t memory) {
        const std::uint64_t held = o.mode == "interleaved" ? volume / 2 : volume;
        if (held <= memory) return {};
        return {{role::hot, held - memory}};
    }
    template <class T>
    static container_run run(machine& m, const container_options& o, const block_sizes& b, std::uint64_t n,
                             std::uint64_t memory) {
        progress_bar bar(stderr, !o.no_progress && !o.json);
        container_run r = start_container_run<T>(m, "pq", o.mode, b, n, memory);
        std::uint64_t push_sum = 0, pop_sum = 0, pushed = 0, popped = 0, last = 0;
        bool ordered = true;
        auto before = snapshot(m);
        auto t0 = std::chrono::steady_clock::now();
        priority_queue<T, key_greater> pq(m, memory, b);
        pq.set_threads(o.threads);
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
                push_one(bench_key(o.seed, i) >> 1);
                if ((i & 0xfffff) == 0) bar.update(0.5 * double(i) / double(n), "pushing");
            }
        } else if (o.mode == "interleaved") {
            // Half the items first (one when n is 1: each step pops before it pushes).
            const std::uint64_t first_half = n == 1 ? 1 : n / 2;
            for (std::uint64_t i = 0; i < first_half; ++i)
                push_one(mix64(o.seed + i) >> 20);
            std::uint64_t step = 0;
            while (pushed < n) {
                pop_one();
                std::uint64_t x = mix64(o.seed * 31 + step++);
                for (std::uint64_t j = 0; j < 1 + (x & 1) && pushed < n; ++j)
                    push_one(last + ((x >> 8) & 0xffffff) + j);
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
        set_prediction(r, m, role::hot,
                       o.mode == "push-pop"
                           ? predict::priority_queue_push_pop(n, sizeof(T), memory, b)
                           : predict::priority_queue_monotone_bound(n, sizeof(T), memory, b));
        r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        record_difference(r, m, before);
        bar.finish();
        verify_output(r, "ordered", ordered, popped, pushed, pop_sum == push_sum);
        return r;
    }
};

} // namespace

void register_pq_command(CLI::App& app) {
    container_command_text text;
    text.description =
        "run flashxxl's merge-based priority queue (n pushes then n pops, or interleaved) and report "
        "volumes, merges, modelled and wall time";
    text.default_mode = "push-pop";
    text.memory_help = "memory budget M of the queue (IEC units)";
    text.items_help = "number of items pushed";
    text.bytes_help = "volume pushed instead of --items (IEC units)";
    text.mode_help = "push-pop or interleaved";
    text.data_role = role::hot;
    add_container_command<pq_benchmark>(app, "pq", text);
}

} // namespace flashxxl::cli
