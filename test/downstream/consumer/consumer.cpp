// A downstream program built against an installed flashxxl via find_package(flashxxl).
#include <cstdint>
#include <cstdio>
#include <functional>
#include <cstring>

#include <stxxl/bits/common/aligned_alloc.h>

#include <flashxxl/container/sorter.hpp>
#include <flashxxl/machine/machine.hpp>

int main() {
    flashxxl::machine m = flashxxl::machine::from_preset("hybrid-2009");
    const std::size_t bytes = 1 << 20;
    flashxxl::extent e = m.allocate(flashxxl::role::static_data, bytes);
    char* buffer = static_cast<char*>(stxxl::aligned_alloc<4096>(bytes));
    std::memset(buffer, 7, bytes);
    e.dev->wait(e.dev->awrite(buffer, e.offset, bytes, flashxxl::role::static_data), flashxxl::role::static_data);
    std::memset(buffer, 0, bytes);
    e.dev->wait(e.dev->aread(buffer, e.offset, bytes, flashxxl::role::static_data), flashxxl::role::static_data);
    bool ok = buffer[bytes - 1] == 7 && e.dev->name() == "ssd" && e.dev->busy_seconds() > 0;
    stxxl::aligned_dealloc<4096>(buffer);
    m.release(e);
    // The README's sorter example.
    using B = flashxxl::blocks<128 * 1024, 16 * 1024 * 1024>;
    flashxxl::sorter<std::uint64_t, std::less<>, B> s(m, 256 << 20);
    for (std::uint64_t x = 100000; x > 0; --x) s.push(x * 7919 % 100003);
    s.sort();
    std::uint64_t previous = 0, count = 0;
    for (; !s.empty(); ++s, ++count) {
        ok = ok && *s >= previous;
        previous = *s;
    }
    ok = ok && count == 100000 && m.max_busy_seconds() > 0;
    std::printf("consumer: %s, modelled %.4f s on %s\n", ok ? "ok" : "FAILED", m.dev("ssd").busy_seconds(),
                m.dev("ssd").name().c_str());
    return ok ? 0 : 1;
}
