// What the CLI tells a user to do about an out_of_space: a smaller --bw, or a larger device.
#pragma once

#include <string>

#include "flashxxl/error.hpp"

namespace flashxxl::cli {

//! The line after "flashxxl: error: out of space ...": what did not fit and what to change. A
//! block larger than the whole device can only be made smaller; anything else needs more room.
inline std::string out_of_space_hint(const out_of_space& e) {
    const std::string device = "device '" + e.device() + "'";
    if (e.capacity() != 0 && e.requested() > e.capacity())
        return "one block of " + out_of_space::exact_size(e.requested()) + " is larger than the whole " +
               device + " (" + out_of_space::exact_size(e.capacity()) +
               "): use a smaller --bw (or bw= on that device in the machine config) or a larger device";
    return "the data did not fit on " + device +
           ": use a larger device, fewer items, or a placement that puts the role on another device";
}

} // namespace flashxxl::cli
