// Anonymous memory for I/O buffers that starts at a huge-page boundary and is advised MADV_HUGEPAGE.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <new>

namespace flashxxl {

//! The transparent-huge-page size (sysfs hpage_pmd_size), 2 MiB when the kernel does not say.
//! Read once (a property of the running kernel).
inline std::size_t huge_page_bytes() {
    static const std::size_t bytes = [] {
        std::ifstream in("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
        std::size_t n = 0;
        if (in >> n && n >= 4096 && (n & (n - 1)) == 0) return n;
        return std::size_t(2) << 20;
    }();
    return bytes;
}

//! Maps `bytes` (rounded up to 4 KiB) of fresh anonymous memory that starts at a huge-page
//! boundary, and advises MADV_HUGEPAGE over the whole huge pages inside it before anything
//! touches them. An O_DIRECT request from a huge page is one physically contiguous DMA
//! segment; from 4 KiB pages it is one segment per page, and on the development VM
//! (virtio-blk) a 1 MiB read from scattered pages ran at half speed (docs/characterize.md).
//!
//! Slack: one huge page more is mapped to find the boundary, and what lies outside the result
//! is unmapped at once; the tail beyond the last whole huge page is not advised and stays in
//! 4 KiB pages. So at most `bytes` rounded up to 4 KiB ever becomes resident, whatever the
//! kernel's THP mode. Advice is best effort (THP may be off or "never"). Throws std::bad_alloc.
//! Free with unmap_huge_aligned(p, bytes).
inline void* map_huge_aligned(std::size_t bytes) {
    const std::size_t huge = huge_page_bytes();
    const std::size_t n = (bytes + 4095) / 4096 * 4096;
    const std::size_t reserved = n + huge;
    void* raw = ::mmap(nullptr, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    auto* base = static_cast<char*>(raw);
    const auto addr = reinterpret_cast<std::uintptr_t>(raw);
    const std::size_t head = (huge - addr % huge) % huge;
    if (head != 0) ::munmap(base, head);
    if (reserved - head - n != 0) ::munmap(base + head + n, reserved - head - n);
    char* p = base + head;
    const std::size_t whole = n / huge * huge;
    if (whole != 0) (void)::madvise(p, whole, MADV_HUGEPAGE);
    return p;
}

//! Unmaps what map_huge_aligned(bytes) returned.
inline void unmap_huge_aligned(void* p, std::size_t bytes) noexcept {
    if (p != nullptr) ::munmap(p, (bytes + 4095) / 4096 * 4096);
}

} // namespace flashxxl
