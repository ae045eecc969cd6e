// The benchmarks' JSON: the CLI's envelope (version, command line, timestamp), benchmark, host; --json FILE.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "invocation.hpp" // src/: run_metadata, the CLI's envelope

namespace flashxxl::bench {

//! The host the benchmark ran on: {"cores" (hardware threads), "memory_bytes" (physical memory)}.
inline nlohmann::json host_json() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page_bytes = ::sysconf(_SC_PAGE_SIZE);
    return {
        {"cores", std::thread::hardware_concurrency()},
        {"memory_bytes", pages > 0 && page_bytes > 0 ? std::uint64_t(pages) * std::uint64_t(page_bytes) : 0}};
}

//! A benchmark's JSON document, to which it adds its results: the CLI's run metadata
//! (`version`, `command_line` as recorded by arg_parser::parse, `timestamp` in UTC; docs/json.md),
//! `benchmark` (the program's name) and `host` (host_json).
inline nlohmann::json document(const std::string& benchmark) {
    nlohmann::json j = cli::run_metadata();
    j["benchmark"] = benchmark;
    j["host"] = host_json();
    return j;
}

//! `document`'s keys with their values as text (strings as they are, the rest as JSON), for a
//! Google Benchmark program's context (benchmark::AddCustomContext), which takes strings only.
inline std::vector<std::pair<std::string, std::string>> as_text_pairs(const nlohmann::json& document) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& [key, value] : document.items())
        pairs.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
    return pairs;
}

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

//! Refuses an unwritable --json path before the runs (so that a typo does not waste them): false
//! after printing "--json PATH: cannot write there (...); expected a writable file path".
inline bool check_writable(const std::string& path) {
    if (path.empty()) return true;
    const std::string why = why_unwritable(path);
    if (why.empty()) return true;
    std::cerr << "--json " << path << ": cannot write there (" << why << "); expected a writable file path\n";
    return false;
}

//! Writes `j` (indented) to `path`; on failure prints "PROGRAM: --json PATH: ..." and returns false.
inline bool write(const std::string& program, const std::string& path, const nlohmann::json& j) {
    std::ofstream out(path);
    if (!out) {
        std::cerr << program << ": --json " << path << ": cannot open for writing: " << std::strerror(errno)
                  << "\n";
        return false;
    }
    out << j.dump(2) << "\n";
    out.flush();
    const int write_errno = errno;
    out.close();
    if (out.fail()) {
        std::cerr << program << ": --json " << path << ": writing failed: " << std::strerror(write_errno)
                  << "\n";
        return false;
    }
    return true;
}

} // namespace flashxxl::bench
