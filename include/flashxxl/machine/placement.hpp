// Placement policies: which device of a machine gets a block, decided by the block's role.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/machine/placement_policy.hpp"
#include "flashxxl/machine/placement_registry.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

namespace detail {
//! Among `candidates`, the one for block_index (round robin), preferring devices with room.
inline std::size_t pick_round_robin(const std::vector<std::size_t>& candidates, std::uint64_t block_index,
                                    std::uint64_t bytes, const std::vector<placement_device>& devices) {
    std::size_t n = candidates.size();
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t i = candidates[(block_index + k) % n];
        if (devices[i].free_bytes >= bytes) return i;
    }
    return candidates[block_index % n];
}
inline std::string names_of(const std::vector<std::size_t>& idx, const std::vector<placement_device>& d) {
    std::string s;
    for (std::size_t i : idx)
        s += (s.empty() ? "" : ",") + d[i].name;
    return s.empty() ? "-" : s;
}
} // namespace detail

//! The baseline of seeds/000 Table 4.1: each block to a device chosen uniformly at random
//! (among those with room), whatever its role. Deterministic for a given seed.
class random_striping : public placement_policy {
public:
    explicit random_striping(std::uint64_t seed = 1) : rng_(seed) {}
    std::string name() const override { return "random_striping"; }
    std::string describe(const std::vector<placement_device>&) const override {
        return "every block to a uniformly random device";
    }
    std::size_t choose(role, std::uint64_t, std::uint64_t bytes,
                       const std::vector<placement_device>& devices) override {
        std::vector<std::size_t> fits;
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (devices[i].free_bytes >= bytes) fits.push_back(i);
        const std::size_t n = fits.empty() ? devices.size() : fits.size();
        // Unbiased bounded integer by rejection (portable, unlike std::uniform_int_distribution,
        // whose output differs between standard libraries).
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t x = rng_();
        while (x >= limit)
            x = rng_();
        std::uint64_t pick = x % n;
        return fits.empty() ? pick : fits[pick];
    }

private:
    std::mt19937_64 rng_;
};

//! seeds/000 Section 4: static_data (written once, read randomly) on flash, everything else
//! (hot, scratch, stream) on hard disks. When a machine lacks one class, that class's roles go
//! to all devices. Blocks of a role rotate round-robin over the devices of its class.
class flash_aware : public placement_policy {
public:
    std::string name() const override { return "flash_aware"; }
    std::string describe(const std::vector<placement_device>& devices) const override {
        return "static_data -> " + detail::names_of(candidates(role::static_data, devices), devices) +
               "; hot, scratch, stream -> " + detail::names_of(candidates(role::hot, devices), devices);
    }
    std::size_t choose(role r, std::uint64_t block_index, std::uint64_t bytes,
                       const std::vector<placement_device>& devices) override {
        return detail::pick_round_robin(candidates(r, devices), block_index, bytes, devices);
    }
    std::vector<std::size_t> devices_for(role r,
                                         const std::vector<placement_device>& devices) const override {
        return candidates(r, devices);
    }

private:
    static std::vector<std::size_t> candidates(role r, const std::vector<placement_device>& devices) {
        device_class want = r == role::static_data ? device_class::flash : device_class::hdd;
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (devices[i].klass == want) out.push_back(i);
        if (out.empty())
            for (std::size_t i = 0; i < devices.size(); ++i)
                out.push_back(i);
        return out;
    }
};

//! Everything on one named device.
class single_device : public placement_policy {
public:
    explicit single_device(std::string device) : device_(std::move(device)) {}
    std::string name() const override { return "single"; }
    std::string describe(const std::vector<placement_device>&) const override {
        return "everything -> " + device_;
    }
    std::size_t choose(role, std::uint64_t, std::uint64_t,
                       const std::vector<placement_device>& devices) override {
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (devices[i].name == device_) return i;
        throw config_error("placement single: no device named '" + device_ + "'");
    }
    std::vector<std::size_t> devices_for(role, const std::vector<placement_device>& devices) const override {
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (devices[i].name == device_) return {i};
        throw config_error("placement single: no device named '" + device_ + "'");
    }

private:
    std::string device_;
};

//! An explicit device list per role (round robin within a list); roles without a list use
//! every device.
class per_role_placement : public placement_policy {
public:
    //! \param lists role -> device names (validated against the machine on first use)
    explicit per_role_placement(std::map<role, std::vector<std::string>> lists) : lists_(std::move(lists)) {}
    std::string name() const override { return "per_role"; }
    std::string describe(const std::vector<placement_device>& devices) const override {
        std::string s;
        for (role r : all_roles)
            s += std::string(s.empty() ? "" : "; ") + to_string(r) + " -> " +
                 detail::names_of(candidates(r, devices), devices);
        return s;
    }
    std::size_t choose(role r, std::uint64_t block_index, std::uint64_t bytes,
                       const std::vector<placement_device>& devices) override {
        return detail::pick_round_robin(candidates(r, devices), block_index, bytes, devices);
    }
    std::vector<std::size_t> devices_for(role r,
                                         const std::vector<placement_device>& devices) const override {
        return candidates(r, devices);
    }

private:
    std::vector<std::size_t> candidates(role r, const std::vector<placement_device>& devices) const {
        std::vector<std::size_t> out;
        auto it = lists_.find(r);
        if (it == lists_.end()) {
            for (std::size_t i = 0; i < devices.size(); ++i)
                out.push_back(i);
            return out;
        }
        for (const std::string& name : it->second) {
            std::size_t i = 0;
            while (i < devices.size() && devices[i].name != name)
                ++i;
            if (i == devices.size())
                throw config_error("placement per_role: role " + std::string(to_string(r)) +
                                   " names device '" + name + "', which the machine does not have");
            out.push_back(i);
        }
        return out;
    }
    std::map<role, std::vector<std::string>> lists_;
};

//! A user-supplied policy from a callable.
class function_placement : public placement_policy {
public:
    using chooser = std::function<std::size_t(role, std::uint64_t block_index, std::uint64_t bytes,
                                              const std::vector<placement_device>&)>;
    function_placement(std::string name, chooser f) : name_(std::move(name)), f_(std::move(f)) {}
    std::string name() const override { return name_; }
    std::string describe(const std::vector<placement_device>&) const override {
        return "user policy " + name_;
    }
    std::size_t choose(role r, std::uint64_t block_index, std::uint64_t bytes,
                       const std::vector<placement_device>& devices) override {
        std::size_t i = f_(r, block_index, bytes, devices);
        if (i >= devices.size())
            throw config_error("placement " + name_ + ": chose device index " + std::to_string(i) +
                               " of a machine with " + std::to_string(devices.size()) + " devices");
        return i;
    }

private:
    std::string name_;
    chooser f_;
};

} // namespace flashxxl
