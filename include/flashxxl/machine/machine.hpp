// A machine: named devices (real or emulated, flash or hdd) plus a placement policy.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/device/host_model.hpp"
#include "flashxxl/device/memory_backing_budget.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/device.hpp"
#include "flashxxl/machine/extent.hpp"
#include "flashxxl/machine/machine_config.hpp"
#include "flashxxl/machine/machine_spec.hpp"
#include "flashxxl/machine/placement_policy.hpp"
#include "flashxxl/machine/presets.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! A set of devices and the policy that places blocks on them by role. Several machines may
//! live in one process; each device has its own STXXL queue and allocator. Nothing here is a
//! process-wide singleton. Movable, not copyable. allocate / release are thread-safe.
class machine {
public:
    //! Builds every device of the spec; the first bad line throws config_error naming it. A build
    //! that fails removes every backing file it created, keep=on or not (keep=on keeps the file
    //! of a machine that was built); the placement is checked before any device is made.
    explicit machine(const machine_spec& spec);

    //! One of the embedded presets (machine_presets()): hybrid-2009, two-hdd-2009, modern.
    static machine from_preset(const std::string& name, const machine_options& opts = {});
    //! A config text (see parse_machine_config); `origin` names it in errors.
    static machine from_config_text(const std::string& text, const std::string& origin = "<config>");
    //! A config file.
    static machine from_config_file(const std::string& path);

    machine(machine&&) noexcept;
    machine& operator=(machine&&) noexcept;
    ~machine();

    const std::string& name() const { return name_; }
    std::size_t device_count() const { return devices_.size(); }
    device& dev(std::size_t i);
    const device& dev(std::size_t i) const;
    //! The device with this name; config_error listing the names if there is none.
    device& dev(const std::string& device_name);

    placement_policy& placement() { return *placement_; }
    //! Replaces the placement policy (e.g. a user policy object).
    void set_placement(std::unique_ptr<placement_policy> policy);

    //! Reserves `bytes` for a block of role `r`; the placement policy picks the device from
    //! (r, block_index). Throws out_of_space naming the device and the role when it is full. The range goes
    //! back to its device when the returned owner is destroyed. With a `meter` (a named
    //! structure's, memory_account::meter()), the device counts every request on the range into it.
    owned_extent allocate(role r, std::uint64_t bytes, std::uint64_t block_index = 0,
                          structure_meter* meter = nullptr);

    //! The block sizes a container or algorithm of role `r` uses when it is given none: those
    //! of the device the placement policy puts the role on (config br= / bw=, see
    //! device::blocks()). When the role spans several devices (random striping, a class with
    //! two disks), the largest Br and the largest Bw among them, Bw rounded up to a multiple of
    //! Br: every device then gets reads and writes at least as large as its own sizes.
    block_sizes block_sizes_for(role r) const;

    //! Bytes that blocks of role `r` can still get: the free space of the devices the placement
    //! policy may put the role on, where those are memory-backed no more than the machine's
    //! memory-backing budget has left (an emulated 32 GiB disk on a 24 GiB host holds less than
    //! its capacity). An upper bound, for refusing work that cannot fit before it starts; the
    //! sums saturate at 2^64 - 1 instead of wrapping.
    std::uint64_t room_for(role r) const;

    //! What the placement policy sees.
    std::vector<placement_device> placement_view() const;
    //! "static_data -> ssd; hot, scratch, stream -> hdd" and the like.
    std::string describe_placement() const;

    //! Stats of every device, in device order.
    std::vector<device_stats> stats() const;
    //! The largest modelled busy time of any device: the modelled time of an I/O-bound run
    //! whose devices work in parallel.
    double max_busy_seconds() const;

    //! True when any device has a model, so requests move the virtual clock.
    bool has_modelled_device() const {
        for (const auto& d : devices_)
            if (d->model() != nullptr) return true;
        return false;
    }
    //! The virtual clock all devices are scheduled on (see modelled_clock).
    modelled_clock& clock() { return *clock_; }
    //! The host's modelled elapsed time and I/O wait since the machine was built.
    modelled_time modelled() const;
    //! The host model (config host=): CPU seconds per item that the containers charge.
    const host_model& host() const { return host_; }
    //! Replaces the host model (e.g. one fitted for an experiment), before the containers that
    //! charge it are made: they read its costs when they are constructed.
    void set_host(const host_model& h) { host_ = h; }
    //! Charges `items` x `seconds_per_item` of host CPU on the virtual clock (nothing when 0).
    void charge_host(std::uint64_t items, double seconds_per_item) {
        if (seconds_per_item > 0 && items > 0) clock_->compute(double(items) * seconds_per_item);
    }
    //! When the last submitted request of any device ends on the virtual clock (at least now).
    double modelled_horizon_s() const;

private:
    //! The devices the placement policy may put role `r` on (its devices_for), under the lock.
    std::vector<std::size_t> devices_for(role r) const;
    void check_placement();
    //! Asks the policy once per role so that a bad device name fails now, not mid-run.
    void check_placement_locked(placement_policy& policy) const;

    std::string name_;
    host_model host_;
    std::unique_ptr<modelled_clock> clock_;                // before devices_: they keep a pointer to it
    std::unique_ptr<memory_backing_budget> memory_budget_; // the same
    std::vector<std::unique_ptr<device>> devices_;
    std::unique_ptr<placement_policy> placement_;
    std::unique_ptr<std::mutex> lock_;
};

} // namespace flashxxl
