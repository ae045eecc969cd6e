// The one parser of comma-separated lists (CLI options, experiment files): no empty entry, no repeat.
// repeat.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! The entries of `text`, a comma-separated list given to `what` (an option, "--bw", or a file's
//! field, "file.exp:3: field 'patterns'"). Every list of flashxxl goes through here, so that all
//! of them refuse the same things the same way, with config_error naming `what` and the list:
//! an empty list, an empty entry (a leading, trailing or doubled comma) and a repeated entry
//! (which would run or count the same thing twice). Entries are compared by `same_key` of each
//! (e.g. the parsed size, so that 64KiB and 65536 are the same block size; it may throw to refuse
//! an entry); without it, by their text.
inline std::vector<std::string>
parse_comma_list(const std::string& what, const std::string& text,
                 const std::function<std::string(const std::string&)>& same_key = nullptr) {
    const std::string list = what + " '" + text + "'";
    if (text.empty()) throw config_error(list + ": an empty list; expected values separated by commas");
    std::vector<std::string> entries, keys;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        std::string entry =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (entry.empty())
            throw config_error(
                list + ": entry " + std::to_string(entries.size() + 1) +
                " is empty (a leading, trailing or doubled comma); expected values separated by "
                "single commas");
        std::string key = same_key ? same_key(entry) : entry;
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key)
                throw config_error(
                    list + ": '" + entry + "' is given twice" +
                    (entries[i] == entry ? std::string() : " (as '" + entries[i] + "' before)") +
                    "; expected each value once");
        entries.push_back(std::move(entry));
        keys.push_back(std::move(key));
        if (comma == std::string::npos) return entries;
        start = comma + 1;
    }
}

//! config_error when `text`, the value of `option`, which takes one value, is a comma-separated
//! list ("--br '64KiB,128KiB': --br takes one value, not a list").
inline void require_single_value(const std::string& option, const std::string& text) {
    if (text.find(',') != std::string::npos)
        throw config_error(option + " '" + text + "': " + option +
                           " takes one value, not a comma-separated list");
}

} // namespace flashxxl
