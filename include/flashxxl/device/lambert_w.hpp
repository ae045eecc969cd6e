// The principal branch W0 of the Lambert W function, for the FIFO garbage-collection bound.
#pragma once

#include <cmath>
#include <string>

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/lambert_w.hpp>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! W0(x): the solution w >= -1 of w e^w = x, for x >= -1/e: Boost.Math's lambert_w0. An x a
//! rounding error below -1/e (callers' -alpha e^-alpha at alpha = 1) counts as -1/e; one further
//! below throws config_error naming it (Boost would throw std::domain_error).
inline double lambert_w0(double x) {
    const double branch = -boost::math::constants::exp_minus_one<double>(); // Boost's own bound
    if (x < branch) {
        if (x > branch - 1e-15)
            x = branch;
        else
            throw config_error("lambert_w0: argument " + std::to_string(x) + " below -1/e");
    }
    return boost::math::lambert_w0(x);
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
