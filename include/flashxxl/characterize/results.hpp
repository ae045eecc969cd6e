// The measurements of one characterization: runs, bursts, stride tests, in plain value types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/characterize/latency_summary.hpp"
#include "flashxxl/characterize/latency_trace.hpp"
#include "flashxxl/characterize/page_backing.hpp"
#include "flashxxl/characterize/phase_detection.hpp"
#include "flashxxl/characterize/recovery.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

namespace detail {
//! Heap bytes of a string: its buffer when not stored inline (short strings are).
inline std::size_t string_heap(const std::string& s) {
    return s.capacity() > std::string().capacity() ? s.capacity() + 1 : 0;
}
//! Bytes of one std::map node holding a string key and a 64-bit value (rb-tree links and colour
//! besides the pair), generously.
inline constexpr std::size_t map_node_bytes = 96;
} // namespace detail

//! One repeat of one pattern at one block size (a `run` line, or one point of a `sweep`).
struct run_record {
    std::string label;         //!< the experiment's label
    std::size_t line = 0;      //!< line in the experiment text
    std::string code;          //!< "SR", "RW@4KiB", ... (io_pattern::code)
    bool in_sweep = false;     //!< part of a block-size sweep (feeds the recommendation)
    io_pattern pattern;        //!< the resolved pattern
    std::string mix_code;      //!< second pattern of a mix, empty if none
    std::uint64_t ratio = 0;   //!< mix ratio
    std::uint64_t repeat = 0;  //!< 0-based repeat index
    std::uint64_t ios = 0;     //!< requests issued (including ignored ones)
    std::uint64_t ignored = 0; //!< leading requests left out of throughput and statistics
    std::uint64_t bytes = 0;   //!< bytes of the counted requests
    double seconds = 0;        //!< summed response time of the counted requests
    double throughput_mib_s = 0;
    double wall_s = 0; //!< wall time of the whole repeat (CPU time on a model target)
    page_backing io_buffer = page_backing::unknown; //!< backing of the request buffer (real targets)
    latency_summary latency;                        //!< of the counted requests
    phase_info phases;                              //!< uFLIP start-up / period of the whole series
    // No per-request series is kept (response_recorder.hpp): it streams to a request_observer
    // (io_log.hpp) as it is produced; the record keeps bounded plot data only.
    latency_trace trace; //!< plot data: response times in issue order, min / max per bucket (may be empty)
    std::vector<cdf_point> cdf; //!< plot data: CDF of all requests when `trace` is downsampled

    //! Heap bytes this record holds (strings and plot data; not sizeof(run_record)).
    std::size_t memory_usage() const {
        return detail::string_heap(label) + detail::string_heap(code) + detail::string_heap(mix_code) +
               trace.memory_usage() + cdf.capacity() * sizeof(cdf_point);
    }
};

//! A random-write burst followed by windowed sequential writes (seeds/000 Section 3.3.3).
struct burst_record {
    std::string label;
    std::size_t line = 0;
    std::uint64_t burst_block = 0, seq_block = 0;
    double burst_time_s = 0, window_s = 0;
    std::uint64_t burst_ios = 0;
    double burst_mib_s = 0;
    std::vector<double> window_mib_s;
    recovery_info recovery;

    //! Heap bytes this record holds.
    std::size_t memory_usage() const {
        return detail::string_heap(label) + window_mib_s.capacity() * sizeof(double);
    }
};

//! One seeds/002 test: per-iteration completion times of `length` blocks at a stride.
struct stride_record {
    std::string label;
    std::size_t line = 0;
    bool write_read = false; //!< write-then-read test instead of the read test
    std::uint64_t block = 0, length = 0, stride = 0;
    std::vector<double> first_s;  //!< read test: in order; write_read: the writes
    std::vector<double> second_s; //!< read test: shuffled;  write_read: the reads back

    //! Heap bytes this record holds.
    std::size_t memory_usage() const {
        return detail::string_heap(label) + (first_s.capacity() + second_s.capacity()) * sizeof(double);
    }
};

//! Everything one characterization measured.
struct characterization {
    std::string target_name, target_kind;
    bool modelled = false;
    std::uint64_t capacity = 0, alignment = 0;
    std::uint64_t base_offset = 0; //!< position of target offset 0 in the file or device
    std::vector<run_record> runs;
    std::vector<burst_record> bursts;
    std::vector<stride_record> strides;
    std::map<std::string, std::uint64_t> self_scaling; //!< pattern code -> block where doubling stopped
    double device_seconds = 0;                         //!< summed response times and pauses of every request
    std::uint64_t bytes_read = 0, bytes_written = 0, requests = 0;

    //! Heap bytes the results hold: the record arrays (by capacity) and what each record holds;
    //! the self-scaling map by its nodes (estimated at detail::map_node_bytes each). Independent
    //! of the request count; memory_estimate.hpp bounds it from the plan.
    std::size_t memory_usage() const {
        std::size_t b = runs.capacity() * sizeof(run_record) + bursts.capacity() * sizeof(burst_record) +
                        strides.capacity() * sizeof(stride_record) + detail::string_heap(target_name) +
                        detail::string_heap(target_kind);
        for (const auto& r : runs)
            b += r.memory_usage();
        for (const auto& r : bursts)
            b += r.memory_usage();
        for (const auto& r : strides)
            b += r.memory_usage();
        for (const auto& kv : self_scaling)
            b += detail::map_node_bytes + detail::string_heap(kv.first);
        return b;
    }
};

} // namespace flashxxl::characterize
