// The benchmarks' options: CLI11 as in the CLI, with IEC sizes, counts, choices; errors name the option.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "did_you_mean.hpp" // src/: nearest
#include "flashxxl/units.hpp"
#include "invocation.hpp"    // src/: record_invocation
#include "option_checks.hpp" // src/: whole_number, finite_number

namespace flashxxl::bench {

//! "a", "a or b", "a, b or c".
inline std::string either_of(const std::vector<std::string>& words) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return text;
}

//! A size in IEC units ("64MiB", "4KiB", a plain byte count): "'64M' is not a size (...); expected ...".
inline CLI::Validator iec_size() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            try {
                parse_size(text);
                return {};
            } catch (const std::exception& e) {
                return "'" + text + "' is not a size (" + e.what() +
                       "); expected a size in IEC units such as 64MiB";
            }
        },
        "");
}

//! One of `choices`: "'hot' is not accepted; expected cold or warm".
inline CLI::Validator one_of(const std::vector<std::string>& choices) {
    return CLI::Validator(
        [choices](std::string& text) -> std::string {
            for (const std::string& c : choices)
                if (text == c) return {};
            return "'" + text + "' is not accepted; expected " + either_of(choices);
        },
        "");
}

//! A benchmark's options, `--name value` or `--name=value`, each bound to a variable that holds
//! its default (shown by --help). parse() reports a bad value naming the option and what was
//! expected (CLI11 prefixes the option: "--memory: '64M' is not a size ..."), and an unknown
//! option with the nearest known one; both exit 2.
class arg_parser {
public:
    //! `program` prefixes the error messages; `description` heads --help; `footer` ends it.
    arg_parser(std::string program, const std::string& description, const std::string& footer = "")
        : program_(std::move(program)), app_(description, program_) {
        app_.footer(footer);
        app_.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast); // the last one counts
    }

    //! A byte size in IEC units into `target`.
    CLI::Option* size(const std::string& name, std::uint64_t& target, const std::string& help) {
        return app_
            .add_option_function<std::string>(
                name, [&target](const std::string& text) { target = parse_size(text); }, help)
            ->check(iec_size())
            ->type_name("SIZE")
            ->default_str(format_size(target));
    }

    //! A whole number (decimal digits, no sign) from `min` to `max` into `target`.
    template <class Unsigned>
    CLI::Option* count(const std::string& name, Unsigned& target, const std::string& help,
                       std::uint64_t min = 0, std::uint64_t max = std::numeric_limits<Unsigned>::max()) {
        return app_.add_option(name, target, help)->check(cli::whole_number(min, max))->capture_default_str();
    }

    //! A finite number from `min` to `max` into `target`.
    CLI::Option* number(const std::string& name, double& target, const std::string& help,
                        double min = -std::numeric_limits<double>::max(),
                        double max = std::numeric_limits<double>::max()) {
        return app_.add_option(name, target, help)
            ->check(cli::finite_number(min, max))
            ->capture_default_str();
    }

    //! Any text (a path, a list checked by the benchmark) into `target`.
    CLI::Option* text(const std::string& name, std::string& target, const std::string& help) {
        return app_.add_option(name, target, help)->capture_default_str();
    }

    //! One of `choices` into `target`.
    CLI::Option* choice(const std::string& name, std::string& target, const std::vector<std::string>& choices,
                        const std::string& help) {
        return app_.add_option(name, target, help)
            ->check(one_of(choices))
            ->type_name(CLI::detail::join(choices, "|"))
            ->capture_default_str();
    }

    //! A switch without a value: `target` becomes true when given.
    CLI::Option* flag(const std::string& name, bool& target, const std::string& help) {
        return app_.add_flag(name, target, help);
    }

    //! Also take a bare `name=value` as `--name=value` (bench_graph_dfs's documented spelling).
    void allow_bare_key_value() { bare_key_value_ = true; }

    //! Records the command line for the JSON envelope and parses it into the bound variables.
    //! Returns -1 to go on, 0 after --help (printed on `out`), 2 after an error (printed on `err`).
    int parse(int argc, char** argv, std::ostream& out = std::cout, std::ostream& err = std::cerr) {
        cli::record_invocation(argc, argv);
        std::vector<std::string> args(argv + 1, argv + argc);
        for (std::string& a : args)
            if (bare_key_value_ && !a.empty() && a[0] != '-' && a.find('=') != std::string::npos)
                a = "--" + a;
        try {
            app_.parse(std::vector<std::string>(args.rbegin(), args.rend())); // CLI11 takes them reversed
        } catch (const CLI::CallForHelp&) {
            out << app_.help();
            return 0;
        } catch (const CLI::ParseError& e) {
            err << program_ << ": " << e.what() << "\n";
            for (const std::string& line : suggestions(args))
                err << line << "\n";
            err << "Run with --help for the options.\n";
            return 2;
        }
        return -1;
    }

    //! The CLI11 application (for what the helpers above do not cover).
    CLI::App& app() { return app_; }

private:
    //! "did you mean --memory for --memroy?" for each unknown --option in `args`.
    std::vector<std::string> suggestions(const std::vector<std::string>& args) {
        std::vector<std::string> known, lines;
        for (CLI::Option* opt : app_.get_options())
            for (const std::string& name : opt->get_lnames())
                known.push_back("--" + name);
        for (std::string word : args) {
            word = word.substr(0, word.find('='));
            if (word.size() < 3 || word.compare(0, 2, "--") != 0) continue;
            if (std::find(known.begin(), known.end(), word) != known.end()) continue;
            if (std::string guess = cli::nearest(word, known); !guess.empty())
                lines.push_back("did you mean " + guess + " for " + word + "?");
        }
        return lines;
    }

    std::string program_;
    CLI::App app_;
    bool bare_key_value_ = false;
};

} // namespace flashxxl::bench
