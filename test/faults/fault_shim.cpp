// Test-only LD_PRELOAD shim: makes write() (or read()) of one file fail with a chosen errno after N bytes
// (ENOSPC, EIO, EROFS without root).
//
// Environment: FLASHXXL_FAULT_PATH (the file, as /proc/self/fd names it, " (deleted)" aside),
// FLASHXXL_FAULT_ERRNO (ENOSPC, EIO, EROFS or EFBIG), FLASHXXL_FAULT_AFTER (bytes written to it before writes
// fail, default 0), FLASHXXL_FAULT_OP (write, the default, or read; or fsync: every fsync(2) of any file
// fails with the errno, FLASHXXL_FAULT_PATH unused). STXXL's syscall_file writes and reads with
// write(2) / read(2) after lseek, so this reaches its I/O threads.
//
// A test program can arm it from inside instead (no environment, no race with I/O threads):
// dlsym(RTLD_DEFAULT, "flashxxl_fault_arm") -> void(const char* path, int err, const char* op,
// long long from_offset) makes every later `op` of that file at a file offset from from_offset
// on fail with err (the offset tells apart requests already in flight from later ones);
// "flashxxl_fault_disarm" -> void() ends it.
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace {

using write_fn = ssize_t (*)(int, const void*, size_t);
using read_fn = ssize_t (*)(int, void*, size_t);
using pwrite_fn = ssize_t (*)(int, const void*, size_t, off_t);

std::atomic<unsigned long long> written{0};

// Armed by flashxxl_fault_arm: fails every matching call, whatever the environment says.
std::atomic<bool> armed{false};
std::mutex armed_mutex;
std::string armed_path, armed_op;
int armed_errno = 0;
long long armed_from = 0;

// The file fd names, as /proc/self/fd shows it ("" when unknown).
std::string fd_target(int fd) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = ::readlink(link, target, sizeof target - 1);
    if (n <= 0) return std::string();
    target[n] = 0;
    return target;
}

// Whether `target` is `path`, or `path` unlinked (" (deleted)" behind it).
bool names(const std::string& target, const char* path) {
    const std::size_t len = std::strlen(path);
    return target.compare(0, len, path) == 0 &&
           (target.size() == len || target.compare(len, std::string::npos, " (deleted)") == 0);
}

int fault_errno() {
    const char* e = std::getenv("FLASHXXL_FAULT_ERRNO");
    std::string name = e ? e : "ENOSPC";
    if (name == "EIO") return EIO;
    if (name == "EROFS") return EROFS;
    if (name == "EFBIG") return EFBIG;
    return ENOSPC;
}

// True (errno set) when this `op` (write or read) of fd should fail: op is FLASHXXL_FAULT_OP, fd names
// FLASHXXL_FAULT_PATH and the budget is spent.
// `offset`: where the call reads or writes (-1: at the file position).
bool should_fail(int fd, size_t bytes, const char* op = "write", off_t offset = -1) {
    if (armed.load()) {
        std::lock_guard<std::mutex> lock(armed_mutex);
        if (armed_op != op || !names(fd_target(fd), armed_path.c_str())) return false;
        if (offset < 0) offset = ::lseek(fd, 0, SEEK_CUR);
        if (offset < armed_from) return false;
        errno = armed_errno;
        return true;
    }
    const char* want = std::getenv("FLASHXXL_FAULT_OP");
    if (std::strcmp(want && *want ? want : "write", op) != 0) return false;
    const char* path = std::getenv("FLASHXXL_FAULT_PATH");
    if (!path || !*path) return false;
    // A backing file is unlinked once open: /proc then names it "PATH (deleted)".
    if (!names(fd_target(fd), path)) return false;
    const char* after = std::getenv("FLASHXXL_FAULT_AFTER");
    unsigned long long budget = after ? std::strtoull(after, nullptr, 10) : 0;
    if (written.fetch_add(bytes) + bytes <= budget) return false;
    errno = fault_errno();
    return true;
}

} // namespace

extern "C" __attribute__((visibility("default"))) void
flashxxl_fault_arm(const char* path, int err, const char* op, long long from_offset) {
    std::lock_guard<std::mutex> lock(armed_mutex);
    armed_from = from_offset;
    armed_path = path;
    armed_op = op;
    armed_errno = err;
    armed.store(true);
}

extern "C" __attribute__((visibility("default"))) void flashxxl_fault_disarm() { armed.store(false); }

extern "C" ssize_t write(int fd, const void* buf, size_t count) {
    static write_fn real = reinterpret_cast<write_fn>(dlsym(RTLD_NEXT, "write"));
    if (should_fail(fd, count)) return -1; // errno set
    return real(fd, buf, count);
}

extern "C" ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
    static pwrite_fn real = reinterpret_cast<pwrite_fn>(dlsym(RTLD_NEXT, "pwrite"));
    if (should_fail(fd, count, "write", offset)) return -1; // errno set
    return real(fd, buf, count, offset);
}

extern "C" ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
    static pwrite_fn real = reinterpret_cast<pwrite_fn>(dlsym(RTLD_NEXT, "pwrite64"));
    if (should_fail(fd, count, "write", offset)) return -1; // errno set
    return real(fd, buf, count, offset);
}

extern "C" int fsync(int fd) {
    static auto real = reinterpret_cast<int (*)(int)>(dlsym(RTLD_NEXT, "fsync"));
    const char* op = std::getenv("FLASHXXL_FAULT_OP");
    if (op && std::strcmp(op, "fsync") == 0) {
        errno = fault_errno();
        return -1;
    }
    return real(fd);
}

extern "C" ssize_t read(int fd, void* buf, size_t count) {
    static read_fn real = reinterpret_cast<read_fn>(dlsym(RTLD_NEXT, "read"));
    if (should_fail(fd, count, "read")) return -1; // errno set
    return real(fd, buf, count);
}
