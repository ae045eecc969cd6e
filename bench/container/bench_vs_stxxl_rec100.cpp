// The container benchmarks on 100-byte records with a 10-byte key (no priority queue).
#include "bench_vs_stxxl_items.hpp"

namespace bench_vs_stxxl {
std::vector<result> run_rec100(const bench_settings& s) { return run_item_benchmarks<rec100>(s); }
std::vector<memory_need> memory_needs_rec100(const bench_settings& s) { return memory_needs<rec100>(s); }
} // namespace bench_vs_stxxl
