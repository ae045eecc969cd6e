// JSON form of translation-layer statistics (nlohmann::json; include only where JSON is wanted).
#pragma once

#include <nlohmann/json.hpp>

#include "flashxxl/tl/tl_stats.hpp"

namespace flashxxl {

inline void to_json(nlohmann::json& j, const tl_stats& s) {
    j = nlohmann::json{{"host_bytes_written", s.host_bytes_written},
                       {"host_bytes_read", s.host_bytes_read},
                       {"buffer_bytes_read", s.buffer_bytes_read},
                       {"device_bytes_written", s.device_bytes_written},
                       {"device_bytes_read", s.device_bytes_read},
                       {"device_writes", s.device_writes},
                       {"device_reads", s.device_reads},
                       {"write_amplification", s.write_amplification()},
                       {"cleaning_page_copies", s.cleaning_page_copies},
                       {"segments_cleaned", s.segments_cleaned},
                       {"segments_emptied", s.segments_emptied},
                       {"segments_sealed", s.segments_sealed},
                       {"flushes", s.flushes},
                       {"pages_discarded", s.pages_discarded},
                       {"discard_failures", s.discard_failures},
                       {"live_pages", s.live_pages},
                       {"free_segments", s.free_segments},
                       {"map_memory_bytes", s.map_memory_bytes},
                       {"buffer_memory_bytes", s.buffer_memory_bytes}};
}

} // namespace flashxxl
