// A translation layer on a syscall file whose reads fail with EIO (the fault shim, armed from the
// test): the host's error says which lower operation of the layer failed, and nothing is lost.
//
// Runs under LD_PRELOAD=libflashxxl_fault_shim.so (test/CMakeLists.txt; fails without it). By hand:
//   LD_PRELOAD=build/release/test/libflashxxl_fault_shim.so build/release/test/faults_tl_faults
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "support/temp_dir.hpp"

using namespace flashxxl;

namespace {

using arm_fn = void (*)(const char*, int, const char*, long long);
using disarm_fn = void (*)();

constexpr std::uint64_t page = 4 * KiB;

void fill(char* dst, std::uint64_t p, std::uint64_t version) {
    auto* w = reinterpret_cast<std::uint64_t*>(dst);
    for (std::size_t i = 0; i < page / 8; ++i)
        w[i] = (p << 32) ^ (version << 8) ^ i;
}
bool matches(const char* src, std::uint64_t p, std::uint64_t version) {
    const auto* w = reinterpret_cast<const std::uint64_t*>(src);
    for (std::size_t i = 0; i < page / 8; ++i)
        if (w[i] != ((p << 32) ^ (version << 8) ^ i)) return false;
    return true;
}

} // namespace

// The review's case: a host write makes the layer clean, and the cleaning read fails. The host
// used to be told "writing 4 KiB at byte offset ... failed: Input/output error".
TEST(tl_faults, a_failing_cleaning_read_is_reported_with_the_layers_explanation) {
    auto arm = reinterpret_cast<arm_fn>(dlsym(RTLD_DEFAULT, "flashxxl_fault_arm"));
    auto disarm = reinterpret_cast<disarm_fn>(dlsym(RTLD_DEFAULT, "flashxxl_fault_disarm"));
    ASSERT_TRUE(arm && disarm) << "the fault shim is not preloaded (LD_PRELOAD=libflashxxl_fault_shim.so)";
    flashxxl::testing::temp_dir dir;
    const std::string img = dir / "ssd.img";
    machine m = machine::from_config_text(
        "flash=" + img + ",4MiB,syscall name=ssd model=hama-ssd-2009 tl=on tl_page=4KiB tl_segment=64KiB\n",
        "tl-faults.cfg");
    device& d = m.dev("ssd");
    const translation_layer& tl = *d.tl();
    const std::uint64_t pages = tl.logical_capacity() / page * 9 / 10;
    char* buf = static_cast<char*>(std::aligned_alloc(4096, page));
    std::vector<std::uint64_t> version(pages, 0);
    auto write = [&](std::uint64_t p, std::uint64_t v) {
        fill(buf, p, v);
        d.wait(d.awrite(buf, p * page, page, role::scratch), role::scratch);
        version[p] = v;
    };
    std::mt19937_64 rng(1);
    for (std::uint64_t p = 0; p < pages; ++p)
        write(p, 1);
    while (tl.stats().segments_cleaned == 0) {
        const std::uint64_t p = rng() % pages;
        write(p, version[p] + 1);
    }

    arm(img.c_str(), EIO, "read", 0);
    std::string message;
    for (int i = 0; i < 2000 && message.empty(); ++i) {
        const std::uint64_t p = rng() % pages;
        try {
            write(p, version[p] + 1);
        } catch (const io_failure& e) {
            message = e.what();
        }
    }
    disarm();
    ASSERT_FALSE(message.empty()) << "no host write failed although every read of the device did";
    for (const std::string& part : std::vector<std::string>{
             "device 'ssd' (tl-faults.cfg:1), backing file '" + img + "': writing 4 KiB at byte offset ",
             " for role scratch failed: translation layer: reading ", " bytes at physical offset ",
             " of the lower file (cleaning segment ",
             ") failed: Input/output error; the storage under '" + img + "' reported an I/O error"})
        EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    EXPECT_EQ(message.find("Error in"), std::string::npos) << message;

    // Nothing was lost: the failed write left its page's old version, every other page its last.
    for (std::uint64_t p = 0; p < pages; ++p) {
        d.wait(d.aread(buf, p * page, page, role::scratch), role::scratch);
        ASSERT_TRUE(matches(buf, p, version[p])) << "page " << p;
    }
    std::free(buf);
}
