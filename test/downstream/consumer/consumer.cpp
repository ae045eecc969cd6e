// A downstream program built against an installed flashxxl via find_package(flashxxl).
#include <cstdint>
#include <cstdio>
#include <functional>
#include <cstring>

#include <stxxl/bits/common/aligned_alloc.h>

#include <flashxxl/container/sorter.hpp>
#include <flashxxl/container/vector.hpp>
#include <flashxxl/device/device_stats_json.hpp> // needs nlohmann_json, found by the package config
#include <flashxxl/machine/machine.hpp>

namespace {

//! Sorts 100000 keys with `s` (empty) and checks the order.
template <class Sorter> bool sorts(Sorter& s) {
    for (std::uint64_t x = 100000; x > 0; --x)
        s.push(x * 7919 % 100003);
    s.sort();
    std::uint64_t previous = 0, count = 0;
    bool ok = true;
    for (; !s.empty(); ++s, ++count) {
        ok = ok && *s >= previous;
        previous = *s;
    }
    return ok && count == 100000;
}

//! The README's sorter example, in the compile-time spelling blocks<Br, Bw> that code written
//! before run-time block sizes uses: its value converts to block_sizes.
bool legacy_blocks_example(flashxxl::machine& m) {
    using B = flashxxl::blocks<128 * 1024, 16 * 1024 * 1024>;
    flashxxl::sorter<std::uint64_t, std::less<>> s(m, 256 << 20, B{});
    return sorts(s) && s.blocks() == flashxxl::block_sizes(128 * 1024, 16 * 1024 * 1024);
}

//! The same with run-time block sizes, and a vector with the device's own sizes.
bool runtime_blocks_example(flashxxl::machine& m) {
    const flashxxl::block_sizes b(256 * 1024, 3 * 1024 * 1024); // any valid pair, e.g. characterize's
    flashxxl::sorter<std::uint64_t, std::less<>> s(m, 256 << 20, b);
    bool ok = sorts(s) && s.blocks() == b;
    flashxxl::vector<std::uint64_t> v(m, 64 << 20, flashxxl::role::stream);
    {
        flashxxl::vector<std::uint64_t>::stream_writer w(v);
        for (std::uint64_t i = 0; i < 1000000; ++i)
            w.push(i);
    }
    std::uint64_t i = 0;
    for (flashxxl::vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i)
        ok = ok && *r == i;
    return ok && i == 1000000 && v.blocks() == m.block_sizes_for(flashxxl::role::stream);
}

} // namespace

int main() {
    flashxxl::machine m = flashxxl::machine::from_preset("hybrid-2009");
    const std::size_t bytes = 1 << 20;
    bool ok;
    {
        // An extent is owned: it goes back to its device when the owner goes.
        flashxxl::owned_extent owner = m.allocate(flashxxl::role::static_data, bytes);
        const flashxxl::extent& e = owner.get();
        char* buffer = static_cast<char*>(stxxl::aligned_alloc<4096>(bytes));
        std::memset(buffer, 7, bytes);
        e.dev->wait(e.dev->awrite(buffer, e.offset, bytes, flashxxl::role::static_data),
                    flashxxl::role::static_data);
        std::memset(buffer, 0, bytes);
        e.dev->wait(e.dev->aread(buffer, e.offset, bytes, flashxxl::role::static_data),
                    flashxxl::role::static_data);
        ok = buffer[bytes - 1] == 7 && e.dev->name() == "ssd" && e.dev->busy_seconds() > 0;
        stxxl::aligned_dealloc<4096>(buffer);
    }
    ok = ok && m.dev("ssd").allocator().used_bytes() == 0;
    const bool legacy = legacy_blocks_example(m);
    const bool runtime = runtime_blocks_example(m);
    ok = ok && legacy && runtime && m.max_busy_seconds() > 0;
    const nlohmann::json stats = m.dev("ssd").stats();
    ok = ok && stats.is_object() && !stats.empty();
    std::printf("consumer: %s (blocks<Br, Bw>: %s, run-time sizes: %s), modelled %.4f s on %s\n",
                ok ? "ok" : "FAILED", legacy ? "ok" : "FAILED", runtime ? "ok" : "FAILED",
                m.dev("ssd").busy_seconds(), m.dev("ssd").name().c_str());
    return ok ? 0 : 1;
}
