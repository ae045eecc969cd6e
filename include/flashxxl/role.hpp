// Roles: why a block exists, which is what placement policies decide by (shared/DESIGN.md).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! Why a block exists. static_data: written once, read often (BFS cluster index, CSR graph);
//! hot: rewritten often (BFS hot pool, PQ buffers); scratch: sorted runs and temporaries;
//! stream: sequential input / output.
enum class role { static_data, hot, scratch, stream };

constexpr std::size_t role_count = 4;

constexpr std::array<role, role_count> all_roles = {role::static_data, role::hot, role::scratch,
                                                    role::stream};

inline const char* to_string(role r) {
    switch (r) {
    case role::static_data:
        return "static_data";
    case role::hot:
        return "hot";
    case role::scratch:
        return "scratch";
    case role::stream:
        return "stream";
    }
    return "?";
}

inline role parse_role(const std::string& s) {
    for (role r : all_roles)
        if (s == to_string(r)) return r;
    throw config_error("unknown role '" + s + "' (expected static_data, hot, scratch or stream)");
}

inline std::size_t index_of(role r) { return static_cast<std::size_t>(r); }

} // namespace flashxxl
