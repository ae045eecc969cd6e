// The flashxxl-vs-STXXL container benchmarks as templates over the item type (one TU per type).
//
// bench_vs_stxxl.cpp parses the options and prints; bench_vs_stxxl_{u64,pair16,rec100}.cpp each
// instantiate run_item_benchmarks for one item type, so no translation unit carries both
// libraries' sorters for three types at once.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include <omp.h>

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

namespace bench_vs_stxxl {

using namespace flashxxl;

constexpr std::size_t stxxl_block = 2 * 1024 * 1024;

//! What every benchmark of one run shares (set by main from the options).
struct bench_settings {
    std::string dir;
    std::uint64_t bytes = 0, memory = 0;
    std::vector<block_sizes> pairs;
    std::vector<std::size_t> thread_counts;
    std::string only; // empty: every benchmark
    bool run_flashxxl = true, run_stxxl = true;
    unsigned fx_io_threads = 1;
};

struct result {
    std::string name;
    std::string blocks; // flashxxl's Br/Bw
    std::size_t threads = 0;
    std::uint64_t items = 0;
    double fx_s = 0, st_s = 0;
    //! flashxxl's merge phase: the sorter's sort() and streaming out (intermediate and final
    //! merges); sort(vector)'s whole run (formation and merges cannot be told apart there).
    double fx_merge_s = 0;
    std::uint64_t fx_read = 0, fx_written = 0, st_read = 0, st_written = 0;
    //! STXXL's block size in this benchmark: 2 MiB (stxxl_block) for the sorter, sort and
    //! vector, the one PRIORITY_QUEUE_GENERATOR picked for the priority queue.
    std::uint64_t st_block = 0;
    //! The scan's read-ahead in bytes (blocks requested ahead of the one being consumed) on
    //! each side; 0 for the other benchmarks.
    std::uint64_t fx_readahead = 0, st_readahead = 0;
    //! Seconds the callers blocked waiting for I/O to complete: flashxxl's over its run (the
    //! devices' wait_s), in its merge phase (fx_merge_s' part of it), and STXXL's over its run
    //! (its statistics' I/O wait time). A merge that waits for the disk shows it here.
    double fx_wait_s = 0, fx_merge_wait_s = 0, st_wait_s = 0;
    bool ok = true;
};

//! Sequential bandwidth of the benchmark disk (bytes/s): the I/O floor of a run is its bytes
//! read / read + bytes written / write.
struct bandwidth {
    double read = 0, write = 0;
    //! Read bandwidth with requests of each flashxxl Br (one stream, the file's queue depth):
    //! the rate a merge that reads Br blocks cannot pass. (Br, bytes/s) pairs.
    std::vector<std::pair<std::uint64_t, double>> read_at_br;
    double at_br(std::uint64_t br) const {
        for (const auto& p : read_at_br)
            if (p.first == br) return p.second;
        return 0;
    }
};

//! The smallest M one selected benchmark accepts for one item size and flashxxl block pair.
struct memory_need {
    std::string benchmark; // as in the table
    std::string blocks;    // flashxxl's Br/Bw
    std::uint64_t minimum = 0;
    std::string why; // whose minimum it is
};

// One function per item type (defined in its own TU).
std::vector<result> run_u64(const bench_settings& s);
std::vector<result> run_pair16(const bench_settings& s);
std::vector<result> run_rec100(const bench_settings& s);
std::vector<memory_need> memory_needs_u64(const bench_settings& s);
std::vector<memory_need> memory_needs_pair16(const bench_settings& s);
std::vector<memory_need> memory_needs_rec100(const bench_settings& s);
bandwidth measure_bandwidth(const bench_settings& s);

inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

inline std::string blocks_label(const block_sizes& b) {
    return format_bytes(double(b.br)) + "/" + format_bytes(double(b.bw));
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct volumes {
    std::uint64_t read = 0, written = 0;
    double wait_s = 0; // time callers blocked waiting for requests
};
inline volumes fx_volume(const machine& m) {
    volumes v;
    for (const auto& s : m.stats()) {
        v.read += s.total.read_bytes;
        v.written += s.total.write_bytes;
        v.wait_s += s.total.wait_s;
    }
    return v;
}
inline volumes st_volume(const stxxl::stats_data& d) {
    return {std::uint64_t(d.get_read_volume()), std::uint64_t(d.get_written_volume()), d.get_io_wait_time()};
}

//! Stores in r what STXXL read and wrote since `before` (its process-wide statistics).
inline void record_stxxl_volumes(result& r, const stxxl::stats_data& before) {
    volumes v = st_volume(stxxl::stats_data(*stxxl::stats::get_instance()) - before);
    r.st_read = v.read;
    r.st_written = v.written;
    r.st_wait_s = v.wait_s;
}

//! The benchmark's one-disk machine; `capacity` is rounded up to whole MiB (devices are 4 KiB multiples).
inline machine fx_machine(const bench_settings& s, std::uint64_t capacity) {
    capacity = (capacity + MiB - 1) / MiB * MiB;
    return machine::from_config_text(
        "name=bench\n"
        "disk=" +
            s.dir + "/flashxxl-bench.img," + format_size(capacity) +
            ",syscall name=disk direct=try io_threads=" + std::to_string(s.fx_io_threads) +
            "\n"
            "placement=single device=disk\n",
        "bench");
}

//! How the benchmarks make, order and check items of type T. item_kind<T>::make(k) builds the
//! item with 64-bit key prefix k; key(t) gives that prefix back (order-preserving); less is the
//! full order.
template <class T> struct item_kind;

template <> struct item_kind<std::uint64_t> {
    static constexpr const char* name = "uint64";
    static std::uint64_t make(std::uint64_t k) { return k; }
    static std::uint64_t key(std::uint64_t t) { return t; }
    static bool less(std::uint64_t a, std::uint64_t b) { return a < b; }
    static std::uint64_t min_value() { return 0; }
    static std::uint64_t max_value() { return std::numeric_limits<std::uint64_t>::max(); }
};

//! 16 bytes: an 8-byte key and an 8-byte payload (the middle column).
struct pair16 {
    std::uint64_t key;
    std::uint64_t payload;
};
//! STXXL's priority queue prints its items in debug paths, so it needs this to compile.
inline std::ostream& operator<<(std::ostream& out, const pair16& p) {
    return out << p.key << ':' << p.payload;
}
template <> struct item_kind<pair16> {
    static constexpr const char* name = "16-byte (8-byte key)";
    static pair16 make(std::uint64_t k) { return {k, ~k}; }
    static std::uint64_t key(const pair16& t) { return t.key; }
    static bool less(const pair16& a, const pair16& b) { return a.key < b.key; }
    static pair16 min_value() { return {0, 0}; }
    static pair16 max_value() { return {std::numeric_limits<std::uint64_t>::max(), 0}; }
};

//! 100 bytes with a 10-byte key compared as bytes: the sort benchmark's record (sortbenchmark.org).
struct rec100 {
    unsigned char key[10];
    unsigned char payload[90];
};
static_assert(sizeof(rec100) == 100, "a record is 100 bytes");
inline std::ostream& operator<<(std::ostream& out, const rec100& r) {
    for (unsigned char c : r.key)
        out << int(c) << ' ';
    return out;
}
template <> struct item_kind<rec100> {
    static constexpr const char* name = "100-byte (10-byte key)";
    static rec100 make(std::uint64_t k) {
        rec100 r;
        for (int i = 0; i < 8; ++i)
            r.key[i] = static_cast<unsigned char>(k >> (56 - 8 * i));
        std::uint64_t h = mix64(k);
        r.key[8] = static_cast<unsigned char>(h);
        r.key[9] = static_cast<unsigned char>(h >> 8);
        std::memset(r.payload, static_cast<int>(k & 0xff), sizeof r.payload);
        return r;
    }
    static std::uint64_t key(const rec100& t) {
        std::uint64_t k = 0;
        for (int i = 0; i < 8; ++i)
            k = (k << 8) | t.key[i];
        return k;
    }
    static bool less(const rec100& a, const rec100& b) { return std::memcmp(a.key, b.key, sizeof a.key) < 0; }
    static rec100 min_value() {
        rec100 r{};
        return r;
    }
    static rec100 max_value() {
        rec100 r{};
        std::memset(r.key, 0xff, sizeof r.key);
        return r;
    }
};

template <class T> struct fx_less {
    bool operator()(const T& a, const T& b) const { return item_kind<T>::less(a, b); }
};
template <class T> struct fx_greater {
    bool operator()(const T& a, const T& b) const { return item_kind<T>::less(b, a); }
};
template <class T> struct stxxl_less {
    bool operator()(const T& a, const T& b) const { return item_kind<T>::less(a, b); }
    T min_value() const { return item_kind<T>::min_value(); }
    T max_value() const { return item_kind<T>::max_value(); }
};
// STXXL's PQ returns the largest under cmp: greater gives a min-queue.
template <class T> struct stxxl_greater {
    bool operator()(const T& a, const T& b) const { return item_kind<T>::less(b, a); }
    T min_value() const { return item_kind<T>::max_value(); }
};

template <class T> using stxxl_vector = typename stxxl::VECTOR_GENERATOR<T, 4, 8, stxxl_block>::result;

//! Appends the n benchmark items to a flashxxl vector (stream writer) or an stxxl::vector.
template <class T, class V> void fill_with_items(V& v, std::uint64_t n) {
    if constexpr (std::is_same_v<V, stxxl_vector<T>>) {
        typename V::bufwriter_type w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w << item_kind<T>::make(mix64(i));
        w.finish();
    } else {
        typename V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(item_kind<T>::make(mix64(i)));
    }
}

//! True when a stream (flashxxl stream_reader, STXXL bufreader) yields its items in order.
template <class T, class Stream> bool is_sorted_stream(Stream&& in) {
    bool ok = true, first = true;
    T prev{};
    for (; !in.empty(); ++in) {
        ok = ok && (first || !item_kind<T>::less(*in, prev));
        prev = *in;
        first = false;
    }
    return ok;
}

template <class T>
result bench_sorter(const bench_settings& st, std::uint64_t n, std::size_t threads,
                    const block_sizes& fx_blocks) {
    result r{"sorter push/sort/pop", blocks_label(fx_blocks)};
    r.st_block = stxxl_block;
    if (st.run_flashxxl) {
        machine m = fx_machine(st, 4 * n * sizeof(T) + GiB);
        auto t0 = std::chrono::steady_clock::now();
        sorter<T, fx_less<T>> s(m, st.memory, fx_blocks);
        s.expect(n); // the input size is known: double-buffered run formation if it costs no pass
        s.set_threads(threads);
        for (std::uint64_t i = 0; i < n; ++i)
            s.push(item_kind<T>::make(mix64(i)));
        volumes at_merge = fx_volume(m);
        auto t_merge = std::chrono::steady_clock::now();
        s.sort();
        r.ok = is_sorted_stream<T>(s);
        r.fx_s = seconds_since(t0);
        r.fx_merge_s = seconds_since(t_merge);
        volumes v = fx_volume(m);
        r.fx_read = v.read;
        r.fx_written = v.written;
        r.fx_wait_s = v.wait_s;
        r.fx_merge_wait_s = v.wait_s - at_merge.wait_s;
    }
    if (st.run_stxxl) {
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        stxxl::sorter<T, stxxl_less<T>, stxxl_block> s(stxxl_less<T>(), st.memory);
        for (std::uint64_t i = 0; i < n; ++i)
            s.push(item_kind<T>::make(mix64(i)));
        s.sort();
        r.ok = is_sorted_stream<T>(s) && r.ok;
        r.st_s = seconds_since(t0);
        record_stxxl_volumes(r, before);
    }
    return r;
}

template <class T>
result bench_sort(const bench_settings& st, std::uint64_t n, std::size_t threads,
                  const block_sizes& fx_blocks) {
    result r{"sort(vector)", blocks_label(fx_blocks)};
    r.st_block = stxxl_block;
    if (st.run_flashxxl) {
        machine m = fx_machine(st, 4 * n * sizeof(T) + GiB);
        using V = vector<T>;
        V v(m, V::min_memory(fx_blocks), fx_blocks);
        fill_with_items<T>(v, n);
        volumes v0 = fx_volume(m);
        auto t0 = std::chrono::steady_clock::now();
        flashxxl::sort(v, fx_less<T>(), st.memory, role::scratch, threads);
        r.fx_s = seconds_since(t0);
        r.fx_merge_s = r.fx_s;
        volumes v1 = fx_volume(m);
        r.fx_read = v1.read - v0.read;
        r.fx_written = v1.written - v0.written;
        r.fx_wait_s = r.fx_merge_wait_s = v1.wait_s - v0.wait_s;
        r.ok = r.ok && is_sorted_stream<T>(typename V::stream_reader(v));
    }
    if (st.run_stxxl) {
        using SV = stxxl_vector<T>;
        SV v;
        fill_with_items<T>(v, n);
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        stxxl::sort(v.begin(), v.end(), stxxl_less<T>(), st.memory);
        r.st_s = seconds_since(t0);
        record_stxxl_volumes(r, before);
        r.ok = r.ok && is_sorted_stream<T>(typename SV::bufreader_type(v));
    }
    return r;
}

//! The vector scan's read-ahead: both sides have the same bytes of reads in flight beyond the
//! block being consumed. flashxxl's choice is 16 Br; STXXL's reader has at least one of its
//! 2 MiB blocks ahead (its default), so the bytes are max(16 Br, 2 MiB) rounded up to whole
//! STXXL blocks, and flashxxl reads ceil(that / Br) blocks ahead (equal bytes whenever Br
//! divides 2 MiB, as 256 KiB and 2 MiB do: 4 MiB and 32 MiB ahead).
struct scan_readahead {
    std::size_t fx_blocks = 0, st_blocks = 0; // blocks ahead of the current one
    std::uint64_t fx_bytes = 0, st_bytes = 0;
    //! bufreader_type's nbuffers for st_blocks ahead: its buf_istream gives its prefetcher
    //! max(2, nbuffers - 1) buffers, one of which holds the block being consumed.
    std::size_t stxxl_nbuffers() const { return st_blocks + 2; }
};
inline scan_readahead scan_readahead_for(const block_sizes& fx_blocks) {
    const std::uint64_t wanted = std::max<std::uint64_t>(16 * fx_blocks.br, stxxl_block);
    scan_readahead a;
    a.st_blocks = std::size_t((wanted + stxxl_block - 1) / stxxl_block);
    a.st_bytes = a.st_blocks * stxxl_block;
    a.fx_blocks = std::size_t((a.st_bytes + fx_blocks.br - 1) / fx_blocks.br);
    a.fx_bytes = a.fx_blocks * fx_blocks.br;
    return a;
}

//! Sums the keys of a whole vector, one item at a time (operator* and ++) on both sides: STXXL's
//! reader has no span API, so both consumers have the same per-item loop.
template <class T>
result bench_vector_scan(const bench_settings& st, std::uint64_t n, const block_sizes& fx_blocks) {
    result r{"vector scan", blocks_label(fx_blocks)};
    r.st_block = stxxl_block;
    const scan_readahead ahead = scan_readahead_for(fx_blocks);
    r.fx_readahead = ahead.fx_bytes;
    r.st_readahead = ahead.st_bytes;
    std::uint64_t fx_sum = 0, st_sum = 0;
    if (st.run_flashxxl) {
        machine m = fx_machine(st, 2 * n * sizeof(T) + GiB);
        using V = vector<T>;
        V v(m, V::min_memory(fx_blocks), fx_blocks);
        fill_with_items<T>(v, n);
        volumes v0 = fx_volume(m);
        auto t0 = std::chrono::steady_clock::now();
        for (typename V::stream_reader in(v, 0, n, ahead.fx_blocks); !in.empty(); ++in)
            fx_sum += item_kind<T>::key(*in);
        r.fx_s = seconds_since(t0);
        volumes v1 = fx_volume(m);
        r.fx_read = v1.read - v0.read;
        r.fx_wait_s = v1.wait_s - v0.wait_s;
    }
    if (st.run_stxxl) {
        using SV = stxxl_vector<T>;
        SV v;
        fill_with_items<T>(v, n);
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        for (typename SV::bufreader_type in(v, ahead.stxxl_nbuffers()); !in.empty(); ++in)
            st_sum += item_kind<T>::key(*in);
        r.st_s = seconds_since(t0);
        record_stxxl_volumes(r, before);
    }
    r.ok = !(st.run_flashxxl && st.run_stxxl) || fx_sum == st_sum;
    return r;
}

template <class T, class PushPop> void pq_workload(PushPop& q, std::uint64_t n, bool interleaved, bool& ok) {
    using K = item_kind<T>;
    std::uint64_t last = 0, pushed = 0, popped = 0;
    auto pop = [&] {
        std::uint64_t k = K::key(q.top());
        ok = ok && (popped == 0 || k >= last);
        last = k;
        q.pop();
        ++popped;
    };
    if (!interleaved) {
        for (; pushed < n; ++pushed)
            q.push(K::make(mix64(pushed) >> 1));
    } else {
        for (; pushed < n / 2; ++pushed)
            q.push(K::make(mix64(pushed) >> 20));
        std::uint64_t step = 0;
        while (pushed < n) {
            pop();
            std::uint64_t x = mix64(~step++);
            for (std::uint64_t j = 0; j < 1 + (x & 1) && pushed < n; ++j, ++pushed)
                q.push(K::make(last + ((x >> 8) & 0xffffff)));
        }
    }
    while (!q.empty())
        pop();
    ok = ok && popped == pushed;
}

// STXXL fixes the PQ's internal memory at compile time: half of the default M (64 MiB); the
// prefetch and write pools get the rest of M, at least 8 MiB, so both queues hold M in total
// and M below stxxl_pq_min_memory is refused (main checks it before any run).
constexpr std::uint64_t stxxl_pq_internal = 32 * 1024 * 1024;
constexpr std::uint64_t stxxl_pq_min_pools = 8 * 1024 * 1024;
constexpr std::uint64_t stxxl_pq_min_memory = stxxl_pq_internal + stxxl_pq_min_pools;

//! STXXL's priority queue for items T: PRIORITY_QUEUE_GENERATOR picks the block size itself
//! (from the item size, the internal memory and the capacity), not stxxl_block.
template <class T>
using stxxl_pq_type = typename stxxl::PRIORITY_QUEUE_GENERATOR<T, stxxl_greater<T>, stxxl_pq_internal,
                                                               (1ull << 28) / 1024>::result;
template <class T> constexpr std::uint64_t stxxl_pq_block_bytes = stxxl_pq_type<T>::block_type::raw_size;

template <class T>
result bench_pq(const bench_settings& st, std::uint64_t n, std::size_t threads, bool interleaved,
                const block_sizes& fx_blocks) {
    result r{interleaved ? "priority_queue interleaved" : "priority_queue n push, n pop",
             blocks_label(fx_blocks)};
    r.st_block = stxxl_pq_block_bytes<T>;
    if (st.run_flashxxl) {
        machine m = fx_machine(st, 4 * n * sizeof(T) + GiB);
        auto t0 = std::chrono::steady_clock::now();
        {
            flashxxl::priority_queue<T, fx_greater<T>> q(m, st.memory, fx_blocks);
            q.set_threads(threads);
            pq_workload<T>(q, n, interleaved, r.ok);
        }
        r.fx_s = seconds_since(t0);
        volumes v = fx_volume(m);
        r.fx_read = v.read;
        r.fx_written = v.written;
        r.fx_wait_s = v.wait_s;
    }
    if (st.run_stxxl) {
        if (st.memory < stxxl_pq_min_memory) // main refuses such an M before any run
            throw config_error("--memory " + format_bytes(double(st.memory)) +
                               ": STXXL's priority queue needs at least " +
                               format_bytes(double(stxxl_pq_min_memory)));
        stxxl::stats_data before(*stxxl::stats::get_instance());
        auto t0 = std::chrono::steady_clock::now();
        {
            // The internal part is fixed at compile time; the pools get the rest of M.
            const std::uint64_t pools = st.memory - stxxl_pq_internal;
            stxxl_pq_type<T> q(pools / 2, pools / 2);
            pq_workload<T>(q, n, interleaved, r.ok);
        }
        r.st_s = seconds_since(t0);
        record_stxxl_volumes(r, before);
    }
    return r;
}

//! True when --only selects benchmark `key` (sorter, sort, pq, pq-interleaved, scan).
inline bool is_selected(const bench_settings& st, const std::string& key) {
    return st.only.empty() || st.only == key;
}

//! The smallest M of each benchmark run_item_benchmarks<T>(st) will run, per block pair and
//! side, so that main can refuse a too small --memory before any run.
template <class T> std::vector<memory_need> memory_needs(const bench_settings& st) {
    std::vector<memory_need> needs;
    const bool pq = sizeof(T) <= 16 && (is_selected(st, "pq") || is_selected(st, "pq-interleaved"));
    if (st.run_flashxxl) {
        for (const block_sizes& b : st.pairs) {
            const std::string label = blocks_label(b);
            const std::uint64_t sorter_min = sorter<T, fx_less<T>>::min_memory(b);
            if (is_selected(st, "sorter"))
                needs.push_back({"sorter push/sort/pop", label, sorter_min, "flashxxl::sorter"});
            if (is_selected(st, "sort"))
                needs.push_back(
                    {"sort(vector)", label, sort_stream_memory<T>(b) + sorter_min, "flashxxl::sort"});
            if constexpr (sizeof(T) <= 16) {
                if (pq)
                    needs.push_back({"priority_queue", label,
                                     flashxxl::priority_queue<T, fx_greater<T>>::min_memory(b),
                                     "flashxxl::priority_queue"});
            }
        }
    }
    if (st.run_stxxl) {
        // stxxl::sort wants 2 blocks per merge buffer, twice that in its parallel mode.
        if (is_selected(st, "sort"))
            needs.push_back({"sort(vector)", "", 2 * 2 * stxxl_block, "stxxl::sort"});
        if (pq)
            needs.push_back({"priority_queue", "", stxxl_pq_min_memory,
                             "STXXL's priority queue (" + format_bytes(double(stxxl_pq_internal)) +
                                 " of internal memory fixed at compile time + at least " +
                                 format_bytes(double(stxxl_pq_min_pools)) + " of prefetch and write pools)"});
    }
    return needs;
}

//! Every selected benchmark for item type T, at every block pair and thread count of `st`.
//! The priority queue runs for items of at most 16 bytes (the table has no 100-byte PQ).
template <class T> std::vector<result> run_item_benchmarks(const bench_settings& st) {
    const std::uint64_t n = st.bytes / sizeof(T);
    std::vector<result> results;
    auto want = [&](const std::string& k) { return is_selected(st, k); };
    for (const block_sizes& b : st.pairs) {
        for (std::size_t t : st.thread_counts) {
            omp_set_num_threads(int(t)); // STXXL's parallel mode
            std::size_t first = results.size();
            if (want("sorter")) results.push_back(bench_sorter<T>(st, n, t, b));
            if (want("sort")) results.push_back(bench_sort<T>(st, n, t, b));
            if constexpr (sizeof(T) <= 16) {
                if (want("pq")) results.push_back(bench_pq<T>(st, n / 2, t, false, b));
                if (want("pq-interleaved")) results.push_back(bench_pq<T>(st, n / 2, t, true, b));
            }
            if (want("scan")) results.push_back(bench_vector_scan<T>(st, n, b));
            for (std::size_t i = first; i < results.size(); ++i) {
                results[i].threads = t;
                results[i].items = results[i].name.rfind("priority", 0) == 0 ? n / 2 : n;
            }
        }
    }
    return results;
}

} // namespace bench_vs_stxxl
