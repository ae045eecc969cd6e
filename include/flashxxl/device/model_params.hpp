// Named parameter overrides for a device model, with a check that every one was understood.
#pragma once

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
    //! A non-negative integer count; default when absent.
    std::uint64_t take_count(const std::string& key, std::uint64_t fallback) {
        double v = take_number(key, static_cast<double>(fallback));
        if (v < 0 || v != static_cast<double>(static_cast<std::uint64_t>(v)))
            throw config_error("parameter '" + key + "': expected a non-negative integer, got '" +
                               values_.at(key) + "'");
        return static_cast<std::uint64_t>(v);
    }

    //! Throws config_error if a key was given that no take_* asked for.
    void finish(const std::string& model_name) const {
        std::vector<std::string> unknown;
        for (const auto& kv : values_)
            if (!known_.count(kv.first)) unknown.push_back(kv.first);
        if (unknown.empty()) return;
        std::string msg = "unknown parameter";
        msg += unknown.size() > 1 ? "s " : " ";
        for (std::size_t i = 0; i < unknown.size(); ++i) msg += (i ? ", '" : "'") + unknown[i] + "'";
        msg += " for model " + model_name + "; known parameters:";
        for (const auto& k : known_) msg += " " + k;
        throw config_error(msg);
    }

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> known_;
};

} // namespace flashxxl
