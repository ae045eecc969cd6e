// Recovery after a random-write burst: time until sequential writes reach 60% of their median.
#pragma once

#include <cstddef>
#include <vector>

#include "flashxxl/characterize/latency_summary.hpp"

namespace flashxxl::characterize {

//! What seeds/000 Section 3.3.3 and Appendix C report after a burst of random writes.
struct recovery_info {
    double median_mib_s = 0; //!< median throughput of the windows after the burst
    double recovery_s = 0;   //!< time from the burst's end to the start of the first window at
                             //!< >= fraction x median (0: recovered at once)
    std::size_t first_recovered_window = 0;
    bool recovered = false; //!< false when no window reached the level
};

//! seeds/000 Appendix C: "how long it took the device to recover back to 60% of the median
//! performance in the two minutes following the random writes". `windows_mib_s[i]` is the
//! throughput of window i, each `window_s` long.
inline recovery_info compute_recovery(const std::vector<double>& windows_mib_s, double window_s,
                                      double fraction = 0.6) {
    recovery_info r;
    if (windows_mib_s.empty()) return r;
    r.median_mib_s = median(windows_mib_s);
    double level = fraction * r.median_mib_s;
    for (std::size_t i = 0; i < windows_mib_s.size(); ++i)
        if (windows_mib_s[i] >= level) {
            r.first_recovered_window = i;
            r.recovery_s = static_cast<double>(i) * window_s;
            r.recovered = true;
            return r;
        }
    r.first_recovered_window = windows_mib_s.size();
    r.recovery_s = static_cast<double>(windows_mib_s.size()) * window_s;
    return r;
}

} // namespace flashxxl::characterize
