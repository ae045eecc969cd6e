// `flashxxl reproduce`: regenerates the papers' tables on the emulated devices; report.md, report.json, PNG
// plots.
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flashxxl/comma_list.hpp"
#include "common_options.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/reproduce/report.hpp"
#include "flashxxl/reproduce/report_plots.hpp"
#include "flashxxl/safe_output.hpp"
#include "invocation.hpp"
#include "option_checks.hpp"
#include "reproduce_tables.hpp"

namespace flashxxl::cli::reproduce {

std::vector<table_entry> all_tables() {
    return {
        {"seeds000_table2_1", "seeds/000 Table 2.1, device rows (device models)", seeds000_table2_1},
        {"seeds000_table3_1", "seeds/000 Table 3.1, the modelled devices' rows (device models)",
         seeds000_table3_1},
        {"seeds000_table4_1", "seeds/000 Table 4.1, MM_BFS placement (flashxxl placement)",
         seeds000_table4_1},
        {"seeds001_table1", "seeds/001 Table 1, sorting (flashxxl sort)", seeds001_table1},
        {"seeds001_table2", "seeds/001 Table 2, MM_BFS on grids (flashxxl bfs)", seeds001_table2},
        {"seeds001_dfs", "seeds/001 Section 4, DFS (flashxxl dfs)", seeds001_dfs},
        {"seeds001_cost_model", "seeds/001: analysis vs behaviour (closed-form predictors, cost/)",
         seeds001_cost_model},
        {"seeds001_cost_time", "seeds/001: predicted against modelled time on three devices (cost/)",
         seeds001_cost_time},
        {"uflip_table3", "uFLIP Table 3 indicators of the model presets", uflip_table3},
        {"log_block_fit", "the log-block SSD model: fitted Table 3.1 cells and predictions (device models)",
         log_block_fit},
        {"seeds004_chips", "seeds/004 Table 2, fast/slow pages and wear (chip models)", seeds004_chips},
        {"energy_br_bw", "device energy of sort, pq and MM_BFS, Br = Bw against Br < Bw (SLC, MLC chips)",
         energy_br_bw},
    };
}

namespace {

namespace rp = flashxxl::reproduce;

struct reproduce_options {
    std::string out;
    bool quick = false, tiny = false, force = false, no_plots = false, json = false, no_progress = false;
    std::string tables;
};

constexpr const char* md_signature = "# flashxxl reproduce";
constexpr const char* json_signature = "\"generator\": \"flashxxl reproduce\"";

//! The tables named in `list` (comma-separated ids; empty: all), in the report's order.
std::vector<table_entry> select_tables(const std::string& list) {
    std::vector<table_entry> all = all_tables(), chosen;
    if (list.empty()) return all;
    const std::vector<std::string> wanted = parse_comma_list("reproduce --tables", list);
    std::string known;
    for (const table_entry& e : all)
        known += (known.empty() ? "" : ", ") + e.id;
    for (const std::string& id : wanted) {
        bool found = false;
        for (const table_entry& e : all)
            found = found || e.id == id;
        if (!found)
            throw config_error("reproduce --tables: unknown table '" + id + "' (expected some of: " + known +
                               ")");
    }
    for (const table_entry& e : all)
        for (const std::string& id : wanted)
            if (e.id == id) {
                chosen.push_back(e);
                break;
            }
    if (chosen.empty())
        throw config_error("reproduce --tables: no table named (expected some of: " + known + ")");
    return chosen;
}

void make_directory(const std::string& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) { // a link to a directory is a directory, as for --plot
        if (!S_ISDIR(st.st_mode)) throw refused_output("--out '" + dir + "' exists and is not a directory");
    } else if (::mkdir(dir.c_str(), 0755) != 0) {
        throw io_failure("--out '" + dir + "': cannot create the directory: " + std::strerror(errno));
    }
    check_writable_directory(dir, "--out '" + dir + "'"); // now, not after the whole run
}

void run(const reproduce_options& o) {
    if (o.quick && o.tiny) throw config_error("reproduce: --quick and --tiny exclude each other");
    const scale s = o.tiny ? scale::tiny : o.quick ? scale::quick : scale::full;
    const std::vector<table_entry> tables = select_tables(o.tables);
    // Every output path is checked before any work: files we did not write stay untouched.
    make_directory(o.out);
    const std::string md_path = o.out + "/report.md", json_path = o.out + "/report.json";
    check_output_path(md_path, "--out", o.force, {md_signature});
    check_output_path(json_path, "--out", o.force, {json_signature});
    std::string terminal;
    const bool plots = !o.no_plots && rp::gnuplot_available(terminal);
    if (plots)
        for (const table_entry& e : tables)
            for (const std::string& p : rp::plot_outputs(o.out, e.id))
                check_output_path(p, "--out", o.force, rp::plot_signatures());

    const bool show = !o.no_progress;
    rp::report rep;
    rep.mode = to_string(s);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const table_entry& e = tables[i];
        const std::string prefix =
            "reproduce: [" + std::to_string(i + 1) + "/" + std::to_string(tables.size()) + "] " + e.id;
        if (show) std::cerr << prefix << ": " << e.what << std::endl;
        const auto t0 = std::chrono::steady_clock::now();
        rp::report_table t = e.run(s, [&](const std::string& what) {
            if (show) std::cerr << prefix << ": " << what << std::endl;
        });
        t.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (show) std::cerr << prefix << ": done in " << int(t.wall_s + 0.5) << " s" << std::endl;
        if (!o.json) std::cout << rp::to_text(t) << "\n" << std::flush;
        rep.tables.push_back(std::move(t));
    }
    const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<std::string> images;
    std::string plot_note;
    if (o.no_plots)
        plot_note = "plots not drawn (--no-plots)";
    else if (!plots)
        plot_note = "plots skipped: gnuplot with a PNG terminal was not found";
    else
        for (const rp::report_table& t : rep.tables) {
            std::string failure;
            std::string png = rp::plot_table(o.out, t, terminal, o.force, failure);
            if (!png.empty()) images.push_back(png);
            if (!failure.empty()) {
                plot_note +=
                    (plot_note.empty() ? "no plot for " : "; no plot for ") + t.id + " (" + failure + ")";
                std::cerr << "flashxxl: warning: no plot for " << t.id << ": " << failure << "\n";
            }
        }

    nlohmann::json j = rp::to_json(rep);
    j["generator"] = "flashxxl reproduce";
    j["command"] = "reproduce";
    j["wall_s"] = total_s;
    j["plots"] = images;
    if (!plot_note.empty()) j["plots_note"] = plot_note;
    j.update(run_metadata());
    const std::string json_text = j.dump(2) + "\n";
    safe_output_file json_file(json_path, "--out", o.force, {json_signature});
    json_file.stream() << json_text;
    json_file.commit();

    std::ostringstream header;
    header
        << "Generated by `flashxxl reproduce` (" << version() << ", mode " << rep.mode << ") in "
        << int(total_s + 0.5) << " s on this machine. Every number is modelled (the emulated devices' "
        << "virtual clocks and counted I/O), not wall time. \"paper\" is the paper's figure (or a ratio of "
           "its "
        << "figures; \"(derived)\": computed by us from its figures through our models, not the paper's), "
        << "\"ours\" ours, their ratio beside them; a dash: no such number (the note or the notes say why). "
           "docs/reproduce.md "
        << "says how each table is scaled.";
    if (!plot_note.empty()) header << "\n\n" << plot_note << ".";
    std::string md = rp::to_markdown(rep, header.str());
    for (const std::string& img : images) {
        const std::string name = img.substr(img.find_last_of('/') + 1);
        md += "![" + name + "](" + name + ")\n";
    }
    safe_output_file md_file(md_path, "--out", o.force, {md_signature});
    md_file.stream() << md;
    md_file.commit();
    if (show)
        std::cerr << "reproduce: wrote " << md_path << ", " << json_path << " and " << images.size()
                  << " plots in " << int(total_s + 0.5) << " s" << std::endl;
    if (o.json) std::cout << json_text;
}

} // namespace
} // namespace flashxxl::cli::reproduce

namespace flashxxl::cli {

void register_reproduce_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("reproduce",
                                   "regenerate the papers' tables on the emulated devices (seeds/000 "
                                   "Tables 2.1, 3.1, 4.1; seeds/001 Table 1, "
                                   "Table 2, DFS; uFLIP Table 3; seeds/004 Table 2, fast/slow pages, "
                                   "wear; device energy of Br = Bw against Br < Bw), the paper's numbers "
                                   "beside ours with ratios: DIR/report.md, DIR/report.json, "
                                   "DIR/<table>.png. Full run: about 10 minutes on a 2-core machine "
                                   "(measured 9 min 36 s before the seeds/004 and energy tables, which "
                                   "add about 35 s; peak memory 4.4 GiB); --quick: "
                                   "about 3.5 minutes (measured 3 min 22 s, then about 10 s more; 1 GiB)");
    auto o = std::make_shared<reproduce::reproduce_options>();
    cmd->add_option("--out", o->out, "directory for report.md, report.json and the plots (created if absent)")
        ->required()
        ->check(non_empty_path("a directory"));
    cmd->add_flag("--quick", o->quick,
                  "smaller sizes, same ratios (about 3.5 minutes on a 2-core machine, measured)");
    cmd->add_flag("--tiny", o->tiny,
                  "the smallest sizes (seconds per table; for tests, numbers not meaningful)");
    cmd->add_option("--tables", o->tables,
                    "comma-separated table ids to run (default all): seeds000_table2_1, seeds000_table3_1, "
                    "seeds000_table4_1, seeds001_table1, seeds001_table2, seeds001_dfs, uflip_table3, "
                    "log_block_fit, seeds004_chips, energy_br_bw, seeds001_cost_model, seeds001_cost_time");
    cmd->add_flag("--force", o->force, "replace output files flashxxl did not write");
    cmd->add_flag("--no-plots", o->no_plots, "do not draw the PNG plots");
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o, cmd] {
        // `--tables ""` (an unset shell variable, say) names no table; it does not mean all of them.
        if (cmd->count("--tables") > 0 && o->tables.empty())
            throw config_error("reproduce --tables: an empty list; leave the option out to run every table");
        reproduce::run(*o);
    });
}

} // namespace flashxxl::cli
