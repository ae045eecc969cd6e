// The element types behind `flashxxl sort` and `flashxxl pq` (8, 16, 40 bytes) and their benchmark machine.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "machine_options.hpp"

namespace flashxxl::cli {

//! Items of the benchmarks: a 64-bit key and padding up to Bytes (8, 16 or 40 bytes).
template <std::size_t Bytes> struct bench_item {
    std::uint64_t key;
    std::uint8_t pad[Bytes - 8];
    explicit bench_item(std::uint64_t k) : key(k) {
        for (std::size_t i = 0; i < sizeof pad; ++i)
            pad[i] = std::uint8_t(k >> (8 * (i % 8)));
    }
};
template <> struct bench_item<8> {
    std::uint64_t key;
    explicit bench_item(std::uint64_t k) : key(k) {}
};

//! Orders bench items by key (ascending).
struct key_less {
    template <class T> bool operator()(const T& a, const T& b) const { return a.key < b.key; }
};
//! Orders bench items by key (descending): a min-priority-queue.
struct key_greater {
    template <class T> bool operator()(const T& a, const T& b) const { return b.key < a.key; }
};

//! Calls f(bench_item<Bytes>-typed tag) for element size 8, 16 or 40.
template <class F> void dispatch_element(int bytes, F&& f) {
    if (bytes == 8) return f(static_cast<bench_item<8>*>(nullptr));
    if (bytes == 16) return f(static_cast<bench_item<16>*>(nullptr));
    if (bytes == 40) return f(static_cast<bench_item<40>*>(nullptr));
    throw config_error("--element-size " + std::to_string(bytes) +
                       " is not supported (expected 8, 16 or 40)");
}

//! The machine spec of a container benchmark; `device` (if not empty) puts every role on it
//! (placement single), e.g. the SSD of hybrid-2009 for seeds/001 Table 1.
inline machine_spec bench_machine_spec(const machine_choice& choice, const std::string& device) {
    if (device.empty()) return effective_machine_spec(choice);
    if (!choice.placement.empty()) throw config_error("--device and --placement exclude each other");
    machine_spec spec = chosen_machine_spec(choice);
    std::string names;
    bool found = false;
    for (const device_spec& d : spec.devices) {
        names += (names.empty() ? "" : ", ") + d.name;
        found = found || d.name == device;
    }
    if (!found)
        throw config_error("--device " + device + ": machine '" + spec.name +
                           "' has no such device (it has " + names + ")");
    spec.placement.policy = "single";
    spec.placement.options = {{"device", device}};
    spec.placement.origin = "--device";
    return spec;
}

//! The machine of a container benchmark (bench_machine_spec built).
inline machine make_bench_machine(const machine_choice& choice, const std::string& device) {
    return machine(bench_machine_spec(choice, device));
}

//! A 64-bit mixer for reproducible pseudo-random keys (splitmix64).
inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

//! The i-th pseudo-random key of a benchmark run seeded with `seed`.
inline std::uint64_t bench_key(std::uint64_t seed, std::uint64_t i) {
    return mix64(seed * 0x9e3779b97f4a7c15ull + i);
}

} // namespace flashxxl::cli
