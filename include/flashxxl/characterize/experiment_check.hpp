// Checks parsed experiments against a target's range and alignment before any I/O is issued.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! The largest `count` (requests per repeat) of a run or sweep point; --count takes the same.
inline constexpr std::uint64_t max_count = 1000000000;

namespace detail {

inline void check_multiple(const experiment_step& s, const char* key, std::uint64_t v, std::uint64_t align,
                           bool allow_zero) {
    if (v == 0 && !allow_zero) throw config_error(s.origin, s.line, key, "must be positive");
    if (v % align != 0)
        throw config_error(s.origin, s.line, key,
                           std::to_string(v) + " bytes is not a multiple of the target's alignment (" +
                               std::to_string(align) + " bytes)");
}

inline void resolve_span(const experiment_step& s, io_pattern& p, std::uint64_t capacity,
                         std::uint64_t align) {
    check_multiple(s, "offset", p.offset, align, true);
    if (p.offset >= capacity)
        throw config_error(s.origin, s.line, "offset",
                           "offset " + std::to_string(p.offset) + " is beyond the target (" +
                               std::to_string(capacity) + " bytes)");
    if (p.span == 0) p.span = (capacity - p.offset) / align * align;
    check_multiple(s, "span", p.span, align, false);
    if (p.span > capacity - p.offset)
        throw config_error(s.origin, s.line, "span",
                           "offset + span = " + std::to_string(p.offset) + " + " + std::to_string(p.span) +
                               " exceeds the target's " + std::to_string(capacity) + " bytes");
}

inline void check_pattern(const experiment_step& s, const io_pattern& p, std::uint64_t align) {
    check_multiple(s, "block", p.block, align, false);
    check_multiple(s, "shift", p.shift, align, true);
    check_multiple(s, "granularity", p.granularity, align, true);
    if (p.parallel == 0 || p.parallel > 1024)
        throw config_error(s.origin, s.line, "parallel", "expected 1 .. 1024");
    if (p.partitions == 0 || p.partitions > (1u << 20))
        throw config_error(s.origin, s.line, "partitions", "expected 1 .. 1048576");
    if (p.incr > (std::int64_t(1) << 30) || p.incr < -(std::int64_t(1) << 30))
        throw config_error(s.origin, s.line, "incr", "expected |incr| <= 2^30");
    std::uint64_t sub = p.span / p.parallel / align * align;
    if (sub < p.shift || sub - p.shift < p.block)
        throw config_error(s.origin, s.line, "block",
                           "block " + std::to_string(p.block) + " + shift " + std::to_string(p.shift) +
                               " does not fit the span per stream (" + std::to_string(sub) + " bytes)");
    if (p.order == address_order::partitioned && (sub - p.shift) / p.partitions / p.block == 0)
        throw config_error(s.origin, s.line, "partitions",
                           std::to_string(p.partitions) +
                               " partitions of at least one block do not fit the span");
}

} // namespace detail

//! Resolves `span=all` to the target's size and checks every size, offset and count of every
//! step against the target's capacity and alignment. Throws config_error naming origin:line and
//! the key, so a plan is rejected as a whole before its first I/O.
inline void check_experiments(std::vector<experiment_step>& steps, std::uint64_t capacity,
                              std::uint64_t alignment) {
    using detail::check_multiple;
    for (auto& s : steps) {
        switch (s.kind) {
        case step_kind::pause:
            break;
        case step_kind::fill:
            detail::resolve_span(s, s.pattern, capacity, alignment);
            check_multiple(s, "block", s.pattern.block, alignment, false);
            break;
        case step_kind::random_state:
            detail::resolve_span(s, s.pattern, capacity, alignment);
            check_multiple(s, "min", s.state_min, alignment, false);
            check_multiple(s, "max", s.state_max, alignment, false);
            if (s.state_max > s.pattern.span)
                throw config_error(s.origin, s.line, "max", "larger than the span");
            check_multiple(s, "bytes", s.state_bytes, alignment, true);
            break;
        case step_kind::run:
            detail::resolve_span(s, s.pattern, capacity, alignment);
            detail::check_pattern(s, s.pattern, alignment);
            if (s.has_mix) {
                s.mix.offset = s.pattern.offset;
                s.mix.span = s.pattern.span;
                detail::check_pattern(s, s.mix, alignment);
            }
            if (s.count > max_count) throw config_error(s.origin, s.line, "count", "expected at most 1e9");
            if (s.burst_size && s.pause_s == 0)
                throw config_error(s.origin, s.line, "burst", "burst=N needs pause=SECONDS");
            break;
        case step_kind::sweep:
            detail::resolve_span(s, s.pattern, capacity, alignment);
            check_multiple(s, "from", s.from, alignment, false);
            check_multiple(s, "fill", s.fill_block, alignment, true);
            for (const auto& p : s.sweep_patterns)
                check_multiple(s, "patterns", p.granularity, alignment, true);
            if (s.from > s.pattern.span)
                throw config_error(s.origin, s.line, "from", "the first block size is larger than the span");
            if (s.count > max_count) throw config_error(s.origin, s.line, "count", "expected at most 1e9");
            break;
        case step_kind::burst:
            detail::resolve_span(s, s.pattern, capacity, alignment);
            check_multiple(s, "seq_block", s.pattern.block, alignment, false);
            check_multiple(s, "burst_block", s.burst_block, alignment, true);
            check_multiple(s, "fill", s.fill_block, alignment, true);
            if (s.pattern.block > s.pattern.span || s.burst_block > s.pattern.span)
                throw config_error(s.origin, s.line, "seq_block", "block larger than the span");
            break;
        case step_kind::stride:
        case step_kind::write_read: {
            detail::resolve_span(s, s.pattern, capacity, alignment);
            check_multiple(s, "block", s.pattern.block, alignment, false);
            check_multiple(s, "stride", s.stride, alignment, false);
            if (s.stride < s.pattern.block)
                throw config_error(s.origin, s.line, "stride", "stride must be at least the block size");
            std::uint64_t room = s.pattern.span - s.pattern.block;
            if (s.pattern.block > s.pattern.span || (s.length - 1) > room / s.stride)
                throw config_error(s.origin, s.line, "length",
                                   std::to_string(s.length) + " blocks at stride " +
                                       std::to_string(s.stride) + " do not fit the span of " +
                                       std::to_string(s.pattern.span) + " bytes");
            break;
        }
        }
    }
}

} // namespace flashxxl::characterize
