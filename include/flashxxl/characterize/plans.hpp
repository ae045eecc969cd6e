// The built-in plans (ajwani, uflip, stride, quick) as experiment-file text.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! Knobs shared by the built-in plans.
struct plan_options {
    std::uint64_t span = 0;           //!< bytes of the target the plan uses (0 = all)
    std::uint64_t alignment = 512;    //!< the target's alignment: smaller sizes and shifts are left out
    double time_s = 30;               //!< time limit per repeat (seeds/000: 30 s)
    std::uint64_t count = 0;          //!< count limit per repeat (0 = none)
    std::uint64_t repeats = 3;        //!< repeats per pattern (seeds/000: 3)
    std::uint64_t uflip_count = 1024; //!< uFLIP IOCount per run
    double between_s = 1;             //!< uFLIP pause between runs
    bool random_state = false;        //!< uFLIP random-state enforcement before the uflip plan
    bool bursts = true;               //!< ajwani: include the recovery-after-burst experiments
    bool misaligned = true;           //!< ajwani: include the misaligned random writes
    double burst_window_s = 4;        //!< ajwani: window length after a burst
    std::uint64_t burst_windows = 30; //!< ajwani: windows after a burst
};

//! The names of the built-in plans.
inline std::vector<std::string> plan_names() { return {"ajwani", "uflip", "stride", "quick"}; }

namespace detail {
inline std::string limits(const plan_options& o) {
    std::string s;
    if (o.time_s > 0) {
        std::ostringstream t;
        t << o.time_s;
        s += " time=" + t.str();
    }
    if (o.count) s += " count=" + std::to_string(o.count);
    return s;
}
inline std::string span_key(const plan_options& o) { return o.span ? " span=" + format_size(o.span) : ""; }
inline std::string secs(double x) {
    std::ostringstream t;
    t << x;
    return t.str();
}
} // namespace detail

//! seeds/000 Appendix A: aligned SR / RR / SW / RW from 512 B doubling to 8 MiB or the
//! self-scaling limit (whichever comes last), a sequential 1 MiB fill before each block size,
//! each pattern `repeats` times with the time / count limit; random writes also at 4 KiB-granular
//! offsets; bursts of random writes (5, 30, 60 s; 2 KiB and same-size) followed by 30 windows
//! of 4 s of sequential writes; misaligned random writes (shift 2 KiB, 16 KiB, 32 KiB).
inline std::string ajwani_plan(const plan_options& o) {
    std::ostringstream p;
    std::uint64_t from = std::max<std::uint64_t>(512, o.alignment);
    std::string g = format_size(std::max<std::uint64_t>(4 * KiB, o.alignment));
    p << "# ajwani: seeds/000 Appendix A\n";
    p << "sweep patterns=SR,RR,SW,RW,RW@" << g << " from=" << format_size(from)
      << " to=8MiB max=256MiB selfscale=yes fill=1MiB repeat=" << o.repeats << detail::limits(o)
      << detail::span_key(o) << " label=ajwani-sweep\n";
    if (o.bursts) {
        p << "# recovery after bursts of random writes (seeds/000 Section 3.3.3, Appendix C)\n";
        std::uint64_t small = std::max<std::uint64_t>(2 * KiB, o.alignment);
        for (double t : {5.0, 30.0, 60.0})
            for (std::uint64_t seq :
                 {std::max<std::uint64_t>(4 * KiB, o.alignment), std::uint64_t(512 * KiB)})
                for (bool same : {false, true})
                    p << "burst burst_block=" << (same ? std::string("same") : format_size(small))
                      << " burst_time=" << t << " seq_block=" << format_size(seq)
                      << " windows=" << o.burst_windows << " window=" << detail::secs(o.burst_window_s)
                      << " fill=1MiB" << detail::span_key(o) << " label=burst-" << t << "s-"
                      << (same ? "same" : format_size(small)) << "-" << format_size(seq) << "\n";
    }
    if (o.misaligned) {
        p << "# misaligned random writes (seeds/000 Section 3.3.4): shift 2 KiB, 16 KiB, 32 KiB\n";
        p << "fill block=1MiB" << detail::span_key(o) << "\n";
        for (std::uint64_t b : {std::uint64_t(64 * KiB), std::uint64_t(512 * KiB), std::uint64_t(2 * MiB)})
            for (std::uint64_t sh : {std::uint64_t(0), std::uint64_t(2 * KiB), std::uint64_t(16 * KiB),
                                     std::uint64_t(32 * KiB)}) {
                if (sh % o.alignment) {
                    p << "# shift " << format_size(sh) << " left out: the target needs " << o.alignment
                      << "-byte alignment\n";
                    continue;
                }
                p << "run op=write order=rand block=" << format_size(b) << " shift=" << format_size(sh)
                  << " repeat=" << o.repeats << detail::limits(o) << detail::span_key(o)
                  << " label=misaligned-" << format_size(b) << "-" << format_size(sh) << "\n";
            }
    }
    return p.str();
}

//! seeds/003 Table 1: the nine uFLIP micro-benchmarks on the four baseline patterns (IOSize
//! 32 KiB), each run with IOCount = uflip_count, IOIgnore = the detected start-up phase
//! (ignore=auto) and a pause between runs; random-state enforcement first when asked for.
inline std::string uflip_plan(const plan_options& o) {
    std::ostringstream p;
    const std::uint64_t io = 32 * KiB;
    std::string common =
        " count=" + std::to_string(o.uflip_count) + " ignore=auto between=" + detail::secs(o.between_s);
    std::string span = detail::span_key(o);
    const char* base[4][2] = {{"read", "seq"}, {"read", "rand"}, {"write", "seq"}, {"write", "rand"}};
    const char* codes[4] = {"SR", "RR", "SW", "RW"};
    p << "# uflip: seeds/003 Table 1, IOSize 32 KiB\n";
    if (o.random_state)
        p << "random_state min=" << format_size(std::max<std::uint64_t>(512, o.alignment)) << " max=128KiB"
          << span << "\n";
    p << "# 1 granularity: IOSize 2^0 .. 2^9 x 512 B\n";
    for (int b = 0; b < 4; ++b)
        for (std::uint64_t s = 512; s <= 256 * KiB; s *= 2)
            if (s % o.alignment == 0)
                p << "run op=" << base[b][0] << " order=" << base[b][1] << " block=" << format_size(s)
                  << common << span << " label=granularity-" << codes[b] << "\n";
    p << "# 2 alignment: IOShift 2^k x 512 B < IOSize\n";
    for (int b = 0; b < 4; ++b)
        for (std::uint64_t sh = 512; sh < io; sh *= 2)
            if (sh % o.alignment == 0)
                p << "run op=" << base[b][0] << " order=" << base[b][1]
                  << " block=32KiB shift=" << format_size(sh) << common << span << " label=alignment-"
                  << codes[b] << "\n";
    p << "# 3 locality: TargetSize 2^k x IOSize (random up to 2^16, sequential up to 2^8)\n";
    for (int b = 0; b < 4; ++b) {
        bool rnd = b % 2 == 1;
        for (int k = 0; k <= (rnd ? 16 : 8); ++k) {
            std::uint64_t ts = io << k;
            if (o.span && ts > o.span) break;
            p << "run op=" << base[b][0] << " order=" << base[b][1] << " block=32KiB span=" << format_size(ts)
              << common << " label=locality-" << codes[b] << "\n";
        }
    }
    p << "# 4 partitioning: Partitions 2^0 .. 2^8 (sequential patterns)\n";
    for (int b : {0, 2})
        for (std::uint64_t parts = 1; parts <= 256; parts *= 2)
            p << "run op=" << base[b][0] << " order=partitioned partitions=" << parts << " block=32KiB"
              << common << span << " label=partitioning-" << codes[b] << "\n";
    p << "# 5 order: Incr -1 (reverse), 0 (in place), 2^0 .. 2^8 (sequential patterns)\n";
    for (int b : {0, 2}) {
        p << "run op=" << base[b][0] << " order=reverse block=32KiB" << common << span << " label=order-"
          << codes[b] << "\n";
        p << "run op=" << base[b][0] << " order=inplace block=32KiB" << common << span << " label=order-"
          << codes[b] << "\n";
        for (int incr = 1; incr <= 256; incr *= 2)
            p << "run op=" << base[b][0] << " order=ordered incr=" << incr << " block=32KiB" << common << span
              << " label=order-" << codes[b] << "\n";
    }
    p << "# 6 parallelism: ParallelDegree 2^0 .. 2^4 (interleaved streams at queue depth 1)\n";
    for (int b = 0; b < 4; ++b)
        for (int d = 1; d <= 16; d *= 2)
            p << "run op=" << base[b][0] << " order=" << base[b][1] << " parallel=" << d << " block=32KiB"
              << common << span << " label=parallelism-" << codes[b] << "\n";
    p << "# 7 mix: SR/RR SR/SW SR/RW RR/SW RR/RW SW/RW, Ratio 2^0 .. 2^6\n";
    int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (auto& pr : pairs)
        for (int r = 1; r <= 64; r *= 2)
            p << "run op=" << base[pr[0]][0] << " order=" << base[pr[0]][1] << " mix=" << codes[pr[1]]
              << " ratio=" << r << " block=32KiB" << common << span << " label=mix-" << codes[pr[0]] << "-"
              << codes[pr[1]] << "\n";
    p << "# 8 pause: Pause 2^0 .. 2^8 x 0.1 ms\n";
    for (int b = 0; b < 4; ++b)
        for (int k = 1; k <= 256; k *= 2)
            p << "run op=" << base[b][0] << " order=" << base[b][1]
              << " block=32KiB pause=" << detail::secs(k * 0.1) << "ms" << common << span << " label=pause-"
              << codes[b] << "\n";
    p << "# 9 bursts: Pause 100 ms after every Burst = 10 x 2^0 .. 2^6 IOs\n";
    for (int b = 0; b < 4; ++b)
        for (int k = 1; k <= 64; k *= 2)
            p << "run op=" << base[b][0] << " order=" << base[b][1]
              << " block=32KiB pause=100ms burst=" << 10 * k << common << span << " label=bursts-" << codes[b]
              << "\n";
    return p.str();
}

//! seeds/002: read tests (`length` blocks at a stride, in order then shuffled) and
//! write-then-read tests; both reported as CDFs of the per-iteration completion time.
inline std::string stride_plan(const plan_options& o) {
    std::ostringstream p;
    std::uint64_t block = std::max<std::uint64_t>(512, o.alignment);
    p << "# stride: seeds/002 read and write-then-read tests, block " << format_size(block) << "\n";
    for (const char* verb : {"stride", "write_read"})
        for (std::uint64_t len : {1, 4, 16, 64})
            for (std::uint64_t st : {1, 8, 64, 512, 4096}) {
                if (o.span && (len - 1) * st * block + block > o.span) {
                    p << "# " << verb << " length=" << len << " stride=" << st
                      << " blocks left out: larger than the span\n";
                    continue;
                }
                p << verb << " block=" << format_size(block) << " length=" << len
                  << " stride=" << format_size(st * block) << " repeat=32" << detail::span_key(o)
                  << " label=" << verb << "-len" << len << "-stride" << st << "\n";
            }
    return p.str();
}

//! Enough to recommend Br and Bw in about a minute on a real SSD: one fill, then SR / RR / SW /
//! RW / RW at 4 KiB-granular offsets from 4 KiB doubling to 16 MiB (and on while self-scaling),
//! one repeat of `time_s` each.
inline std::string quick_plan(const plan_options& o) {
    std::ostringstream p;
    std::string g = format_size(std::max<std::uint64_t>(4 * KiB, o.alignment));
    p << "# quick: Br and Bw in about a minute\n";
    p << "fill block=1MiB" << detail::span_key(o) << "\n";
    p << "sweep patterns=SR,RR,SW,RW,RW@" << g << " from=" << g
      << " to=16MiB max=128MiB selfscale=yes repeat=" << o.repeats << detail::limits(o) << detail::span_key(o)
      << " label=quick-sweep\n";
    return p.str();
}

//! The text of a built-in plan; config_error for an unknown name.
inline std::string plan_text(const std::string& name, const plan_options& o) {
    if (name == "ajwani") return ajwani_plan(o);
    if (name == "uflip") return uflip_plan(o);
    if (name == "stride") return stride_plan(o);
    if (name == "quick") return quick_plan(o);
    throw config_error("unknown plan '" + name + "' (expected ajwani, uflip, stride or quick)");
}

} // namespace flashxxl::characterize
