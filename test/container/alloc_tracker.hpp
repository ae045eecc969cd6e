// Test-only replacement of global operator new/delete that measures what one thread allocates.
// Include in exactly ONE translation unit of a test executable (it defines the replacements).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <new>

namespace flashxxl_test {

//! Live bytes allocated by threads while tracking was on, and their peak. Allocations made by
//! other threads (the devices' I/O threads, which hold the memory-backed device data) are not
//! counted; frees of counted blocks are, whichever thread frees them.
struct alloc_tracker {
    static std::atomic<std::int64_t>& live() {
        static std::atomic<std::int64_t> v{0};
        return v;
    }
    static std::atomic<std::int64_t>& peak() {
        static std::atomic<std::int64_t> v{0};
        return v;
    }
    static bool& tracking() {
        static thread_local bool on = false;
        return on;
    }
    static void note_alloc(std::size_t n) {
        std::int64_t now = live().fetch_add(std::int64_t(n)) + std::int64_t(n);
        std::int64_t p = peak().load();
        while (now > p && !peak().compare_exchange_weak(p, now)) {
        }
    }
    //! Starts counting on this thread from zero.
    static void start() {
        live() = 0;
        peak() = 0;
        tracking() = true;
    }
    static void stop() { tracking() = false; }

    //! Allocations this thread made since count_allocations() (with or without tracking).
    static std::uint64_t& allocations() {
        static thread_local std::uint64_t n = 0;
        return n;
    }
    //! The allocation number this thread fails with std::bad_alloc (counted from the last
    //! reset of allocations(); 0: none). Cleared once it has failed.
    static std::uint64_t& fail_at() {
        static thread_local std::uint64_t n = 0;
        return n;
    }
    //! Counts this thread's allocations from zero and fails allocation number `n` (0: none).
    static void fail_allocation(std::uint64_t n) {
        allocations() = 0;
        fail_at() = n;
    }
    //! Whether the armed failure has not fired yet (it was moved past the op's allocations).
    static bool failure_pending() { return fail_at() != 0; }
};

//! Whether the allocation being made comes from inside libstxxl: the failure sweeps spare
//! STXXL's own allocations (what it does on bad_alloc is its business) and fail the next one
//! instead.
inline bool allocating_inside_stxxl() {
    void* frames[8];
    const int n = backtrace(frames, 8);
    for (int i = 0; i < n; ++i) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fname && std::strstr(info.dli_fname, "libstxxl"))
            return true;
    }
    return false;
}

// Header in front of every block: its size and whether it was counted (keeps 64-byte alignment
// for plain new; aligned new puts the header just below the aligned address).
struct alloc_header {
    std::size_t size;
    std::size_t offset; // from the malloc'd base to the user pointer
    std::size_t counted;
    std::size_t magic;
};
constexpr std::size_t header_room = 64;

inline void* tracked_alloc(std::size_t n, std::size_t align) {
    if (++alloc_tracker::allocations() == alloc_tracker::fail_at()) {
        if (allocating_inside_stxxl()) {
            ++alloc_tracker::fail_at(); // spared: the next allocation fails instead
        } else {
            alloc_tracker::fail_at() = 0;
            throw std::bad_alloc();
        }
    }
    if (align < header_room) align = header_room;
    std::size_t room = align >= header_room ? align : header_room;
    void* base = std::malloc(n + room + align);
    if (!base) throw std::bad_alloc();
    std::uintptr_t user = (reinterpret_cast<std::uintptr_t>(base) + room + align - 1) / align * align;
    alloc_header* h = reinterpret_cast<alloc_header*>(user) - 1;
    h->size = n;
    h->offset = user - reinterpret_cast<std::uintptr_t>(base);
    h->counted = alloc_tracker::tracking() ? 1 : 0;
    h->magic = 0x5eed;
    if (h->counted) alloc_tracker::note_alloc(n);
    return reinterpret_cast<void*>(user);
}
// The replaced operator delete below frees what the replaced operator new allocated with
// malloc; inlined into a caller, GCC 12 takes that for a mismatched new / free
// (-Wmismatched-new-delete, a false positive here): kept out of line so the pair stays visible.
[[gnu::noinline]] inline void tracked_free(void* p) {
    if (!p) return;
    alloc_header* h = reinterpret_cast<alloc_header*>(p) - 1;
    if (h->counted) alloc_tracker::live().fetch_sub(std::int64_t(h->size));
    std::free(reinterpret_cast<char*>(p) - h->offset);
}

} // namespace flashxxl_test

void* operator new(std::size_t n) { return flashxxl_test::tracked_alloc(n, 16); }
void* operator new[](std::size_t n) { return flashxxl_test::tracked_alloc(n, 16); }
void* operator new(std::size_t n, std::align_val_t a) {
    return flashxxl_test::tracked_alloc(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
    return flashxxl_test::tracked_alloc(n, std::size_t(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return flashxxl_test::tracked_alloc(n, 16);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return flashxxl_test::tracked_alloc(n, 16);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p) noexcept { flashxxl_test::tracked_free(p); }
void operator delete[](void* p) noexcept { flashxxl_test::tracked_free(p); }
void operator delete(void* p, std::size_t) noexcept { flashxxl_test::tracked_free(p); }
void operator delete[](void* p, std::size_t) noexcept { flashxxl_test::tracked_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { flashxxl_test::tracked_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { flashxxl_test::tracked_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { flashxxl_test::tracked_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { flashxxl_test::tracked_free(p); }
