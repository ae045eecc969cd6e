// The container benchmarks on 8-byte items (uint64), and the disk's sequential bandwidth.
#include "bench_vs_stxxl_items.hpp"

namespace bench_vs_stxxl {

std::vector<result> run_u64(const bench_settings& s) { return run_item_benchmarks<std::uint64_t>(s); }

bandwidth measure_bandwidth(const bench_settings& s) {
    using item = std::uint64_t;
    const block_sizes blocks(stxxl_block, stxxl_block);
    const std::uint64_t n = s.bytes / sizeof(item);
    machine m = fx_machine(s, 2 * n * sizeof(item) + GiB);
    using V = vector<item>;
    V v(m, V::min_memory(blocks), blocks);
    auto t0 = std::chrono::steady_clock::now();
    fill_with_items<item>(v, n);
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

}  // namespace bench_vs_stxxl
