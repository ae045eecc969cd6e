// The container benchmarks on 8-byte items (uint64), and the disk's sequential bandwidth.
#include "bench_vs_stxxl_items.hpp"

namespace bench_vs_stxxl {

std::vector<result> run_u64(const bench_settings& s) { return run_item_benchmarks<std::uint64_t>(s); }
std::vector<memory_need> memory_needs_u64(const bench_settings& s) { return memory_needs<std::uint64_t>(s); }

namespace {

using item = std::uint64_t;
using V = vector<item>;

//! Streams v (n items) with 16 blocks of read-ahead; returns the seconds it took.
double stream_through(V& v, std::uint64_t n) {
    item sum = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (typename V::stream_reader in(v, 0, n, 16); !in.empty();) {
        std::uint64_t k = in.run();
        sum += (&*in)[k - 1];
        in.skip(k);
    }
    return seconds_since(t0) + 0.0 * double(sum); // sum keeps the reads alive
}

} // namespace

bandwidth measure_bandwidth(const bench_settings& s) {
    const block_sizes blocks(stxxl_block, stxxl_block);
    const std::uint64_t n = s.bytes / sizeof(item);
    machine m = fx_machine(s, 2 * n * sizeof(item) + GiB);
    bandwidth bw;
    {
        V v(m, V::min_memory(blocks), blocks);
        auto t0 = std::chrono::steady_clock::now();
        fill_with_items<item>(v, n);
        v.flush();
        double w = seconds_since(t0);
        volumes before = fx_volume(m);
        double r = stream_through(v, n);
        volumes after = fx_volume(m);
        bw.read = r > 0 ? double(after.read - before.read) / r : 0;
        bw.write = w > 0 ? double(before.written) / w : 0;
    }
    // The same data read with each Br in the run (at most 512 MiB of it): a merge reading Br
    // blocks one request at a time is bound by this, not by the 2 MiB figure.
    const std::uint64_t n_br = std::min<std::uint64_t>(n, 512 * MiB / sizeof(item));
    for (const block_sizes& b : s.pairs) {
        if (bw.at_br(b.br) > 0) continue;
        const block_sizes read_blocks(b.br, stxxl_block);
        V v(m, V::min_memory(read_blocks), read_blocks);
        fill_with_items<item>(v, n_br);
        v.flush();
        volumes before = fx_volume(m);
        double r = stream_through(v, n_br);
        volumes after = fx_volume(m);
        bw.read_at_br.emplace_back(b.br, r > 0 ? double(after.read - before.read) / r : 0);
    }
    return bw;
}

} // namespace bench_vs_stxxl
