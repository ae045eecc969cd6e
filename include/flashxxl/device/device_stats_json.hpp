// JSON form of device statistics (nlohmann::json; include only where JSON is wanted).
#pragma once

#include <nlohmann/json.hpp>

#include "flashxxl/device/device_stats.hpp"

namespace flashxxl {

//! Modelled Joules of `c`, or null when a device without energy figures contributed (unknown, not 0).
inline nlohmann::json energy_json(const io_counters& c) {
    return c.energy_known ? nlohmann::json(c.modelled_energy_j) : nlohmann::json(nullptr);
}

inline void to_json(nlohmann::json& j, const io_counters& c) {
    j = nlohmann::json{{"read_ops", c.read_ops},
                       {"read_bytes", c.read_bytes},
                       {"write_ops", c.write_ops},
                       {"write_bytes", c.write_bytes},
                       {"sequential_write_ops", c.sequential_write_ops},
                       {"sequential_write_share", c.sequential_write_share()},
                       {"modelled_s", c.modelled_s},
                       {"service_s", c.service_s},
                       {"wait_s", c.wait_s}};
    j["modelled_energy_j"] = energy_json(c);
}

inline void to_json(nlohmann::json& j, const device_stats& s) {
    j = nlohmann::json{{"total", s.total}, {"internal", s.internal}, {"lag_s", s.lag_s}};
    for (role r : all_roles)
        j["by_role"][to_string(r)] = s.of(r);
}

} // namespace flashxxl
