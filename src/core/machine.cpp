// The machine class's out-of-line parts (core library): building devices, allocation, placement, stats.
#include "flashxxl/machine/machine.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <system_error>

#include <sys/stat.h>

#include "flashxxl/error.hpp"
#include "flashxxl/machine/placement.hpp"
#include "flashxxl/saturating.hpp"

namespace flashxxl {

namespace {

//! What makes two backing files one: the same file (device and inode) when the path exists,
//! else the same absolute path once ".", ".." and linked directories are resolved.
std::string backing_file_identity(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0)
        return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    // Absolute first: weakly_canonical keeps a path relative when its first component does not
    // exist yet, so "x.img" and "$PWD/x.img" were two files to this check.
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    if (ec) return "path " + std::filesystem::path(path).lexically_normal().string();
    std::filesystem::path resolved = std::filesystem::weakly_canonical(absolute, ec);
    if (ec) resolved = absolute.lexically_normal();
    return "path " + resolved.string();
}

//! Two devices on one file would write over each other's blocks (with reuse=on) or, without it,
//! quietly get two files where the config names one: refused, naming both devices.
void refuse_shared_backing_files(const machine_spec& spec) {
    std::vector<std::pair<std::string, const device_spec*>> seen;
    for (const device_spec& d : spec.devices) {
        if (d.io_impl == "memory") continue;
        std::string id = backing_file_identity(d.path);
        for (const auto& [other_id, other] : seen)
            if (other_id == id)
                throw config_error(d.origin + ": device '" + d.name + "': field 'path': '" + d.path +
                                   "' is the backing file of device '" + other->name + "' (" + other->origin +
                                   ", path '" + other->path + "') as well; expected one file per device");
        seen.emplace_back(std::move(id), &d);
    }
}

//! Asks the policy once per role so that a bad device name fails now, not mid-run.
void check_choices(placement_policy& policy, const std::vector<placement_device>& view,
                   const std::string& machine_name) {
    if (dynamic_cast<random_striping*>(&policy)) return; // keep its random stream untouched
    for (role r : all_roles) {
        std::size_t i = policy.choose(r, 0, 0, view);
        if (i >= view.size())
            throw config_error("placement " + policy.name() + " chose device #" + std::to_string(i) +
                               " of machine '" + machine_name + "'");
    }
}

} // namespace

machine::machine(const machine_spec& spec)
    : name_(spec.name),
      host_(make_host_model(spec.host, spec.host_origin.empty() ? spec.origin : spec.host_origin)),
      clock_(std::make_unique<modelled_clock>()),
      memory_budget_(std::make_unique<memory_backing_budget>(
          spec.memory_backing_limit ? spec.memory_backing_limit : memory_backing_budget::default_limit())),
      lock_(std::make_unique<std::mutex>()) {
    refuse_shared_backing_files(spec);
    const std::string placement_origin = spec.placement.origin.empty() ? spec.origin : spec.placement.origin;
    // The policy is made and asked about the devices as the spec states them before any device
    // (and its backing file) is made: a placement naming no device fails first.
    try {
        placement_ = make_placement(spec.placement.policy, spec.placement.options);
        std::vector<placement_device> stated;
        for (const device_spec& d : spec.devices)
            stated.push_back({d.name, d.klass, d.size, d.size});
        check_choices(*placement_, stated, name_);
    } catch (const config_error& e) {
        throw config_error(placement_origin + ": " + e.what());
    }
    // A build that fails removes every file it made, keep=on or not: keep=on keeps the file of
    // a machine that was built (the devices built so far are destroyed with it).
    devices_.reserve(spec.devices.size());
    try {
        for (const device_spec& d : spec.devices)
            devices_.push_back(std::make_unique<device>(d, clock_.get(), memory_budget_.get()));
        try {
            check_placement();
        } catch (const config_error& e) {
            throw config_error(placement_origin + ": " + e.what());
        }
    } catch (...) {
        for (const auto& d : devices_)
            d->machine_build_failed();
        throw;
    }
}

machine machine::from_preset(const std::string& name, const machine_options& opts) {
    return machine(preset_machine_spec(name, opts));
}

machine machine::from_config_text(const std::string& text, const std::string& origin) {
    return machine(parse_machine_config(text, origin));
}

machine machine::from_config_file(const std::string& path) { return machine(load_machine_config(path)); }

machine::machine(machine&&) noexcept = default;
machine& machine::operator=(machine&&) noexcept = default;
machine::~machine() = default;

device& machine::dev(std::size_t i) {
    if (i >= devices_.size())
        throw config_error("machine '" + name_ + "' has no device #" + std::to_string(i));
    return *devices_[i];
}

const device& machine::dev(std::size_t i) const { return *devices_.at(i); }

device& machine::dev(const std::string& device_name) {
    for (auto& d : devices_)
        if (d->name() == device_name) return *d;
    std::string names;
    for (auto& d : devices_)
        names += (names.empty() ? "" : ", ") + d->name();
    throw config_error("machine '" + name_ + "' has no device '" + device_name + "' (it has " + names + ")");
}

void machine::set_placement(std::unique_ptr<placement_policy> policy) {
    std::lock_guard<std::mutex> lock(*lock_);
    check_placement_locked(*policy); // a bad policy is refused and the old one stays
    placement_ = std::move(policy);
}

owned_extent machine::allocate(role r, std::uint64_t bytes, std::uint64_t block_index,
                               structure_meter* meter) {
    std::lock_guard<std::mutex> lock(*lock_);
    std::vector<placement_device> view = placement_view();
    // Free bytes are not room: scattered in holes smaller than the request, or short of it once
    // rounded to the allocator's alignment (a TL page), they can still refuse it. The policy is
    // then asked again with that device shown full, so another device of the role serves.
    for (;;) {
        std::size_t i = placement_->choose(r, block_index, bytes, view);
        if (i >= devices_.size())
            throw config_error("placement " + placement_->name() + " chose device #" + std::to_string(i) +
                               " of machine '" + name_ + "'");
        device& d = *devices_[i];
        try {
            std::uint64_t offset = d.allocator().allocate(bytes);
            owned_extent owned(extent{&d, offset, bytes, r});
            if (meter) d.meter_range(offset, bytes, *meter);
            return owned;
        } catch (const out_of_space& e) {
            if (view[i].free_bytes == 0) throw e.with_role(to_string(r)); // the policy has nowhere else to go
            view[i].free_bytes = 0;
        }
    }
}

std::vector<std::size_t> machine::devices_for(role r) const {
    std::lock_guard<std::mutex> lock(*lock_);
    return placement_->devices_for(r, placement_view());
}

block_sizes machine::block_sizes_for(role r) const {
    const std::vector<std::size_t> on = devices_for(r);
    if (on.empty()) return block_sizes();
    std::uint64_t br = 0, bw = 0;
    for (std::size_t i : on) {
        block_sizes b = devices_.at(i)->blocks();
        br = std::max(br, b.br);
        bw = std::max(bw, b.bw);
    }
    return block_sizes(br, block_sizes::whole_reads_bw(br, bw));
}

std::uint64_t machine::room_for(role r) const {
    // Saturating: devices of 2^63 bytes each are allowed, and their sum wrapped to 0.
    std::uint64_t on_files = 0, in_memory = 0;
    for (std::size_t i : devices_for(r)) {
        const device& d = *devices_.at(i);
        std::uint64_t& sum = d.spec().io_impl == "memory" ? in_memory : on_files;
        sum = saturating_add(sum, d.allocator().free_bytes());
    }
    const std::uint64_t budget_left =
        memory_budget_->limit() - std::min(memory_budget_->limit(), memory_budget_->used());
    return saturating_add(on_files, std::min(in_memory, budget_left));
}

std::vector<placement_device> machine::placement_view() const {
    std::vector<placement_device> v;
    for (const auto& d : devices_)
        v.push_back({d->name(), d->klass(), d->capacity(), d->allocator().free_bytes()});
    return v;
}

std::string machine::describe_placement() const {
    return placement_->name() + ": " + placement_->describe(placement_view());
}

std::vector<device_stats> machine::stats() const {
    std::vector<device_stats> v;
    for (const auto& d : devices_)
        v.push_back(d->stats());
    return v;
}

double machine::max_busy_seconds() const {
    double m = 0;
    for (const auto& d : devices_)
        m = std::max(m, d->busy_seconds());
    return m;
}

modelled_time machine::modelled() const { return clock_->time(); }

double machine::modelled_horizon_s() const {
    double h = clock_->now();
    for (const auto& d : devices_)
        h = std::max(h, d->free_at_s());
    return h;
}

void machine::check_placement() {
    std::lock_guard<std::mutex> lock(*lock_);
    check_placement_locked(*placement_);
}

void machine::check_placement_locked(placement_policy& policy) const {
    check_choices(policy, placement_view(), name_);
}

} // namespace flashxxl
