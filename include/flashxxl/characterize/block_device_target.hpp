// A characterization target on a whole block device, only with explicit consent and when unused.
#pragma once

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "flashxxl/characterize/pattern_buffer.hpp"
#include "flashxxl/characterize/device_safety.hpp"
#include "flashxxl/characterize/posix_io.hpp"
#include "flashxxl/characterize/target.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

//! A raw block device. Refused unless the path is a block device (config_error naming what it is
//! instead: missing, a regular file, a character device, a directory), `allow_write` equals
//! `path` exactly (--allow-write=DEVICE), neither it nor a partition of it is mounted (/proc/self/mounts),
//! sysfs lists no holders (LVM, md, dm), it opens with O_EXCL (the kernel refuses that while a
//! file system or another exclusive user holds it), and its first 72 KiB carry no file-system,
//! partition-table or volume signature. Everything is checked before the first write.
class block_device_target : public target {
public:
    block_device_target(const std::string& path, const std::string& allow_write, std::uint64_t limit = 0)
        : path_(path) {
        // What the path is comes first: consent to write a file that is no block device means nothing.
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0)
            throw config_error("--block-device '" + path + "': " + std::strerror(errno) +
                               "; expected a block device (e.g. /dev/sdb)");
        if (!S_ISBLK(st.st_mode))
            throw config_error(
                "--block-device '" + path + "' is " + file_kind(st.st_mode) +
                ", not a block device (expected e.g. /dev/sdb; measure a file with --file PATH)");
        if (allow_write != path)
            throw refused_output("refusing to write block device '" + path + "': pass --allow-write=" + path +
                                 " (exactly this path) to consent to destroying its contents");
        std::string dev = canonical_path(path);
        std::vector<std::string> family = partitions_of(dev);
        family.push_back(dev);
        family.push_back(path);
        if (auto m = mounted_among(family, read_mounts()))
            throw refused_output("refusing to write block device '" + path + "': " + *m + " is mounted");
        if (has_holders(dev))
            throw refused_output("refusing to write block device '" + path +
                                 "': it is held by another device "
                                 "(LVM, md or device mapper; see /sys/class/block/*/holders)");
        fd_ = ::open(path.c_str(), O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
        if (fd_ < 0)
            throw io_failure("refusing to write block device '" + path + "': exclusive open failed (" +
                             std::strerror(errno) + "); it is in use");
        try {
            std::uint64_t bytes = 0;
            if (::ioctl(fd_, BLKGETSIZE64, &bytes) != 0)
                throw io_failure("'" + path + "': cannot read the device size: " + std::strerror(errno));
            int logical = 512;
            if (::ioctl(fd_, BLKSSZGET, &logical) != 0) logical = 512;
            std::uint64_t align = std::max<std::uint64_t>(4096, static_cast<std::uint64_t>(logical));
            std::uint8_t* b = buf_.get(io_op::read, signature_probe_bytes);
            const std::uint64_t probed =
                std::min<std::uint64_t>(signature_probe_bytes, bytes / align * align);
            timed_pio(fd_, path_, io_op::read, b, 0, probed);
            if (auto sig = find_signature(b, probed)) // only the bytes read
                throw refused_output(
                    "refusing to write block device '" + path + "': it holds a " + *sig +
                    " signature; wipe it yourself (e.g. wipefs) if its contents are really unwanted");
            std::uint64_t cap = bytes / align * align;
            if (limit > cap) // a bound beyond the device bounds nothing: say so rather than ignore it
                throw config_error("--limit " + format_size(limit) + " is larger than block device '" + path +
                                   "' (" + std::to_string(cap) + " usable bytes)");
            if (limit != 0) cap = limit / align * align;
            guard_.emplace(path_, cap, align);
        } catch (...) {
            ::close(fd_);
            fd_ = -1;
            throw;
        }
    }
    block_device_target(const block_device_target&) = delete;
    block_device_target& operator=(const block_device_target&) = delete;
    ~block_device_target() override {
        if (fd_ >= 0) ::close(fd_);
    }

    std::string name() const override { return path_; }
    std::string kind() const override { return "block-device"; }
    bool modelled() const override { return false; }
    page_backing io_buffer() const override { return buf_.backing(); }
    void pause(double seconds) override {
        if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    }

protected:
    const io_guard& guard() const override { return *guard_; }
    double do_io(io_op op, std::uint64_t offset, std::uint64_t length) override {
        return timed_pio(fd_, path_, op, buf_.get(op, length), offset, length);
    }
    std::optional<concurrent_reads_result> do_concurrent_reads(const std::vector<std::uint64_t>& offsets,
                                                               std::uint64_t length, unsigned depth,
                                                               double time_limit) override {
        return concurrent_preads(fd_, path_, 0, offsets, length, depth, time_limit);
    }

private:
    //! "a regular file", "a directory", ... for a stat mode that is no block device.
    static std::string file_kind(mode_t mode) {
        if (S_ISREG(mode)) return "a regular file";
        if (S_ISDIR(mode)) return "a directory";
        if (S_ISCHR(mode)) return "a character device";
        if (S_ISFIFO(mode)) return "a FIFO";
        if (S_ISSOCK(mode)) return "a socket";
        return "not a device";
    }

    std::string path_;
    int fd_ = -1;
    std::optional<io_guard> guard_;
    request_buffers buf_; // reads and writes apart: writes always carry the pattern
};

} // namespace flashxxl::characterize
