// Named parameter overrides for a device model, with a check that every one was understood.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! key=value overrides for a model (from a machine config line or code). A model's factory
//! takes the keys it knows; `finish()` then throws for any key left over, listing the known
//! ones, so a misspelt parameter is never silently ignored.
class model_params {
public:
    model_params() = default;
    model_params(std::initializer_list<std::pair<const std::string, std::string>> init) : values_(init) {}

    void set(const std::string& key, const std::string& value) { values_[key] = value; }
    bool has(const std::string& key) const { return values_.count(key) != 0; }
    bool empty() const { return values_.empty(); }
    const std::map<std::string, std::string>& values() const { return values_; }

    //! A number (e.g. milliseconds or MiB/s, as the key's name says); default when absent.
    double take_number(const std::string& key, double fallback) {
        known_.insert(key);
        auto it = values_.find(key);
        if (it == values_.end()) return fallback;
        try {
            return parse_number(it->second);
        } catch (const config_error& e) {
            throw config_error("parameter '" + key + "': " + e.what());
        }
    }
    //! A byte size in IEC units (see parse_size); default when absent.
    std::uint64_t take_size(const std::string& key, std::uint64_t fallback) {
        known_.insert(key);
        auto it = values_.find(key);
        if (it == values_.end()) return fallback;
        try {
            return parse_size(it->second);
        } catch (const config_error& e) {
            throw config_error("parameter '" + key + "': " + e.what());
        }
    }
    //! A whole number from `min` to `max` in decimal digits (no sign, exponent or fraction, no
    //! wrap-around); default when absent. config_error naming the key and the range.
    std::uint64_t take_count(const std::string& key, std::uint64_t fallback, std::uint64_t min = 0,
                             std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
        known_.insert(key);
        auto it = values_.find(key);
        if (it == values_.end()) return fallback;
        const std::string& text = it->second;
        const std::string expected =
            "expected a whole number from " + std::to_string(min) + " to " +
            (max == std::numeric_limits<std::uint64_t>::max() ? std::string("2^64 - 1")
                                                              : std::to_string(max));
        const auto refuse = [&](const std::string& why) {
            throw config_error("parameter '" + key + "': '" + text + "' " + why + "; " + expected);
        };
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
            refuse("is not accepted");
        std::uint64_t v = 0;
        for (char c : text) {
            const std::uint64_t digit = std::uint64_t(c - '0');
            if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) refuse("overflows 64 bits");
            v = v * 10 + digit;
        }
        if (v < min || v > max) refuse("is out of range");
        return v;
    }

    //! Throws config_error if a key was given that no take_* asked for.
    void finish(const std::string& model_name) const {
        std::vector<std::string> unknown;
        for (const auto& kv : values_)
            if (!known_.count(kv.first)) unknown.push_back(kv.first);
        if (unknown.empty()) return;
        std::string msg = "unknown parameter";
        msg += unknown.size() > 1 ? "s " : " ";
        for (std::size_t i = 0; i < unknown.size(); ++i)
            msg += (i ? ", '" : "'") + unknown[i] + "'";
        msg += " for model " + model_name + "; known parameters:";
        for (const auto& k : known_)
            msg += " " + k;
        throw config_error(msg);
    }

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> known_;
};

} // namespace flashxxl
