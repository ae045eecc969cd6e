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
    config_error(const std::string& file, std::size_t line, const std::string& field,
                 const std::string& what)
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

//! A device (or the translation layer on it) has no room for the requested bytes.
class out_of_space : public error {
public:
    out_of_space(const std::string& device, std::uint64_t requested, std::uint64_t free_bytes,
                 std::uint64_t capacity)
        : error("out of space on device '" + device + "': requested " + std::to_string(requested) +
                " bytes, " + std::to_string(free_bytes) + " of " + std::to_string(capacity) +
                " bytes free"),
          device_(device) {}
    out_of_space(const std::string& device, const std::string& what)
        : error("out of space on device '" + device + "': " + what), device_(device) {}
    const std::string& device() const { return device_; }

private:
    std::string device_;
};

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
