// The per-IO log, streamed: a hook that sees every request of a run as it completes, and the CSV writer on
// it.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "flashxxl/characterize/csv_report.hpp"
#include "flashxxl/characterize/results.hpp"
#include "flashxxl/device/device_class.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! Sees every request of every run (`run` and `sweep` steps) as it completes, in issue order:
//! what needs the full series gets it here, as it is produced, instead of from memory
//! (runner_options::observer).
class request_observer {
public:
    virtual ~request_observer() = default;
    //! Request `index` (0-based within the run) of `run`, whose identifying fields (label,
    //! repeat, code, pattern) are set and whose statistics are not yet: `op` at target offset
    //! `offset`, answered in `seconds`.
    virtual void on_request(const run_record& run, std::uint64_t index, io_op op, std::uint64_t offset,
                            double seconds) = 0;
};

//! The header line of the per-IO log; an existing file that starts with it counts as ours (safe_output).
inline constexpr const char* io_log_header =
    "experiment,repeat,pattern,block_bytes,index,op,offset_bytes,response_s,file_offset_bytes\n";

//! Writes the per-IO log as the requests complete: the header at construction, then one row per
//! request (`--io-log`). offset_bytes is relative to the target, file_offset_bytes is where the
//! request went in the file or block device (offset_bytes + `base_offset`), e.g. to compare with
//! fio. Nothing is held per request: memory is the stream's buffer. A stream that fails (disk
//! full) throws io_failure naming `what` at the next request, so the run stops early.
class io_log_writer : public request_observer {
public:
    io_log_writer(std::ostream& out, std::uint64_t base_offset, std::string what = "--io-log")
        : out_(out), base_(base_offset), what_(std::move(what)) {
        out_ << io_log_header;
        out_.precision(9);
    }

    void on_request(const run_record& run, std::uint64_t index, io_op op, std::uint64_t offset,
                    double seconds) override {
        if (!out_)
            throw io_failure(what_ + ": writing the per-IO log failed after " + std::to_string(rows_) +
                             " rows (disk full?)");
        out_ << detail::csv_field(run.label) << ',' << run.repeat << ',' << detail::csv_field(run.code) << ','
             << run.pattern.block << ',' << index << ',' << to_string(op) << ',' << offset << ',' << seconds
             << ',' << base_ + offset << '\n';
        ++rows_;
    }
    //! Rows written after the header.
    std::uint64_t rows() const { return rows_; }

private:
    std::ostream& out_;
    std::uint64_t base_;
    std::string what_;
    std::uint64_t rows_ = 0;
};

} // namespace flashxxl::characterize
