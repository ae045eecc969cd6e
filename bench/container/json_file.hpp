// The container benchmarks' --json FILE: checked writable before the runs, written and checked after them.
#pragma once

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace bench_json {

//! Empty when `path` can be opened for writing, else why not (strerror). Tries it: a file the
//! test creates is removed again, an existing one is left as it is (opened to append nothing).
inline std::string why_unwritable(const std::string& path) {
    struct stat before {};
    const bool existed = ::stat(path.c_str(), &before) == 0;
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    if (!existed) ::unlink(path.c_str());
    return "";
}

//! Writes `j` (indented) to `path`; on failure prints "PROGRAM: --json PATH: ..." and returns false.
inline bool write(const std::string& program, const std::string& path, const nlohmann::json& j) {
    std::ofstream out(path);
    if (!out) {
        std::cerr << program << ": --json " << path << ": cannot open for writing: " << std::strerror(errno) << "\n";
        return false;
    }
    out << j.dump(2) << "\n";
    out.flush();
    const int write_errno = errno;
    out.close();
    if (out.fail()) {
        std::cerr << program << ": --json " << path << ": writing failed: " << std::strerror(write_errno) << "\n";
        return false;
    }
    return true;
}

}  // namespace bench_json
