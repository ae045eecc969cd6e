// `flashxxl btree`: the two-level B-tree (flashxxl::map) workload: bulk load, random finds, random inserts,
// range scans.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_items.hpp"
#include "btree_workload.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/saturating.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"
#include "option_checks.hpp"

namespace flashxxl::cli {
namespace {

struct btree_options {
    machine_choice choice;
    std::string device;
    // 160 MiB: enough for --layout all with the default blocks (Br = 128 KiB, Bw = 16 MiB: the
    // one-block-Bw layout needs map::min_memory = 130 MiB, about 8 Bw); bench_map's M too.
    std::string br, bw, memory = "160MiB";
    std::string layout = "two-level";
    btree_workload work;
    bool json = false, no_progress = false;
};

void run_btree(const btree_options& o) {
    const std::uint64_t memory = parse_memory_option(o.memory);
    if (o.work.items == 0) throw config_error("--items must be at least 1");
    if (o.work.scan_length == 0) throw config_error("--scan-length must be at least 1");
    if (o.work.scans > max_scan_visits / o.work.scan_length)
        throw config_error(
            "--scans " + std::to_string(o.work.scans) + " x --scan-length " +
            std::to_string(o.work.scan_length) +
            " would visit more than 10^10 items, more than a run can finish; expected a product "
            "of at most 10000000000");
    if (o.layout != "two-level" && o.layout != "br" && o.layout != "bw" && o.layout != "all")
        throw config_error("--layout '" + o.layout + "' (expected two-level, br, bw or all)");
    const btree_workload& w = o.work;
    // The batch's keys are sorted in memory before they are inserted.
    const std::uint64_t physical = physical_memory_bytes();
    if (physical != 0 && w.batch > physical / 2 / sizeof(std::uint64_t))
        throw config_error("--batch " + std::to_string(w.batch) + ": its keys are sorted in memory (" +
                           format_bytes(double(w.batch) * sizeof(std::uint64_t)) +
                           "), more than half this machine's physical memory (" +
                           format_bytes(double(physical)) + ")");
    machine_spec spec = bench_machine_spec(o.choice, o.device);
    struct variant {
        std::string name, option;
        block_sizes blocks;
    };
    std::vector<variant> variants;
    {
        const kept_files_carry_over kept(spec);
        machine probe(spec);
        kept.carry_over(spec); // each layout's fresh machine reopens the keep=on files the probe made
        const block_sizes b = resolve_block_sizes(probe, role::static_data, o.br, o.bw);
        if (o.layout == "two-level" || o.layout == "all") variants.push_back({"two-level", "two-level", b});
        if (o.layout == "br" || o.layout == "all")
            variants.push_back({"one block Br", "br", block_sizes(b.br, b.br)});
        if (o.layout == "bw" || o.layout == "all")
            variants.push_back({"one block Bw", "bw", block_sizes(b.bw, b.bw)});
        // Every layout is checked before the first one runs: memory, then room on the devices.
        const auto layout = [&](const variant& v) {
            return "--layout " + o.layout + (o.layout == v.option ? "" : " (its " + v.name + " run)") + ", " +
                   v.blocks.describe();
        };
        for (const variant& v : variants) {
            const std::uint64_t need = detail_btree::map_t::min_memory(v.blocks);
            if (memory < need)
                throw config_error(
                    "--memory " + o.memory + " is below the minimum " + format_bytes(double(need)) +
                    " of the map with " + layout(v) +
                    " (about 4 Bw + 4 Br + 64 KiB: three node frames, a staging block, four sub-blocks)");
        }
        // Items the tree holds at most: the loaded ones and the new keys, of which there are
        // 3 x --items (the inserts and the batch draw from them; repeats leave the tree as it is).
        const std::uint64_t new_keys =
            std::min(saturating_add(w.inserts, w.batch), saturating_mul(3, w.items));
        const std::uint64_t room = probe.room_for(role::static_data);
        for (const variant& v : variants) {
            // Each node is one whole Bw extent. map::max_nodes bounds the nodes: leaves at least
            // half full (random inserts leave them about 70 % full after their splits; the bulk
            // load fills them), plus the levels above.
            const std::uint64_t nodes = detail_btree::map_t::max_nodes(v.blocks, w.items, new_keys);
            const std::uint64_t bytes = saturating_mul(nodes, v.blocks.bw);
            if (bytes > room)
                throw config_error(
                    "--items " + std::to_string(w.items) + " with --inserts " + std::to_string(w.inserts) +
                    " and --batch " + std::to_string(w.batch) + ": the map with " + layout(v) +
                    " may need up to " + std::to_string(nodes) + " nodes of Bw (" +
                    (bytes == saturated ? std::string("bytes that overflow 64 bits")
                                        : format_bytes(double(bytes))) +
                    ": leaves at least half full, as after random inserts, and the levels above), more than "
                    "the " +
                    format_bytes(double(room)) + " its devices can hold on machine '" + spec.name + "' (" +
                    probe.describe_placement() + "): give fewer items or a larger device");
        }
    }
    std::vector<btree_run> runs;
    for (const variant& v : variants) {
        machine m(spec); // a fresh machine per layout
        runs.push_back(run_btree_workload(m, memory, v.blocks, o.work, v.name));
    }
    if (o.json) {
        nlohmann::json j;
        j["command"] = "btree";
        j["items"] = o.work.items;
        j["runs"] = nlohmann::json::array();
        for (const btree_run& r : runs)
            j["runs"].push_back(btree_run_json(r));
        // The first layout's predicted phases at the top level (docs/json.md).
        for (const char* k : {"rdv_bytes", "wrv_bytes", "modelled_elapsed_s", "predicted_rdv_bytes",
                              "predicted_wrv_bytes", "predicted_modelled_s", "rdv_over_predicted",
                              "wrv_over_predicted", "modelled_over_predicted", "prediction_scope"})
            j[k] = j["runs"][0][k];
        j.update(run_metadata(&spec));
        std::cout << j.dump(2) << "\n";
        return;
    }
    print_btree_table(runs, "btree: " + std::to_string(o.work.items) + " items of 16 B, " +
                                std::to_string(o.work.finds) + " finds, " + std::to_string(o.work.inserts) +
                                " inserts, a batch of " + std::to_string(o.work.batch) + ", " +
                                std::to_string(o.work.scans) + " scans of " +
                                std::to_string(o.work.scan_length));
    std::cout << "  results verified: finds and scans correct\n";
}

} // namespace

void register_btree_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "btree", "run flashxxl::map, the two-level B-tree of seeds/001 Section 3.2 (bulk load, random "
                 "finds, random inserts, range scans) and report modelled time and items "
                 "transferred per phase");
    auto o = std::make_shared<btree_options>();
    add_machine_options(cmd, o->choice);
    cmd->add_option("--device", o->device, "put the tree on this device (placement single), e.g. ssd");
    add_block_size_options(
        cmd, o->br, o->bw, o->memory,
        "memory budget M of the map (IEC units): at least map::min_memory, about 4 Bw + 4 Br + "
        "64 KiB, for every layout run (8 Bw for bw and all)");
    // Every count is bounded by what a run can finish (option_checks.hpp): 2^36 items, 10^8
    // operations a phase, 10^10 items visited by the scans.
    const std::string ops = " (at most 10^8)";
    cmd->add_option("--items", o->work.items, "items bulk loaded (16 B each; at most 2^36)")
        ->capture_default_str()
        ->check(whole_number(1, max_items));
    cmd->add_option("--finds", o->work.finds, "random finds" + ops)
        ->capture_default_str()
        ->check(whole_number(0, max_operations));
    cmd->add_option(
           "--inserts", o->work.inserts,
           "random inserts of keys not bulk loaded (drawn from the 3 x --items keys between the loaded ones: "
           "a key drawn again is already present and stays as it is, like std::map::insert; the repeat "
           "costs only its search)" +
               ops)
        ->capture_default_str()
        ->check(whole_number(0, max_operations));
    cmd->add_option("--batch", o->work.batch,
                    "keys not bulk loaded, inserted as one sorted batch (from the same 3 x --items keys)" +
                        ops)
        ->capture_default_str()
        ->check(whole_number(0, max_operations));
    cmd->add_option("--scans", o->work.scans, "range scans" + ops + "; --scans x --scan-length at most 10^10")
        ->capture_default_str()
        ->check(whole_number(0, max_operations));
    cmd->add_option("--scan-length", o->work.scan_length, "items per range scan (at least 1)")
        ->capture_default_str()
        ->check(whole_number(1, max_scan_visits));
    cmd->add_option("--seed", o->work.seed, "seed of the random keys")->capture_default_str();
    cmd->add_option(
           "--layout", o->layout,
           "two-level (Br reads inside Bw nodes), br or bw (one block size for nodes, like stxxl::map), "
           "or all three side by side")
        ->capture_default_str();
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o] { run_btree(*o); });
}

} // namespace flashxxl::cli
