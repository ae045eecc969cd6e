// `flashxxl gen`: writes a generated graph (grid, tree, random, rmat) as a text or binary edge list.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/statvfs.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/safe_output.hpp"
#include "flashxxl/graph/binary_edge_writer.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/node_permutation.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/graph/rmat_generator.hpp"
#include "flashxxl/graph/text_edge_writer.hpp"
#include "flashxxl/graph/tree_generator.hpp"
#include "flashxxl/units.hpp"
#include "invocation.hpp"
#include "option_checks.hpp"
#include "unnamed_temp_file.hpp"

namespace flashxxl::cli {
namespace {

//! Everything `gen` can be told; which fields apply depends on the kind.
struct gen_options {
    std::string kind;
    std::uint64_t side = 0;
    std::uint64_t nodes = 0;
    std::uint64_t levels = 0;
    std::string block = "128KiB";
    std::uint64_t item_bytes = 8;
    double degree = 0;
    std::uint64_t edges = 0;
    unsigned scale = 0;
    std::uint64_t edge_factor = 16;
    double a = 0.57, b = 0.19, c = 0.19;
    std::uint64_t seed = 1;
    std::string out;
    std::string format = "text";
    unsigned id_width = 0; // 0: 4 when every id fits 32 bits, else 8
    bool force = false;
    bool json = false;
    bool quiet = false;
    bool shuffle = false;
};

const std::vector<std::string> kinds = {"grid", "tree", "random", "rmat"};

//! Options that only some kinds take, and the kinds that take them.
const std::map<std::string, std::vector<std::string>> kind_options = {
    {"grid", {"--side"}},
    {"tree", {"--nodes", "--levels", "--block", "--item-bytes"}},
    {"random", {"--nodes", "--degree", "--edges"}},
    {"rmat", {"--scale", "--edge-factor", "--a", "--b", "--c"}},
};

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string s;
    for (const std::string& i : items)
        s += (s.empty() ? "" : sep) + i;
    return s;
}

//! Drives the progress bar (stderr) of big outputs, 4 Mi edges or more, every 64 Ki edges:
//! "gen KIND: X M edges, R M/s" (edges per second) besides the share done and the ETA.
class gen_progress {
public:
    gen_progress(std::string kind, std::uint64_t total, bool enabled)
        : kind_(std::move(kind)), total_(total), bar_(stderr, enabled && total >= (std::uint64_t(1) << 22)) {}

    void tick(std::uint64_t done) {
        if ((done & 0xffff) != 0) return;
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        char label[96];
        std::snprintf(label, sizeof label, "gen %s: %.1f M edges, %.1f M/s", kind_.c_str(),
                      double(done) / 1e6, elapsed > 0 ? double(done) / 1e6 / elapsed : 0.0);
        bar_.update(double(done) / double(total_), label);
    }
    void finish() { bar_.finish(); }

private:
    std::string kind_;
    std::uint64_t total_;
    progress_bar bar_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

struct gen_result {
    std::uint64_t nodes = 0, edges = 0, self_loops = 0, bytes = 0;
    unsigned id_width = 0;
};

//! Streams `gen` into the temporary file `path` in the requested format.
template <class Generator>
gen_result write_graph(Generator& gen, const gen_options& o, const std::string& path,
                       const std::vector<std::string>& comments) {
    gen_result r;
    r.nodes = gen.node_count();
    gen_progress progress(o.kind, gen.edge_count(), !o.quiet);
    edge e;
    // Streams every edge into `w`, then closes it.
    auto drain = [&](auto& w) {
        while (gen.next(e)) {
            w.push(e);
            r.self_loops += e.u == e.v;
            progress.tick(++r.edges);
        }
        w.close();
    };
    if (o.format == "text") {
        text_edge_writer w(path, comments);
        drain(w);
        r.bytes = w.bytes_written();
    } else {
        r.id_width = o.id_width != 0 ? o.id_width : (r.nodes <= (std::uint64_t(1) << 32) ? 4 : 8);
        binary_edge_writer w(path, r.id_width, r.nodes);
        drain(w);
        r.bytes = w.file_bytes();
    }
    progress.finish();
    return r;
}

//! Writes `gen`, through a seeded node permutation when --shuffle was given.
template <class Generator>
gen_result write_maybe_shuffled(Generator& gen, const gen_options& o, const std::string& path,
                                const std::vector<std::string>& comments) {
    if (!o.shuffle) return write_graph(gen, o, path, comments);
    relabeled_source<Generator> shuffled(gen, o.seed);
    return write_graph(shuffled, o, path, comments);
}

//! config_error when the file system that will hold `out` has less room than the graph needs at
//! the very least (text: "u v\n" is 4 bytes an edge; binary: two ids), instead of filling it:
//! rmat --scale 40 is 2^44 edges, hundreds of terabytes.
void require_room_for_graph(const gen_options& o, std::uint64_t edges, std::uint64_t nodes) {
    const std::uint64_t width = o.format == "binary" ? (o.id_width              ? o.id_width
                                                        : nodes <= (1ull << 32) ? 4
                                                                                : 8)
                                                     : 0;
    const std::uint64_t per_edge = o.format == "binary" ? 2 * width : 4;
    const std::string where = std::filesystem::path(o.out).parent_path().string();
    struct statvfs fs {};
    if (::statvfs(where.empty() ? "." : where.c_str(), &fs) != 0) return; // no answer: the writes will tell
    const std::uint64_t room = std::uint64_t(fs.f_bavail) * std::uint64_t(fs.f_frsize);
    if (edges > room / per_edge)
        throw config_error("gen " + o.kind + ": " + std::to_string(edges) + " edges need at least " +
                           format_bytes(double(edges) * double(per_edge)) + " (" + std::to_string(per_edge) +
                           " bytes an edge in " + o.format + "), and the file system of '" + o.out +
                           "' has " + format_bytes(double(room)) +
                           " free: choose a smaller graph or another place");
}

//! config_error naming --id-width and --out when 4-byte ids cannot number the graph's nodes
//! (the binary writer would refuse it later, naming only its temporary file).
void require_id_width(const gen_options& o, std::uint64_t nodes) {
    if (o.format != "binary" || o.id_width != 4 || nodes <= (std::uint64_t(1) << 32)) return;
    throw config_error("gen " + o.kind + ": --id-width 4 holds node ids below 2^32, but the graph has " +
                       std::to_string(nodes) +
                       " nodes; expected --id-width 8 (or no --id-width) for --out '" + o.out + "'");
}

void require(bool given, const std::string& kind, const std::string& what) {
    if (!given) throw config_error("gen " + kind + ": " + what + " is required");
}

void run_gen(const gen_options& o, CLI::App* cmd) {
    bool known = false;
    for (const std::string& k : kinds)
        known = known || k == o.kind;
    if (!known)
        throw config_error("gen: unknown graph kind '" + o.kind + "' (expected one of: " + join(kinds) + ")");
    for (const auto& [kind, options] : kind_options) {
        if (kind == o.kind) continue;
        for (const std::string& opt : options) {
            bool own = false;
            for (const std::string& mine : kind_options.at(o.kind))
                own = own || mine == opt;
            if (!own && cmd->count(opt) > 0)
                throw config_error("gen " + o.kind + ": option " + opt + " does not apply (" + o.kind +
                                   " takes " + join(kind_options.at(o.kind)) + ")");
        }
    }
    if (o.format != "text" && o.format != "binary")
        throw config_error("gen: --format '" + o.format + "' is unknown (expected text or binary)");
    if (o.id_width != 0 && o.id_width != 4 && o.id_width != 8)
        throw config_error("gen: --id-width " + std::to_string(o.id_width) + " (expected 4 or 8)");
    if (o.id_width != 0 && o.format != "binary")
        throw config_error("gen: --id-width applies to --format binary only");
    // A device, FIFO, socket, directory or link is refused even with --force: the graph is
    // renamed over the path, which would replace a device node (/dev/null) with a regular file.
    check_output_path(o.out, "gen --out", true, {});
    check_writable_directory(std::filesystem::path(o.out).parent_path().string(),
                             "gen --out '" + o.out + "'");
    std::error_code ec;
    if (std::filesystem::exists(o.out, ec) && !o.force)
        throw config_error("gen: output file '" + o.out + "' exists (pass --force to overwrite it)");

    nlohmann::json params;
    std::vector<std::string> comments;
    std::string description = "flashxxl gen " + o.kind;
    bool loops = false, dups = false;
    // The output goes to an unnamed temporary file first: a failed run never leaves half a graph,
    // and a killed one leaves nothing.
    unnamed_temp_file tmp(o.out);
    gen_result r;
    // Writes generator g (its params already recorded) with the header comments to the temporary file.
    auto write = [&](auto& g) {
        loops = g.may_have_self_loops;
        dups = g.may_have_duplicates;
        for (auto& [k, v] : params.items())
            description += " " + k + "=" + v.dump();
        if (o.shuffle) description += " shuffle=true";
        comments = {description + " seed=" + std::to_string(o.seed),
                    "Nodes: " + std::to_string(g.node_count()) + " Edges: " + std::to_string(g.edge_count()),
                    std::string("self-loops ") + (loops ? "possible" : "none") + ", repeated edges " +
                        (dups ? "possible" : "none") + " (docs/graph-formats.md)"};
        require_id_width(o, g.node_count());
        require_room_for_graph(o, g.edge_count(), g.node_count());
        r = write_maybe_shuffled(g, o, tmp.path(), comments);
    };
    auto start = std::chrono::steady_clock::now();
    try {
        if (o.kind == "grid") {
            require(cmd->count("--side") > 0, o.kind, "--side");
            grid_generator g(o.side);
            params["side"] = o.side;
            write(g);
        } else if (o.kind == "tree") {
            require(cmd->count("--nodes") > 0, o.kind, "--nodes");
            if (cmd->count("--levels") > 0 && (cmd->count("--block") > 0 || cmd->count("--item-bytes") > 0))
                throw config_error("gen tree: give either --levels or --block / --item-bytes, not both");
            std::uint64_t levels = o.levels;
            if (cmd->count("--levels") == 0)
                levels = tree_generator::default_levels(parse_size(o.block), o.item_bytes);
            tree_generator g(o.nodes, levels);
            params["nodes"] = o.nodes;
            params["levels"] = g.levels(); // generated: fewer than --levels when --nodes - 1 is smaller
            params["chains"] = g.chains();
            write(g);
        } else if (o.kind == "random") {
            require(cmd->count("--nodes") > 0, o.kind, "--nodes");
            if ((cmd->count("--degree") > 0) == (cmd->count("--edges") > 0))
                throw config_error("gen random: give exactly one of --degree (average degree) and --edges");
            std::uint64_t m = cmd->count("--edges") > 0
                                  ? o.edges
                                  : random_graph_generator::edges_for_degree(o.nodes, o.degree);
            random_graph_generator g(o.nodes, m, o.seed);
            params["nodes"] = o.nodes;
            params["edges"] = m;
            write(g);
        } else {
            require(cmd->count("--scale") > 0, o.kind, "--scale");
            rmat_params p;
            p.scale = o.scale;
            p.edge_factor = o.edge_factor;
            p.a = o.a;
            p.b = o.b;
            p.c = o.c;
            rmat_generator g(p, o.seed);
            params["scale"] = p.scale;
            params["edge_factor"] = p.edge_factor;
            params["a"] = p.a;
            params["b"] = p.b;
            params["c"] = p.c;
            params["d"] = p.d();
            write(g);
        }
        tmp.commit();
    } catch (const io_failure& e) {
        throw io_failure(tmp.explain(e.what()));
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (o.json) {
        nlohmann::json j = {{"command", "gen"},
                            {"kind", o.kind},
                            {"params", params},
                            {"seed", o.seed},
                            {"shuffle", o.shuffle},
                            {"nodes", r.nodes},
                            {"edges", r.edges},
                            {"self_loops", r.self_loops},
                            {"may_have_self_loops", loops},
                            {"may_have_duplicates", dups},
                            {"file", o.out},
                            {"format", o.format},
                            {"file_bytes", r.bytes},
                            {"wall_s", seconds}};
        if (o.format == "binary") j["id_bytes"] = r.id_width;
        j.update(run_metadata());
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "gen " << o.kind << ": " << r.nodes << " nodes, " << r.edges << " edges ("
                  << r.self_loops << " self-loops" << (dups ? ", repeats possible" : "") << ") -> " << o.out
                  << " (" << o.format;
        if (o.format == "binary") std::cout << ", " << r.id_width << "-byte ids";
        std::cout << ", " << format_bytes(double(r.bytes)) << ") in ";
        std::printf("%.2f s\n", seconds);
        std::fflush(stdout);
    }
}

} // namespace

void register_gen_command(CLI::App& app) {
    auto o = std::make_shared<gen_options>();
    auto* cmd = app.add_subcommand(
        "gen",
        "generate a graph (grid, tree, random, rmat) as a text or binary edge list (docs/graph-formats.md)");
    cmd->add_option("kind", o->kind, "graph kind: " + join(kinds, " | "))->required();
    cmd->add_option("--side", o->side, "grid: side length (side x side nodes)");
    cmd->add_option("--nodes", o->nodes, "tree, random: number of nodes");
    cmd->add_option("--levels", o->levels,
                    "tree: the most levels below the source (default round(sqrt(block / item-bytes))); fewer "
                    "when --nodes - 1 is fewer, and the header and --json give the levels generated");
    cmd->add_option("--block", o->block, "tree: block size B in bytes for the default levels (IEC units)")
        ->capture_default_str();
    cmd->add_option("--item-bytes", o->item_bytes, "tree: item size for the default levels")
        ->capture_default_str();
    cmd->add_option("--degree", o->degree, "random: average degree (edges = round(nodes x degree / 2))");
    cmd->add_option("--edges", o->edges, "random: number of edges");
    // 32-bit fields: their range is checked here (CLI11 only said "Could not convert" above it).
    constexpr std::uint64_t max_unsigned = std::numeric_limits<unsigned>::max();
    cmd->add_option("--scale", o->scale, "rmat: log2 of the node count")
        ->check(whole_number(0, max_unsigned));
    cmd->add_option("--edge-factor", o->edge_factor, "rmat: edges per node")->capture_default_str();
    cmd->add_option("--a", o->a, "rmat: probability of the top-left quadrant")->capture_default_str();
    cmd->add_option("--b", o->b, "rmat: probability of the top-right quadrant")->capture_default_str();
    cmd->add_option("--c", o->c, "rmat: probability of the bottom-left quadrant (d = 1 - a - b - c)")
        ->capture_default_str();
    cmd->add_option("--seed", o->seed,
                    "random seed (random, rmat, --shuffle; grid and tree are otherwise deterministic)")
        ->capture_default_str();
    cmd->add_option("--out", o->out, "output file")->required();
    cmd->add_option("--format", o->format, "text (SNAP-style 'u v' lines) or binary (FXEDGES1)")
        ->capture_default_str();
    cmd->add_option("--id-width", o->id_width, "binary: bytes per id, 4 or 8 (default 4 when ids fit)")
        ->check(whole_number(0, max_unsigned));
    cmd->add_flag("--force", o->force, "overwrite an existing output file");
    cmd->add_flag("--json", o->json, "print a JSON summary instead of a line");
    cmd->add_flag("--no-progress", o->quiet, "no progress lines on stderr");
    cmd->add_flag_callback(
        "--quiet", [o] { o->quiet = true; }, "nothing on stderr but errors");
    cmd->add_flag("--shuffle", o->shuffle, "relabel the nodes by a random permutation drawn from --seed");
    cmd->callback([o, cmd] { run_gen(*o, cmd); });
}

} // namespace flashxxl::cli
