// Checks shared by the line-based inputs (configs, experiment files, edge lists): BOM, CR-only line ends.
#pragma once

#include <cctype>
#include <cstddef>
#include <string>

namespace flashxxl {

//! What is wrong when `first_line` (the first line of a text file, or its first bytes) starts
//! with a byte-order mark: "the file starts with a UTF-8 byte-order mark (bytes EF BB BF);
//! expected plain text: save it without the mark". Empty when it does not.
inline std::string byte_order_mark_problem(const char* first_line, std::size_t length) {
    if (length >= 3 && first_line[0] == '\xEF' && first_line[1] == '\xBB' && first_line[2] == '\xBF')
        return "the file starts with a UTF-8 byte-order mark (bytes EF BB BF); expected plain text: "
               "save it without the mark";
    return {};
}

//! byte_order_mark_problem of a std::string.
inline std::string byte_order_mark_problem(const std::string& first_line) {
    return byte_order_mark_problem(first_line.data(), first_line.size());
}

//! What is wrong when `line` (up to, not including, its LF) holds a carriage return that is not
//! its last byte, i.e. the file ends its lines with CR alone (classic Mac OS): "column 4: a CR
//! (carriage return) not followed by LF: the file has CR-only line ends; expected LF (or CRLF)
//! line ends". A CR as the last byte (CRLF) is fine. Empty when there is none.
inline std::string lone_cr_problem(const char* line, std::size_t length) {
    for (std::size_t i = 0; i + 1 < length; ++i)
        if (line[i] == '\r')
            return "column " + std::to_string(i + 1) +
                   ": a CR (carriage return) not followed by LF: the file has CR-only line ends; expected "
                   "LF (or CRLF) line ends (convert it, e.g. with `tr '\\r' '\\n'`)";
    return {};
}

//! lone_cr_problem of a std::string.
inline std::string lone_cr_problem(const std::string& line) {
    return lone_cr_problem(line.data(), line.size());
}

//! What is wrong when a blank split a value in two: `previous` (the token before, "flash=memory,16",
//! "block=16") ends in a digit and `token` ("MiB,memory", "KiB"), which is no key=value, starts
//! with a letter: "'16 MiB' has a blank between the number and its unit; expected '16MiB' (a blank
//! separates key=value options)". Empty otherwise.
inline std::string split_value_problem(const std::string& previous, const std::string& token) {
    if (previous.empty() || token.empty() || !std::isdigit(static_cast<unsigned char>(previous.back())) ||
        !std::isalpha(static_cast<unsigned char>(token[0])))
        return {};
    const std::size_t before = previous.find_last_not_of("0123456789.");
    const std::string number = previous.substr(before == std::string::npos ? 0 : before + 1);
    const std::string unit = token.substr(0, token.find_first_of(",="));
    return "'" + number + " " + unit + "' has a blank between the number and its unit; expected '" + number +
           unit + "' (a blank separates key=value options)";
}

} // namespace flashxxl
