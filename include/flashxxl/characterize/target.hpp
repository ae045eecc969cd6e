// What a characterization runs against: io(op, offset, length) -> seconds, behind an always-on guard.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flashxxl/characterize/io_guard.hpp"
#include "flashxxl/characterize/page_backing.hpp"
#include "flashxxl/device/device_class.hpp"

namespace flashxxl::characterize {

//! What target::concurrent_reads did.
struct concurrent_reads_result {
    std::uint64_t requests = 0; //!< reads completed
    double seconds = 0;         //!< wall time from the first issue to the last completion
};

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

    //! Reads `length` bytes at offsets[0], offsets[1], ... with `depth` requests in flight
    //! (`depth` threads issuing synchronous reads, each taking the next offset), until all are
    //! read or `time_limit` seconds passed. Every offset is checked first. nullopt when the
    //! target serves one request at a time (a model).
    std::optional<concurrent_reads_result> concurrent_reads(const std::vector<std::uint64_t>& offsets,
                                                            std::uint64_t length, unsigned depth,
                                                            double time_limit) {
        for (std::uint64_t off : offsets)
            guard().check(io_op::read, off, length);
        return do_concurrent_reads(offsets, length, std::max(1u, depth), time_limit);
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
    //! concurrent_reads after the guard; real targets override it.
    virtual std::optional<concurrent_reads_result> do_concurrent_reads(const std::vector<std::uint64_t>&,
                                                                       std::uint64_t, unsigned, double) {
        return std::nullopt;
    }
};

} // namespace flashxxl::characterize
