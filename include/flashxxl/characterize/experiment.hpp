// One parsed line of an experiment file: a verb and its checked parameters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! How the start addresses of a pattern's requests are chosen (seeds/003 Section 3.1, LBA functions).
enum class address_order {
    ordered,    //!< TargetOffset + Incr * i * IOSize, wrapping in the span (seq: Incr = 1, reverse: -1,
                //!< in-place: 0)
    random,     //!< a permutation of the start addresses at `granularity` (no repeats)
    partitioned //!< round robin over `partitions` partitions, sequential inside each
};

//! One I/O pattern: where, how large and in which order requests go. Offsets are relative to
//! the target; `span == 0` means "to the end of the target" until resolved.
struct io_pattern {
    io_op op = io_op::read;
    address_order order = address_order::ordered;
    std::int64_t incr = 1;         //!< ordered: address increment in blocks (uFLIP Incr)
    std::uint64_t partitions = 1;  //!< partitioned: number of partitions (uFLIP Partitions)
    std::uint64_t parallel = 1;    //!< interleaved streams over disjoint sub-spans (uFLIP ParallelDegree)
    std::uint64_t block = 4 * KiB; //!< request size (uFLIP IOSize)
    std::uint64_t granularity = 0; //!< random: start addresses are multiples of this; 0 = block
    std::uint64_t shift = 0;       //!< misalignment added to every address (uFLIP IOShift)
    std::uint64_t offset = 0;      //!< start of the span (uFLIP TargetOffset)
    std::uint64_t span = 0;        //!< size of the span (uFLIP TargetSize); 0 = rest of the target
    bool random_start = false;     //!< ordered: start at a random block of the span (seeds/000 App. A)

    //! Granularity actually used for random addresses.
    std::uint64_t effective_granularity() const { return granularity ? granularity : block; }
    //! "SR", "RR", "SW", "RW" for the baseline patterns, "RW@4KiB" for 4 KiB-granular offsets,
    //! otherwise a longer description.
    std::string code() const {
        std::string c = op == io_op::read ? "R" : "W";
        if (order == address_order::random) {
            c = "R" + c;
            if (granularity) c += "@" + format_size(granularity);
        } else if (order == address_order::ordered && incr == 1) {
            c = "S" + c;
        } else if (order == address_order::ordered) {
            c = "S" + c + "/incr=" + std::to_string(incr);
        } else {
            c = "S" + c + "/partitions=" + std::to_string(partitions);
        }
        if (shift) c += "+" + format_size(shift);
        if (parallel > 1) c += "x" + std::to_string(parallel);
        return c;
    }
};

//! Write budget of one time-limited run or burst: its span. A time limit alone bounds nothing
//! on a fast device (0.5 s per point at 3 GB/s wrote 150 times a 256 MiB file in the quick
//! plan), so the runner stops a time-limited loop before its writes exceed the span, and the
//! --dry-run estimate (plan_estimate.hpp) counts exactly this.
inline std::uint64_t timed_write_budget(std::uint64_t span) { return span; }

//! Write budget of each of `windows` recovery windows after a burst: together one span, each
//! at least one block.
inline std::uint64_t window_write_budget(std::uint64_t span, std::uint64_t block, std::uint64_t windows) {
    if (windows == 0 || block == 0) return 0;
    std::uint64_t per = span / windows / block * block;
    return per < block ? block : per;
}

//! The verbs of the experiment file.
enum class step_kind {
    fill,         //!< sequential write of the whole span (state reset, seeds/000 App. A)
    random_state, //!< random writes of random sizes over the span (uFLIP random-state enforcement)
    run,          //!< one pattern, repeated, with a count and/or time limit
    sweep,        //!< baseline patterns over doubling block sizes, with self-scaling
    burst,        //!< random-write burst, then sequential writes measured in windows (recovery)
    stride,       //!< seeds/002 read test: blocks at a stride, in order then shuffled
    write_read,   //!< seeds/002 write-then-read test
    pause         //!< idle time between runs (uFLIP Section 4.3)
};

inline const char* to_string(step_kind k) {
    switch (k) {
    case step_kind::fill:
        return "fill";
    case step_kind::random_state:
        return "random_state";
    case step_kind::run:
        return "run";
    case step_kind::sweep:
        return "sweep";
    case step_kind::burst:
        return "burst";
    case step_kind::stride:
        return "stride";
    case step_kind::write_read:
        return "write_read";
    case step_kind::pause:
        return "pause";
    }
    return "?";
}

//! One baseline pattern of a sweep: SR, RR, SW, RW, optionally random at a fixed granularity.
struct sweep_pattern {
    io_op op = io_op::read;
    bool random = false;
    std::uint64_t granularity = 0; //!< 0 = block-aligned
};

//! One experiment line after parsing. Only the fields of its verb are meaningful.
struct experiment_step {
    step_kind kind = step_kind::run;
    std::string origin;   //!< file name or plan name, for messages
    std::size_t line = 0; //!< 1-based line number in origin
    std::string text;     //!< the line itself
    std::string label;    //!< label=..., or a generated name

    io_pattern pattern;      //!< run, fill (block, span, offset), random_state (span, offset)
    bool has_mix = false;    //!< run: mixed with a second baseline pattern
    io_pattern mix;          //!< run: the second pattern (uFLIP Mix)
    std::uint64_t ratio = 1; //!< run: requests of `pattern` per request of `mix`

    std::uint64_t count = 0;      //!< IOCount per repeat; 0 = no count limit
    double time_s = 0;            //!< time limit per repeat (modelled seconds on a model); 0 = none
    std::uint64_t ignore = 0;     //!< IOIgnore: leading requests left out of the statistics
    bool ignore_auto = false;     //!< ignore = detected start-up phase
    std::uint64_t repeat = 1;     //!< repeats of the run
    double pause_s = 0;           //!< uFLIP pause between requests (or between bursts)
    std::uint64_t burst_size = 0; //!< uFLIP Burst: pause only after every burst_size requests
    double between_s = 0;         //!< pause after each repeat (uFLIP "no interference")
    std::uint64_t seed = 1;

    std::vector<sweep_pattern> sweep_patterns; //!< sweep
    std::uint64_t from = 512, to = 8 * MiB;    //!< sweep block sizes (doubling)
    std::uint64_t max_block = 256 * MiB;       //!< sweep: self-scaling never goes past this
    bool self_scale = true;         //!< sweep: keep doubling past `to` while throughput rises >= 2.5%
    double self_scale_rise = 0.025; //!< sweep: the rise that still counts (seeds/000 App. A: 2.5%)
    std::uint64_t fill_block = 0;   //!< sweep / burst: sequential fill with this block first; 0 = none

    std::uint64_t burst_block = 2 * KiB; //!< burst: random-write block; 0 = same as seq_block
    double burst_time_s = 5;             //!< burst: length of the random-write burst
    std::uint64_t windows = 30;          //!< burst: number of measurement windows
    double window_s = 4;                 //!< burst: window length (seeds/000: 30 x 4 s)
    double recovery_fraction = 0.6;      //!< burst: recovered at this share of the median

    std::uint64_t length = 8; //!< stride / write_read: blocks per iteration
    std::uint64_t stride = 0; //!< stride / write_read: distance between block starts
    std::uint64_t state_min = 512, state_max = 128 * KiB; //!< random_state: request size range
    std::uint64_t state_bytes = 0;                        //!< random_state: bytes to write; 0 = the span

    //! "origin:line" for messages.
    std::string where() const { return origin + ":" + std::to_string(line); }

    //! The run a sweep makes of baseline `sp` at block size `block`, over the sweep's span.
    io_pattern sweep_run(const sweep_pattern& sp, std::uint64_t block) const {
        io_pattern p;
        p.op = sp.op;
        p.order = sp.random ? address_order::random : address_order::ordered;
        p.granularity = sp.granularity;
        p.block = block;
        p.offset = pattern.offset;
        p.span = pattern.span;
        return p;
    }
};

} // namespace flashxxl::characterize
