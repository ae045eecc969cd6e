// Placement policies by name (core library): the table behind config and CLI placement= lines.
#include "flashxxl/machine/placement_registry.hpp"

#include <cstdint>
#include <limits>

#include "flashxxl/machine/placement.hpp"
#include "flashxxl/machine/placement_text.hpp"

#include <sstream>

namespace flashxxl {

namespace {

//! "a, b or c" (or "a, b, c" with `last` ", ").
std::string join(const std::vector<std::string>& items, const std::string& last) {
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : i + 1 == items.size() ? last : ", ") + items[i];
    return s;
}

//! random_striping's seed=: decimal digits only (std::stoull alone takes "-1" as 2^64 - 1, "+1"
//! and " 1" as 1).
std::uint64_t parse_seed(const std::string& text) {
    const std::string expected = "expected a whole number from 0 to 2^64 - 1 in decimal digits";
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        throw config_error("placement random_striping: seed '" + text + "' is not accepted; " + expected);
    std::uint64_t seed = 0;
    for (char c : text) {
        const std::uint64_t digit = std::uint64_t(c - '0');
        if (seed > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            throw config_error("placement random_striping: seed '" + text + "' overflows 64 bits; " +
                               expected);
        seed = seed * 10 + digit;
    }
    return seed;
}

std::unique_ptr<placement_policy> make_random_striping(const placement_options& options) {
    auto it = options.find("seed");
    return std::make_unique<random_striping>(it == options.end() ? 1 : parse_seed(it->second));
}

std::unique_ptr<placement_policy> make_flash_aware(const placement_options&) {
    return std::make_unique<flash_aware>();
}

std::unique_ptr<placement_policy> make_single(const placement_options& options) {
    auto it = options.find("device");
    if (it == options.end() || it->second.empty()) throw config_error("placement single: needs device=NAME");
    return std::make_unique<single_device>(it->second);
}

//! The device names of one per_role list "a,b,c"; none may be empty.
std::vector<std::string> device_list(const std::string& text) {
    std::vector<std::string> names;
    std::string cur;
    for (char c : text + ",") {
        if (c != ',') {
            cur += c;
            continue;
        }
        if (cur.empty()) throw config_error("placement per_role: empty device name in '" + text + "'");
        names.push_back(cur);
        cur.clear();
    }
    return names;
}

std::unique_ptr<placement_policy> make_per_role(const placement_options& options) {
    std::map<role, std::vector<std::string>> lists;
    for (const auto& kv : options) {
        role r;
        try {
            r = parse_role(kv.first);
        } catch (const config_error&) {
            throw config_error("placement per_role: unknown role '" + kv.first +
                               "' (expected static_data, hot, scratch, stream)");
        }
        lists[r] = device_list(kv.second);
    }
    return std::make_unique<per_role_placement>(std::move(lists));
}

//! Refuses a key `entry` does not take, listing those it does.
void check_keys(const placement_entry& entry, const placement_options& options) {
    for (const auto& kv : options) {
        bool ok = false;
        for (const auto& k : entry.keys)
            ok = ok || kv.first == k;
        if (!ok)
            throw config_error("placement " + entry.name + ": unknown option '" + kv.first + "'" +
                               (entry.keys.empty() ? std::string(" (it takes none)")
                                                   : " (expected " + join(entry.keys, ", ") + ")"));
    }
}

} // namespace

const std::vector<placement_entry>& placement_policies() {
    static const std::vector<placement_entry> table = {
        {"random_striping",
         "[seed=N]",
         "every block to a uniformly random device with room (the seeds/000 Table 4.1 baseline)",
         {"seed"},
         make_random_striping},
        {"flash_aware",
         "",
         "static_data on flash devices, hot, scratch, stream on HDDs",
         {},
         make_flash_aware},
        {"single", "device=NAME", "everything on one device", {"device"}, make_single},
        {"per_role",
         "static_data=a,b hot=c ...",
         "explicit lists per role; roles not listed use every device",
         {},
         make_per_role,
         true},
    };
    return table;
}

std::string placement_policy_names() {
    std::vector<std::string> names;
    for (const placement_entry& e : placement_policies())
        names.push_back(e.name);
    return join(names, " or ");
}

std::unique_ptr<placement_policy> make_placement(const std::string& policy,
                                                 const placement_options& options) {
    for (const placement_entry& e : placement_policies()) {
        if (e.name != policy) continue;
        if (!e.any_keys) check_keys(e, options);
        return e.make(options);
    }
    throw config_error("unknown placement policy '" + policy + "' (expected " + placement_policy_names() +
                       ")");
}

placement_spec parse_placement_text(const std::string& text, const std::string& origin) {
    std::istringstream in(text);
    placement_spec spec;
    spec.origin = origin;
    if (!(in >> spec.policy))
        throw config_error(origin + ": expected a placement policy (" + placement_policy_names() +
                           ") and its options, as in 'per_role hot=ssd scratch=ssd'; got nothing");
    spec.options.clear();
    std::string token;
    while (in >> token) {
        const auto eq = token.find('=');
        if (eq == std::string::npos || eq == 0)
            throw config_error(origin + ": placement option '" + token + "' of '" + text +
                               "' is not KEY=VALUE (as in 'per_role hot=ssd')");
        if (!spec.options.emplace(token.substr(0, eq), token.substr(eq + 1)).second)
            throw config_error(origin + ": placement option '" + token.substr(0, eq) + "' given twice in '" +
                               text + "'");
    }
    return spec;
}

} // namespace flashxxl
