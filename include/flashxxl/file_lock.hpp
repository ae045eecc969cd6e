// The one lock of every file flashxxl writes as a machine device or a characterize target.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! Who holds the lock that refused ours.
struct lock_holder {
    long pid = 0;        //!< 0: not known
    std::string command; //!< /proc/PID/comm, "" when not known

    //! "process 1234 (flashxxl)", "process 1234", or "another process" when the pid is not known.
    std::string text() const {
        if (pid <= 0) return "another process";
        return "process " + std::to_string(pid) + (command.empty() ? "" : " (" + command + ")");
    }
};

//! Who owns a lock, both kinds conflict with each other (in one process or two), so a machine
//! device and a characterize target never share a file:
//! - `process`: a classic POSIX record lock (F_SETLK), owned by the process. STXXL's
//!   create_file takes this one on every file it opens (ufs_file_base::lock, NO_LOCK or not),
//!   so machine devices take it too (a lock of the other kind would refuse STXXL's own). A second
//!   one in the same process succeeds, and closing any descriptor of the file releases it.
//! - `open_file`: an open-file-description lock (F_OFD_SETLK), owned by the descriptor, so two
//!   targets in one process exclude each other as well; characterize's targets take it.
enum class lock_scope { process, open_file };

namespace detail {

//! The command name of process `pid` (/proc/PID/comm), "" when unreadable.
inline std::string process_command(long pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

//! True when /proc/PID/fdinfo/FD text lists a write lock on the inode `key` ("MAJ:MIN:INO").
inline bool fdinfo_has_write_lock(const std::string& text, const std::string& key) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
        if (line.rfind("lock:", 0) == 0 && line.find(" WRITE ") != std::string::npos &&
            line.find(" " + key + " ") != std::string::npos)
            return true;
    return false;
}

//! The process with a descriptor that carries a write lock on the file `st` (its
//! /proc/PID/fdinfo lists the lock): an open-file lock's owner, which F_OFD_GETLK reports as
//! pid -1. Another process before this one (a child shares its parent's descriptors); 0 when
//! no readable process shows it.
inline long fdinfo_lock_owner(const struct stat& st) {
    char key[64];
    std::snprintf(key, sizeof key, "%02x:%02x:%llu", ::major(st.st_dev), ::minor(st.st_dev),
                  static_cast<unsigned long long>(st.st_ino));
    DIR* proc = ::opendir("/proc");
    if (!proc) return 0;
    const long self = ::getpid();
    long found = 0;
    while (dirent* p = ::readdir(proc)) {
        char* end = nullptr;
        long pid = std::strtol(p->d_name, &end, 10);
        if (pid <= 0 || *end != '\0' || (found && pid == self)) continue;
        const std::string dir = std::string("/proc/") + p->d_name + "/fdinfo";
        DIR* fds = ::opendir(dir.c_str());
        if (!fds) continue; // another user's process, or gone
        while (dirent* f = ::readdir(fds)) {
            if (f->d_name[0] == '.') continue;
            std::ifstream in(dir + "/" + f->d_name);
            std::stringstream text;
            text << in.rdbuf();
            if (fdinfo_has_write_lock(text.str(), key)) {
                found = pid;
                break;
            }
        }
        ::closedir(fds);
        if (found && found != self) break;
    }
    ::closedir(proc);
    return found;
}

} // namespace detail

//! Who holds a lock on any byte of the file open as `fd` that an exclusive lock over the whole
//! file would conflict with, or nullopt when none (or when the file system keeps no locks).
inline std::optional<lock_holder> whole_file_lock_holder(int fd) {
    struct flock probe {};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET; // l_start = l_len = 0: the whole file, however long it grows
    if (::fcntl(fd, F_OFD_GETLK, &probe) != 0 || probe.l_type == F_UNLCK) return std::nullopt;
    lock_holder h;
    h.pid = probe.l_pid; // -1 for an open-file lock: look for its descriptor in /proc
    struct stat st {};
    if (h.pid <= 0 && ::fstat(fd, &st) == 0) h.pid = detail::fdinfo_lock_owner(st);
    if (h.pid > 0) h.command = detail::process_command(h.pid);
    return h;
}

//! Takes the exclusive lock over the whole file open for writing as `fd` (not owned), without
//! waiting. Returns nullopt once it is held, or when the file system keeps no record locks
//! (ENOLCK, EINVAL: the file goes unlocked); else who holds it. Another failure throws
//! io_failure naming `path`.
inline std::optional<lock_holder> lock_whole_file(int fd, lock_scope scope, const std::string& path) {
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (::fcntl(fd, scope == lock_scope::process ? F_SETLK : F_OFD_SETLK, &lock) == 0) return std::nullopt;
    if (errno == ENOLCK || errno == EINVAL) return std::nullopt;
    if (errno != EAGAIN && errno != EACCES)
        throw io_failure("cannot lock '" + path + "': " + std::strerror(errno));
    return whole_file_lock_holder(fd).value_or(lock_holder{}); // the holder may be gone meanwhile
}

//! "is in use: process 1234 (flashxxl) holds its lock (a characterize run or a machine device on
//! this file)": the words both users of the lock refuse a file with, after its name.
inline std::string in_use_by(const lock_holder& holder) {
    return "is in use: " + holder.text() +
           " holds its lock (a characterize run or a machine device on this file)";
}

} // namespace flashxxl
