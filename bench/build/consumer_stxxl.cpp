// Build-cost probe: the same program as consumer_flashxxl.cpp written with stxxl::sorter.
#include <cstdint>
#include <cstdio>
#include <limits>

#include <stxxl/sorter>

struct uint64_order {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return std::numeric_limits<std::uint64_t>::max(); }
};

int main() {
    stxxl::sorter<std::uint64_t, uint64_order, 2 << 20> s(uint64_order(), 64 << 20);
    for (std::uint64_t i = 0; i < (1u << 20); ++i)
        s.push((i * 0x9e3779b97f4a7c15ull) >> 11);
    s.sort();
    std::uint64_t prev = 0, bad = 0;
    for (; !s.empty(); ++s) {
        bad += *s < prev;
        prev = *s;
    }
    std::printf("%llu out of order\n", (unsigned long long)bad);
    return bad != 0;
}
