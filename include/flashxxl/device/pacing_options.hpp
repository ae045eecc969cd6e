// Wall-clock pacing settings of an emulated device (a config line's pace= / scale=).
#pragma once

namespace flashxxl {

//! Wall-clock pacing of an emulated device: off means accounting only.
struct pacing_options {
    bool enabled = false; //!< sleep in the I/O thread until each request's modelled deadline
    double scale = 1.0;   //!< wall seconds per modelled second
    //! Deadlines closer than this are not slept for (a short sleep costs 20-80 us here); the
    //! debt is carried by the absolute deadline of the next request.
    double min_sleep_s = 200e-6;
};

} // namespace flashxxl
