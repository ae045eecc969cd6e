// Test-only LD_PRELOAD shim: makes write() (or read()) of one file fail with a chosen errno after N bytes (ENOSPC, EIO, EROFS without root).
//
// Environment: FLASHXXL_FAULT_PATH (the file, as /proc/self/fd names it, " (deleted)" aside), FLASHXXL_FAULT_ERRNO
// (ENOSPC, EIO, EROFS or EFBIG), FLASHXXL_FAULT_AFTER (bytes written to it before writes fail,
// default 0), FLASHXXL_FAULT_OP (write, the default, or read). STXXL's syscall_file writes and
// reads with write(2) / read(2) after lseek, so this reaches its I/O threads.
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace {

using write_fn = ssize_t (*)(int, const void*, size_t);
using read_fn = ssize_t (*)(int, void*, size_t);
using pwrite_fn = ssize_t (*)(int, const void*, size_t, off_t);

std::atomic<unsigned long long> written{0};

int fault_errno() {
    const char* e = std::getenv("FLASHXXL_FAULT_ERRNO");
    std::string name = e ? e : "ENOSPC";
    if (name == "EIO") return EIO;
    if (name == "EROFS") return EROFS;
    if (name == "EFBIG") return EFBIG;
    return ENOSPC;
}

// True when this `op` (write or read) of fd should fail: op is FLASHXXL_FAULT_OP, fd names
// FLASHXXL_FAULT_PATH and the budget is spent.
bool should_fail(int fd, size_t bytes, const char* op = "write") {
    const char* want = std::getenv("FLASHXXL_FAULT_OP");
    if (std::strcmp(want && *want ? want : "write", op) != 0) return false;
    const char* path = std::getenv("FLASHXXL_FAULT_PATH");
    if (!path || !*path) return false;
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = ::readlink(link, target, sizeof target - 1);
    if (n <= 0) return false;
    target[n] = 0;
    // A backing file is unlinked once open: /proc then names it "PATH (deleted)".
    const std::size_t len = std::strlen(path);
    if (std::strncmp(target, path, len) != 0 || (target[len] != 0 && std::strcmp(target + len, " (deleted)") != 0))
        return false;
    const char* after = std::getenv("FLASHXXL_FAULT_AFTER");
    unsigned long long budget = after ? std::strtoull(after, nullptr, 10) : 0;
    return written.fetch_add(bytes) + bytes > budget;
}

} // namespace

extern "C" ssize_t write(int fd, const void* buf, size_t count) {
    static write_fn real = reinterpret_cast<write_fn>(dlsym(RTLD_NEXT, "write"));
    if (should_fail(fd, count)) {
        errno = fault_errno();
        return -1;
    }
    return real(fd, buf, count);
}

extern "C" ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
    static pwrite_fn real = reinterpret_cast<pwrite_fn>(dlsym(RTLD_NEXT, "pwrite"));
    if (should_fail(fd, count)) {
        errno = fault_errno();
        return -1;
    }
    return real(fd, buf, count, offset);
}

extern "C" ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
    static pwrite_fn real = reinterpret_cast<pwrite_fn>(dlsym(RTLD_NEXT, "pwrite64"));
    if (should_fail(fd, count)) {
        errno = fault_errno();
        return -1;
    }
    return real(fd, buf, count, offset);
}

extern "C" ssize_t read(int fd, void* buf, size_t count) {
    static read_fn real = reinterpret_cast<read_fn>(dlsym(RTLD_NEXT, "read"));
    if (should_fail(fd, count, "read")) {
        errno = fault_errno();
        return -1;
    }
    return real(fd, buf, count);
}
