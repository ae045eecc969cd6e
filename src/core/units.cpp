// Parsing and printing of byte sizes and numbers (core library).
#include "flashxxl/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

#include "flashxxl/error.hpp"

namespace flashxxl {

std::uint64_t detail::parse_size_number(const std::string& text, std::size_t& i, const char* example) {
    i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    std::size_t digits_begin = i;
    std::uint64_t value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            throw config_error("size '" + text + "' overflows 64 bits");
        value = value * 10 + digit;
        ++i;
    }
    if (i == digits_begin)
        throw config_error("size '" + text + "' is not a number (expected e.g. " + example + ")");
    return value;
}

std::uint64_t parse_size(const std::string& text) {
    std::size_t i = 0;
    std::uint64_t value = detail::parse_size_number(text, i, "4096, 16KiB, 512MiB, 32GiB");
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    std::string unit;
    for (; i < text.size(); ++i)
        if (!std::isspace(static_cast<unsigned char>(text[i])))
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    std::uint64_t factor = 1;
    if (unit.empty() || unit == "b")
        factor = 1;
    else if (unit == "kib")
        factor = KiB;
    else if (unit == "mib")
        factor = MiB;
    else if (unit == "gib")
        factor = GiB;
    else if (unit == "tib")
        factor = TiB;
    else if (unit == "k" || unit == "kb" || unit == "m" || unit == "mb" || unit == "g" || unit == "gb" ||
             unit == "t" || unit == "tb")
        throw config_error("size '" + text +
                           "' uses a decimal unit; write IEC units (KiB, MiB, GiB, TiB) "
                           "or plain bytes");
    else
        throw config_error("size '" + text + "' has unknown unit '" + unit +
                           "' (expected B, KiB, MiB, GiB or TiB)");
    if (factor > 1 && value > std::numeric_limits<std::uint64_t>::max() / factor)
        throw config_error("size '" + text + "' overflows 64 bits");
    return value * factor;
}

std::uint64_t parse_stxxl_size(const std::string& text, bool* decimal) {
    std::size_t i = 0;
    std::uint64_t value = detail::parse_size_number(text, i, "16GiB, 1G = 10^9 bytes, 4096B");
    while (i < text.size() && text[i] == ' ')
        ++i;
    std::string unit;
    for (; i < text.size(); ++i)
        if (!std::isspace(static_cast<unsigned char>(text[i])))
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    if (!unit.empty() && unit.back() == 'b') unit.pop_back();
    std::uint64_t base = 1000, power = 0;
    bool bytes = text.find_last_of("bB") != std::string::npos && unit.empty();
    if (unit.empty())
        power = bytes ? 0 : 2, base = bytes ? 1000 : 1024; // plain number: MiB
    else {
        const std::string powers = "kmgtp";
        auto p = powers.find(unit[0]);
        if (p == std::string::npos || unit.size() > 2 || (unit.size() == 2 && unit[1] != 'i'))
            throw config_error(
                "size '" + text + "' has unknown unit '" + unit +
                "' (expected an STXXL size: KiB, MiB, GiB, TiB, or k, M, G, T = powers of ten, "
                "or B)");
        power = p + 1;
        base = unit.size() == 2 ? 1024 : 1000;
    }
    if (decimal) *decimal = base == 1000 && power > 0;
    std::uint64_t size = value;
    for (std::uint64_t k = 0; k < power; ++k) {
        if (size > std::numeric_limits<std::uint64_t>::max() / base)
            throw config_error("size '" + text + "' overflows 64 bits");
        size *= base;
    }
    return size;
}

double parse_number(const std::string& text) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        throw config_error("'" + text + "' is not a number");
    }
    while (used < text.size() && std::isspace(static_cast<unsigned char>(text[used])))
        ++used;
    if (used != text.size()) throw config_error("'" + text + "' is not a number (trailing characters)");
    if (!std::isfinite(v))
        throw config_error("'" + text + "' is not a finite number (inf and nan are not accepted)");
    return v;
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && bytes >= 1024.0) {
        bytes /= 1024.0;
        ++u;
    }
    char buf[48];
    if (u == 0 || bytes == static_cast<double>(static_cast<std::uint64_t>(bytes)))
        std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[u]);
    else
        std::snprintf(buf, sizeof buf, "%.2f %s", bytes, units[u]);
    return buf;
}

std::string format_size(std::uint64_t bytes) {
    const char* units[] = {"TiB", "GiB", "MiB", "KiB"};
    const std::uint64_t factors[] = {TiB, GiB, MiB, KiB};
    for (int u = 0; u < 4; ++u)
        if (bytes >= factors[u] && bytes % factors[u] == 0)
            return std::to_string(bytes / factors[u]) + units[u];
    return std::to_string(bytes) + "B"; // "B": a plain number would mean MiB in a machine config
}

} // namespace flashxxl
