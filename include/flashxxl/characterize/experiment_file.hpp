// Parser of the line-based experiment file: `verb key=value ...`, `#` comments.
#pragma once

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/comma_list.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/text_checks.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::characterize {

namespace detail {

//! The keys one line offers, consumed by name; anything left over is an error.
class line_keys {
public:
    line_keys(const std::string& origin, std::size_t line) : origin_(origin), line_(line) {}

    void add(const std::string& key, const std::string& value) {
        if (!values_.emplace(key, value).second) fail(key, "given twice");
    }
    bool has(const std::string& key) const { return values_.count(key) != 0; }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw config_error(origin_, line_, key, what);
    }
    std::string text(const std::string& key, const std::string& fallback) {
        used_.insert(key);
        auto it = values_.find(key);
        return it == values_.end() ? fallback : it->second;
    }
    std::uint64_t size(const std::string& key, std::uint64_t fallback) {
        std::string v = text(key, "");
        if (v.empty() && !has(key)) return fallback;
        try {
            return parse_size(v);
        } catch (const config_error& e) {
            fail(key, e.what());
        }
    }
    std::uint64_t count(const std::string& key, std::uint64_t fallback) {
        std::string v = text(key, "");
        if (!has(key)) return fallback;
        std::uint64_t n = 0;
        if (v.empty() || v.size() > 18) fail(key, "expected a non-negative integer, got '" + v + "'");
        for (char c : v) {
            if (!std::isdigit(static_cast<unsigned char>(c)))
                fail(key, "expected a non-negative integer, got '" + v + "'");
            n = n * 10 + static_cast<std::uint64_t>(c - '0');
        }
        return n;
    }
    std::int64_t integer(const std::string& key, std::int64_t fallback) {
        std::string v = text(key, "");
        if (!has(key)) return fallback;
        bool neg = !v.empty() && v[0] == '-';
        std::string digits = neg ? v.substr(1) : v;
        if (digits.empty() || digits.size() > 17) fail(key, "expected an integer, got '" + v + "'");
        std::int64_t n = 0;
        for (char c : digits) {
            if (!std::isdigit(static_cast<unsigned char>(c)))
                fail(key, "expected an integer, got '" + v + "'");
            n = n * 10 + (c - '0');
        }
        return neg ? -n : n;
    }
    //! Seconds: "30", "30s", "100ms", "250us".
    double seconds(const std::string& key, double fallback) {
        std::string v = text(key, "");
        if (!has(key)) return fallback;
        double scale = 1;
        std::string num = v;
        auto ends = [&](const char* suf) {
            std::string s(suf);
            return num.size() > s.size() && num.compare(num.size() - s.size(), s.size(), s) == 0;
        };
        if (ends("ms"))
            scale = 1e-3, num.resize(num.size() - 2);
        else if (ends("us"))
            scale = 1e-6, num.resize(num.size() - 2);
        else if (ends("s"))
            num.resize(num.size() - 1);
        double x = 0;
        try {
            x = parse_number(num);
        } catch (const config_error&) {
            fail(key, "expected a time in seconds (e.g. 30, 30s, 100ms), got '" + v + "'");
        }
        if (!(x >= 0) || !std::isfinite(x) || x > 1e7)
            fail(key, "expected a time between 0 and 1e7 s, got '" + v + "'");
        return x * scale;
    }
    double fraction(const std::string& key, double fallback) {
        std::string v = text(key, "");
        if (!has(key)) return fallback;
        double x = 0;
        try {
            x = parse_number(v);
        } catch (const config_error&) {
            fail(key, "expected a number between 0 and 1, got '" + v + "'");
        }
        if (!(x > 0 && x <= 1)) fail(key, "expected a number in (0, 1], got '" + v + "'");
        return x;
    }
    bool flag(const std::string& key, bool fallback) {
        std::string v = text(key, "");
        if (!has(key)) return fallback;
        if (v == "yes" || v == "true" || v == "1" || v == "on") return true;
        if (v == "no" || v == "false" || v == "0" || v == "off") return false;
        fail(key, "expected yes or no, got '" + v + "'");
    }
    //! fail(key, what) from finish(), after the check for unknown keys: a key the verb does not
    //! know (`foo=1`, a typo of `count=`) explains more than a rule its absence seems to break.
    void fail_at_finish(const std::string& key, const std::string& what) {
        if (deferred_key_.empty()) deferred_key_ = key, deferred_what_ = what;
    }
    //! Throws for the first key no reader asked for, listing the keys the verb knows; then for a
    //! failure fail_at_finish() kept.
    void finish(const std::string& verb) const {
        for (const auto& kv : values_)
            if (!used_.count(kv.first)) {
                std::string known;
                for (const auto& k : used_)
                    known += (known.empty() ? "" : ", ") + k;
                fail(kv.first, "unknown key for verb '" + verb + "' (known: " + known + ")");
            }
        if (!deferred_key_.empty()) fail(deferred_key_, deferred_what_);
    }

private:
    std::string origin_;
    std::size_t line_;
    std::map<std::string, std::string> values_;
    std::set<std::string> used_;
    std::string deferred_key_, deferred_what_; // fail_at_finish()
};

inline io_op parse_op(line_keys& k, const std::string& key, const std::string& fallback) {
    std::string v = k.text(key, fallback);
    if (v == "read" || v == "r") return io_op::read;
    if (v == "write" || v == "w") return io_op::write;
    k.fail(key, "expected read or write, got '" + v + "'");
}

//! SR / RR / SW / RW, optionally "@SIZE" for random offsets at that granularity.
inline sweep_pattern parse_baseline(line_keys& k, const std::string& key, const std::string& code) {
    std::string base = code, gran;
    auto at = code.find('@');
    if (at != std::string::npos) base = code.substr(0, at), gran = code.substr(at + 1);
    sweep_pattern p;
    if (base == "SR")
        p = {io_op::read, false, 0};
    else if (base == "RR")
        p = {io_op::read, true, 0};
    else if (base == "SW")
        p = {io_op::write, false, 0};
    else if (base == "RW")
        p = {io_op::write, true, 0};
    else
        k.fail(key, "unknown pattern '" + code + "' (expected SR, RR, SW, RW, optionally RR@SIZE / RW@SIZE)");
    if (!gran.empty()) {
        if (!p.random) k.fail(key, "'" + code + "': a granularity applies to random patterns only");
        try {
            p.granularity = parse_size(gran);
        } catch (const config_error& e) {
            k.fail(key, e.what());
        }
        if (p.granularity == 0) k.fail(key, "'" + code + "': granularity must be positive");
    }
    return p;
}

inline void parse_pattern(line_keys& k, io_pattern& p, const std::string& prefix) {
    p.op = parse_op(k, prefix + "op", "read");
    std::string order = k.text(prefix + "order", "seq");
    p.incr = 1;
    if (order == "seq" || order == "sequential")
        p.order = address_order::ordered;
    else if (order == "rand" || order == "random")
        p.order = address_order::random;
    else if (order == "reverse")
        p.order = address_order::ordered, p.incr = -1;
    else if (order == "inplace" || order == "in-place")
        p.order = address_order::ordered, p.incr = 0;
    else if (order == "ordered")
        p.order = address_order::ordered;
    else if (order == "partitioned")
        p.order = address_order::partitioned;
    else
        k.fail(prefix + "order",
               "expected seq, rand, reverse, inplace, ordered or partitioned, got '" + order + "'");
    if (order == "ordered") p.incr = k.integer(prefix + "incr", 1);
    if (p.order == address_order::partitioned) p.partitions = k.count(prefix + "partitions", 2);
    p.block = k.size(prefix + "block", 4 * KiB);
    if (p.order == address_order::random) {
        p.granularity = k.size(prefix + "granularity", 0);
        if (k.has(prefix + "granularity") && p.granularity == 0)
            k.fail(prefix + "granularity",
                   "must be positive (leave it out for offsets aligned to the block)");
    }
    p.shift = k.size(prefix + "shift", 0);
    p.parallel = k.count(prefix + "parallel", 1);
    if (p.order == address_order::ordered) p.random_start = k.flag(prefix + "random_start", false);
}

inline void parse_span(line_keys& k, io_pattern& p) {
    p.offset = k.size("offset", 0);
    std::string s = k.text("span", "all");
    if (s == "all")
        p.span = 0;
    else
        p.span = k.size("span", 0);
    if (k.has("span") && s != "all" && p.span == 0) k.fail("span", "must be positive (or 'all')");
}

inline void parse_limits(line_keys& k, experiment_step& s, bool need_limit) {
    s.count = k.count("count", 0);
    s.time_s = k.seconds("time", 0);
    if (need_limit && s.count == 0 && s.time_s == 0)
        k.fail_at_finish("count", "a run needs count=N or time=SECONDS (or both; the first reached ends it)");
    s.repeat = k.count("repeat", 1);
    if (s.repeat == 0 || s.repeat > 1000) k.fail("repeat", "expected 1 .. 1000");
}

} // namespace detail

//! Parses one non-empty, non-comment line. Throws config_error "origin:line: field 'key': ...".
inline experiment_step parse_experiment_line(const std::string& text, const std::string& origin,
                                             std::size_t line) {
    std::istringstream in(text);
    std::string verb, tok;
    in >> verb;
    detail::line_keys k(origin, line);
    for (std::string previous = verb; in >> tok; previous = tok) {
        auto eq = tok.find('=');
        if (eq == std::string::npos || eq == 0) {
            if (std::string split = split_value_problem(previous, tok); !split.empty())
                throw config_error(origin, line, previous.substr(0, previous.find('=')), split);
            throw config_error(origin, line, "", "expected key=value, got '" + tok + "'");
        }
        k.add(tok.substr(0, eq), tok.substr(eq + 1));
    }
    experiment_step s;
    s.origin = origin;
    s.line = line;
    s.text = text;
    s.seed = k.count("seed", 1);
    s.label = k.text("label", "");

    if (verb == "fill") {
        s.kind = step_kind::fill;
        s.pattern.op = io_op::write;
        s.pattern.block = k.size("block", MiB);
        detail::parse_span(k, s.pattern);
    } else if (verb == "random_state") {
        s.kind = step_kind::random_state;
        s.pattern.op = io_op::write;
        detail::parse_span(k, s.pattern);
        s.state_min = k.size("min", 512);
        s.state_max = k.size("max", 128 * KiB);
        s.state_bytes = k.size("bytes", 0);
        if (s.state_min == 0 || s.state_min > s.state_max) k.fail("min", "expected 0 < min <= max");
    } else if (verb == "run") {
        s.kind = step_kind::run;
        detail::parse_pattern(k, s.pattern, "");
        detail::parse_span(k, s.pattern);
        detail::parse_limits(k, s, true);
        std::string ig = k.text("ignore", "0");
        if (ig == "auto")
            s.ignore_auto = true;
        else
            s.ignore = k.count("ignore", 0);
        s.pause_s = k.seconds("pause", 0);
        s.burst_size = k.count("burst", 0);
        s.between_s = k.seconds("between", 0);
        if (k.has("mix")) {
            std::string code = k.text("mix", "");
            sweep_pattern b = detail::parse_baseline(k, "mix", code);
            s.has_mix = true;
            s.mix = s.pattern;
            s.mix.op = b.op;
            s.mix.order = b.random ? address_order::random : address_order::ordered;
            s.mix.incr = 1;
            s.mix.granularity = b.granularity;
            s.mix.partitions = 1;
            s.ratio = k.count("ratio", 1);
            if (s.ratio == 0) k.fail("ratio", "must be at least 1");
        }
    } else if (verb == "sweep") {
        s.kind = step_kind::sweep;
        std::vector<std::string> codes;
        try { // every list's rules: no empty entry, no pattern twice
            codes = parse_comma_list("the list", k.text("patterns", "SR,RR,SW,RW"));
        } catch (const config_error& e) {
            k.fail("patterns", e.what());
        }
        for (const std::string& code : codes)
            s.sweep_patterns.push_back(detail::parse_baseline(k, "patterns", code));
        detail::parse_span(k, s.pattern);
        s.from = k.size("from", 512);
        s.to = k.size("to", 8 * MiB);
        s.max_block = k.size("max", 256 * MiB);
        if (s.from == 0 || s.from > s.to) k.fail("from", "expected 0 < from <= to");
        if (s.max_block < s.to) k.fail("max", "expected max >= to");
        if (s.max_block > TiB) k.fail("max", "expected at most 1TiB");
        s.self_scale = k.flag("selfscale", true);
        s.self_scale_rise = k.fraction("rise", 0.025);
        std::string f = k.text("fill", "none");
        s.fill_block = f == "none" ? 0 : k.size("fill", 0);
        detail::parse_limits(k, s, true);
    } else if (verb == "burst") {
        s.kind = step_kind::burst;
        detail::parse_span(k, s.pattern);
        s.pattern.op = io_op::write;
        s.pattern.block = k.size("seq_block", 64 * KiB);
        std::string bb = k.text("burst_block", "2KiB");
        s.burst_block = bb == "same" ? 0 : k.size("burst_block", 2 * KiB);
        s.burst_time_s = k.seconds("burst_time", 5);
        s.windows = k.count("windows", 30);
        s.window_s = k.seconds("window", 4);
        if (s.windows == 0 || s.windows > 100000) k.fail("windows", "expected 1 .. 100000");
        if (s.window_s <= 0) k.fail("window", "must be positive");
        s.recovery_fraction = k.fraction("recovery", 0.6);
        std::string f = k.text("fill", "1MiB");
        s.fill_block = f == "none" ? 0 : k.size("fill", MiB);
    } else if (verb == "stride" || verb == "write_read") {
        s.kind = verb == "stride" ? step_kind::stride : step_kind::write_read;
        s.pattern.op = verb == "stride" ? io_op::read : io_op::write;
        detail::parse_span(k, s.pattern);
        s.pattern.block = k.size("block", 4 * KiB);
        s.length = k.count("length", 8);
        s.stride = k.size("stride", s.pattern.block);
        s.repeat = k.count("repeat", 32);
        if (s.length == 0 || s.length > 1000000) k.fail("length", "expected 1 .. 1000000");
        if (s.repeat == 0 || s.repeat > 100000) k.fail("repeat", "expected 1 .. 100000");
    } else if (verb == "pause") {
        s.kind = step_kind::pause;
        s.time_s = k.seconds("time", 1);
    } else if (verb.empty()) {
        throw config_error(origin, line, "", "empty line");
    } else {
        throw config_error(origin, line, "",
                           "unknown verb '" + verb +
                               "' (expected fill, random_state, run, sweep, burst, stride, "
                               "write_read or pause)");
    }
    k.finish(verb);
    if (s.label.empty()) s.label = verb + "@" + std::to_string(line);
    return s;
}

//! Parses a whole experiment text; `#` starts a comment, blank lines are skipped. A text with
//! no experiment (empty, only comments) or with a NUL byte throws config_error naming it.
inline std::vector<experiment_step> parse_experiments(const std::string& text, const std::string& origin) {
    std::vector<experiment_step> steps;
    std::istringstream in(text);
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::string text_problem = number == 1 ? byte_order_mark_problem(line) : std::string();
        if (text_problem.empty()) text_problem = lone_cr_problem(line);
        if (!text_problem.empty()) throw config_error(origin, number, "", text_problem);
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        bool blank = true;
        for (char c : line)
            if (!std::isspace(static_cast<unsigned char>(c))) blank = false;
        if (blank) continue;
        if (auto nul = line.find('\0'); nul != std::string::npos)
            throw config_error(origin, number, "",
                               "NUL byte at column " + std::to_string(nul + 1) +
                                   " (expected a text file of `verb key=value` lines)");
        steps.push_back(parse_experiment_line(line, origin, number));
    }
    if (steps.empty())
        throw config_error(origin + ": no experiments: " +
                           (number == 0
                                ? std::string("the file is empty")
                                : "its " + std::to_string(number) + " lines are all blank or comments") +
                           " (expected lines such as `sweep patterns=SR,RW count=100`)");
    return steps;
}

//! Reads and parses an experiment file; throws config_error when it cannot be read.
inline std::vector<experiment_step> load_experiments(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw config_error("experiment file '" + path +
                           "' is a directory (expected a file of `verb key=value` lines)");
    std::ifstream in(path);
    if (!in) throw config_error("cannot read experiment file '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_experiments(ss.str(), path);
}

} // namespace flashxxl::characterize
