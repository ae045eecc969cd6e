// The message of an I/O failure on a device (core library): what failed, why, and what to do.
#include "flashxxl/machine/io_failure_message.hpp"

#include <cctype>

namespace flashxxl {

std::string io_error_reason(std::string text) {
    // std::ios_base::failure appends the category's text (": iostream error"), sometimes more after it.
    if (auto tail = text.find(": iostream error"); tail != std::string::npos) text.resize(tail);
    auto cut = text.rfind(" : ");
    if (cut == std::string::npos) return text;
    // STXXL's part, "Error in <function> : <call details> : <reason>", gives only its reason; what
    // a layer above put before it (the translation layer's lower operation and offset) stays.
    auto stxxl_part = text.rfind("Error in ", cut);
    return (stxxl_part == std::string::npos ? std::string() : text.substr(0, stxxl_part)) +
           text.substr(cut + 3);
}

std::string io_failure_hint(const std::string& reason, const std::string& backing) {
    if (reason.find("No space left on device") != std::string::npos)
        return "the file system holding '" + backing +
               "' is full: free space there, give the device a smaller size, or put the backing file on a "
               "file "
               "system with room (--backing-dir)";
    if (reason.find("Read-only file system") != std::string::npos)
        return "the file system holding '" + backing +
               "' is read-only: put the backing file on a writable one";
    if (reason.find("Input/output error") != std::string::npos)
        return "the storage under '" + backing +
               "' reported an I/O error: check the disk (dmesg, smartctl) and use another one";
    if (reason.find("File too large") != std::string::npos)
        return "a file size limit was reached (ulimit -f, or the file system's largest file): raise it or "
               "give the "
               "device a smaller size";
    if (reason.find("Disk quota exceeded") != std::string::npos)
        return "the disk quota of this user is exhausted: free space or raise the quota";
    return "check the backing file '" + backing + "' and the file system under it";
}

std::string io_failure_message(const failed_request& r, const std::string& stxxl_text) {
    std::string reason = io_error_reason(stxxl_text);
    // A layer inside the device names the device again ("device 'ssd' (translation layer): ...");
    // the message has named it already: keep "translation layer: ...".
    const std::string self = "device '" + r.device + "' (";
    if (reason.compare(0, self.size(), self) == 0)
        if (auto close = reason.find("): ", self.size()); close != std::string::npos)
            reason = reason.substr(self.size(), close - self.size()) + reason.substr(close + 1);
    // A memory-backed device has no file to check: its reasons (over the machine's memory
    // budget, beyond capacity) say what to do themselves.
    const bool in_memory = r.backing == "memory";
    return "device '" + r.device + "'" + (r.origin.empty() ? "" : " (" + r.origin + ")") +
           (in_memory ? ", backed by memory" : ", backing file '" + r.backing + "'") + ": " +
           (r.write ? "writing " : "reading ") + format_bytes(double(r.bytes)) + " at byte offset " +
           std::to_string(r.offset) + (r.role.empty() ? "" : " for role " + r.role) + " failed: " + reason +
           (in_memory ? "" : "; " + io_failure_hint(reason, r.backing));
}

} // namespace flashxxl
