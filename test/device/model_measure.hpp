// Test helper: the measurement method of the golden numbers (DEVICE-MODELS.md) on a pure model.
#pragma once

#include <cstdint>
#include <random>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::test {

//! MiB/s of `count` requests of `bs` bytes on a fresh copy of `proto`: sequential from offset 0,
//! or uniformly random offsets that are multiples of `granularity` (0 = multiples of bs) in
//! [0, span - bs], drawn from std::mt19937_64(seed).
inline double throughput(const device_model& proto, io_op op, std::uint64_t bs, bool random_offsets,
                         int count, std::uint64_t span, std::uint64_t granularity = 512,
                         std::uint64_t seed = 1) {
    auto dev = proto.clone_fresh();
    std::mt19937_64 rng(seed);
    const std::uint64_t g = granularity ? granularity : bs;
    std::uniform_int_distribution<std::uint64_t> slot(0, (span - bs) / g - 1);
    std::uint64_t pos = 0;
    double seconds = 0;
    for (int i = 0; i < count; ++i) {
        const std::uint64_t off = random_offsets ? slot(rng) * g : pos;
        pos += bs;
        seconds += dev->service(op, off, bs);
    }
    return double(count) * double(bs) / double(MiB) / seconds;
}

} // namespace flashxxl::test
