// "did you mean": the nearest subcommand or option name to a mistyped one on the command line.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace flashxxl::cli {

//! Levenshtein distance between a and b.
inline std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

//! The candidate nearest to `word` if it is close (at most a third of its length, at least 2,
//! edits away: a swapped pair of letters is 2), else empty.
inline std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const std::string& c : candidates) {
        std::size_t d = edit_distance(word, c);
        if (d < best_distance) best = c, best_distance = d;
    }
    return best;
}

//! Suggestions for the words of argv that `app` does not know: an unknown subcommand (the first
//! word: "'frobnicate' is not a flashxxl command (expected one of: ...)", then a "did you mean"
//! line when one is near) and unknown --options of the subcommand given (a "did you mean" line
//! per word).
inline std::vector<std::string> did_you_mean(CLI::App& app, int argc, char** argv) {
    std::vector<std::string> lines;
    if (argc < 2) return lines;
    std::vector<std::string> commands;
    for (CLI::App* sub : app.get_subcommands(std::function<bool(CLI::App*)>()))
        commands.push_back(sub->get_name());
    std::string first = argv[1];
    if (first.empty() || first[0] == '-') return lines;
    CLI::App* sub = nullptr;
    for (CLI::App* s : app.get_subcommands(std::function<bool(CLI::App*)>()))
        if (s->get_name() == first) sub = s;
    if (!sub) {
        std::string names;
        for (const std::string& c : commands)
            names += (names.empty() ? "" : ", ") + c;
        lines.push_back("'" + first + "' is not a flashxxl command (expected one of: " + names + ")");
        std::string guess = nearest(first, commands);
        if (!guess.empty()) lines.push_back("did you mean '" + guess + "' for '" + first + "'?");
        return lines;
    }
    std::vector<std::string> options;
    for (CLI::Option* opt : sub->get_options())
        for (const std::string& name : opt->get_lnames())
            options.push_back("--" + name);
    for (int i = 2; i < argc; ++i) {
        std::string word = argv[i];
        word = word.substr(0, word.find('='));
        if (word.size() < 3 || word.compare(0, 2, "--") != 0) continue;
        if (std::find(options.begin(), options.end(), word) != options.end()) continue;
        std::string guess = nearest(word, options);
        if (!guess.empty()) lines.push_back("did you mean " + guess + " for " + word + "?");
    }
    return lines;
}

} // namespace flashxxl::cli
