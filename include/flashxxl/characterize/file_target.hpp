// A characterization target in a regular file the tool created and marked as its own (O_DIRECT).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <thread>

#include "flashxxl/characterize/pattern_buffer.hpp"
#include "flashxxl/characterize/posix_io.hpp"
#include "flashxxl/characterize/target.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/file_lock.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! A file target. Ownership marker: the first 4 KiB of the file are a header block that starts
//! with `FLASHXXL-CHARACTERIZE-TARGET v1` and records the size and the data offset. The
//! experiments use `size` bytes from the data offset on, which is 1 MiB (data_alignment), so
//! every request of up to 1 MiB at a block-aligned target offset is block-aligned in the file
//! too, as in a 1 MiB-aligned partition (and on the device when the file system allocates
//! aligned extents, as ext4 did in docs/characterize.md); header and data have a hole between
//! them. Files made before the data offset was recorded keep their layout (data right after the
//! header). The guard keeps every request inside the data region. An existing file without the
//! header was not created by the tool and is never opened for writing. The file is opened with
//! O_DIRECT (kernel cache off, seeds/000 App. A, seeds/002, seeds/003 Section 4.3); file systems
//! that reject O_DIRECT, tmpfs and ramfs (memory, not a device) are refused with a message.
class file_target : public target {
public:
    static constexpr std::uint64_t header_bytes = 4096;
    //! Start of the data region of a new file: block sizes up to this are aligned in the file.
    static constexpr std::uint64_t data_alignment = 1 * MiB;
    static constexpr const char* magic = "FLASHXXL-CHARACTERIZE-TARGET v1\n";

    //! Opens `path`: creates it with `size` usable bytes if it does not exist, reopens it if it
    //! carries the marker (resizing to `size` when size != 0), refuses anything else.
    file_target(const std::string& path, std::uint64_t size) : path_(path) {
        if (size % header_bytes)
            throw config_error("target size " + std::to_string(size) + " of '" + path +
                               "' is not a multiple of 4 KiB");
        struct stat st {};
        bool exists = ::lstat(path.c_str(), &st) == 0;
        if (exists && !S_ISREG(st.st_mode))
            throw refused_output("'" + path +
                                 "' is not a regular file; characterize writes only files it creates "
                                 "(use --block-device with --allow-write for a block device)");
        if (!exists) {
            if (size == 0) throw config_error("'" + path + "' does not exist; give --size to create it");
            fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd_ < 0) throw io_failure("cannot create '" + path + "': " + std::strerror(errno));
            created_ = true;
            try {
                lock_exclusively();
                check_filesystem();
                data_offset_ = data_alignment;
                write_header(size);
                enable_direct();
                allocate(size);
            } catch (...) {
                ::close(fd_);
                fd_ = -1;
                ::unlink(path.c_str());
                throw;
            }
            size_ = size;
        } else {
            fd_ = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
            if (fd_ < 0) throw io_failure("cannot open '" + path + "': " + std::strerror(errno));
            try {
                lock_exclusively(); // before the header is read: another run may be resizing it
                std::uint64_t recorded = read_header();
                check_length(recorded);
                check_filesystem();
                enable_direct();
                if (size != 0 && size != recorded) {
                    // the space first: a failed allocation leaves the header's old size true
                    allocate(size);
                    write_header(size);
                    if (size < recorded && ::ftruncate(fd_, static_cast<off_t>(data_offset_ + size)) != 0)
                        throw io_failure("cannot shrink '" + path + "': " + std::strerror(errno));
                    recorded = size;
                }
                size_ = recorded;
            } catch (...) {
                ::close(fd_);
                fd_ = -1;
                throw;
            }
        }
        guard_.emplace(path_, size_, 4096);
    }
    file_target(const file_target&) = delete;
    file_target& operator=(const file_target&) = delete;
    ~file_target() override {
        if (remove_ && created_)
            ::unlink(path_.c_str()); // while the lock is held: no run opens it in between
        if (fd_ >= 0) ::close(fd_);
    }

    //! Remove the file when this object goes (only if it was created by this object).
    void remove_on_close(bool on) { remove_ = on; }
    //! True when this object created the file.
    bool created() const { return created_; }
    //! Byte position of target offset 0 in the file (data_alignment; header_bytes in old files).
    std::uint64_t data_offset() const { return data_offset_; }

    std::string name() const override { return path_; }
    std::string kind() const override { return "file"; }
    bool modelled() const override { return false; }
    std::uint64_t base_offset() const override { return data_offset_; }
    page_backing io_buffer() const override { return buf_.backing(); }
    void pause(double seconds) override {
        if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    }

private:
    //! Takes the file's exclusive lock (file_lock.hpp, an open-file lock) for the target's
    //! lifetime, so that neither another run (which would resize or remove the file under this
    //! one) nor a machine device with reuse=on (which would write it) shares the target. A file
    //! system without record locks (ENOLCK, EINVAL) runs unlocked.
    void lock_exclusively() {
        if (auto holder = lock_whole_file(fd_, lock_scope::open_file, path_))
            throw io_failure("'" + path_ + "' " + in_use_by(*holder) +
                             "; wait for it to end or choose another --file");
    }

protected:
    const io_guard& guard() const override { return *guard_; }
    double do_io(io_op op, std::uint64_t offset, std::uint64_t length) override {
        return timed_pio(fd_, path_, op, buf_.get(op, length), data_offset_ + offset, length);
    }
    std::optional<concurrent_reads_result> do_concurrent_reads(const std::vector<std::uint64_t>& offsets,
                                                               std::uint64_t length, unsigned depth,
                                                               double time_limit) override {
        return concurrent_preads(fd_, path_, data_offset_, offsets, length, depth, time_limit);
    }

private:
    void check_filesystem() {
        struct statfs fs {};
        if (::fstatfs(fd_, &fs) != 0)
            throw io_failure("cannot statfs '" + path_ + "': " + std::strerror(errno));
        const long tmpfs_magic = 0x01021994, ramfs_magic = static_cast<long>(0x858458f6);
        if (static_cast<long>(fs.f_type) == tmpfs_magic || static_cast<long>(fs.f_type) == ramfs_magic)
            throw io_failure("'" + path_ +
                             "' is on tmpfs/ramfs (memory, not a storage device); put the target "
                             "file on the device to characterize");
    }
    void enable_direct() {
        int flags = ::fcntl(fd_, F_GETFL);
        if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_DIRECT) != 0)
            throw io_failure("'" + path_ + "': the file system rejects O_DIRECT (" + std::strerror(errno) +
                             "); characterize needs uncached I/O, choose a file on another file system");
        // Some file systems accept the flag but fail the first direct request: probe with one.
        try {
            timed_pio(fd_, path_, io_op::read, probe_.get(header_bytes), 0, header_bytes);
        } catch (const io_failure& e) {
            throw io_failure("'" + path_ + "': a direct (O_DIRECT) read of the header failed (" + e.what() +
                             "); characterize needs uncached I/O, choose a file on another file system");
        }
    }
    void write_header(std::uint64_t size) {
        std::uint8_t* b = hdr_.get(header_bytes);
        std::memset(b, 0, header_bytes);
        std::string text = std::string(magic) + "size=" + std::to_string(size) +
                           "\ndata_offset=" + std::to_string(data_offset_) +
                           "\ncreated=" + std::to_string(static_cast<long long>(std::time(nullptr))) +
                           "\nThis file belongs to `flashxxl characterize`; its contents are test data.\n";
        std::memcpy(b, text.data(), text.size());
        timed_pio(fd_, path_, io_op::write, b, 0, header_bytes);
    }
    std::uint64_t read_header() {
        std::uint8_t* b = hdr_.get(header_bytes);
        std::memset(b, 0, header_bytes);
        ssize_t n = ::pread(fd_, b, header_bytes, 0);
        std::string m(magic);
        if (n < static_cast<ssize_t>(m.size()) || std::memcmp(b, m.data(), m.size()) != 0)
            throw refused_output("'" + path_ + "' exists but was not created by flashxxl characterize (no '" +
                                 m.substr(0, m.size() - 1) + "' header); refusing to write to it");
        std::string text(reinterpret_cast<const char*>(b), static_cast<std::size_t>(n));
        auto value = [&](const std::string& key) -> std::optional<std::uint64_t> {
            auto at = text.find("\n" + key + "=");
            if (at == std::string::npos) return std::nullopt;
            at += key.size() + 2;
            auto end = text.find('\n', at);
            if (end == std::string::npos)
                throw io_failure("'" + path_ + "': damaged characterize header (" + key + " not terminated)");
            return parse_size(text.substr(at, end - at));
        };
        auto size = value("size");
        if (!size) throw io_failure("'" + path_ + "': damaged characterize header (no size)");
        // headers written before the data offset was recorded: data right after the header
        data_offset_ = value("data_offset").value_or(header_bytes);
        if (data_offset_ < header_bytes || data_offset_ % header_bytes)
            throw io_failure("'" + path_ +
                             "': damaged characterize header (data_offset=" + std::to_string(data_offset_) +
                             ", expected a multiple of 4096 of at least 4096)");
        return *size;
    }
    //! Refuses a file shorter than its header's data region (truncated, or left by a failed
    //! resize of an older version): requests past its end would fail or grow it.
    void check_length(std::uint64_t recorded) {
        struct stat st {};
        if (::fstat(fd_, &st) != 0) throw io_failure("cannot stat '" + path_ + "': " + std::strerror(errno));
        const std::uint64_t have = static_cast<std::uint64_t>(st.st_size);
        if (recorded > have || data_offset_ > have - recorded)
            throw io_failure("'" + path_ + "' is " + std::to_string(have) +
                             " bytes, shorter than its header says (data_offset=" +
                             std::to_string(data_offset_) + " + size=" + std::to_string(recorded) +
                             " bytes): truncated or damaged; remove it and let characterize create it again");
    }
    //! Allocates the data region only; the gap between header and data stays a hole.
    void allocate(std::uint64_t size) {
        int rc = ::posix_fallocate(fd_, static_cast<off_t>(data_offset_), static_cast<off_t>(size));
        if (rc == ENOSPC)
            throw out_of_space(path_,
                               "cannot allocate " + format_bytes(double(size)) + " for the target file");
        if (rc != 0 && ::ftruncate(fd_, static_cast<off_t>(data_offset_ + size)) != 0)
            throw io_failure("cannot size '" + path_ + "': " + std::strerror(errno));
    }

    std::string path_;
    int fd_ = -1;
    bool created_ = false, remove_ = false;
    std::uint64_t size_ = 0;
    std::uint64_t data_offset_ = header_bytes;
    std::optional<io_guard> guard_;
    request_buffers buf_; // reads and writes apart: writes always carry the pattern
    pattern_buffer hdr_, probe_;
};

} // namespace flashxxl::characterize
