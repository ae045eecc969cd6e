// Google Benchmark: overhead of the emulated file (accounting mode) over a bare STXXL memory file.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>

#include <nlohmann/json.hpp>
#include <stxxl/bits/common/aligned_alloc.h>
#include <stxxl/bits/io/mem_file.h>

#include "bench_json.hpp"
#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

constexpr std::uint64_t kSpan = 256 * MiB;

std::unique_ptr<stxxl::file> make_file(bool emulated, int queue) {
    auto backing = std::make_unique<stxxl::mem_file>(emulated ? +stxxl::file::DEFAULT_QUEUE : queue);
    backing->set_size(kSpan);
    // Touch every page first, so that neither side pays first-touch page faults in the loop.
    char* chunk = static_cast<char*>(stxxl::aligned_alloc<4096>(MiB));
    std::fill(chunk, chunk + MiB, 'p');
    for (std::uint64_t off = 0; off < kSpan; off += MiB)
        backing->serve(chunk, off, MiB, stxxl::request::WRITE);
    stxxl::aligned_dealloc<4096>(chunk);
    if (!emulated) return backing;
    return std::make_unique<emulated_file>("ssd", std::move(backing), make_model("hama-ssd-2009"), kSpan,
                                           queue);
}

void random_reads_4k(benchmark::State& state, bool emulated) {
    static int queue = 5 << 20;
    auto f = make_file(emulated, queue++);
    char* buf = static_cast<char*>(stxxl::aligned_alloc<4096>(4096));
    std::mt19937_64 rng(1);
    for (auto _ : state) {
        std::uint64_t off = (rng() % (kSpan / 4096)) * 4096;
        f->aread(buf, off, 4096)->wait(false);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 4096);
    stxxl::aligned_dealloc<4096>(buf);
}

void sequential_writes_1m(benchmark::State& state, bool emulated) {
    static int queue = 6 << 20;
    auto f = make_file(emulated, queue++);
    char* buf = static_cast<char*>(stxxl::aligned_alloc<4096>(MiB));
    std::fill(buf, buf + MiB, 'x');
    std::uint64_t off = 0;
    for (auto _ : state) {
        f->awrite(buf, off, MiB)->wait(false);
        off = (off + MiB) % kSpan;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * MiB);
    stxxl::aligned_dealloc<4096>(buf);
}

//! Keeps each run's time so that main can print the emulated / bare ratios.
class ratio_reporter : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> ns_per_iteration;
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs)
            if (r.run_type == Run::RT_Iteration || r.aggregate_name == "mean")
                ns_per_iteration[r.benchmark_name()] = r.GetAdjustedRealTime();
        ConsoleReporter::ReportRuns(runs);
    }
};

} // namespace

BENCHMARK_CAPTURE(random_reads_4k, bare_mem_file, false)->UseRealTime();
BENCHMARK_CAPTURE(random_reads_4k, emulated_accounting, true)->UseRealTime();
BENCHMARK_CAPTURE(sequential_writes_1m, bare_mem_file, false)->UseRealTime();
BENCHMARK_CAPTURE(sequential_writes_1m, emulated_accounting, true)->UseRealTime();

constexpr const char* benchmark_name = "bench_device_gbench_emulated_file";

int main(int argc, char** argv) {
    flashxxl::cli::record_invocation(argc, argv); // for the envelope: context and RESULT line
    for (const auto& [key, value] : flashxxl::bench::as_text_pairs(flashxxl::bench::document(benchmark_name)))
        benchmark::AddCustomContext(key, value);
    benchmark::Initialize(&argc, argv);
    ratio_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    nlohmann::json j = flashxxl::bench::document(benchmark_name);
    std::printf("\n%-22s %14s %14s %10s\n", "workload", "bare_ns", "emulated_ns", "ratio");
    for (const char* w : {"random_reads_4k", "sequential_writes_1m"}) {
        auto bare = reporter.ns_per_iteration.find(std::string(w) + "/bare_mem_file/real_time");
        auto emu = reporter.ns_per_iteration.find(std::string(w) + "/emulated_accounting/real_time");
        if (bare == reporter.ns_per_iteration.end() || emu == reporter.ns_per_iteration.end()) continue;
        double ratio = emu->second / bare->second;
        std::printf("%-22s %14.0f %14.0f %10.3f\n", w, bare->second, emu->second, ratio);
        j[w] = {{"bare_ns", bare->second},
                {"emulated_ns", emu->second},
                {"ratio", ratio},
                {"target_ratio_max", 1.10}};
    }
    std::cout << "RESULT " << j.dump() << "\n";
    return 0;
}
