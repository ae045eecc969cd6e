// Whether an I/O buffer sits in huge pages (one physically contiguous run) or in 4 KiB pages.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "flashxxl/io/huge_pages.hpp"

namespace flashxxl::characterize {

//! How the memory of an I/O buffer is backed. It matters for O_DIRECT: the kernel hands the
//! device one DMA segment per physically contiguous run of the buffer, so a 1 MiB request from
//! scattered 4 KiB pages is 256 segments and from one huge page is 1. Virtual disks can pay per
//! segment: on the development VM (virtio-blk) a 1 MiB O_DIRECT read took 0.4-0.5 ms from a
//! contiguous buffer and 1.0-1.3 ms from a scattered one (docs/characterize.md).
enum class page_backing {
    unknown,    //!< /proc/self/smaps could not be read
    base_pages, //!< (at least partly) 4 KiB pages: physical contiguity is left to chance
    huge_pages  //!< transparent huge pages cover the whole buffer
};

inline const char* to_string(page_backing b) {
    switch (b) {
    case page_backing::base_pages:
        return "base pages";
    case page_backing::huge_pages:
        return "huge pages";
    case page_backing::unknown:
        break;
    }
    return "unknown";
}

//! The transparent-huge-page size (io/huge_pages.hpp, shared with the containers' buffers).
using flashxxl::huge_page_bytes;

//! Backing of [p, p + bytes) from the AnonHugePages line of the smaps entry (the mapping) that
//! contains p: huge_pages when it covers at least `bytes`. No privileges needed.
inline page_backing backing_of(const void* p, std::size_t bytes) {
    std::ifstream in("/proc/self/smaps");
    if (!in) return page_backing::unknown;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        // a mapping's first line: "start-end perms offset dev inode [path]" (hex addresses)
        auto dash = line.find('-');
        auto space = line.find(' ');
        if (dash != std::string::npos && space != std::string::npos && dash < space &&
            line.find(':') > space) {
            std::uintptr_t lo = 0, hi = 0;
            std::istringstream(line.substr(0, dash)) >> std::hex >> lo;
            std::istringstream(line.substr(dash + 1, space - dash - 1)) >> std::hex >> hi;
            if (inside) return page_backing::unknown; // left our mapping without the field
            inside = lo <= addr && addr < hi;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) {
            std::istringstream f(line.substr(14));
            std::size_t kib = 0;
            f >> kib;
            return kib * 1024 >= bytes ? page_backing::huge_pages : page_backing::base_pages;
        }
    }
    return page_backing::unknown;
}

} // namespace flashxxl::characterize
