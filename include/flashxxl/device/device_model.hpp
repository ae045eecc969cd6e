// The interface of a pure device timing model: service(op, offset, length) -> seconds.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/model_energy.hpp"

namespace flashxxl {

//! What a model has done inside the device, beyond the host's requests.
struct model_counters {
    std::uint64_t host_bytes_written = 0;    //!< bytes the host asked to write
    std::uint64_t media_bytes_written = 0;   //!< bytes programmed on the medium (>= host for flash)
    std::uint64_t merges = 0;                //!< block-mapped SSD: chunk merges (read-modify-write)
    std::uint64_t erases = 0;                //!< flash erase operations
    std::uint64_t gc_page_copies = 0;        //!< page-mapped SSD: valid pages copied by GC
    std::uint64_t pages_read = 0;            //!< flash pages read (host reads, GC and merge copies)
    std::uint64_t pages_programmed = 0;      //!< flash pages programmed (host, GC and merge copies)
    std::uint64_t slow_pages_programmed = 0; //!< of pages_programmed, MLC slow pages
    double seek_s = 0;                       //!< HDD: seconds spent seeking
    model_energy_counters energy;            //!< Joules by operation (zero without energy figures)
    double write_amplification() const {
        return host_bytes_written ? double(media_bytes_written) / double(host_bytes_written) : 1.0;
    }
};

//! A deterministic timing model of one storage device. Pure: it moves no data, it only
//! charges a service time per request and updates its own internal state (open logs, head
//! position, mapping tables). The same request sequence always gives the same times.
//! Not thread-safe; the emulated file serialises calls.
class device_model {
public:
    virtual ~device_model() = default;

    //! Service time in seconds of one request of `length` bytes at byte `offset`.
    //! Requires offset + length <= capacity().
    virtual double service(io_op op, std::uint64_t offset, std::uint64_t length) = 0;

    //! The host no longer needs [offset, offset + length) (TRIM); models may ignore it.
    virtual void discard(std::uint64_t offset, std::uint64_t length) {
        (void)offset;
        (void)length;
    }

    //! The device had no request for `seconds` of host time (the gap before the next one); a
    //! model may do background work then (the page-mapped model's gc_high_blocks cleaning).
    virtual void idle(double seconds) { (void)seconds; }

    //! Emulated capacity in bytes (offsets, zones and seek distances depend on it).
    virtual std::uint64_t capacity() const = 0;

    //! flash or hdd.
    virtual device_class klass() const = 0;

    //! Model family: "ssd-block-mapped", "ssd-page-mapped" or "hdd".
    virtual std::string kind() const = 0;

    //! The preset this model was made from, or "custom".
    virtual std::string preset() const = 0;

    //! Every parameter with its current value, as key=value strings the config accepts.
    virtual std::vector<std::pair<std::string, std::string>> parameters() const = 0;

    //! Internal-work counters since construction or the last reset().
    virtual model_counters counters() const = 0;

    //! Whether the model has energy figures (counters().energy is then meaningful; without
    //! them reports say the energy is unknown, never 0).
    virtual bool has_energy() const { return false; }

    //! Watts the device draws while idle (charged for the gaps between its requests).
    virtual double idle_power_w() const { return 0; }

    //! Back to the freshly constructed state (empty FTL, head at 0, counters zero).
    virtual void reset() = 0;

    //! An independent copy in the freshly constructed state with the same parameters.
    virtual std::unique_ptr<device_model> clone_fresh() const = 0;
};

} // namespace flashxxl
