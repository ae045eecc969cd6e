// `flashxxl btree`: the two-level B-tree (flashxxl::map) workload: bulk load, random finds, random inserts, range scans.
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
#include "invocation.hpp"
#include "machine_options.hpp"

namespace flashxxl::cli {
namespace {

struct btree_options {
    machine_choice choice;
    std::string device;
    std::string br, bw, memory = "96MiB";
    std::string layout = "two-level";
    btree_workload work;
    bool json = false, no_progress = false;
};

void run_btree(const btree_options& o) {
    const std::uint64_t memory = parse_size_option("--memory", o.memory);
    if (o.work.items == 0) throw config_error("--items must be at least 1");
    if (o.layout != "two-level" && o.layout != "br" && o.layout != "bw" && o.layout != "all")
        throw config_error("--layout '" + o.layout + "' (expected two-level, br, bw or all)");
    // At most items + 3 x items + batch entries of 16 B (the random inserts draw from 3 x items new keys).
    const btree_workload& w = o.work;
    std::uint64_t new_keys = 0, entries = 0;
    if (__builtin_mul_overflow(w.items, 3, &new_keys)) new_keys = UINT64_MAX;
    if (__builtin_add_overflow(w.items, std::min(w.inserts, new_keys), &entries) ||
        __builtin_add_overflow(entries, w.batch, &entries))
        entries = UINT64_MAX;
    require_room_for_input(bench_machine_spec(o.choice, o.device), entries, 16,
                           "--items " + std::to_string(w.items) + " with the inserts and the batch");
    // The batch's keys are sorted in memory before they are inserted.
    const std::uint64_t physical = physical_memory_bytes();
    if (physical != 0 && w.batch > physical / 2 / sizeof(std::uint64_t))
        throw config_error("--batch " + std::to_string(w.batch) + ": its keys are sorted in memory (" +
                           format_bytes(double(w.batch) * sizeof(std::uint64_t)) +
                           "), more than half this machine's physical memory (" + format_bytes(double(physical)) + ")");
    block_sizes b;
    {
        machine probe = make_bench_machine(o.choice, o.device);
        b = resolve_block_sizes(probe, role::static_data, o.br, o.bw);
    }
    struct variant {
        std::string name;
        block_sizes blocks;
    };
    std::vector<variant> variants;
    if (o.layout == "two-level" || o.layout == "all") variants.push_back({"two-level", b});
    if (o.layout == "br" || o.layout == "all") variants.push_back({"one block Br", block_sizes(b.br, b.br)});
    if (o.layout == "bw" || o.layout == "all") variants.push_back({"one block Bw", block_sizes(b.bw, b.bw)});
    std::vector<btree_run> runs;
    for (const variant& v : variants) {
        machine m = make_bench_machine(o.choice, o.device);  // a fresh machine per layout
        runs.push_back(run_btree_workload(m, memory, v.blocks, o.work, v.name));
    }
    if (o.json) {
        nlohmann::json j;
        j["command"] = "btree";
        j["items"] = o.work.items;
        j["runs"] = nlohmann::json::array();
        for (const btree_run& r : runs) j["runs"].push_back(btree_run_json(r));
        const machine_spec spec = bench_machine_spec(o.choice, o.device);
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
    auto* cmd = app.add_subcommand("btree",
                                   "run flashxxl::map, the two-level B-tree of seeds/001 Section 3.2 (bulk load, random "
                                   "finds, random inserts, range scans) and report modelled time and items "
                                   "transferred per phase");
    auto o = std::make_shared<btree_options>();
    add_machine_options(cmd, o->choice);
    cmd->add_option("--device", o->device, "put the tree on this device (placement single), e.g. ssd");
    add_block_size_options(cmd, o->br, o->bw, o->memory, "memory budget M of the map (IEC units)");
    cmd->add_option("--items", o->work.items, "items bulk loaded (16 B each)")->capture_default_str();
    cmd->add_option("--finds", o->work.finds, "random finds")->capture_default_str();
    cmd->add_option("--inserts", o->work.inserts, "random inserts of keys not bulk loaded (drawn from the 3 x --items keys between the loaded ones: beyond that many, repeats update)")->capture_default_str();
    cmd->add_option("--batch", o->work.batch, "keys not bulk loaded, inserted as one sorted batch (from the same 3 x --items keys)")->capture_default_str();
    cmd->add_option("--scans", o->work.scans, "range scans")->capture_default_str();
    cmd->add_option("--scan-length", o->work.scan_length, "items per range scan")->capture_default_str();
    cmd->add_option("--seed", o->work.seed, "seed of the random keys")->capture_default_str();
    cmd->add_option("--layout", o->layout,
                    "two-level (Br reads inside Bw nodes), br or bw (one block size for nodes, like stxxl::map), "
                    "or all three side by side")
        ->capture_default_str();
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o] { run_btree(*o); });
}

} // namespace flashxxl::cli
