// Tests that flash without a translation layer gets sequential writes from Br-sized writers.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <stxxl/bits/common/aligned_alloc.h>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

const char* const hama_config = "flash=memory,256MiB,memory name=ssd model=hama-ssd-2009\n";

struct block_buffer {
    explicit block_buffer(std::size_t n) : data(static_cast<char*>(stxxl::aligned_alloc<4096>(n))) {
        std::memset(data, 1, n);
    }
    ~block_buffer() { stxxl::aligned_dealloc<4096>(data); }
    block_buffer(const block_buffer&) = delete;
    block_buffer& operator=(const block_buffer&) = delete;
    char* data;
};

//! Allocates `count` blocks of `block` bytes one by one and writes each once, in allocation
//! order, as a container's block writer does; returns the modelled time of those writes.
double write_blocks(machine& m, std::vector<owned_extent>& keep, std::size_t count, std::uint64_t block) {
    device& d = m.dev(0);
    block_buffer buf(block);
    double before = d.busy_seconds();
    for (std::size_t i = 0; i < count; ++i) {
        owned_extent e = m.allocate(role::scratch, block);
        d.wait(d.awrite(buf.data, e.get().offset, block, role::scratch), role::scratch);
        keep.push_back(std::move(e));
    }
    return d.busy_seconds() - before;
}

} // namespace

// A Br-sized sequential writer on a device whose free space is full of Br-sized holes (the
// consumed runs of a merge sort) costs what a sequential writer costs on a fresh device: the
// write frontier does not send it into the holes, where every 128 KiB write would start
// mid-chunk and cost a merge of a whole 512 KiB chunk (about 40 ms instead of 5 ms).
TEST(FlashAllocation, BrSizedWritesAfterFragmentationCostWhatSequentialWritesCost) {
    const std::uint64_t br = 128 * KiB;
    machine fresh = machine::from_config_text(hama_config);
    std::vector<owned_extent> fresh_blocks;
    double sequential = write_blocks(fresh, fresh_blocks, 64, br);

    machine used = machine::from_config_text(hama_config);
    std::vector<owned_extent> runs;
    write_blocks(used, runs, 256, br); // 32 MiB of runs...
    for (std::size_t i = 0; i < runs.size(); i += 2)
        runs[i].reset(); // ...half of them consumed
    ASSERT_EQ(used.dev(0).allocator().order(), allocation_order::write_frontier);
    io_counters before = used.dev(0).stats().total;
    std::vector<owned_extent> output;
    double after_fragmentation = write_blocks(used, output, 64, br);
    io_counters writes = used.dev(0).stats().total - before;
    EXPECT_EQ(writes.write_ops, 64u);
    EXPECT_EQ(writes.sequential_write_ops, 64u) << "each write continues where the previous one ended";
    EXPECT_NEAR(after_fragmentation, sequential, 0.05 * sequential);
    EXPECT_LT(sequential / 64, 10e-3) << "a sequential 128 KiB write costs about 5 ms on this model";
    EXPECT_EQ(used.dev(0).release_errors(), 0u);
}

// An HDD and a flash device behind a translation layer keep best fit (the layer makes every
// write sequential itself; an HDD's cost does not depend on erase chunks).
TEST(FlashAllocation, OnlyFlashWithoutATranslationLayerGetsAWriteFrontier) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\n"
                                          "flash=memory,64MiB,memory name=ssd_tl model=hama-ssd-2009 tl=on\n"
                                          "disk=memory,64MiB,memory name=hdd model=barracuda-7200.11\n");
    EXPECT_EQ(m.dev("ssd").allocator().order(), allocation_order::write_frontier);
    EXPECT_EQ(m.dev("ssd_tl").allocator().order(), allocation_order::best_fit);
    EXPECT_EQ(m.dev("hdd").allocator().order(), allocation_order::best_fit);
}
