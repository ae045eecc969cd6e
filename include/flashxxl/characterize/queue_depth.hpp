// Random reads of one block size at several queue depths, and the io_threads a device line should state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/characterize/target.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! Random reads of `block` bytes with `depth` requests in flight.
struct queue_depth_point {
    unsigned depth = 1;
    std::uint64_t block = 0;
    std::uint64_t requests = 0;
    double seconds = 0; //!< wall time of all of them
    double mib_s = 0;
};

//! The smallest depth whose throughput reaches `share` of the best depth's: more requests in
//! flight than that buy less than (1 - share) of the device's rate. nullopt without points.
inline std::optional<unsigned> recommend_io_threads(const std::vector<queue_depth_point>& points,
                                                    double share) {
    double best = 0;
    for (const auto& p : points)
        best = std::max(best, p.mib_s);
    if (best <= 0) return std::nullopt;
    std::optional<unsigned> pick;
    for (const auto& p : points)
        if (p.mib_s >= share * best && (!pick || p.depth < *pick)) pick = p.depth;
    return pick;
}

//! What measure_queue_depths does.
struct queue_depth_options {
    std::vector<unsigned> depths{1, 2, 4, 8, 16}; //!< each in [1, 64] (machine config's io_threads range)
    std::uint64_t block = 128 * KiB;   //!< the request size (characterize passes the recommended Br)
    std::uint64_t span = 0;            //!< offsets in [0, span); 0: the whole target
    double seconds_per_depth = 2;      //!< wall-time limit of each depth
    std::uint64_t max_requests = 4096; //!< request limit of each depth
    std::uint64_t seed = 1;
    std::uint64_t max_buffer_bytes = GiB; //!< bound on depth x block: one buffer per request in flight
    std::function<void(double, const std::string&)> progress; //!< fraction done, what runs
};

//! Reads `o.block`-byte blocks at random block-aligned offsets of the target (the same offsets,
//! in the same order, at every depth) with each depth in `o.depths` of requests in flight,
//! until max_requests or seconds_per_depth. Reads only; memory: depth x block of buffers (at
//! most max_buffer_bytes). Throws config_error when the target serves one request at a time (a
//! model: its clock has no queue) or an option is out of range.
inline std::vector<queue_depth_point> measure_queue_depths(target& t, const queue_depth_options& o) {
    const std::uint64_t span = o.span ? o.span : t.capacity();
    if (o.block == 0 || o.block % t.alignment() != 0 || o.block > span)
        throw config_error("queue-depth reads: block " + format_size(o.block) +
                           " must be a positive multiple of " + format_size(t.alignment()) +
                           " and at most the span " + format_size(span));
    for (unsigned d : o.depths) {
        if (d < 1 || d > 64) throw config_error("--queue-depths: " + std::to_string(d) + " is outside 1..64");
        if (d * o.block > o.max_buffer_bytes)
            throw config_error("--queue-depths: depth " + std::to_string(d) + " reads of " +
                               format_size(o.block) + " need " + format_size(d * o.block) +
                               " of buffers, more than " + format_size(o.max_buffer_bytes) +
                               "; give smaller depths");
    }
    std::mt19937_64 rng(o.seed);
    const std::uint64_t slots = span / o.block;
    std::vector<std::uint64_t> offsets(std::max<std::uint64_t>(1, o.max_requests));
    for (auto& off : offsets)
        off = rng() % slots * o.block;
    std::vector<queue_depth_point> points;
    for (std::size_t i = 0; i < o.depths.size(); ++i) {
        const unsigned d = o.depths[i];
        if (o.progress)
            o.progress(double(i) / double(o.depths.size()),
                       "random reads at queue depth " + std::to_string(d));
        std::optional<concurrent_reads_result> r =
            t.concurrent_reads(offsets, o.block, d, o.seconds_per_depth);
        if (!r)
            throw config_error("'" + t.name() + "' serves one request at a time (a " + t.kind() +
                               "): queue depths apply to a file or block device");
        queue_depth_point p;
        p.depth = d;
        p.block = o.block;
        p.requests = r->requests;
        p.seconds = r->seconds;
        p.mib_s = r->seconds > 0 ? double(r->requests * o.block) / MiB / r->seconds : 0;
        points.push_back(p);
    }
    if (o.progress) o.progress(1.0, "queue depths done");
    return points;
}

} // namespace flashxxl::characterize
