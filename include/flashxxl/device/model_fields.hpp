// A device model's parameters declared once: a range per field; visitors parse, list and check them.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/model_number_format.hpp"
#include "flashxxl/device/model_params.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl {

//! The values a parameter may take on its own (bounds that depend on other parameters, such as
//! open_logs <= capacity / chunk, are checked by the model's validate()).
struct model_field_range {
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    bool lo_open = false;
    bool hi_open = false;

    //! Any value.
    static model_field_range any() { return {}; }
    //! > lo.
    static model_field_range above(double lo) { return {lo, hi_inf(), true, false}; }
    //! >= lo.
    static model_field_range at_least(double lo) { return {lo, hi_inf(), false, false}; }
    //! [lo, hi].
    static model_field_range closed(double lo, double hi) { return {lo, hi, false, false}; }
    //! (lo, hi).
    static model_field_range open(double lo, double hi) { return {lo, hi, true, true}; }
    //! (lo, hi].
    static model_field_range left_open(double lo, double hi) { return {lo, hi, true, false}; }

    //! Whether `v` lies in the range (NaN never does).
    bool contains(double v) const { return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi); }
    //! "must be > 0", "must be >= 0" or "must lie in (0, 1000]".
    std::string requirement() const {
        if (std::isinf(hi))
            return std::string("must be ") + (lo_open ? "> " : ">= ") + format_model_number(lo);
        return std::string("must lie in ") + (lo_open ? "(" : "[") + format_model_number(lo) + ", " +
               format_model_number(hi) + (hi_open ? ")" : "]");
    }
    //! The least and the greatest whole number in the range, for model_params::take_count.
    std::uint64_t min_count() const { return std::isinf(lo) || lo < 0 ? 0 : std::uint64_t(lo); }
    std::uint64_t max_count() const {
        return std::isinf(hi) ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(hi);
    }

private:
    static double hi_inf() { return std::numeric_limits<double>::infinity(); }
};

//! Reads each field from key=value overrides (its current value is the default); a count's
//! range is enforced while parsing, naming the range.
class model_field_reader {
public:
    explicit model_field_reader(model_params& p) : p_(p) {}
    //! A byte size in IEC units.
    void size(const char* key, std::uint64_t& v, const model_field_range&, const char*) {
        v = p_.take_size(key, v);
    }
    //! A whole number in decimal digits.
    void count(const char* key, std::uint64_t& v, const model_field_range& r, const char*) {
        v = p_.take_count(key, v, r.min_count(), r.max_count());
    }
    //! A finite number in the unit its key names.
    void number(const char* key, double& v, const model_field_range&, const char*) {
        v = p_.take_number(key, v);
    }

private:
    model_params& p_;
};

//! Lists each field as key=value text that model_field_reader reads back to the same value.
class model_field_lister {
public:
    void size(const char* key, std::uint64_t v, const model_field_range&, const char*) {
        out.emplace_back(key, format_model_size(v));
    }
    void count(const char* key, std::uint64_t v, const model_field_range&, const char*) {
        out.emplace_back(key, std::to_string(v));
    }
    void number(const char* key, double v, const model_field_range&, const char*) {
        out.emplace_back(key, format_model_number(v));
    }
    std::vector<std::pair<std::string, std::string>> out; //!< in the order the fields are declared
};

//! Checks each field against its range: config_error "device model M: parameter 'K' must ..."
//! (a count names its value: "parameter 'n_ws' = 2000 must lie in [0, 1024]").
class model_field_checker {
public:
    explicit model_field_checker(const std::string& model) : model_(model) {}
    void size(const char* key, std::uint64_t v, const model_field_range& r, const char*) {
        if (!r.contains(double(v))) fail(key, "", r);
    }
    void count(const char* key, std::uint64_t v, const model_field_range& r, const char*) {
        if (v < r.min_count() || v > r.max_count()) fail(key, " = " + std::to_string(v), r);
    }
    void number(const char* key, double v, const model_field_range& r, const char*) {
        if (!r.contains(v)) fail(key, "", r);
    }

private:
    [[noreturn]] void fail(const char* key, const std::string& value, const model_field_range& r) const {
        throw config_error("device model " + model_ + ": parameter '" + key + "'" + value + " " +
                           r.requirement());
    }
    const std::string& model_;
};

//! Reads `c`'s fields from `p` through Config::visit_fields.
template <class Config> void take_model_fields(Config& c, model_params& p) {
    model_field_reader reader(p);
    Config::visit_fields(c, reader);
}

//! `c`'s fields as key=value text, in declaration order.
template <class Config> std::vector<std::pair<std::string, std::string>> list_model_fields(const Config& c) {
    model_field_lister lister;
    Config::visit_fields(c, lister);
    return std::move(lister.out);
}

//! Checks each of `c`'s fields against its range (config_error naming `model`).
template <class Config> void check_model_fields(const Config& c, const std::string& model) {
    model_field_checker checker(model);
    Config::visit_fields(c, checker);
}

} // namespace flashxxl
