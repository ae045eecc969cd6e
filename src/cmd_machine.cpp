// `flashxxl machine`: prints a machine's devices, models and placement, then probes each device.
#include <array>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/device_stats_json.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/machine/placement_registry.hpp"
#include "flashxxl/machine/presets.hpp"
#include "flashxxl/tl/tl_stats_json.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "flashxxl/units.hpp"
#include "common_options.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"

#include <stxxl/bits/common/aligned_alloc.h>

namespace flashxxl::cli {
namespace {

struct probe_result {
    std::string device, pattern;
    std::uint64_t block = 0, requests = 0;
    double modelled_s = 0, wall_s = 0;
    double modelled_mibps() const { return modelled_s > 0 ? double(block * requests) / MiB / modelled_s : 0; }
    double wall_mibps() const { return wall_s > 0 ? double(block * requests) / MiB / wall_s : 0; }
};

//! Sequential and random reads and writes of two block sizes on one device, one request at a
//! time (queue depth 1). Random offsets are block-aligned, over the first min(size, 8 GiB).
std::vector<probe_result> probe_device(device& dev, std::uint64_t small_block, std::uint64_t large_block,
                                       std::uint64_t volume) {
    std::vector<probe_result> out;
    std::uint64_t span = std::min<std::uint64_t>(dev.capacity(), 8 * GiB);
    std::mt19937_64 rng(42);
    for (std::uint64_t block : {small_block, large_block}) {
        if (dev.has_translation_layer()) { // whole logical pages only
            std::uint64_t page = dev.tl()->config().page_bytes;
            block = (block + page - 1) / page * page;
        }
        if (block > span) continue;
        char* buffer = static_cast<char*>(stxxl::aligned_alloc<4096>(block));
        for (std::uint64_t i = 0; i < block; ++i)
            buffer[i] = static_cast<char>(i * 131);
        std::uint64_t requests = std::max<std::uint64_t>(16, std::min<std::uint64_t>(volume / block, 4096));
        requests = std::min(requests, span / block);
        for (const char* pattern : {"seq_write", "seq_read", "rand_write", "rand_read"}) {
            bool write = pattern[4] == 'w' || pattern[5] == 'w';
            bool random = pattern[0] == 'r';
            double before = dev.busy_seconds();
            auto begin = std::chrono::steady_clock::now();
            // Through a translation layer, reading a never-written page is an error: random
            // reads there stay inside the range the sequential writes covered.
            std::uint64_t random_span = dev.has_translation_layer() && !write ? requests * block : span;
            for (std::uint64_t k = 0; k < requests; ++k) {
                std::uint64_t offset = random ? (rng() % (random_span / block)) * block : k * block;
                auto req = write ? dev.awrite(buffer, offset, block, role::scratch)
                                 : dev.aread(buffer, offset, block, role::scratch);
                dev.wait(req, role::scratch);
            }
            double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            out.push_back({dev.name(), pattern, block, requests, dev.busy_seconds() - before, wall});
        }
        stxxl::aligned_dealloc<4096>(buffer);
    }
    return out;
}

//! The containers and algorithms that put their blocks under each role unless given another.
const char* default_users_of(role r) {
    // In the order of enum class role: static_data, hot, scratch, stream.
    static const std::array<const char*, role_count> users = {
        "map, the BFS cluster index, the CSR graph", "priority_queue, stack, queue, the BFS hot pool",
        "sorter, sort's runs", "vector"};
    return users[index_of(r)];
}

//! Per role: which devices the placement puts it on and which containers use it by default
//! (a container given no role lands here; a constructor's role argument changes it).
nlohmann::json describe_roles(machine& m, bool print) {
    nlohmann::json roles = nlohmann::json::array();
    const std::vector<placement_device> view = m.placement_view();
    if (print) std::cout << "roles (where each container lands unless given another role):\n";
    for (role r : all_roles) {
        std::vector<std::string> names;
        for (std::size_t i : m.placement().devices_for(r, view))
            names.push_back(m.dev(i).name());
        roles.push_back({{"role", to_string(r)}, {"devices", names}, {"default_for", default_users_of(r)}});
        if (!print) continue;
        std::string list;
        for (const std::string& n : names)
            list += (list.empty() ? "" : ", ") + n;
        std::printf("  %-11s -> %-12s %s\n", to_string(r), list.c_str(), default_users_of(r));
    }
    return roles;
}

//! `flashxxl machine --list`: the machine presets, device model presets and placement policies,
//! each printed from its one table.
void list_choices(bool json) {
    nlohmann::json j;
    for (const machine_preset& p : machine_presets())
        j["machine_presets"].push_back({{"name", p.name}, {"description", p.description}});
    for (const model_preset_info& p : model_presets())
        j["model_presets"].push_back({{"name", p.name}, {"description", p.description}});
    for (const placement_entry& p : placement_policies())
        j["placement_policies"].push_back(
            {{"name", p.name}, {"options", p.usage}, {"description", p.description}});
    if (json) {
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << "machine presets (--machine NAME):\n";
    for (const machine_preset& p : machine_presets())
        std::printf("  %-16s %s\n", p.name.c_str(), p.description.c_str());
    std::cout << "device model presets (model=NAME in a config line, see docs/device-models.md):\n";
    for (const model_preset_info& p : model_presets())
        std::printf("  %-16s %s\n", p.name.c_str(), p.description.c_str());
    std::cout << "placement policies (placement=NAME [options] in a config, --placement NAME):\n";
    for (const placement_entry& p : placement_policies())
        std::printf("  %-16s %s%s%s\n", p.name.c_str(), p.usage.c_str(), p.usage.empty() ? "" : ": ",
                    p.description.c_str());
}

void run_machine(const machine_choice& choice, bool json, bool no_progress, bool probe,
                 std::uint64_t small_block, std::uint64_t large_block, std::uint64_t volume) {
    const machine_spec spec = effective_machine_spec(choice);
    machine m(spec);
    nlohmann::json j = run_metadata(&spec);
    j["machine"] = m.name();
    j["placement"] = {{"policy", m.placement().name()}, {"description", m.describe_placement()}};
    if (!json) {
        std::cout << "machine " << m.name() << "\n";
        std::cout << "placement " << m.describe_placement() << "\n";
    }
    j["roles"] = describe_roles(m, !json);
    if (!json) std::cout << "devices:\n";
    for (std::size_t i = 0; i < m.device_count(); ++i) {
        device& d = m.dev(i);
        const device_spec& s = d.spec();
        nlohmann::json jd = {
            {"name", d.name()},
            {"class", to_string(d.klass())},
            {"size_bytes", s.size},
            {"allocatable_bytes", d.capacity()},
            {"backing", s.io_impl == "memory" ? "memory (sparse)" : s.io_impl + ":" + s.path},
            {"queue_id", d.queue_id()},
            {"pace", s.pacing.enabled},
            {"pace_scale", s.pacing.scale},
            {"translation_layer", d.has_translation_layer()}};
        if (const device_model* model = d.model()) {
            jd["model"] = {
                {"preset", model->preset()}, {"kind", model->kind()}, {"capacity_bytes", model->capacity()}};
            jd["model"]["parameters"] = model_parameters_json(model->parameters());
        }
        if (const translation_layer* tl = d.tl()) {
            jd["translation_layer"] = {{"page_bytes", tl->config().page_bytes},
                                       {"segment_bytes", tl->config().segment_bytes},
                                       {"cleaning", to_string(tl->config().policy)},
                                       {"logical_bytes", d.capacity()}};
        }
        j["devices"].push_back(jd);
        if (!json) {
            std::cout << "  " << d.name() << ": " << to_string(d.klass()) << ", "
                      << format_bytes(double(s.size)) << ", backing " << jd["backing"].get<std::string>()
                      << ", pacing "
                      << (s.pacing.enabled ? "on, scale " + std::to_string(s.pacing.scale)
                                           : std::string("off"))
                      << (d.has_translation_layer() ? ", translation layer on" : "") << "\n";
            if (const device_model* model = d.model()) {
                std::cout << "    model " << model->preset() << " (" << model->kind()
                          << ", emulated capacity " << format_bytes(double(model->capacity())) << "):";
                for (auto& [k, v] : model->parameters())
                    std::cout << " " << k << "=" << v;
                std::cout << "\n";
            } else {
                std::cout << "    real device (no model): times are wall-clock\n";
            }
            if (const translation_layer* tl = d.tl())
                std::cout << "    translation layer: pages of " << format_size(tl->config().page_bytes)
                          << ", segments of " << format_size(tl->config().segment_bytes) << ", "
                          << to_string(tl->config().policy) << " cleaning, logical capacity "
                          << format_bytes(double(d.capacity())) << "\n";
        }
    }
    if (probe) {
        if (!json) {
            std::cout
                << "\nprobe (queue depth 1; random offsets block-aligned over the first min(size, 8 GiB)):\n";
            std::printf("  %-8s %-11s %10s %9s %14s %14s\n", "device", "pattern", "block", "requests",
                        "modelled_MiB/s", "wall_MiB/s");
        }
        progress_bar bar(stderr, !no_progress && !json);
        std::vector<probe_result> results;
        for (std::size_t i = 0; i < m.device_count(); ++i) {
            bar.update(double(i) / double(m.device_count()), "probing " + m.dev(i).name());
            for (const probe_result& r : probe_device(m.dev(i), small_block, large_block, volume))
                results.push_back(r);
        }
        bar.finish();
        {
            for (const probe_result& r : results) {
                j["probe"].push_back({{"device", r.device},
                                      {"pattern", r.pattern},
                                      {"block_bytes", r.block},
                                      {"requests", r.requests},
                                      {"modelled_s", r.modelled_s},
                                      {"wall_s", r.wall_s},
                                      {"modelled_mib_s", r.modelled_mibps()},
                                      {"wall_mib_s", r.wall_mibps()}});
                if (!json)
                    std::printf("  %-8s %-11s %10s %9llu %14.2f %14.1f\n", r.device.c_str(),
                                r.pattern.c_str(), format_size(r.block).c_str(),
                                static_cast<unsigned long long>(r.requests), r.modelled_mibps(),
                                r.wall_mibps());
            }
        }
        for (std::size_t i = 0; i < m.device_count(); ++i) {
            device& d = m.dev(i);
            j["stats"][d.name()] = d.stats();
            if (d.tl()) {
                tl_stats ts = d.tl()->stats();
                j["stats"][d.name()]["translation_layer"] = ts;
                if (!json)
                    std::printf("  %s: translation layer write amplification %.3f (%llu segments cleaned)\n",
                                d.name().c_str(), ts.write_amplification(),
                                static_cast<unsigned long long>(ts.segments_cleaned));
            }
        }
    }
    if (json) std::cout << j.dump(2) << "\n";
}

} // namespace

void register_machine_command(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("machine", "print a machine's devices, models and placement; probe each device");
    auto choice = std::make_shared<machine_choice>();
    auto json = std::make_shared<bool>(false);
    auto no_probe = std::make_shared<bool>(false);
    auto list = std::make_shared<bool>(false);
    auto small_block = std::make_shared<std::string>("4KiB");
    auto large_block = std::make_shared<std::string>("1MiB");
    auto volume = std::make_shared<std::string>("64MiB");
    add_machine_options(cmd, *choice);
    auto no_progress = std::make_shared<bool>(false);
    add_report_flags(cmd, *json, *no_progress);
    cmd->add_flag("--no-probe", *no_probe, "only describe the machine");
    cmd->add_flag("--list", *list, "list the machine presets, device model presets and placement policies");
    cmd->add_option("--small-block", *small_block, "probe block size 1 (IEC units)")->capture_default_str();
    cmd->add_option("--large-block", *large_block, "probe block size 2 (IEC units)")->capture_default_str();
    cmd->add_option("--volume", *volume, "bytes per probe pattern (capped at 4096 requests)")
        ->capture_default_str();
    cmd->callback([=] {
        if (*list) return list_choices(*json);
        std::uint64_t small = parse_size_option("--small-block", *small_block),
                      large = parse_size_option("--large-block", *large_block),
                      vol = parse_size_option("--volume", *volume);
        if (vol == 0)
            throw config_error("--volume " + *volume +
                               ": expected a positive size (bytes per probe pattern)");
        if (small == 0 || small % 4096 || large == 0 || large % 4096)
            throw config_error("--small-block and --large-block must be positive multiples of 4 KiB");
        run_machine(*choice, *json, *no_progress, !*no_probe, small, large, vol);
    });
}

} // namespace flashxxl::cli
