// Build-cost probe: a program that includes flashxxl's sorter and sorts (compared with consumer_stxxl.cpp).
#include <cstdint>
#include <cstdio>
#include <functional>

#include <flashxxl/container/sorter.hpp>
#include <flashxxl/machine/machine.hpp>

int main() {
    flashxxl::machine m = flashxxl::machine::from_preset("hybrid-2009");
    flashxxl::sorter<std::uint64_t, std::less<std::uint64_t>> s(m, 64 << 20,
                                                                flashxxl::block_sizes(128 << 10, 2 << 20));
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
