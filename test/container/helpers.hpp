// Shared helpers of the container and io tests: tiny machines, item types, stats checks.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl_test {

//! A one-device memory-backed machine without a timing model (pure accounting).
inline flashxxl::machine tiny_machine(const std::string& size = "256MiB") {
    return flashxxl::machine::from_config_text("name=tiny\n"
                                               "flash=memory," +
                                                   size +
                                                   ",memory name=ssd\n"
                                                   "placement=single device=ssd\n",
                                               "tiny-machine");
}

//! Items of 4, 8, 16 and 40 bytes with a key for ordering and a payload that detects mixing.
template <std::size_t Bytes> struct item {
    std::uint32_t key;
    std::uint8_t payload[Bytes - sizeof(std::uint32_t)];
    item() = delete; // the containers must not need a default constructor
    explicit item(std::uint32_t k, std::uint32_t tag = 0) : key(k) {
        for (std::size_t i = 0; i < sizeof payload; ++i)
            payload[i] = std::uint8_t(tag * 31 + i);
    }
    friend bool operator<(const item& a, const item& b) { return a.key < b.key; }
    friend bool operator==(const item& a, const item& b) {
        return a.key == b.key && std::memcmp(a.payload, b.payload, sizeof payload) == 0;
    }
};
template <> struct item<4> {
    std::uint32_t key;
    item() = delete;
    explicit item(std::uint32_t k, std::uint32_t = 0) : key(k) {}
    friend bool operator<(const item& a, const item& b) { return a.key < b.key; }
    friend bool operator==(const item& a, const item& b) { return a.key == b.key; }
};

//! Input shapes the tests sort.
enum class shape { random, few_distinct, all_equal, sorted, reversed };

inline std::vector<std::uint32_t> keys(shape s, std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint32_t> k(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (s) {
        case shape::random:
            k[i] = std::uint32_t(rng());
            break;
        case shape::few_distinct:
            k[i] = std::uint32_t(rng() % 7);
            break;
        case shape::all_equal:
            k[i] = 42;
            break;
        case shape::sorted:
            k[i] = std::uint32_t(i / 3);
            break;
        case shape::reversed:
            k[i] = std::uint32_t(n - i);
            break;
        }
    }
    return k;
}

//! Sum of the stats of every device of a machine.
inline flashxxl::device_stats total_stats(const flashxxl::machine& m) {
    flashxxl::device_stats s;
    for (const auto& d : m.stats())
        s += d;
    return s;
}

} // namespace flashxxl_test
