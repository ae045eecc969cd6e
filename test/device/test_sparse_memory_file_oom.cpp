// Tests of sparse_memory_file when a chunk cannot be allocated (bad_alloc): no null chunk, no budget kept.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "flashxxl/device/memory_backing_budget.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/units.hpp"

namespace {
// The next operator new[] of this size fails once (this program's replacement below).
thread_local std::size_t fail_next_array_of = 0;
// Out of line, so that GCC does not pair the free with a visible operator new[] and warn
// (-Wmismatched-new-delete) about what is this program's own matched pair.
[[gnu::noinline]] void release(void* p) noexcept { std::free(p); }
} // namespace

void* operator new[](std::size_t n) {
    if (n != 0 && n == fail_next_array_of) {
        fail_next_array_of = 0;
        throw std::bad_alloc();
    }
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete[](void* p) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }

using namespace flashxxl;

// A chunk whose allocation fails leaves the file as it was: the budget it took goes back, and
// the chunk reads as unwritten (it used to stay in the map as a null pointer, which a later
// read dereferenced).
TEST(SparseMemoryFile, AChunkThatCannotBeAllocatedLeavesNothingBehind) {
    memory_backing_budget budget(1 * MiB);
    {
        sparse_memory_file f(64 * MiB, stxxl::file::DEFAULT_QUEUE, 64 * KiB, &budget, "ram");
        alignas(4096) static char page[4096];
        std::memset(page, 0x5a, sizeof page);
        fail_next_array_of = 64 * KiB;
        EXPECT_THROW(f.serve(page, 3 * MiB, sizeof page, stxxl::request::WRITE), std::bad_alloc);
        EXPECT_EQ(f.allocated_bytes(), 0u);
        EXPECT_EQ(budget.used(), 0u);
        f.serve(page, 3 * MiB, sizeof page, stxxl::request::READ);
        EXPECT_EQ(page[0], 0) << "the chunk reads as unwritten";
        std::memset(page, 0x5a, sizeof page);
        f.serve(page, 3 * MiB, sizeof page, stxxl::request::WRITE); // works once memory does
        EXPECT_EQ(f.allocated_bytes(), 64 * KiB);
        EXPECT_EQ(budget.used(), 64 * KiB);
    }
    EXPECT_EQ(budget.used(), 0u);
}
