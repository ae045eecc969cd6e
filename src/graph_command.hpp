// Pieces shared by the graph commands (bfs, dfs, placement): options, memory check, --out file, table lines.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/block_sizes.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/safe_output.hpp"
#include "flashxxl/units.hpp"
#include "common_options.hpp"
#include "machine_options.hpp"
#include "option_checks.hpp"
#include "plot_output.hpp"

namespace flashxxl::cli {

//! The options `bfs` and `dfs` share; each derives its own options struct from this one.
struct graph_command_options {
    machine_choice choice;
    std::string graph;
    std::string br, bw, memory = "256MiB"; // br, bw empty: the device's (resolve_block_sizes)
    std::uint64_t source = 0;
    std::string out;
    std::string plot; // --plot DIR
    bool force = false;
    bool json = false, no_progress = false;
};

//! Adds --plot DIR and --force (the chart of write_phase_plot).
inline void add_plot_options(CLI::App* cmd, graph_command_options& o) {
    cmd->add_option("--plot", o.plot,
                    "write a CSV table and a gnuplot chart here: per phase, each device's modelled busy time")
        ->check(non_empty_path("a directory for the charts"));
    cmd->add_flag("--force", o.force,
                  "with --plot or --out: replace files flashxxl did not write (never the input graph)");
}

//! What the options of add_graph_command_options say that differs between the commands.
struct graph_option_texts {
    std::string memory; //!< --memory's help
    std::string source; //!< --source's help
    std::string out;    //!< what --out writes ("`node level parent` lines (discovery order)")
};

//! The options every graph command takes, set up once: the machine options, the graph, --br /
//! --bw / --memory, --source, --out, --plot / --force, --json / --no-progress. `add_own` adds the
//! command's own options after the graph and block sizes, where --help lists them.
template <class AddOwn>
void add_graph_command_options(CLI::App* cmd, graph_command_options& o, const graph_option_texts& texts,
                               AddOwn add_own) {
    add_machine_options(cmd, o.choice);
    cmd->add_option("graph", o.graph, std::string("the graph: ") + graph_spec_help())->required();
    add_own();
    add_block_size_options(cmd, o.br, o.bw, o.memory, texts.memory);
    cmd->add_option("--source", o.source, texts.source)->capture_default_str();
    cmd->add_option("--out", o.out,
                    "write " + texts.out + " to this file, after a `# flashxxl " + cmd->get_name() +
                        " --out:` line; an existing file only if an earlier --out wrote it, or with --force")
        ->check(non_empty_path("a file"));
    add_plot_options(cmd, o);
    add_report_flags(cmd, o.json, o.no_progress);
}

//! Chart `name`-phases of --plot DIR: per phase, each device's modelled busy time stacked, and
//! the phase's modelled elapsed time (devices in parallel) as a point.
inline void write_phase_plot(const plot_directory& plots, const std::string& name, const std::string& title,
                             const std::vector<phase_stats>& phases) {
    if (!plots.enabled() || phases.empty()) return;
    const std::vector<std::string>& devices = phases.front().device_names;
    std::string csv = "phase";
    for (const std::string& d : devices)
        csv += "," + csv_field(d) + " modelled_s";
    csv += ",modelled_elapsed_s\n";
    for (const phase_stats& p : phases) {
        csv += csv_field(p.name);
        for (std::size_t d = 0; d < devices.size(); ++d)
            csv += "," + std::to_string(d < p.devices.size() ? p.devices[d].total.modelled_s : 0.0);
        csv += "," + std::to_string(p.modelled.elapsed_s) + "\n";
    }
    std::string plot =
        "plot '" + name + "-phases.csv' using 2:xtic(1) title '" + gnuplot_text(devices.front()) + "'";
    for (std::size_t d = 1; d < devices.size(); ++d)
        plot += ", '' using " + std::to_string(d + 2) + " title '" + gnuplot_text(devices[d]) + "'";
    plot += ", '' using 0:" + std::to_string(devices.size() + 2) +
            " with points pt 7 ps 1.5 lc rgb 'black' title 'modelled elapsed (devices in parallel)'";
    plots.write(name + "-phases", csv,
                "set key autotitle columnhead\nset style data histograms\nset style histogram rowstacked\n"
                "set boxwidth 0.6\nset style fill solid 0.8 border -1\nset grid ytics\nset yrange [0:*]\n"
                "set title '" +
                    gnuplot_text(title) + "'\nset ylabel 'modelled busy seconds per device'\n" + plot + "\n",
                &std::cerr);
}

//! config_error when the memory budget is below what the chosen blocks need: "<command>: --memory
//! 1MiB is below the 4.0 MiB that Br = 128KiB, Bw = 16MiB need". `tl_memory`, when not 0, is the
//! part of `need` that the machine's translation layers take (charged to M), and the message
//! says so; `with` names what else the need counts (" with the cluster file's Br = ...").
inline void require_memory(const std::string& command, std::uint64_t memory, std::uint64_t need,
                           const std::string& memory_text, const block_sizes& b, std::uint64_t tl_memory = 0,
                           const std::string& with = "") {
    if (memory < need)
        throw config_error(command + ": --memory " + memory_text + " is below the " +
                           format_bytes(double(need)) + " that " + b.describe() + with + " need" +
                           (tl_memory ? " with the translation layers' buffers and maps (" +
                                            format_bytes(double(tl_memory)) + ", charged to M)"
                                      : std::string()));
}

//! The file of a graph command's --out option, or none when the path is empty. Written as every
//! output of flashxxl is (safe_output_file): into a temporary file beside the path, renamed over
//! it by close() after a successful run, so a failed run leaves the old file (or none). The
//! first line, `# flashxxl <command> --out: <columns>`, marks it as ours: an existing file is
//! replaced only when it carries that line (an earlier --out of the same command) or with
//! --force, and never when it is the input graph itself, force or not.
class out_file {
public:
    //! `command` names the subcommand in errors ("bfs --out 'x' exists and was not written by
    //! flashxxl ..."); `graph` is the command's graph argument (a path or a generator spec);
    //! `columns` describes the lines that follow the header.
    out_file(const std::string& command, const std::string& path, bool force, const std::string& graph,
             const std::string& columns)
        : option_(command + " --out") {
        if (path.empty()) return;
        const std::string signature = "# flashxxl " + option_ + ":";
        refuse_input_graph(path, graph);
        file_.emplace(path, option_, force, std::vector<std::string>{signature});
        header_ = signature + " " + columns + "\n"; // written with the first line: no file before
    }

    //! The stream to write lines to, or nullptr without --out.
    std::ostream* get() {
        if (!file_) return nullptr;
        std::ostream& out = file_->stream();
        if (!header_.empty()) out << std::exchange(header_, std::string());
        return &out;
    }

    //! io_failure naming the option and the path when a write to get() failed (disk full).
    void check_written() {
        if (file_ && !file_->stream())
            throw io_failure(option_ + " '" + file_->path() + "': write failed (disk full?)");
    }

    //! Renames the finished file over the path; io_failure if the data did not reach it.
    void close() {
        if (!file_) return;
        get(); // the header, when no line was written
        check_written();
        file_->commit();
    }

private:
    //! config_error when `path` names the same file as `graph` (same device and inode).
    void refuse_input_graph(const std::string& path, const std::string& graph) const {
        struct stat out_st {
        }, graph_st{};
        if (::stat(path.c_str(), &out_st) != 0 || ::stat(graph.c_str(), &graph_st) != 0) return;
        if (out_st.st_dev == graph_st.st_dev && out_st.st_ino == graph_st.st_ino)
            throw config_error(option_ + " '" + path + "' is the input graph '" + graph +
                               "'; choose another path for the output");
    }

    std::string option_;
    std::optional<safe_output_file> file_;
    std::string header_; // the first line, until written
};

//! The first lines of a graph command's table: the graph as read into the CSR, the machine.
inline void print_graph_and_machine(const std::string& command, const std::string& graph,
                                    const csr_build_stats& csr, const machine& m) {
    std::printf("%s: %s: %llu nodes, %llu edges read (%llu self-loops, %llu repeated arcs dropped), %llu "
                "edges kept\n",
                command.c_str(), graph.c_str(), (unsigned long long)csr.nodes,
                (unsigned long long)csr.input_edges, (unsigned long long)csr.self_loops,
                (unsigned long long)csr.duplicate_arcs, (unsigned long long)csr.edges());
    std::printf("machine %s, placement %s\n", m.name().c_str(), m.describe_placement().c_str());
}

//! "12.3 J", or "unknown" when a device model has no energy figures.
inline std::string energy_with_unit(const io_counters& c) {
    return c.energy_known ? format_energy(c) + " J" : "unknown";
}

//! One phase: modelled elapsed time and I/O wait (virtual clock), wall time and wall I/O wait,
//! the busiest device's modelled time, then a table row per device.
inline void print_phase(const phase_stats& p) {
    std::printf(
        "phase %s: modelled elapsed %.3f s (I/O wait %.3f s); wall %.3f s (I/O wait %.3f s); busiest device "
        "modelled %.3f s; device energy %s\n",
        p.name.c_str(), p.modelled.elapsed_s, p.modelled.io_wait_s, p.wall_s, p.wait_s(),
        p.busiest_modelled_s(), energy_with_unit(machine_total(p.devices)).c_str());
    print_counters_header(std::cout);
    for (std::size_t i = 0; i < p.devices.size(); ++i)
        print_stats_rows(std::cout, p.device_names[i], p.devices[i]);
    std::cout.flush();
}

//! The last line of a command's table: the whole run on the machine's virtual clock.
inline void print_command_modelled_time(const std::string& command, const machine& m) {
    modelled_time t = m.modelled();
    std::printf("%s: modelled elapsed %.3f s, of which I/O wait %.3f s (CPU time not modelled); modelled "
                "device energy %s\n",
                command.c_str(), t.elapsed_s, t.io_wait_s,
                energy_with_unit(machine_total(m.stats())).c_str());
}

} // namespace flashxxl::cli
