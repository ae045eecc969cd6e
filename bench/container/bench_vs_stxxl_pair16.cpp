// The container benchmarks on 16-byte items (8-byte key, 8-byte payload).
#include "bench_vs_stxxl_items.hpp"

namespace bench_vs_stxxl {
std::vector<result> run_pair16(const bench_settings& s) { return run_item_benchmarks<pair16>(s); }
std::vector<memory_need> memory_needs_pair16(const bench_settings& s) { return memory_needs<pair16>(s); }
} // namespace bench_vs_stxxl
