// The principal branch W0 of the Lambert W function, for the FIFO garbage-collection bound.
#pragma once

#include <cmath>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! W0(x): the solution w >= -1 of w e^w = x, for x >= -1/e. Halley iteration from a series
//! start near the branch point; accurate to a few ulps. Throws config_error for x < -1/e.
inline double lambert_w0(double x) {
    const double e = std::exp(1.0);
    const double branch = -1.0 / e;
    if (x < branch) {
        if (x > branch - 1e-15)
            x = branch; // rounding of callers' -alpha e^-alpha
        else
            throw config_error("lambert_w0: argument " + std::to_string(x) + " below -1/e");
    }
    if (x == 0) return 0;
    double w;
    if (x < -0.25) {
        const double p = std::sqrt(std::fmax(0.0, 2 * (e * x + 1)));
        w = -1 + p - p * p / 3 + 11.0 / 72 * p * p * p;
    } else if (x < 3) {
        w = std::log1p(x);
    } else {
        const double l = std::log(x);
        w = l - std::log(l);
    }
    for (int i = 0; i < 50; ++i) {
        const double ew = std::exp(w);
        const double f = w * ew - x;
        const double wp1 = w + 1;
        if (std::fabs(wp1) < 1e-300) break;
        const double step = f / (ew * wp1 - (w + 2) * f / (2 * wp1));
        w -= step;
        if (std::fabs(step) <= 1e-15 * (1 + std::fabs(w))) break;
    }
    return w;
}

//! Write amplification of FIFO (oldest-block-first) garbage collection under uniform random page
//! overwrites with spare factor alpha = physical / logical = 1 + OP:
//! alpha / (alpha + W0(-alpha e^-alpha)). Greedy collection never does worse; this is the oracle
//! of DEVICE-MODELS.md (7.82 at 7% OP, 2.48 at 28%).
inline double fifo_gc_write_amplification(double alpha) {
    if (!(alpha > 1)) throw config_error("fifo_gc_write_amplification: alpha must be > 1");
    return alpha / (alpha + lambert_w0(-alpha * std::exp(-alpha)));
}

} // namespace flashxxl
