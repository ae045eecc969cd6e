// Google Benchmark: CPU cost of flashxxl's containers on an in-memory, unpaced (accounting-only) NVMe model.
//
// Every benchmark runs on its own machine with one memory-backed flash device emulating the
// nvme-gen4 model without pacing: the model only counts (RDV / WRV, modelled seconds), nothing
// sleeps, so wall time is the CPU path of the container plus memcpy in the device's I/O
// thread. Wall time (UseRealTime) is reported because that I/O thread works for the caller.
//
// Counters (per iteration unless named otherwise):
//   RDV, WRV   bytes read / written on the devices
//   model_s    modelled device seconds (what the NVMe model would have taken)
//   RW/N       (RDV + WRV) / input bytes: 2 x passes for a sort, 0 when everything stays in memory
//   passes     times a sorter read its data back (0: the input fitted one run)
//   runs       sorted runs formed;   merges  external merges of the priority queue
//   bulk_steps merge steps of the priority queue's pop_batch()
//   push_s, sort_s, drain_s   wall seconds of the sorter's three phases
//   hit        share of vector::get() calls served by the page cache
//
// Sizes are chosen so that the default run takes well under a minute on 2 cores; every
// benchmark also checks its output (order, count) and fails with SkipWithError if it is wrong.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench_json.hpp"
#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

// Failed output checks, so that main() (and the smoke test) exits non-zero: libbenchmark only
// reports a skipped benchmark.
int failed_checks = 0;
void fail(benchmark::State& state, const char* why) {
    ++failed_checks;
    state.SkipWithError(why);
}

// ---- machine and measurement helpers -------------------------------------------------------

//! One memory-backed NVMe device, accounting only (pace off is the default, stated anyway).
machine make_bench_machine() {
    return machine::from_config_text("name=gbench-nvme\n"
                                     "flash=memory,2GiB,memory name=nvme model=nvme-gen4 pace=off\n"
                                     "placement=single device=nvme\n",
                                     "gbench_containers.cpp");
}

//! Sums every device's I/O over the timed parts of a benchmark: pause() / resume() go with
//! state.PauseTiming() / ResumeTiming() so that set-up I/O is left out; counting starts at
//! construction.
class io_meter {
public:
    explicit io_meter(machine& m) : machine_(m), since_(total_now()) {}
    void pause() { sum_ += total_now() - since_; }
    void resume() { since_ = total_now(); }

    //! Stops counting and sets RDV, WRV, model_s and (if input_bytes > 0) RW/N.
    void report(benchmark::State& state, std::uint64_t input_bytes_per_iteration) {
        pause();
        using C = benchmark::Counter;
        state.counters["RDV"] = C(double(sum_.read_bytes), C::kAvgIterations, C::kIs1024);
        state.counters["WRV"] = C(double(sum_.write_bytes), C::kAvgIterations, C::kIs1024);
        state.counters["model_s"] = C(sum_.modelled_s, C::kAvgIterations);
        if (input_bytes_per_iteration > 0 && state.iterations() > 0)
            state.counters["RW/N"] =
                double(sum_.bytes()) / (double(input_bytes_per_iteration) * double(state.iterations()));
    }
    const io_counters& sum() const { return sum_; }

private:
    io_counters total_now() const {
        io_counters t;
        for (const device_stats& s : machine_.stats())
            t += s.total;
        return t;
    }
    machine& machine_;
    io_counters since_;
    io_counters sum_;
};

//! Wall seconds since `begin`.
double seconds_since(std::chrono::steady_clock::time_point begin) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

void set_throughput(benchmark::State& state, std::uint64_t items_per_iteration, std::size_t item_bytes) {
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(items_per_iteration));
    state.SetBytesProcessed(std::int64_t(state.iterations()) *
                            std::int64_t(items_per_iteration * item_bytes));
}

// ---- items ----------------------------------------------------------------------------------

//! A 16-byte record sorted by key (the payload rides along).
struct kv16 {
    std::uint64_t key;
    std::uint64_t payload;
};
struct kv16_less {
    bool operator()(const kv16& a, const kv16& b) const { return a.key < b.key; }
};

//! splitmix64: cheap, well-mixed pseudo-random keys.
struct key_stream {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

template <class T> struct item_traits;
template <> struct item_traits<std::uint64_t> {
    using less = std::less<std::uint64_t>;
    static std::uint64_t make(std::uint64_t k, std::uint64_t) { return k; }
    static std::uint64_t key(std::uint64_t x) { return x; }
    static constexpr const char* name = "u64";
};
template <> struct item_traits<kv16> {
    using less = kv16_less;
    static kv16 make(std::uint64_t k, std::uint64_t i) { return kv16{k, i}; }
    static std::uint64_t key(const kv16& x) { return x.key; }
    static constexpr const char* name = "kv16";
};

template <class T> std::vector<T> random_items(std::uint64_t n, std::uint64_t seed) {
    std::vector<T> v;
    v.reserve(n);
    key_stream ks{seed};
    for (std::uint64_t i = 0; i < n; ++i)
        v.push_back(item_traits<T>::make(ks.next(), i));
    return v;
}

// ---- sizes ----------------------------------------------------------------------------------

// The two block-size pairs every benchmark runs with (run-time values: one container type
// per element type serves both).
const block_sizes small_blocks(4 * 1024, 64 * 1024);     // Br 4 KiB, Bw 64 KiB
const block_sizes large_blocks(128 * 1024, 1024 * 1024); // Br 128 KiB, Bw 1 MiB

constexpr std::uint64_t kVectorBytes = 64 * MiB;       // vector stream write / scan
constexpr std::uint64_t kRandomVectorBytes = 64 * MiB; // vector random get (cache = 1/16 of it)
constexpr std::uint64_t kSortBytes = 16 * MiB;         // sorter input (memory and external)
constexpr std::uint64_t kExternalSortMemory = 3 * MiB; // M for external sorts: 6-17 runs, merges
constexpr std::uint64_t kPqBytes = 8 * MiB;            // priority queue items
constexpr std::uint64_t kPqMemory = 4 * MiB;           // M for the priority queue
constexpr std::uint64_t kStackQueueBytes = 64 * MiB;   // stack / queue items

// ---- vector ---------------------------------------------------------------------------------

//! Clears the vector and appends n items with a stream_writer (Bw writes).
void bm_vector_stream_write(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using vec = vector<T>;
    const std::uint64_t n = kVectorBytes / sizeof(T);
    machine m = make_bench_machine();
    vec v(m, vec::min_memory(b), b);
    io_meter io(m);
    for (auto _ : state) {
        v.clear();
        typename vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(i);
        w.finish();
    }
    io.report(state, n * sizeof(T));
    if (v.size() != n) fail(state, "vector stream_writer: wrong size");
    set_throughput(state, n, sizeof(T));
}

//! Scans n items with a stream_reader, item by item (`*r`, `++r`) or by runs (run() / skip()),
//! reading `prefetch` Br blocks ahead (the reader's default is 1).
void bm_vector_stream_scan(benchmark::State& state, const block_sizes& b, bool by_runs,
                           std::size_t prefetch = 1) {
    using T = std::uint64_t;
    using vec = vector<T>;
    const std::uint64_t n = kVectorBytes / sizeof(T);
    machine m = make_bench_machine();
    vec v(m, vec::min_memory(b), b);
    {
        typename vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(i);
    }
    const std::uint64_t expected = n * (n - 1) / 2;
    std::uint64_t sum = 0;
    io_meter io(m);
    for (auto _ : state) {
        sum = 0;
        typename vec::stream_reader r(v, 0, n, prefetch);
        if (by_runs) {
            while (!r.empty()) {
                std::uint64_t k = r.run();
                const T* p = &*r;
                for (std::uint64_t i = 0; i < k; ++i)
                    sum += p[i];
                r.skip(k);
            }
        } else {
            for (; !r.empty(); ++r)
                sum += *r;
        }
        benchmark::DoNotOptimize(sum);
    }
    io.report(state, n * sizeof(T));
    if (sum != expected) fail(state, "vector stream_reader: wrong sum");
    set_throughput(state, n, sizeof(T));
}

//! Random get() over a vector whose page cache holds 1/16 of it: mostly misses of one Br read.
void bm_vector_random_get(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using vec = vector<T>;
    const std::uint64_t n = kRandomVectorBytes / sizeof(T);
    const std::uint64_t frames = kRandomVectorBytes / 16 / b.br;
    machine m = make_bench_machine();
    vec v(m, b.bw + frames * (b.br + vec::frame_overhead) + 4096, b);
    {
        typename vec::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(i);
    }
    key_stream ks{42};
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        std::uint64_t i = ks.next() % n;
        T x = v.get(i);
        ok &= (x == i);
        benchmark::DoNotOptimize(x);
    }
    io.report(state, 0);
    if (!ok) fail(state, "vector::get: wrong item");
    if (state.iterations() > 0)
        state.counters["hit"] = 1.0 - double(io.sum().read_ops) / double(state.iterations());
    set_throughput(state, 1, sizeof(T));
}

// ---- sorter ---------------------------------------------------------------------------------

//! push() n items one by one, sort(), drain with `*s` / `++s` (checking the order). `memory`
//! 0 means: enough for one run (in-memory sort); otherwise the (small) budget M.
template <class T> void bm_sorter(benchmark::State& state, const block_sizes& b, std::uint64_t memory) {
    using traits = item_traits<T>;
    using sorter_type = sorter<T, typename traits::less>;
    const std::uint64_t n = kSortBytes / sizeof(T);
    const bool in_memory = memory == 0;
    if (in_memory) memory = n * sizeof(T) + n * sizeof(T) / 16 + 2 * b.bw + MiB;
    const std::vector<T> input = random_items<T>(n, 7);
    machine m = make_bench_machine();
    double push_s = 0, sort_s = 0, drain_s = 0;
    std::uint64_t passes = 0, runs = 0;
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        sorter_type s(m, memory, b);
        auto t0 = std::chrono::steady_clock::now();
        for (const T& x : input)
            s.push(x);
        push_s += seconds_since(t0);
        auto t1 = std::chrono::steady_clock::now();
        s.sort();
        sort_s += seconds_since(t1);
        auto t2 = std::chrono::steady_clock::now();
        std::uint64_t count = 0, last = 0;
        for (; !s.empty(); ++s, ++count) {
            std::uint64_t k = traits::key(*s);
            ok &= (k >= last);
            last = k;
        }
        drain_s += seconds_since(t2);
        ok &= (count == n);
        passes = s.passes();
        runs = s.runs_formed();
    }
    io.report(state, n * sizeof(T));
    using C = benchmark::Counter;
    state.counters["passes"] = double(passes);
    state.counters["runs"] = double(runs);
    state.counters["push_s"] = C(push_s, C::kAvgIterations);
    state.counters["sort_s"] = C(sort_s, C::kAvgIterations);
    state.counters["drain_s"] = C(drain_s, C::kAvgIterations);
    if (!ok)
        fail(state, "sorter: output not sorted or wrong count");
    else if (in_memory && passes != 0)
        fail(state, "sorter: the in-memory case went external");
    else if (!in_memory && runs < 2)
        fail(state, "sorter: the external case formed fewer than 2 runs");
    set_throughput(state, n, sizeof(T));
}

//! flashxxl::sort(vector&, M) with a small M: read, form runs, merge, write back. The vector is
//! refilled with the same random items (untimed) before each sort.
void bm_sort_vector(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using vec = vector<T>;
    const std::uint64_t n = kSortBytes / sizeof(T);
    const std::uint64_t memory = kExternalSortMemory + sort_stream_memory<T>(b);
    const std::vector<T> input = random_items<T>(n, 11);
    machine m = make_bench_machine();
    vec v(m, vec::min_memory(b), b);
    sort_report report;
    io_meter io(m);
    for (auto _ : state) {
        state.PauseTiming();
        io.pause();
        v.clear();
        {
            typename vec::stream_writer w(v);
            for (const T& x : input)
                w.push(x);
        }
        io.resume();
        state.ResumeTiming();
        report = flashxxl::sort(v, memory);
    }
    io.report(state, n * sizeof(T));
    state.counters["passes"] = double(report.passes);
    state.counters["runs"] = double(report.runs);
    bool ok = v.size() == n;
    {
        T last = 0;
        for (typename vec::stream_reader r(v); !r.empty(); ++r) {
            ok &= (*r >= last);
            last = *r;
        }
    }
    if (!ok) fail(state, "flashxxl::sort: vector not sorted or wrong size");
    set_throughput(state, n, sizeof(T));
}

// ---- priority queue -------------------------------------------------------------------------

using min_pq_less = std::greater<std::uint64_t>; // top() is the smallest

//! n push() then n top() / pop() (checking the order).
void bm_pq_fill_drain(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using pq_type = priority_queue<T, min_pq_less>;
    const std::uint64_t n = kPqBytes / sizeof(T);
    const std::vector<T> input = random_items<T>(n, 13);
    machine m = make_bench_machine();
    std::uint64_t merges = 0;
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        pq_type q(m, kPqMemory, b);
        for (const T& x : input)
            q.push(x);
        T last = 0;
        std::uint64_t count = 0;
        for (; !q.empty(); q.pop(), ++count) {
            ok &= (q.top() >= last);
            last = q.top();
        }
        ok &= (count == n);
        merges = q.merges();
    }
    io.report(state, n * sizeof(T));
    state.counters["merges"] = double(merges);
    if (!ok) fail(state, "priority_queue: pops out of order or wrong count");
    set_throughput(state, 2 * n, sizeof(T)); // n pushes + n pops
}

//! The same as fill_drain through the batched API: one push_batch() of the n items, then
//! pop_batch() in batches of 64 Ki items (checking the order). Threads: default_threads()
//! (OMP_NUM_THREADS=1 for one).
void bm_pq_fill_drain_batched(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using pq_type = priority_queue<T, min_pq_less>;
    const std::uint64_t n = kPqBytes / sizeof(T);
    const std::vector<T> input = random_items<T>(n, 13);
    std::vector<T> out(64 * 1024);
    machine m = make_bench_machine();
    std::uint64_t merges = 0, steps = 0;
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        pq_type q(m, kPqMemory, b);
        q.push_batch(input.begin(), input.end());
        T last = 0;
        std::uint64_t count = 0;
        while (!q.empty()) {
            std::uint64_t got = q.pop_batch(out.data(), out.size());
            for (std::uint64_t i = 0; i < got; ++i) {
                ok &= (out[i] >= last);
                last = out[i];
            }
            count += got;
        }
        ok &= (count == n);
        merges = q.merges();
        steps = q.bulk_steps();
    }
    io.report(state, n * sizeof(T));
    state.counters["merges"] = double(merges);
    state.counters["bulk_steps"] = double(steps);
    if (!ok) fail(state, "priority_queue: batched pops out of order or wrong count");
    set_throughput(state, 2 * n, sizeof(T)); // n pushes + n pops
}

//! Hold model: the queue holds n / 2 items (filled untimed, keys below 2^62), then n rounds of
//! pop the smallest x and push x + a random step below 2^61. The steps are of the order of the
//! key range, so pushed items land among the stored ones: they pass through the insertion heap,
//! internal runs and external arrays instead of being popped straight back from the heap.
void bm_pq_interleaved(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using pq_type = priority_queue<T, min_pq_less>;
    const std::uint64_t n = kPqBytes / sizeof(T);
    const std::vector<T> input = random_items<T>(n / 2, 17);
    machine m = make_bench_machine();
    std::uint64_t merges = 0;
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        state.PauseTiming();
        io.pause();
        {
            pq_type q(m, kPqMemory, b);
            for (const T& x : input)
                q.push(x >> 2); // room above for the increments
            std::uint64_t merges_before = q.merges();
            key_stream ks{19};
            io.resume();
            state.ResumeTiming();
            T last = 0;
            for (std::uint64_t i = 0; i < n; ++i) {
                T x = q.top();
                ok &= (x >= last);
                last = x;
                q.pop();
                q.push(x + (ks.next() >> 3));
            }
            state.PauseTiming();
            io.pause();
            merges = q.merges() - merges_before;
            ok &= (q.size() == input.size());
        } // the destructor's extent releases stay untimed
        io.resume();
        state.ResumeTiming();
    }
    io.report(state, n * sizeof(T));
    state.counters["merges"] = double(merges);
    if (!ok) fail(state, "priority_queue: hold model popped out of order");
    set_throughput(state, 2 * n, sizeof(T)); // n pops + n pushes
}

// ---- stack and queue ------------------------------------------------------------------------

//! n push() then n top() / pop() (spilling halves of Bw and reading them back).
void bm_stack(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using stack_type = stack<T>;
    const std::uint64_t n = kStackQueueBytes / sizeof(T);
    machine m = make_bench_machine();
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        stack_type s(m, stack_type::min_memory(b), b);
        for (std::uint64_t i = 0; i < n; ++i)
            s.push(i);
        for (std::uint64_t i = n; i-- > 0;) {
            ok &= (s.top() == i);
            s.pop();
        }
        ok &= s.empty();
    }
    io.report(state, n * sizeof(T));
    if (!ok) fail(state, "stack: wrong item popped");
    set_throughput(state, 2 * n, sizeof(T));
}

//! n push() then n front() / pop() (Bw writes, Br reads with prefetch).
void bm_queue(benchmark::State& state, const block_sizes& b) {
    using T = std::uint64_t;
    using queue_type = queue<T>;
    const std::uint64_t n = kStackQueueBytes / sizeof(T);
    machine m = make_bench_machine();
    bool ok = true;
    io_meter io(m);
    for (auto _ : state) {
        queue_type q(m, queue_type::min_memory(b), b);
        for (std::uint64_t i = 0; i < n; ++i)
            q.push(i);
        for (std::uint64_t i = 0; i < n; ++i) {
            ok &= (q.front() == i);
            q.pop();
        }
        ok &= q.empty();
    }
    io.report(state, n * sizeof(T));
    if (!ok) fail(state, "queue: wrong item popped");
    set_throughput(state, 2 * n, sizeof(T));
}

// ---- registration ---------------------------------------------------------------------------

std::string size_name(std::uint64_t bytes) {
    return bytes % MiB == 0 ? std::to_string(bytes / MiB) + "MiB" : std::to_string(bytes / KiB) + "KiB";
}

//! "Br=4KiB,Bw=64KiB"
std::string blocks_name(const block_sizes& b) { return "Br=" + size_name(b.br) + ",Bw=" + size_name(b.bw); }

//! --benchmark_min_time in seconds, when given as "<number>" or "<number>s" (0: not given).
double min_time_seconds = 0;

//! Removes "--benchmark_min_time=<number>[s]" from argv and returns the number (0 if absent).
//! Other forms (such as 1.8's "<N>x" iterations) are left for the library to parse.
double take_min_time_flag(int& argc, char** argv) {
    const std::string flag = "--benchmark_min_time=";
    double seconds = 0;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.compare(0, flag.size(), flag) == 0) {
            std::string value = arg.substr(flag.size());
            if (!value.empty() && value.back() == 's') value.pop_back();
            char* end = nullptr;
            double v = value.empty() ? 0 : std::strtod(value.c_str(), &end);
            if (end && *end == '\0' && v > 0) {
                seconds = v;
                continue;
            }
        }
        argv[kept++] = argv[i];
    }
    argc = kept;
    return seconds;
}

template <class Fn>
void add(const std::string& name, Fn&& fn, benchmark::TimeUnit unit = benchmark::kMillisecond) {
    auto* b = benchmark::RegisterBenchmark(name.c_str(), std::forward<Fn>(fn))->UseRealTime()->Unit(unit);
    if (min_time_seconds > 0) b->MinTime(min_time_seconds);
}

//! Registers `name/<type>/Br=..,Bw=..` for both block pairs; `bench(state, b)` runs one.
template <class Bench>
void add_for_blocks(const std::string& name, const std::string& type, Bench bench,
                    benchmark::TimeUnit unit = benchmark::kMillisecond) {
    for (const block_sizes& b : {small_blocks, large_blocks})
        add(
            name + "/" + type + "/" + blocks_name(b), [bench, b](benchmark::State& s) { bench(s, b); }, unit);
}

void register_all() {
    add_for_blocks("vector/stream_write", "u64", bm_vector_stream_write);
    add_for_blocks("vector/stream_scan", "u64",
                   [](benchmark::State& s, const block_sizes& b) { bm_vector_stream_scan(s, b, false); });
    add_for_blocks("vector/stream_scan_runs", "u64",
                   [](benchmark::State& s, const block_sizes& b) { bm_vector_stream_scan(s, b, true); });
    // 1 MiB of read-ahead (several requests in flight): what a scan that can spare the memory gets
    add_for_blocks("vector/stream_scan_ahead", "u64", [](benchmark::State& s, const block_sizes& b) {
        bm_vector_stream_scan(s, b, false, std::max<std::size_t>(1, MiB / b.br));
    });
    add_for_blocks("vector/random_get", "u64", bm_vector_random_get, benchmark::kMicrosecond);

    add_for_blocks("sorter/memory", "u64",
                   [](benchmark::State& s, const block_sizes& b) { bm_sorter<std::uint64_t>(s, b, 0); });
    add_for_blocks("sorter/external", "u64", [](benchmark::State& s, const block_sizes& b) {
        bm_sorter<std::uint64_t>(s, b, kExternalSortMemory);
    });
    add_for_blocks("sorter/memory", "kv16",
                   [](benchmark::State& s, const block_sizes& b) { bm_sorter<kv16>(s, b, 0); });
    add_for_blocks("sorter/external", "kv16", [](benchmark::State& s, const block_sizes& b) {
        bm_sorter<kv16>(s, b, kExternalSortMemory);
    });
    add_for_blocks("sort_vector/external", "u64", bm_sort_vector);

    add_for_blocks("priority_queue/fill_drain", "u64", bm_pq_fill_drain);
    add_for_blocks("priority_queue/fill_drain_batched", "u64", bm_pq_fill_drain_batched);
    add_for_blocks("priority_queue/interleaved", "u64", bm_pq_interleaved);

    add_for_blocks("stack/push_pop", "u64", bm_stack);
    add_for_blocks("queue/push_pop", "u64", bm_queue);
}

} // namespace

int main(int argc, char** argv) {
    // The seconds form of --benchmark_min_time is applied per benchmark (MinTime), so that
    // "--benchmark_min_time=0.01s" works with Debian's libbenchmark 1.7.1 (which wants a bare
    // number) as well as with 1.8+ (which wants the suffix).
    flashxxl::cli::record_invocation(argc, argv); // the envelope, in Google Benchmark's context
    for (const auto& [key, value] :
         flashxxl::bench::as_text_pairs(flashxxl::bench::document("bench_container_gbench_containers")))
        benchmark::AddCustomContext(key, value);
    min_time_seconds = take_min_time_flag(argc, argv);
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return failed_checks == 0 ? 0 : 1;
}
