// A temporary file with no name (O_TMPFILE) that is linked over its target on commit, so a killed run leaves
// nothing behind.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include "flashxxl/error.hpp"
#include "flashxxl/safe_output.hpp"

namespace flashxxl::cli {

//! Where a long-running command writes a large output before it is complete: an unnamed file in
//! the target's directory (open(O_TMPFILE)), reached by writers that take a path through
//! "/proc/self/fd/N". Until commit() it has no name, so Ctrl-C, SIGKILL or the OOM killer leave
//! nothing behind (a named temporary file of a killed `gen rmat` run held 671 MB). commit()
//! gives it a name beside the target (linkat) and renames that over the target, atomically for
//! readers. File systems without O_TMPFILE get a named temporary file `TARGET.tmp-PID`, removed
//! on every path but a kill, as before.
class unnamed_temp_file {
public:
    explicit unnamed_temp_file(std::string target) : target_(std::move(target)) {
        const std::string dir = std::filesystem::path(target_).parent_path().string();
        fd_ = ::open(dir.empty() ? "." : dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        if (fd_ >= 0) {
            path_ = "/proc/self/fd/" + std::to_string(fd_);
        } else {
            path_ = name_beside_target(); // no O_TMPFILE here (EOPNOTSUPP, EISDIR, ...)
        }
    }
    unnamed_temp_file(const unnamed_temp_file&) = delete;
    unnamed_temp_file& operator=(const unnamed_temp_file&) = delete;
    //! Without commit(): the unnamed file goes with its descriptor, a named one is removed.
    ~unnamed_temp_file() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_ && !unnamed()) ::unlink(path_.c_str());
    }

    //! The path writers open (and truncate): "/proc/self/fd/N", or the named fallback.
    const std::string& path() const { return path_; }
    //! True when the file has no name until commit().
    bool unnamed() const { return fd_ >= 0; }

    //! `message` with path() replaced by words a reader understands ("the unnamed temporary
    //! file of 'g.txt'"): writers name the file they were given.
    std::string explain(std::string message) const {
        if (!unnamed()) return message;
        const std::string words = "the unnamed temporary file of '" + target_ + "'";
        for (std::size_t at = message.find(path_); at != std::string::npos;
             at = message.find(path_, at + words.size()))
            message.replace(at, path_.size(), words);
        return message;
    }

    //! Puts the complete file at the target (replacing what is there); io_failure naming the
    //! target and the system's reason otherwise, the target then unchanged.
    void commit() {
        sync();
        if (unnamed()) {
            const std::string linked = name_beside_target();
            if (::linkat(AT_FDCWD, path_.c_str(), AT_FDCWD, linked.c_str(), AT_SYMLINK_FOLLOW) != 0)
                throw io_failure("cannot give the finished output a name beside '" + target_ + "' ('" +
                                 linked + "'): " + std::strerror(errno));
            if (::rename(linked.c_str(), target_.c_str()) != 0) {
                const int e = errno;
                ::unlink(linked.c_str());
                throw io_failure("cannot rename the finished output over '" + target_ +
                                 "': " + std::strerror(e));
            }
        } else if (::rename(path_.c_str(), target_.c_str()) != 0) {
            throw io_failure("cannot rename '" + path_ + "' over '" + target_ + "': " + std::strerror(errno));
        }
        committed_ = true;
    }

private:
    //! Flushes the file to its disk before it gets the target's name: a sync that fails (EIO,
    //! ENOSPC on a thin or network file system) leaves the target as it was.
    void sync() const {
        if (const int e = sync_to_disk(fd_, path_); e != 0)
            throw io_failure("cannot sync the finished output of '" + target_ + "': " + std::strerror(e));
    }

    //! TARGET.tmp-PID: the named fallback, and the name the finished file is linked under.
    std::string name_beside_target() const { return target_ + ".tmp-" + std::to_string(::getpid()); }

    std::string target_, path_;
    int fd_ = -1;
    bool committed_ = false;
};

} // namespace flashxxl::cli
