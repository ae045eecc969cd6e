// Counters of one translation layer: host vs device volume (write amplification), cleaning work, memory.
#pragma once

#include <cstdint>

namespace flashxxl {

//! A snapshot of a translation layer's counters since construction.
struct tl_stats {
    std::uint64_t host_bytes_written = 0;   //!< bytes the layer's users wrote
    std::uint64_t host_bytes_read = 0;      //!< bytes the layer's users read
    std::uint64_t buffer_bytes_read = 0;    //!< part of host_bytes_read served from the open segment buffer
    std::uint64_t device_bytes_written = 0; //!< bytes the layer wrote to the lower device
    std::uint64_t device_bytes_read = 0;    //!< bytes the layer read from the lower device (host + cleaning)
    std::uint64_t device_writes = 0;        //!< write requests to the lower device
    std::uint64_t device_reads = 0;         //!< read requests to the lower device
    std::uint64_t cleaning_page_copies = 0; //!< valid pages the cleaner moved
    std::uint64_t segments_cleaned = 0;     //!< victims the cleaner reclaimed by copying
    std::uint64_t segments_emptied =
        0; //!< segments freed because every page was overwritten or discarded (sealed ones, and open ones
           //!< that filled with garbage only and were never written)
    std::uint64_t segments_sealed = 0; //!< segments written out because they were full
    std::uint64_t flushes = 0;         //!< flush() calls that wrote something
    std::uint64_t pages_discarded = 0; //!< valid pages invalidated by discard()
    std::uint64_t discard_failures =
        0; //!< TRIMs of freed segments the lower file refused (best effort: the segment is free all the same)
    std::uint64_t live_pages = 0;          //!< logical pages holding data now
    std::uint64_t free_segments = 0;       //!< segments free now
    std::uint64_t map_memory_bytes = 0;    //!< page map + reverse map + segment table, in bytes
    std::uint64_t buffer_memory_bytes = 0; //!< segment buffers (open + cleaning), in bytes

    //! device bytes written / host bytes written (1 when nothing was written).
    double write_amplification() const {
        return host_bytes_written ? double(device_bytes_written) / double(host_bytes_written) : 1.0;
    }
};

} // namespace flashxxl
