// Prints model parameter values (numbers, sizes) so that model_params reads them back exactly.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "flashxxl/units.hpp"

namespace flashxxl {

//! The shortest "%.Ng" text of `v` (N <= 17) that parses back to exactly `v`, so a model's
//! parameters() list can be fed back as overrides and give a bit-identical model.
inline std::string format_model_number(double v) {
    char buf[40];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

//! A size as model_params::take_size reads it back: "32GiB", "512KiB", or plain bytes when the
//! value is a decimal capacity such as 500000000000 (never "488281250KiB").
inline std::string format_model_size(std::uint64_t bytes) {
    if (bytes < MiB || bytes % MiB == 0) return format_size(bytes);
    return std::to_string(bytes);
}

} // namespace flashxxl
