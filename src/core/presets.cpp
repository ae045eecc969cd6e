// The embedded machines (core library): hybrid-2009, two-hdd-2009, modern.
#include "flashxxl/machine/presets.hpp"

#include "flashxxl/device/host_model.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine_config.hpp"
#include "flashxxl/machine/placement_text.hpp"

namespace flashxxl {

const std::vector<machine_preset>& machine_presets() {
    static const std::vector<machine_preset> presets = {
        {"hybrid-2009",
         "one emulated Hama 32 GB SSD (hama-ssd-2009, the log-block model) + one emulated Seagate Barracuda "
         "7200.11 (seeds/000 Section 4)",
         "name=hybrid-2009\n"
         "flash=memory,32GiB,memory name=ssd model=hama-ssd-2009\n"
         "disk=memory,400GiB,memory name=hdd model=barracuda-7200.11\n"
         "placement=flash_aware\n"},
        {"two-hdd-2009",
         "two emulated Seagate Barracuda 7200.11 disks (the all-HDD baseline of seeds/000 Table 4.1)",
         "name=two-hdd-2009\n"
         "disk=memory,400GiB,memory name=hdd0 model=barracuda-7200.11\n"
         "disk=memory,400GiB,memory name=hdd1 model=barracuda-7200.11\n"
         "placement=random_striping\n"},
        {"modern", "one emulated NVMe gen4 TLC SSD + one emulated modern 7200 rpm HDD",
         "name=modern\n"
         "flash=memory,512GiB,memory name=ssd model=nvme-gen4\n"
         "disk=memory,4TiB,memory name=hdd model=hdd-modern\n"
         "placement=flash_aware\n"},
    };
    return presets;
}

std::string machine_preset_names() {
    std::string s;
    for (const auto& p : machine_presets())
        s += (s.empty() ? "" : ", ") + p.name;
    return s;
}

machine_spec preset_machine_spec(const std::string& name, const machine_options& opts) {
    for (const auto& p : machine_presets()) {
        if (p.name != name) continue;
        machine_spec spec = parse_machine_config(p.config, "preset " + name);
        for (device_spec& d : spec.devices) {
            if (!opts.backing_dir.empty()) {
                d.io_impl = "syscall";
                d.path = opts.backing_dir + "/" + spec.name + "-" + d.name + ".img";
                d.keep = opts.keep;
            }
            d.pacing.enabled = opts.pace;
            d.pacing.scale = opts.scale;
        }
        if (!opts.host.empty()) {
            if (!is_host_model_name(opts.host))
                throw config_error("preset " + name + ": host: unknown host '" + opts.host +
                                   "' (expected one of: " + host_model_names() + ")");
            spec.host = opts.host;
        }
        if (!opts.placement.empty())
            spec.placement = parse_placement_text(opts.placement, "preset " + name + ": placement override");
        return spec;
    }
    throw config_error("unknown machine preset '" + name + "' (expected one of: " + machine_preset_names() +
                       ")");
}

} // namespace flashxxl
