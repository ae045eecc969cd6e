// Output files written safely: never a device, FIFO or link, never a foreign file, whole or not at all.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! Bytes at the start of an existing file searched for a signature.
inline constexpr std::size_t output_signature_window = 4096;

//! The signature flashxxl's own text outputs carry (JSON `"generator"` value, comment lines).
inline constexpr const char* output_generator = "flashxxl characterize";

namespace detail {

inline const char* file_kind(mode_t m) {
    if (S_ISBLK(m)) return "a block device";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISLNK(m)) return "a symbolic link";
    return "not a regular file";
}

//! True when one of `signatures` occurs in the first output_signature_window bytes of `path`.
inline bool carries_signature(const std::string& path, const std::vector<std::string>& signatures) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    std::string head(output_signature_window, '\0');
    ssize_t n = ::pread(fd, head.data(), head.size(), 0);
    ::close(fd);
    if (n <= 0) return false;
    head.resize(static_cast<std::size_t>(n));
    for (const auto& s : signatures)
        if (!s.empty() && head.find(s) != std::string::npos) return true;
    return false;
}

} // namespace detail

//! Checks that `path` may be (re)written as the output of command-line option `option`
//! ("--json"): it must be absent or a regular file; an existing regular file must carry one of
//! `signatures` in its first 4 KiB (flashxxl wrote it) unless `force`. Block and character
//! devices, FIFOs, sockets, directories and symbolic links are refused even with `force`.
//! Throws io_failure naming the option, the path and what it is.
inline void check_output_path(const std::string& path, const std::string& option, bool force,
                              const std::vector<std::string>& signatures) {
    std::string where = option + " '" + path + "'";
    if (path.empty()) throw config_error(option + ": empty path");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return;
        throw io_failure(where + ": cannot stat it: " + std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        throw refused_output(
            where + " is " + detail::file_kind(st.st_mode) +
            "; outputs are written only to regular files (expected a new path or a file flashxxl wrote)");
    if (force || detail::carries_signature(path, signatures)) return;
    throw refused_output(where +
                         " exists and was not written by flashxxl (no flashxxl signature in its first " +
                         std::to_string(output_signature_window) +
                         " bytes); choose another path, remove it, or pass "
                         "--force to replace it");
}

//! Flushes a finished output to its disk before it is renamed into place: `fd` when it is open
//! (>= 0), else the file at `path`. Returns 0, or the errno of the failure (EIO, ENOSPC on thin or
//! network file systems): an output whose sync failed must not replace its target.
inline int sync_to_disk(int fd, const std::string& path) {
    if (fd >= 0) return ::fsync(fd) != 0 ? errno : 0;
    const int own = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (own < 0) return errno;
    const int e = ::fsync(own) != 0 ? errno : 0;
    ::close(own);
    return e;
}

//! Checks that files can be created in directory `dir` ("" is the working directory): it exists,
//! is a directory (a link to one counts) and this process may write and search it. Called before
//! a run, so that an output that cannot be written costs no run. Throws io_failure
//! "<where>: cannot create a file in '<dir>': <why>".
inline void check_writable_directory(const std::string& dir, const std::string& where) {
    const std::string d = dir.empty() ? "." : dir;
    struct stat st {};
    std::string why;
    if (::stat(d.c_str(), &st) != 0)
        why = std::strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "not a directory";
    else if (::access(d.c_str(), W_OK | X_OK) != 0)
        why = std::strerror(errno);
    if (!why.empty()) throw io_failure(where + ": cannot create a file in '" + d + "': " + why);
}

//! An output file written to a temporary file beside it and renamed over the target by
//! commit(): readers never see a partial file, and a failed run leaves the old file (or none).
//! The target is checked by check_output_path() and its directory for being writable when the
//! object is made, so a bad path fails before any work; the target is checked again just before
//! the rename.
//!
//! What stream() writes goes to an unnamed file in the target's directory (open(O_TMPFILE)),
//! which gets a name only at commit() (linkat, then rename over the target): a run that is
//! killed while it writes (a `bfs --out` of every node's level, say) leaves nothing behind.
//! temp_path() is for writers in another process (gnuplot), which need a name: a named
//! temporary file .NAME.flashxxl-XXXXXX, made at that first call, as is the named fallback on
//! file systems without O_TMPFILE.
//!
//!     safe_output_file f(path, "--json", force, {"\"generator\": \"flashxxl"});
//!     f.stream() << text;
//!     f.commit();  // without it the destructor discards the temporary file
class safe_output_file {
public:
    safe_output_file(std::string path, std::string option, bool force, std::vector<std::string> signatures)
        : path_(std::move(path)), option_(std::move(option)), force_(force),
          signatures_(std::move(signatures)) {
        check_output_path(path_, option_, force_, signatures_);
        auto slash = path_.find_last_of('/');
        dir_ = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
        // The directory is checked now, so a bad path fails before any work; the temporary file
        // is made at the first write, so a run killed before it leaves nothing behind.
        check_writable_directory(dir_, option_ + " '" + path_ + "'");
    }
    safe_output_file(const safe_output_file&) = delete;
    safe_output_file& operator=(const safe_output_file&) = delete;
    //! Discards the temporary file unless commit() succeeded.
    ~safe_output_file() { discard(); }

    //! Where to write the contents (the unnamed temporary file, made now if it is not yet).
    std::ostream& stream() {
        if (!out_.is_open()) open_unnamed();
        return out_;
    }
    //! The target path.
    const std::string& path() const { return path_; }
    //! A named temporary file (for writers that take a path, e.g. an external program), made
    //! now if it is not yet; not after stream() has made the unnamed one.
    const std::string& temp_path() {
        if (temp_.empty()) {
            if (unnamed_fd_ >= 0)
                throw std::logic_error("safe_output_file: temp_path() after stream() for '" + path_ + "'");
            open_named();
        }
        return temp_;
    }
    //! True after a successful commit().
    bool committed() const { return committed_; }

    //! Flushes and syncs the temporary file and puts it at the target (checked again).
    //! Throws io_failure naming option and path; the target is then unchanged.
    void commit() {
        if (committed_) return;
        if (discarded_) throw io_failure(option_ + " '" + path_ + "': output already discarded");
        if (!out_.is_open() && temp_.empty()) open_unnamed(); // an output nobody wrote to is an empty file
        out_.flush();
        bool ok = !out_.is_open() || static_cast<bool>(out_);
        if (out_.is_open()) out_.close();
        if (!ok || out_.fail()) {
            discard();
            throw io_failure(option_ + " '" + path_ + "': writing the temporary file failed (disk full?)");
        }
        if (const int sync_error = sync_to_disk(unnamed_fd_, temp_); sync_error != 0) {
            discard();
            throw io_failure(option_ + " '" + path_ +
                             "': syncing the temporary file failed: " + std::strerror(sync_error));
        }
        try {
            check_output_path(path_, option_, force_, signatures_);
        } catch (...) {
            discard();
            throw;
        }
        if (unnamed_fd_ >= 0) link_unnamed(); // gives the finished file the name temp_
        if (::rename(temp_.c_str(), path_.c_str()) != 0) {
            int e = errno;
            discard();
            throw io_failure(option_ + " '" + path_ +
                             "': cannot rename the temporary file over it: " + std::strerror(e));
        }
        temp_.clear();
        close_unnamed();
        committed_ = true;
    }

    //! Discards the temporary file and removes the target, when it is one this output may
    //! replace (checked again): a chart of an earlier run must not stand beside the new data
    //! when the new chart could not be drawn. Returns whether a target was removed.
    bool discard_and_remove_target() {
        discard();
        check_output_path(path_, option_, force_, signatures_);
        struct stat st {};
        if (::lstat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
        return ::unlink(path_.c_str()) == 0;
    }

    //! Removes the temporary file; the target stays as it was.
    void discard() {
        if (out_.is_open()) out_.close();
        if (!temp_.empty()) ::unlink(temp_.c_str());
        temp_.clear();
        close_unnamed();
        discarded_ = true;
    }

private:
    std::string temp_template() const { return dir_ + "." + path_.substr(dir_.size()) + ".flashxxl-XXXXXX"; }

    //! Makes the unnamed file in the target's directory and opens the stream on it; the named
    //! file where the file system has no O_TMPFILE.
    void open_unnamed() {
        if (discarded_) throw io_failure(option_ + " '" + path_ + "': output already discarded");
        if (!temp_.empty()) return; // temp_path() came first: that file is the output
        unnamed_fd_ = ::open(dir_.empty() ? "." : dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
        if (unnamed_fd_ < 0) return open_named(); // EOPNOTSUPP, EISDIR on older kernels, ...
        out_.open("/proc/self/fd/" + std::to_string(unnamed_fd_), std::ios::binary | std::ios::trunc);
        if (!out_) {
            close_unnamed();
            throw io_failure(option_ + " '" + path_ + "': cannot open the unnamed temporary file in '" +
                             (dir_.empty() ? "." : dir_) + "' (is /proc mounted?)");
        }
    }

    //! Makes the named temporary file beside the target (.NAME.flashxxl-XXXXXX).
    void open_named() {
        if (discarded_) throw io_failure(option_ + " '" + path_ + "': output already discarded");
        std::string tmpl = temp_template();
        std::vector<char> name(tmpl.begin(), tmpl.end());
        name.push_back('\0');
        int fd = ::mkstemp(name.data());
        if (fd < 0)
            throw io_failure(option_ + " '" + path_ + "': cannot create a temporary file in '" +
                             (dir_.empty() ? "." : dir_) + "': " + std::strerror(errno));
        ::fchmod(fd, 0644);
        ::close(fd);
        temp_ = name.data();
        out_.open(temp_, std::ios::binary | std::ios::trunc);
        if (!out_) {
            ::unlink(temp_.c_str());
            temp_.clear();
            throw io_failure(option_ + " '" + path_ + "': cannot open the temporary file '" +
                             std::string(name.data()) + "'");
        }
    }

    //! Links the finished unnamed file under a fresh .NAME.flashxxl-XXXXXX name (temp_), which
    //! commit() renames over the target.
    void link_unnamed() {
        const std::string proc = "/proc/self/fd/" + std::to_string(unnamed_fd_);
        for (int attempt = 0; attempt < 100; ++attempt) {
            std::string tmpl = temp_template();
            std::vector<char> name(tmpl.begin(), tmpl.end());
            name.push_back('\0');
            // A name nobody holds: mkstemp makes it, it is removed, and linkat (which never
            // replaces) takes it unless another process did in between (then try again).
            int fd = ::mkstemp(name.data());
            if (fd < 0) break;
            ::close(fd);
            ::unlink(name.data());
            if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.data(), AT_SYMLINK_FOLLOW) == 0) {
                temp_ = name.data();
                return;
            }
            if (errno != EEXIST) break;
        }
        int e = errno;
        discard();
        throw io_failure(option_ + " '" + path_ + "': cannot give the finished output a name in '" +
                         (dir_.empty() ? "." : dir_) + "': " + std::strerror(e));
    }

    void close_unnamed() {
        if (unnamed_fd_ >= 0) ::close(unnamed_fd_);
        unnamed_fd_ = -1;
    }

    std::string path_, option_, dir_; // dir_: the target's directory with its '/', or empty
    bool force_ = false;
    std::vector<std::string> signatures_;
    std::string temp_;    // the named temporary file, or empty
    int unnamed_fd_ = -1; // the unnamed temporary file (O_TMPFILE), or -1
    std::ofstream out_;
    bool committed_ = false, discarded_ = false;
};

} // namespace flashxxl
