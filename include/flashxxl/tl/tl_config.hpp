// Parameters of a translation layer (page Br, segment Bw, spare, cleaning policy) and their checks.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! How the cleaner picks the segment to reclaim when free segments run low.
enum class cleaning_policy {
    //! The sealed segment with the fewest valid pages: cheapest copy now. Near-optimal for
    //! uniform random overwrites and for bulk discards (a freed sorted run empties whole
    //! segments, which greedy reclaims at zero cost). The default.
    greedy,
    //! LFS's cost-benefit rule (Rosenblum & Ousterhout 1992): maximise (1 - u) * age / (1 + u),
    //! u = valid fraction, age = host pages written since the segment was sealed. Lets cold,
    //! mostly-valid segments be cleaned once, instead of re-copying hot ones; better under skew.
    cost_benefit
};

inline const char* to_string(cleaning_policy p) {
    return p == cleaning_policy::greedy ? "greedy" : "cost_benefit";
}

//! "greedy" or "cost_benefit" (also "cost-benefit"); throws config_error otherwise.
inline cleaning_policy parse_cleaning_policy(const std::string& s) {
    if (s == "greedy") return cleaning_policy::greedy;
    if (s == "cost_benefit" || s == "cost-benefit") return cleaning_policy::cost_benefit;
    throw config_error("unknown cleaning policy '" + s + "' (expected greedy or cost_benefit)");
}

//! Configuration of one translation layer (machine config keys tl_page, tl_segment, tl_spare,
//! tl_cleaning, tl_low_watermark). Sizes in bytes.
struct tl_config {
    //! Br: the logical page, the unit of every read and write through the layer.
    std::uint64_t page_bytes = 128 * KiB;
    //! Bw: the physical segment, written to the device in one request at a Bw-aligned offset.
    std::uint64_t segment_bytes = 16 * MiB;
    //! Physical space kept out of the logical capacity so the cleaner always finds garbage.
    //! 0 = automatic: max((low_watermark_segments + 1) * Bw, physical / 8 rounded up to Bw).
    std::uint64_t spare_bytes = 0;
    //! Victim selection; see cleaning_policy.
    cleaning_policy policy = cleaning_policy::greedy;
    //! Cleaning starts when fewer than this many segments are free (at least 2: one for the
    //! copies of the segment being cleaned, one kept in reserve).
    std::uint64_t low_watermark_segments = 2;

    //! Physical bytes the layer uses on a lower device of `lower_capacity` bytes: whole segments.
    std::uint64_t physical_bytes(std::uint64_t lower_capacity) const {
        return segment_bytes ? lower_capacity / segment_bytes * segment_bytes : 0;
    }

    //! The spare actually used (resolves spare_bytes = 0).
    std::uint64_t resolved_spare(std::uint64_t lower_capacity) const {
        if (spare_bytes) return spare_bytes;
        std::uint64_t phys = physical_bytes(lower_capacity);
        std::uint64_t eighth =
            segment_bytes ? (phys / 8 + segment_bytes - 1) / segment_bytes * segment_bytes : 0;
        std::uint64_t minimum = (low_watermark_segments + 1) * segment_bytes;
        return eighth > minimum ? eighth : minimum;
    }

    //! Logical capacity: physical bytes minus the spare, rounded down to whole pages.
    std::uint64_t logical_bytes(std::uint64_t lower_capacity) const {
        std::uint64_t phys = physical_bytes(lower_capacity), spare = resolved_spare(lower_capacity);
        if (spare >= phys || page_bytes == 0) return 0;
        return (phys - spare) / page_bytes * page_bytes;
    }

    //! Throws config_error naming `device` and the offending key unless the configuration can
    //! run on a lower device of `lower_capacity` bytes.
    void validate(std::uint64_t lower_capacity, const std::string& device) const {
        const std::string where = "translation layer on device '" + device + "': ";
        if (page_bytes == 0 || page_bytes % (4 * KiB) != 0)
            throw config_error(where + "tl_page = " + std::to_string(page_bytes) +
                               " bytes is not a positive multiple of 4 KiB (O_DIRECT)");
        if (segment_bytes == 0 || segment_bytes % (4 * KiB) != 0)
            throw config_error(where + "tl_segment = " + std::to_string(segment_bytes) +
                               " bytes is not a positive multiple of 4 KiB (O_DIRECT)");
        if (segment_bytes % page_bytes != 0)
            throw config_error(where + "tl_segment (" + format_size(segment_bytes) +
                               ") is not a multiple of tl_page (" + format_size(page_bytes) + ")");
        if (low_watermark_segments < 2)
            throw config_error(
                where + "tl_low_watermark = " + std::to_string(low_watermark_segments) +
                " segments; at least 2 are needed (one for the cleaner's copies, one in reserve)");
        if (spare_bytes % page_bytes != 0)
            throw config_error(where + "tl_spare = " + std::to_string(spare_bytes) +
                               " bytes is not a multiple of tl_page (" + format_size(page_bytes) + ")");
        const std::uint64_t phys = physical_bytes(lower_capacity);
        // Need the spare plus at least one segment of logical space; counted in segments, so
        // that neither this test nor the products below can wrap.
        const std::uint64_t segments = phys / segment_bytes;
        if (low_watermark_segments > segments || segments - low_watermark_segments < 2)
            throw config_error(where + "device too small: " + format_bytes(double(lower_capacity)) +
                               " holds " + std::to_string(segments) + " segments of " +
                               format_size(segment_bytes) + ", at least tl_low_watermark + 2 = " +
                               (low_watermark_segments > segments
                                    ? std::to_string(low_watermark_segments) + " + 2"
                                    : std::to_string(low_watermark_segments + 2)) +
                               " are needed (spare for cleaning plus one of data)");
        const std::uint64_t min_spare = (low_watermark_segments + 1) * segment_bytes;
        if (phys / page_bytes >= 0xffffffffull)
            throw config_error(
                where + "device too large for 32-bit page numbers: " + std::to_string(phys / page_bytes) +
                " pages of " + format_size(page_bytes) + "; use a larger tl_page");
        const std::uint64_t spare = resolved_spare(lower_capacity);
        if (spare < min_spare)
            throw config_error(where + "tl_spare = " + format_size(spare) +
                               " is too small to clean: at least (tl_low_watermark + 1) * tl_segment = " +
                               format_size(min_spare) + " is needed");
        if (spare > phys - segment_bytes)
            throw config_error(where + "tl_spare = " + format_size(spare) + " is too large: the device has " +
                               format_size(phys) +
                               " in whole segments, leaving less than one segment of "
                               "logical capacity");
    }
};

} // namespace flashxxl
