// A move-only owner of a C stdio stream whose failures throw io_failure naming the file.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include <sys/types.h>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! Owns one `std::FILE*`. Every failing operation throws `io_failure` with the path and the
//! system's reason. Used by the edge-list readers and writers (buffered, sequential access).
class stdio_file {
public:
    stdio_file() = default;
    //! Opens `path` with fopen mode `mode` ("rb", "wb", "r+b").
    stdio_file(std::string path, const char* mode) : path_(std::move(path)) {
        file_ = std::fopen(path_.c_str(), mode);
        if (!file_)
            throw io_failure("cannot open '" + path_ + "' (" + (mode[0] == 'r' ? "read" : "write") +
                             "): " + std::strerror(errno));
    }
    stdio_file(const stdio_file&) = delete;
    stdio_file& operator=(const stdio_file&) = delete;
    stdio_file(stdio_file&& other) noexcept
        : path_(std::move(other.path_)), file_(std::exchange(other.file_, nullptr)) {}
    stdio_file& operator=(stdio_file&& other) noexcept {
        if (this != &other) {
            discard();
            path_ = std::move(other.path_);
            file_ = std::exchange(other.file_, nullptr);
        }
        return *this;
    }
    ~stdio_file() { discard(); }

    //! The path given at open.
    const std::string& path() const { return path_; }
    //! True while a stream is open.
    bool is_open() const { return file_ != nullptr; }

    //! Reads up to `bytes`; returns how many were read (fewer only at end of file).
    std::size_t read_some(void* data, std::size_t bytes) {
        std::size_t got = std::fread(data, 1, bytes, file_);
        if (got < bytes && std::ferror(file_))
            throw io_failure("cannot read '" + path_ + "': " + std::strerror(errno));
        return got;
    }

    //! Writes exactly `bytes`.
    void write(const void* data, std::size_t bytes) {
        if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes)
            throw io_failure("cannot write '" + path_ + "': " + std::strerror(errno));
    }

    //! Moves to absolute byte `offset`.
    void seek(std::uint64_t offset) {
        if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0)
            throw io_failure("cannot seek in '" + path_ + "' to byte " + std::to_string(offset) + ": " +
                             std::strerror(errno));
    }

    //! Flushes and closes; throws if the data could not be written.
    void close() {
        if (!file_) return;
        std::FILE* f = std::exchange(file_, nullptr);
        if (std::fclose(f) != 0) throw io_failure("cannot close '" + path_ + "': " + std::strerror(errno));
    }

private:
    void discard() noexcept {
        if (file_) std::fclose(std::exchange(file_, nullptr));
    }

    std::string path_;
    std::FILE* file_ = nullptr;
};

} // namespace flashxxl
