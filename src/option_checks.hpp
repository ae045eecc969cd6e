// Validators that keep options honest: numbers without wrap-around or NaN, directories that exist (and can be
// written).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

namespace flashxxl::cli {

//! The most items of one run of sort, pq and btree (--items, and --bytes over the item size):
//! 2^36 (64 Gi), 512 GiB of 8-byte items, whose every pass streams for minutes on the emulated
//! devices; beyond it a run would not finish in any reasonable time, if the devices held it.
constexpr std::uint64_t max_items = std::uint64_t(1) << 36;
//! The most operations of one btree phase (--finds, --inserts, --batch, --scans): 10^8, each a
//! search of the tree in host time, minutes in all.
constexpr std::uint64_t max_operations = 100000000;
//! The most items btree's range scans visit, --scans x --scan-length: 10^10.
constexpr std::uint64_t max_scan_visits = 10000000000ull;

//! "from MIN to MAX" for messages; the uint64 maximum is spelled 2^64 - 1, a power of two of at
//! least 2^30 is followed by its exponent ("68719476736 (2^36)").
inline std::string describe_range(std::uint64_t min, std::uint64_t max) {
    if (max == std::numeric_limits<std::uint64_t>::max())
        return "from " + std::to_string(min) + " to 2^64 - 1";
    std::string power;
    if (max >= (std::uint64_t(1) << 30) && (max & (max - 1)) == 0) {
        int k = 0;
        while ((std::uint64_t(1) << k) != max)
            ++k;
        power = " (2^" + std::to_string(k) + ")";
    }
    return "from " + std::to_string(min) + " to " + std::to_string(max) + power;
}

//! A whole number written in decimal digits only (no sign, no 0x), between min and max. CLI11
//! converts "-5" for an unsigned option with strtoull, which wraps it to 2^64 - 5, and saturates
//! an overflow silently; this check refuses both before the conversion. The message names the
//! option (CLI11 prefixes it) and the accepted range.
inline CLI::Validator whole_number(std::uint64_t min = 0,
                                   std::uint64_t max = std::numeric_limits<std::uint64_t>::max(),
                                   const std::string& description = "") {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            std::string expected = "expected a whole number " + describe_range(min, max);
            if (text.empty()) return "empty value; " + expected;
            if (text.find(',') != std::string::npos)
                return "'" + text + "' is a list; this option takes one value (" + expected + ")";
            std::uint64_t v = 0;
            for (char c : text) {
                if (c < '0' || c > '9') return "'" + text + "' is not accepted; " + expected;
                std::uint64_t digit = std::uint64_t(c - '0');
                if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                    return "'" + text + "' overflows 64 bits; " + expected;
                v = v * 10 + digit;
            }
            if (v < min || v > max) return "'" + text + "' is out of range; " + expected;
            return {};
        },
        description);
}

//! A finite decimal number (no nan, no inf) between min and max.
inline CLI::Validator finite_number(double min = -std::numeric_limits<double>::max(),
                                    double max = std::numeric_limits<double>::max(),
                                    const std::string& description = "") {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            auto range = [&] {
                if (min == -std::numeric_limits<double>::max() && max == std::numeric_limits<double>::max())
                    return std::string("expected a finite number");
                std::string lo =
                    min == -std::numeric_limits<double>::max() ? "" : CLI::detail::to_string(min);
                std::string hi = max == std::numeric_limits<double>::max() ? "" : CLI::detail::to_string(max);
                if (lo.empty()) return "expected a finite number at most " + hi;
                if (hi.empty()) return "expected a finite number of at least " + lo;
                return "expected a finite number from " + lo + " to " + hi;
            };
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size())
                return "'" + text + "' is not a number; " + range();
            if (!std::isfinite(v)) return "'" + text + "' is not accepted; " + range();
            if (v < min || v > max) return "'" + text + "' is out of range; " + range();
            return {};
        },
        description);
}

//! A path that is not empty: `--plot ''` is refused instead of meaning "no plots" in silence.
//! `expected` says what the path names ("a directory for the charts").
inline CLI::Validator non_empty_path(const std::string& expected) {
    return CLI::Validator(
        [expected](std::string& text) -> std::string {
            return text.empty() ? "empty path; expected " + expected : std::string();
        },
        "DIR");
}

//! A directory that exists (followed through links): "--backing-dir '/x': no such directory"
//! names the option (CLI11 prefixes it) before any device is built.
inline CLI::Validator existing_directory() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text.empty()) return "empty path; expected a directory";
            struct stat st {};
            if (::stat(text.c_str(), &st) != 0)
                return "'" + text + "': " + std::strerror(errno) + "; expected an existing directory";
            if (!S_ISDIR(st.st_mode)) return "'" + text + "' is not a directory";
            return {};
        },
        "DIR");
}

//! A directory that exists and this process can create files in: "--backing-dir '/proc': cannot
//! create a file there (...)" names the option (CLI11 prefixes it) before any device is built,
//! instead of a device's "field 'path'" error later. access(W_OK | X_OK) first, then, because
//! access() says yes to root where the file system still refuses (/proc), a probe file made
//! with O_EXCL and removed at once.
inline CLI::Validator writable_directory() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (std::string why = existing_directory()(text); !why.empty()) return why;
            const std::string expected = "; expected a directory this process can create files in";
            if (::access(text.c_str(), W_OK | X_OK) != 0)
                return "'" + text + "': " + std::strerror(errno) + expected;
            std::string probe = text + "/.flashxxl-probe-XXXXXX";
            const int fd = ::mkstemp(probe.data());
            if (fd < 0)
                return "'" + text + "': cannot create a file there (" + std::strerror(errno) + ")" + expected;
            ::close(fd);
            ::unlink(probe.c_str());
            return {};
        },
        "DIR");
}

//! Adds whole_number() to every unsigned option and finite_number() to every floating-point
//! option of `app` and its subcommands (CLI11's type names UINT and FLOAT), so that no command
//! can forget it. Options with tighter ranges add their own check besides.
inline void check_numeric_options(CLI::App& app) {
    for (CLI::Option* opt : app.get_options()) {
        std::string type = opt->get_type_name();
        type = type.substr(0, type.find(':'));
        if (type == "UINT") opt->check(whole_number());
        if (type == "FLOAT") opt->check(finite_number());
    }
    for (CLI::App* sub : app.get_subcommands(std::function<bool(CLI::App*)>()))
        check_numeric_options(*sub);
}

} // namespace flashxxl::cli
