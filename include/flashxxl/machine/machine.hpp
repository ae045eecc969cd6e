// A machine: named devices (real or emulated, flash or hdd) plus a placement policy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/device.hpp"
#include "flashxxl/machine/extent.hpp"
#include "flashxxl/machine/machine_config.hpp"
#include "flashxxl/machine/machine_spec.hpp"
#include "flashxxl/machine/placement.hpp"
#include "flashxxl/machine/presets.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! A set of devices and the policy that places blocks on them by role. Several machines may
//! live in one process; each device has its own STXXL queue and allocator. Nothing here is a
//! process-wide singleton. Movable, not copyable. allocate / release are thread-safe.
class machine {
public:
    //! Builds every device of the spec; the first bad line throws config_error naming it.
    explicit machine(const machine_spec& spec)
        : name_(spec.name), clock_(std::make_unique<modelled_clock>()), lock_(std::make_unique<std::mutex>()) {
        for (const device_spec& d : spec.devices) devices_.push_back(std::make_unique<device>(d, clock_.get()));
        try {
            placement_ = make_placement(spec.placement.policy, spec.placement.options);
            check_placement();
        } catch (const config_error& e) {
            throw config_error((spec.placement.origin.empty() ? spec.origin : spec.placement.origin) + ": " +
                               e.what());
        }
    }

    //! One of the embedded presets (machine_presets()): hybrid-2009, two-hdd-2009, modern.
    static machine from_preset(const std::string& name, const machine_options& opts = {}) {
        return machine(preset_machine_spec(name, opts));
    }
    //! A config text (see parse_machine_config); `origin` names it in errors.
    static machine from_config_text(const std::string& text, const std::string& origin = "<config>") {
        return machine(parse_machine_config(text, origin));
    }
    //! A config file.
    static machine from_config_file(const std::string& path) { return machine(load_machine_config(path)); }

    machine(machine&&) noexcept = default;
    machine& operator=(machine&&) noexcept = default;

    const std::string& name() const { return name_; }
    std::size_t device_count() const { return devices_.size(); }
    device& dev(std::size_t i) {
        if (i >= devices_.size())
            throw config_error("machine '" + name_ + "' has no device #" + std::to_string(i));
        return *devices_[i];
    }
    const device& dev(std::size_t i) const { return *devices_.at(i); }
    //! The device with this name; config_error listing the names if there is none.
    device& dev(const std::string& device_name) {
        for (auto& d : devices_)
            if (d->name() == device_name) return *d;
        std::string names;
        for (auto& d : devices_) names += (names.empty() ? "" : ", ") + d->name();
        throw config_error("machine '" + name_ + "' has no device '" + device_name + "' (it has " + names + ")");
    }

    placement_policy& placement() { return *placement_; }
    //! Replaces the placement policy (e.g. a user policy object).
    void set_placement(std::unique_ptr<placement_policy> policy) {
        std::lock_guard<std::mutex> lock(*lock_);
        check_placement_locked(*policy);  // a bad policy is refused and the old one stays
        placement_ = std::move(policy);
    }

    //! Reserves `bytes` for a block of role `r`; the placement policy picks the device from
    //! (r, block_index). Throws out_of_space naming the device when it is full. The range goes
    //! back to its device when the returned owner is destroyed.
    owned_extent allocate(role r, std::uint64_t bytes, std::uint64_t block_index = 0) {
        std::lock_guard<std::mutex> lock(*lock_);
        std::size_t i = placement_->choose(r, block_index, bytes, placement_view());
        if (i >= devices_.size())
            throw config_error("placement " + placement_->name() + " chose device #" + std::to_string(i) +
                               " of machine '" + name_ + "'");
        device& d = *devices_[i];
        std::uint64_t offset = d.allocator().allocate(bytes);
        return owned_extent(extent{&d, offset, bytes, r});
    }

    //! The block sizes a container or algorithm of role `r` uses when it is given none: those
    //! of the device the placement policy puts the role on (config br= / bw=, see
    //! device::blocks()). When the role spans several devices (random striping, a class with
    //! two disks), the largest Br and the largest Bw among them, Bw rounded up to a multiple of
    //! Br: every device then gets reads and writes at least as large as its own sizes.
    block_sizes block_sizes_for(role r) const {
        std::vector<std::size_t> on;
        {
            std::lock_guard<std::mutex> lock(*lock_);
            on = placement_->devices_for(r, placement_view());
        }
        if (on.empty()) return block_sizes();
        std::uint64_t br = 0, bw = 0;
        for (std::size_t i : on) {
            block_sizes b = devices_.at(i)->blocks();
            br = std::max(br, b.br);
            bw = std::max(bw, b.bw);
        }
        return block_sizes(br, block_sizes::whole_reads_bw(br, bw));
    }

    //! What the placement policy sees.
    std::vector<placement_device> placement_view() const {
        std::vector<placement_device> v;
        for (const auto& d : devices_)
            v.push_back({d->name(), d->klass(), d->capacity(), d->allocator().free_bytes()});
        return v;
    }
    //! "static_data -> ssd; hot, scratch, stream -> hdd" and the like.
    std::string describe_placement() const { return placement_->name() + ": " + placement_->describe(placement_view()); }

    //! Stats of every device, in device order.
    std::vector<device_stats> stats() const {
        std::vector<device_stats> v;
        for (const auto& d : devices_) v.push_back(d->stats());
        return v;
    }
    //! The largest modelled busy time of any device: the modelled time of an I/O-bound run
    //! whose devices work in parallel.
    double max_busy_seconds() const {
        double m = 0;
        for (const auto& d : devices_) m = std::max(m, d->busy_seconds());
        return m;
    }

    //! The virtual clock all devices are scheduled on (see modelled_clock).
    modelled_clock& clock() { return *clock_; }
    //! The host's modelled elapsed time and I/O wait since the machine was built.
    modelled_time modelled() const { return clock_->time(); }
    //! When the last submitted request of any device ends on the virtual clock (at least now).
    double modelled_horizon_s() const {
        double h = clock_->now();
        for (const auto& d : devices_) h = std::max(h, d->free_at_s());
        return h;
    }

private:
    void check_placement() {
        std::lock_guard<std::mutex> lock(*lock_);
        check_placement_locked(*placement_);
    }
    //! Asks the policy once per role so that a bad device name fails now, not mid-run.
    void check_placement_locked(placement_policy& policy) const {
        if (dynamic_cast<random_striping*>(&policy)) return;  // keep its random stream untouched
        auto view = placement_view();
        for (role r : all_roles) {
            std::size_t i = policy.choose(r, 0, 0, view);
            if (i >= devices_.size())
                throw config_error("placement " + policy.name() + " chose device #" + std::to_string(i) +
                                   " of machine '" + name_ + "'");
        }
    }

    std::string name_;
    std::unique_ptr<modelled_clock> clock_;  // before devices_: they keep a pointer to it
    std::vector<std::unique_ptr<device>> devices_;
    std::unique_ptr<placement_policy> placement_;
    std::unique_ptr<std::mutex> lock_;
};

} // namespace flashxxl
