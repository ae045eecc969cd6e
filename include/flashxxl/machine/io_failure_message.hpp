// The message of an I/O failure under a device: which device and file, what was done, why, and what to do.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/units.hpp"

namespace flashxxl {

//! What a failed request was doing, for io_failure_message.
struct failed_request {
    std::string device;  //!< device name
    std::string origin;  //!< config line ("cfg:3", "preset hybrid-2009") or empty
    std::string backing; //!< backing file path, or "memory"
    bool write = false;
    std::uint64_t offset = 0, bytes = 0;
    std::string role; //!< the role the request served (scratch, hot, ...)
};

//! The operating system's reason at the end of an STXXL io_error text ("Error in ... : No space
//! left on device: iostream error" -> "No space left on device"); the whole text when it has
//! no such part. What a layer above STXXL wrote before STXXL's "Error in ..." is kept
//! ("device 'ssd' (translation layer): reading ... (cleaning segment 3) failed: Error in ... :
//! Input/output error" -> "device 'ssd' (translation layer): reading ... failed: Input/output error").
std::string io_error_reason(std::string text);

//! What to do about a reason (ENOSPC, EROFS, EIO, EFBIG, EDQUOT), or a general hint.
std::string io_failure_hint(const std::string& reason, const std::string& backing);

//! "device 'hdd' (cfg:3), backing file '/x/hdd.img': writing 16 MiB at byte offset 0 for role
//! scratch failed: No space left on device; the file system holding ... is full: ...". A reason
//! from a layer inside the device keeps its explanation without repeating the device name:
//! "... failed: translation layer: reading 65536 bytes at physical offset ... failed: Input/output error;
//! ...".
std::string io_failure_message(const failed_request& r, const std::string& stxxl_text);

} // namespace flashxxl
