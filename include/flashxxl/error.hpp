// The exceptions flashxxl throws for environment failures: each names the file, line or device.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace flashxxl {

//! Base of every exception flashxxl throws on purpose.
class error : public std::runtime_error {
public:
    explicit error(const std::string& what) : std::runtime_error(what) {}
};

//! A malformed machine config, experiment file or parameter; the message names where.
class config_error : public error {
public:
    explicit config_error(const std::string& what) : error(what) {}
    //! "FILE:LINE: field 'FIELD': WHAT"
    config_error(const std::string& file, std::size_t line, const std::string& field, const std::string& what)
        : error(file + ":" + std::to_string(line) + ": " +
                (field.empty() ? std::string() : "field '" + field + "': ") + what),
          file_(file), line_(line), field_(field) {}
    const std::string& file() const { return file_; }
    std::size_t line() const { return line_; }
    const std::string& field() const { return field_; }

private:
    std::string file_;
    std::size_t line_ = 0;
    std::string field_;
};

//! A malformed input file (edge list, ...): names the file and the line or byte offset.
class input_error : public error {
public:
    explicit input_error(const std::string& what) : error(what) {}
};

//! A device (or the translation layer on it) has no room for the requested bytes. The message
//! names the device, and once known the role of the block and the structure that asked for it:
//! "out of space on device 'ssd' (role stream, structure flashxxl::vector<uint64_t>): requested
//! 16 MiB, 0 bytes of 8 MiB free". The allocation adds the role (machine::allocate), each
//! container or algorithm on the way up its structure (with_structure, rethrow_out_of_space_in).
class out_of_space : public error {
public:
    //! "out of space on device 'DEVICE': requested N, F of C free" (sizes exact: "16 MiB", "4097 bytes").
    out_of_space(const std::string& device, std::uint64_t requested, std::uint64_t free_bytes,
                 std::uint64_t capacity)
        : out_of_space(device, std::string(), std::string(),
                       "requested " + exact_size(requested) + ", " + exact_size(free_bytes) + " of " +
                           exact_size(capacity) + " free") {
        requested_ = requested;
        free_bytes_ = free_bytes;
        capacity_ = capacity;
    }
    //! "out of space on device 'DEVICE': WHAT".
    out_of_space(const std::string& device, const std::string& what)
        : out_of_space(device, std::string(), std::string(), what) {}
    //! The device the block did not fit on.
    const std::string& device() const { return device_; }
    //! The role of the block ("" when not known).
    const std::string& role() const { return role_; }
    //! The structure that asked for it, innermost first ("flashxxl::vector<T> in flashxxl::sort";
    //! "" when not known).
    const std::string& structure() const { return structure_; }
    //! Bytes requested, free and the device's capacity (all 0 when the message says it in words).
    std::uint64_t requested() const { return requested_; }
    std::uint64_t free_bytes() const { return free_bytes_; }
    std::uint64_t capacity() const { return capacity_; }
    //! What did not fit, without the device, role and structure.
    const std::string& detail() const { return detail_; }

    //! The same failure with the role of the block named (kept if one is already named).
    out_of_space with_role(const std::string& role) const {
        return copy_with(role_.empty() ? role : role_, structure_);
    }
    //! The same failure seen from `structure`, which holds the one named so far ("A in B"); a
    //! structure already named last is not repeated.
    out_of_space with_structure(const std::string& structure) const {
        if (structure_.empty()) return copy_with(role_, structure);
        const std::string tail = " in " + structure;
        const bool named = structure_ == structure ||
                           (structure_.size() > tail.size() &&
                            structure_.compare(structure_.size() - tail.size(), tail.size(), tail) == 0);
        return copy_with(role_, named ? structure_ : structure_ + tail);
    }

    //! "16 MiB", "3 KiB", "1 GiB" when `bytes` is a whole number of such units, else "N bytes":
    //! readable and exact.
    static std::string exact_size(std::uint64_t bytes) {
        static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        if (bytes == 0 || bytes % 1024 != 0) return std::to_string(bytes) + " bytes";
        std::size_t u = 0;
        bytes /= 1024;
        while (bytes % 1024 == 0 && u + 1 < sizeof units / sizeof *units) {
            bytes /= 1024;
            ++u;
        }
        return std::to_string(bytes) + " " + units[u];
    }

private:
    out_of_space(const std::string& device, const std::string& role, const std::string& structure,
                 const std::string& detail)
        : error(compose(device, role, structure, detail)), device_(device), role_(role),
          structure_(structure), detail_(detail) {}
    out_of_space copy_with(const std::string& role, const std::string& structure) const {
        out_of_space e(device_, role, structure, detail_);
        e.requested_ = requested_;
        e.free_bytes_ = free_bytes_;
        e.capacity_ = capacity_;
        return e;
    }
    static std::string compose(const std::string& device, const std::string& role,
                               const std::string& structure, const std::string& detail) {
        std::string context;
        if (!role.empty()) context = "role " + role;
        if (!structure.empty())
            context += std::string(context.empty() ? "" : ", ") + "structure " + structure;
        return "out of space on device '" + device + "'" + (context.empty() ? "" : " (" + context + ")") +
               ": " + detail;
    }

    std::string device_;
    std::string role_;
    std::string structure_;
    std::string detail_;
    std::uint64_t requested_ = 0;
    std::uint64_t free_bytes_ = 0;
    std::uint64_t capacity_ = 0;
};

//! Runs f() and returns what it returns; an out_of_space from it is rethrown naming `structure`
//! as well (out_of_space::with_structure). The one helper containers and algorithms use to say
//! which of them ran out of space.
template <class F> decltype(auto) rethrow_out_of_space_in(const char* structure, F&& f) {
    try {
        return f();
    } catch (const out_of_space& e) {
        throw e.with_structure(structure);
    }
}

//! A request that breaks the rules of a device: unaligned, out of range, reading unwritten data.
class invalid_request : public error {
public:
    explicit invalid_request(const std::string& what) : error(what) {}
};

//! The operating system reported an I/O failure, or a target is not ours to write.
class io_failure : public error {
public:
    explicit io_failure(const std::string& what) : error(what) {}
};

//! An output path flashxxl will not write (a device, FIFO, link, or a file it did not write):
//! the user must choose another path, so the CLI reports it as a usage error.
class refused_output : public io_failure {
public:
    explicit refused_output(const std::string& what) : io_failure(what) {}
};

} // namespace flashxxl
