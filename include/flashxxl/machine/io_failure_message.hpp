// The message of an I/O failure under a device: which device and file, what was done, why, and what to do.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/units.hpp"

namespace flashxxl {

//! What a failed request was doing, for io_failure_message.
struct failed_request {
    std::string device;   //!< device name
    std::string origin;   //!< config line ("cfg:3", "preset hybrid-2009") or empty
    std::string backing;  //!< backing file path, or "memory"
    bool write = false;
    std::uint64_t offset = 0, bytes = 0;
    std::string role;     //!< the role the request served (scratch, hot, ...)
};

//! The operating system's reason at the end of an STXXL io_error text ("Error in ... : No space
//! left on device: iostream error" -> "No space left on device"); the whole text when it has
//! no such part.
inline std::string io_error_reason(std::string text) {
    // std::ios_base::failure appends the category's text (": iostream error"), sometimes more after it.
    if (auto tail = text.find(": iostream error"); tail != std::string::npos) text.resize(tail);
    auto cut = text.rfind(" : ");
    return cut == std::string::npos ? text : text.substr(cut + 3);
}

//! What to do about a reason (ENOSPC, EROFS, EIO, EFBIG, EDQUOT), or a general hint.
inline std::string io_failure_hint(const std::string& reason, const std::string& backing) {
    if (reason.find("No space left on device") != std::string::npos)
        return "the file system holding '" + backing +
               "' is full: free space there, give the device a smaller size, or put the backing file on a file "
               "system with room (--backing-dir)";
    if (reason.find("Read-only file system") != std::string::npos)
        return "the file system holding '" + backing + "' is read-only: put the backing file on a writable one";
    if (reason.find("Input/output error") != std::string::npos)
        return "the storage under '" + backing +
               "' reported an I/O error: check the disk (dmesg, smartctl) and use another one";
    if (reason.find("File too large") != std::string::npos)
        return "a file size limit was reached (ulimit -f, or the file system's largest file): raise it or give the "
               "device a smaller size";
    if (reason.find("Disk quota exceeded") != std::string::npos)
        return "the disk quota of this user is exhausted: free space or raise the quota";
    return "check the backing file '" + backing + "' and the file system under it";
}

//! "device 'hdd' (cfg:3), backing file '/x/hdd.img': writing 16 MiB at byte offset 0 for role
//! scratch failed: No space left on device; the file system holding ... is full: ..."
inline std::string io_failure_message(const failed_request& r, const std::string& stxxl_text) {
    std::string reason = io_error_reason(stxxl_text);
    return "device '" + r.device + "'" + (r.origin.empty() ? "" : " (" + r.origin + ")") + ", backing file '" +
           r.backing + "': " + (r.write ? "writing " : "reading ") + format_bytes(double(r.bytes)) +
           " at byte offset " + std::to_string(r.offset) + (r.role.empty() ? "" : " for role " + r.role) +
           " failed: " + reason + "; " + io_failure_hint(reason, r.backing);
}

} // namespace flashxxl
