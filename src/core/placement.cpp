// Placement policies by name (core library): the factory behind config and CLI placement= lines.
#include "flashxxl/machine/placement.hpp"

#include <cstdint>
#include <limits>

namespace flashxxl {

std::unique_ptr<placement_policy> make_placement(const std::string& policy,
                                                        const std::map<std::string, std::string>& options) {
    auto unknown = [&](const std::vector<std::string>& known) {
        for (const auto& kv : options) {
            bool ok = false;
            for (const auto& k : known) ok = ok || kv.first == k;
            if (!ok) {
                std::string list;
                for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
                throw config_error("placement " + policy + ": unknown option '" + kv.first + "'" +
                                   (known.empty() ? std::string(" (it takes none)") : " (expected " + list + ")"));
            }
        }
    };
    if (policy == "random_striping") {
        unknown({"seed"});
        auto it = options.find("seed");
        std::uint64_t seed = 1;
        if (it != options.end()) {
            // Decimal digits only: std::stoull alone takes "-1" as 2^64 - 1, "+1" and " 1" as 1.
            const std::string& text = it->second;
            const std::string expected = "expected a whole number from 0 to 2^64 - 1 in decimal digits";
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
                throw config_error("placement random_striping: seed '" + text + "' is not accepted; " + expected);
            seed = 0;
            for (char c : text) {
                const std::uint64_t digit = std::uint64_t(c - '0');
                if (seed > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                    throw config_error("placement random_striping: seed '" + text + "' overflows 64 bits; " + expected);
                seed = seed * 10 + digit;
            }
        }
        return std::make_unique<random_striping>(seed);
    }
    if (policy == "flash_aware") {
        unknown({});
        return std::make_unique<flash_aware>();
    }
    if (policy == "single") {
        unknown({"device"});
        auto it = options.find("device");
        if (it == options.end() || it->second.empty())
            throw config_error("placement single: needs device=NAME");
        return std::make_unique<single_device>(it->second);
    }
    if (policy == "per_role") {
        std::map<role, std::vector<std::string>> lists;
        for (const auto& kv : options) {
            role r;
            try {
                r = parse_role(kv.first);
            } catch (const config_error&) {
                throw config_error("placement per_role: unknown role '" + kv.first +
                                   "' (expected static_data, hot, scratch, stream)");
            }
            std::vector<std::string> names;
            std::string cur;
            for (char c : kv.second + ",") {
                if (c == ',') {
                    if (cur.empty())
                        throw config_error("placement per_role: empty device name in '" + kv.second + "'");
                    names.push_back(cur);
                    cur.clear();
                } else {
                    cur += c;
                }
            }
            lists[r] = names;
        }
        return std::make_unique<per_role_placement>(std::move(lists));
    }
    throw config_error("unknown placement policy '" + policy +
                       "' (expected random_striping, flash_aware, single or per_role)");
}

} // namespace flashxxl
