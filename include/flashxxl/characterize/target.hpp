// What a characterization runs against: io(op, offset, length) -> seconds, behind an always-on guard.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "flashxxl/characterize/io_guard.hpp"
#include "flashxxl/characterize/page_backing.hpp"
#include "flashxxl/device/device_class.hpp"

namespace flashxxl::characterize {

//! A device under test. Offsets are in the target's own range [0, capacity()). `io()` checks
//! the request with an io_guard, then issues it; implementations only see checked requests.
class target {
public:
    virtual ~target() = default;

    //! Issues one synchronous request (queue depth 1) and returns its response time in seconds
    //! (modelled seconds for a model target, measured wall time for a real one).
    double io(io_op op, std::uint64_t offset, std::uint64_t length) {
        guard().check(op, offset, length);
        return do_io(op, offset, length);
    }

    //! Idle time between requests (uFLIP pause / burst patterns, pauses between runs): a real
    //! target sleeps; a model target has no background work, so only the clock advances.
    virtual void pause(double seconds) { (void)seconds; }

    //! Human-readable name (path or preset) used in messages and reports.
    virtual std::string name() const = 0;
    //! "model", "file" or "block-device".
    virtual std::string kind() const = 0;
    //! flash or hdd, when known (real targets report flash unless told otherwise).
    virtual device_class klass() const { return device_class::flash; }
    //! True when response times are modelled (deterministic), false when measured.
    virtual bool modelled() const = 0;

    //! Where target offset 0 lies in the underlying file or device, in bytes (a file target's
    //! data region starts after its header; reports and the fio comparison use it).
    virtual std::uint64_t base_offset() const { return 0; }
    //! How the buffer of the latest request is backed (real targets; unknown on a model).
    virtual page_backing io_buffer() const { return page_backing::unknown; }

    //! Usable bytes, the guard's range.
    std::uint64_t capacity() const { return guard().capacity(); }
    //! Every offset and length must be a multiple of this (4 KiB for O_DIRECT targets).
    std::uint64_t alignment() const { return guard().alignment(); }

protected:
    //! The guard that io() consults; fixed at construction by the implementation.
    virtual const io_guard& guard() const = 0;
    //! Issues a request that already passed the guard.
    virtual double do_io(io_op op, std::uint64_t offset, std::uint64_t length) = 0;
};

} // namespace flashxxl::characterize
