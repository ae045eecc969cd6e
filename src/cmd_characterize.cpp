// `flashxxl characterize`: measures a device (model, file or block device) and recommends Br and Bw.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flashxxl/comma_list.hpp"
#include "flashxxl/characterize/block_device_target.hpp"
#include "flashxxl/characterize/csv_report.hpp"
#include "flashxxl/characterize/device_hints.hpp"
#include "flashxxl/characterize/experiment_check.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/file_target.hpp"
#include "flashxxl/characterize/fit_report.hpp"
#include "flashxxl/characterize/gnuplot_report.hpp"
#include "flashxxl/characterize/io_log.hpp"
#include "flashxxl/characterize/json_report.hpp"
#include "flashxxl/characterize/memory_estimate.hpp"
#include "flashxxl/characterize/misalignment.hpp"
#include "flashxxl/characterize/model_fit.hpp"
#include "flashxxl/characterize/model_target.hpp"
#include "flashxxl/characterize/plan_estimate.hpp"
#include "flashxxl/characterize/plans.hpp"
#include "flashxxl/progress_bar.hpp"
#include "flashxxl/characterize/queue_depth.hpp"
#include "flashxxl/characterize/recommendation.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine_config.hpp"
#include "flashxxl/machine/presets.hpp"
#include "flashxxl/safe_output.hpp"
#include "flashxxl/units.hpp"
#include "invocation.hpp"
#include "machine_options.hpp"
#include "plot_output.hpp"
#include "option_checks.hpp"

namespace flashxxl::cli {

namespace {

namespace ch = flashxxl::characterize;

struct characterize_args {
    std::string model, machine, machine_config, device, file, allow_write, size_text, span_text, limit_text;
    std::vector<std::string> params;
    std::string plan, experiments;
    double time_s = -1;
    long long count = -1, repeat = -1, uflip_count = -1;
    bool random_state = false, no_bursts = false, no_misaligned = false;
    double read_share = 0.95, write_share = 0.90;
    std::string block_device, out_dir, csv_path, io_log_path, config_path, config_name, max_write_text;
    std::string memory_text; // --memory: empty = ch::default_memory_budget
    bool json = false, dry_run = false, no_progress = false, quiet = false, keep = false, no_plots = false,
         force = false;
    std::uint64_t seed = 1;
    std::string queue_depths;      // --queue-depths: empty = default (real targets only), "none" = skip
    double queue_depth_time_s = 2; // --queue-depth-time
    std::string fit;               // --fit MODEL: empty = no fit
    std::string fit_holdout = "alternate"; // --fit-holdout
    std::string fit_config_path;           // --fit-config FILE
};

//! --queue-depths as depths: "none" -> empty; the default for real targets when not given.
std::vector<unsigned> parse_queue_depths(const std::string& text) {
    if (text == "none") return {};
    std::vector<unsigned> depths;
    // The list's rules are every list's (parse_comma_list); a depth is compared by its value.
    const auto depth = [&](const std::string& item) {
        if (item.size() > 2 || item.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(item) < 1 || std::stoul(item) > 64)
            throw config_error("--queue-depths '" + text +
                               "': expected depths 1..64 separated by commas (e.g. "
                               "1,2,4,8,16) or 'none', got '" +
                               item + "'");
        return std::to_string(std::stoul(item));
    };
    for (const std::string& item : parse_comma_list("--queue-depths", text, depth))
        depths.push_back(unsigned(std::stoul(item)));
    return depths;
}

struct made_target {
    std::unique_ptr<ch::target> t;
    std::string preset;       // model preset (model targets)
    model_params params;      // its overrides
    std::string snippet_path; // path for the config snippet
    std::string snippet_name;
};

//! A file target that does not exist yet, for --dry-run: same range and alignment, no I/O.
class planned_target : public ch::target {
public:
    planned_target(std::string path, std::uint64_t size)
        : path_(std::move(path)), guard_(path_, size, 4096) {}
    std::string name() const override { return path_; }
    std::string kind() const override { return "file (not created yet)"; }
    bool modelled() const override { return false; }

protected:
    const ch::io_guard& guard() const override { return guard_; }
    double do_io(io_op, std::uint64_t, std::uint64_t) override {
        throw invalid_request("dry run: no I/O may be issued to '" + path_ + "'");
    }

private:
    std::string path_;
    ch::io_guard guard_;
};

//! A size option (IEC units), errors prefixed with the option: "--size: size 'abc' is not a number ...".
std::uint64_t parse_size_option(const char* option, const std::string& text) {
    try {
        return parse_size(text);
    } catch (const config_error& e) {
        throw config_error(std::string(option) + ": " + e.what());
    }
}

//! Refuses options that mean nothing for the chosen target instead of ignoring them silently.
void check_target_options(const characterize_args& a) {
    auto only = [](bool given, const char* option, bool applies, const char* target, const char* what) {
        if (given && !applies)
            throw config_error(std::string(option) + " applies to " + target + " only (" + what + ")");
    };
    const bool file = !a.file.empty(), block = !a.block_device.empty();
    only(!a.size_text.empty(), "--size", file, "--file", "the size of the target file");
    only(a.keep, "--keep", file, "--file", "keep the target file after the run");
    only(!a.limit_text.empty(), "--limit", block, "--block-device", "use only its first SIZE bytes");
    only(!a.allow_write.empty(), "--allow-write", block, "--block-device", "consent to destroy its contents");
    if (!a.limit_text.empty()) {
        std::uint64_t limit = parse_size_option("--limit", a.limit_text);
        if (limit < 4 * KiB || limit % (4 * KiB) != 0)
            throw config_error("--limit " + a.limit_text + " (" + std::to_string(limit) +
                               " bytes): expected a multiple of 4 KiB of at least 4 KiB (e.g. 64GiB)");
    }
}

//! The signal (SIGINT or SIGTERM) that asked a run on a real target to stop; 0 while none did.
volatile std::sig_atomic_t interrupt_signal = 0;
void note_interrupt(int sig) { interrupt_signal = sig; }

//! While it lives, the first SIGINT / SIGTERM is caught (a second one acts as usual:
//! SA_RESETHAND), so that a run on a real target stops before its next request and unwinds,
//! removing a target file it created. The destructor puts back the actions there were before
//! (after the last request Ctrl-C stops the program again: its reports are written atomically,
//! so none is left half-written).
class interrupt_catcher {
public:
    interrupt_catcher() {
        struct sigaction sa {};
        sa.sa_handler = note_interrupt;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        ::sigaction(SIGINT, &sa, &old_int_);
        ::sigaction(SIGTERM, &sa, &old_term_);
    }
    ~interrupt_catcher() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
    }
    interrupt_catcher(const interrupt_catcher&) = delete;
    interrupt_catcher& operator=(const interrupt_catcher&) = delete;

private:
    struct sigaction old_int_ {
    }, old_term_{};
};

//! A real target that throws before the next request (or pause) once interrupt_signal is set,
//! so the run unwinds normally: no report is written and the target's cleanup runs.
class interruptible_target : public ch::target {
public:
    explicit interruptible_target(ch::target& t) : t_(t), guard_(t.name(), t.capacity(), t.alignment()) {}
    std::string name() const override { return t_.name(); }
    std::string kind() const override { return t_.kind(); }
    device_class klass() const override { return t_.klass(); }
    bool modelled() const override { return t_.modelled(); }
    std::uint64_t base_offset() const override { return t_.base_offset(); }
    ch::page_backing io_buffer() const override { return t_.io_buffer(); }
    void pause(double seconds) override {
        stop_if_interrupted();
        t_.pause(seconds);
    }

protected:
    const ch::io_guard& guard() const override { return guard_; }
    double do_io(io_op op, std::uint64_t offset, std::uint64_t length) override {
        stop_if_interrupted();
        return t_.io(op, offset, length);
    }
    std::optional<ch::concurrent_reads_result> do_concurrent_reads(const std::vector<std::uint64_t>& offsets,
                                                                   std::uint64_t length, unsigned depth,
                                                                   double time_limit) override {
        stop_if_interrupted();
        return t_.concurrent_reads(offsets, length, depth, time_limit);
    }

public:
    //! Throws once a caught signal asked the run to stop.
    void stop_if_interrupted() const {
        if (interrupt_signal)
            throw error(std::string("interrupted by ") + (interrupt_signal == SIGINT ? "SIGINT" : "SIGTERM") +
                        ": stopped before the next request to '" + t_.name() +
                        "'; no report written (a target file this run created is removed unless --keep)");
    }

private:
    ch::target& t_;
    ch::io_guard guard_;
};

model_params parse_params(const std::vector<std::string>& kvs) {
    model_params p;
    for (const auto& kv : kvs) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw config_error("--param '" + kv + "': expected key=value");
        p.set(kv.substr(0, eq), kv.substr(eq + 1));
    }
    return p;
}

made_target make_target(const characterize_args& a) {
    made_target m;
    if (!a.machine_config.empty() && !std::filesystem::is_regular_file(a.machine_config))
        throw config_error("--config: '" + a.machine_config + "' is not a file (expected a machine config; " +
                           "a preset goes to --machine)");
    // the machine, named by --config FILE or --machine PRESET|FILE (CLI11 lets only one through),
    // and the option that named it
    const std::string& machine = a.machine_config.empty() ? a.machine : a.machine_config;
    const char* machine_option = a.machine_config.empty() ? "--machine " : "--config ";
    if (!a.device.empty() && machine.empty())
        throw config_error("--device " + a.device +
                           " names a device of a machine and needs --machine (or --config); to measure "
                           "a block device give --block-device " +
                           a.device + " --allow-write=" + a.device);
    int kinds = !a.model.empty() + !machine.empty() + !a.file.empty() + !a.block_device.empty();
    if (kinds != 1)
        throw config_error("characterize needs exactly one target: --model PRESET, --machine NAME (or "
                           "--config FILE) --device DEV, "
                           "--file PATH, or --block-device /dev/BLOCKDEVICE --allow-write=/dev/BLOCKDEVICE");
    check_target_options(a);
    if (!a.model.empty() || !machine.empty()) {
        if (!machine.empty()) {
            if (a.device.empty()) throw config_error(machine_option + machine + " needs --device NAME");
            if (!a.params.empty())
                throw config_error("--param applies to --model; a machine's models take their "
                                   "parameters from its config");
            struct stat st {};
            machine_spec spec = ::stat(machine.c_str(), &st) == 0
                                    ? load_machine_config(machine)
                                    : preset_spec_for_option("--machine", machine);
            const device_spec* d = nullptr;
            std::string names;
            for (const auto& x : spec.devices) {
                names += (names.empty() ? "" : ", ") + x.name;
                if (x.name == a.device) d = &x;
            }
            if (!d)
                throw config_error("machine '" + spec.name + "' has no device '" + a.device +
                                   "' (devices: " + names + ")");
            if (d->model.empty())
                throw config_error(
                    "device '" + d->name + "' of machine '" + spec.name + "' (" + d->origin +
                    ") is a real device; characterize its file with --file or its block device "
                    "with --block-device and --allow-write");
            m.preset = d->model;
            m.params = d->params;
            m.snippet_name = d->name;
        } else {
            m.preset = a.model;
            m.params = parse_params(a.params);
            m.snippet_name = a.model;
        }
        auto model = make_model(m.preset, m.params);
        m.t = std::make_unique<ch::model_target>(std::move(model), m.preset);
        m.snippet_path = "/path/to/" + m.snippet_name + ".img";
        return m;
    }
    if (!a.params.empty()) throw config_error("--param applies to --model only");
    if (!a.file.empty()) {
        std::uint64_t size = a.size_text.empty() ? 0 : parse_size_option("--size", a.size_text);
        if (!a.size_text.empty() && size == 0)
            throw config_error("--size " + a.size_text + ": expected a size above 0 (e.g. 4GiB)");
        if (size % ch::file_target::header_bytes != 0)
            throw config_error(
                "--size " + a.size_text + " (" + std::to_string(size) +
                " bytes): expected a multiple of 4 KiB, the alignment of every request (e.g. 4GiB)");
        m.snippet_path = a.file;
        struct stat st {};
        if (a.dry_run && ::lstat(a.file.c_str(), &st) != 0) {
            // Nothing may be written in a dry run, not even the new file's header.
            if (size == 0) throw config_error("'" + a.file + "' does not exist; give --size to create it");
            m.t = std::make_unique<planned_target>(a.file, size);
            m.snippet_name = "flash0";
            return m;
        }
        if (a.dry_run) {
            // An existing file: check that it is ours without changing it (size 0 = no resize).
            auto f = std::make_unique<ch::file_target>(a.file, 0);
            m.snippet_name = "flash0";
            if (size != 0 && size != f->capacity())
                m.t = std::make_unique<planned_target>(a.file, size);
            else
                m.t = std::move(f);
            return m;
        }
        auto f = std::make_unique<ch::file_target>(a.file, size);
        f->remove_on_close(f->created() && !a.keep);
        m.snippet_name = "flash0";
        m.t = std::move(f);
        return m;
    }
    std::uint64_t limit = a.limit_text.empty() ? 0 : parse_size_option("--limit", a.limit_text);
    m.t = std::make_unique<ch::block_device_target>(a.block_device, a.allow_write, limit);
    m.snippet_path = a.block_device;
    m.snippet_name = "flash0";
    return m;
}

std::string mib(double x) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(x < 1 ? 4 : 2) << x;
    return s.str();
}

//! The first line of a config file --fit-config writes (it may replace only such a file).
const char* const fit_config_signature = "# fitted by flashxxl characterize";

//! The sysfs hints as JSON, each absent one null.
nlohmann::json hints_json(const ch::device_hints& h) {
    auto value = [](const std::optional<std::uint64_t>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json();
    };
    return {{"device", h.device},
            {"physical_block_size_bytes", value(h.physical_block_size)},
            {"minimum_io_size_bytes", value(h.minimum_io_size)},
            {"optimal_io_size_bytes", value(h.optimal_io_size)},
            {"rotational", h.rotational ? nlohmann::json(*h.rotational) : nlohmann::json()},
            {"nr_requests", value(h.nr_requests)}};
}

void print_summary(std::ostream& out, const ch::characterization& c, const ch::recommendation& r,
                   const std::string& snippet, const ch::device_hints& hints) {
    out << "target: " << c.target_name << " (" << c.target_kind
        << (c.modelled ? ", modelled time" : ", measured") << "), " << format_bytes(double(c.capacity))
        << ", alignment " << c.alignment << " B";
    if (c.base_offset) out << ", data from byte " << c.base_offset;
    out << "\n";
    if (!c.modelled) {
        // large requests from scattered 4 KiB pages cost more on some (virtual) disks: say so
        std::uint64_t scattered = 0;
        for (const auto& x : c.runs)
            if (x.pattern.block > 4 * KiB && x.io_buffer != ch::page_backing::huge_pages) ++scattered;
        if (scattered)
            out << "note: " << scattered
                << " run(s) with requests > 4 KiB used a buffer not backed by huge pages "
                << "(transparent huge pages off?): one DMA segment per 4 KiB page, which some (virtual) "
                   "disks "
                << "charge for; see docs/characterize.md\n";
    }
    out << "requests: " << c.requests << ", read " << format_bytes(double(c.bytes_read)) << ", written "
        << format_bytes(double(c.bytes_written)) << ", device time " << std::fixed << std::setprecision(1)
        << c.device_seconds << " s\n";
    if (!r.curves.empty()) {
        std::vector<std::string> codes;
        std::vector<std::uint64_t> blocks;
        for (const auto& kv : r.curves) {
            codes.push_back(kv.first);
            for (const auto& p : kv.second)
                blocks.push_back(p.block);
        }
        std::sort(blocks.begin(), blocks.end());
        blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
        out << "\nthroughput (MiB/s)\n" << std::setw(10) << "block";
        for (const auto& c2 : codes)
            out << std::setw(12) << c2;
        out << "\n";
        for (auto b : blocks) {
            out << std::setw(10) << format_size(b);
            for (const auto& c2 : codes) {
                double v = r.at(c2, b);
                out << std::setw(12) << (v > 0 ? mib(v) : "-");
            }
            out << "\n";
        }
        out << "peak read " << mib(r.peak_read_mib_s) << " MiB/s, peak sequential write "
            << mib(r.peak_seq_write_mib_s) << " MiB/s\n";
    }
    if (!c.self_scaling.empty()) {
        out << "self-scaling sizes (doubling gains < 2.5% beyond):";
        for (const auto& kv : c.self_scaling)
            out << " " << kv.first << "=" << format_size(kv.second);
        out << "\n";
    }
    for (const auto& b : c.bursts)
        out << "burst " << b.label << ": " << b.burst_ios << " random writes, then median "
            << mib(b.recovery.median_mib_s) << " MiB/s, recovery to 60% after " << std::setprecision(0)
            << b.recovery.recovery_s << " s\n";
    for (const auto& m : ch::misalignment(c))
        out << "misaligned random writes " << format_size(m.block) << " shifted " << format_size(m.shift)
            << ": " << mib(m.mib_s) << " MiB/s (" << std::setprecision(2) << m.ratio_to_aligned
            << " x aligned)\n";
    if (!c.strides.empty())
        out << c.strides.size() << " stride / write-then-read tests (see the JSON and CDF plot)\n";
    out << "\nrecommendation (Br: random reads >= " << std::setprecision(0) << r.options.read_share * 100
        << "% of peak read; Bw: random writes >= " << r.options.write_share * 100
        << "% of peak sequential write)\n";
    out << "  Br = " << (r.br ? format_size(*r.br) : "not reached") << "\n";
    out << "  Bw = " << (r.bw_aligned ? format_size(*r.bw_aligned) : "not reached")
        << "   (block-aligned offsets: what flashxxl's containers issue)\n";
    out << "  Bw = " << (r.bw_unaligned ? format_size(*r.bw_unaligned) : "not reached")
        << "   (4 KiB-granular offsets: what the papers' numbers imply)\n";
    if (!hints.empty()) out << "  device (Linux sysfs queue limits): " << hints.text() << "\n";
    if (!r.queue_depths.empty()) {
        out << "\nrandom reads of " << format_size(r.queue_depths.front().block)
            << " by queue depth (MiB/s):";
        for (const auto& p : r.queue_depths)
            out << "  " << p.depth << ": " << mib(p.mib_s);
        out << "\n  io_threads = "
            << (r.io_threads ? std::to_string(*r.io_threads) : std::string("not measured"))
            << "   (the smallest depth within " << std::setprecision(0) << r.io_threads_share * 100
            << "% of the best: requests a device line keeps in flight)\n";
    }
    out << "\nmachine config:\n" << snippet;
}

//! A directory this run created (--out): removed again at the end if still empty, so a run that
//! fails before writing anything leaves none behind (rmdir removes only an empty directory).
struct made_directory {
    std::string path;
    made_directory() = default;
    made_directory(made_directory&& o) noexcept : path(std::move(o.path)) { o.path.clear(); }
    made_directory& operator=(made_directory&&) = delete;
    ~made_directory() {
        if (!path.empty()) ::rmdir(path.c_str());
    }
};

//! The report files of a run, opened (checked, temporary files made) before any I/O.
struct report_outputs {
    made_directory out_dir; // first: goes after the files
    std::string json_path, csv_path, plot_prefix, terminal;
    std::unique_ptr<safe_output_file> json, csv, io_log, fit_config;
};

//! Where `path` lands: the real path of its directory (as far as it exists) plus its name.
std::string landing_path(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p(path);
    std::error_code ec;
    fs::path dir =
        fs::weakly_canonical(fs::absolute(p.parent_path().empty() ? fs::path(".") : p.parent_path()), ec);
    if (ec) dir = fs::absolute(p.parent_path()).lexically_normal();
    return (dir / p.filename()).string();
}

//! Refuses two outputs, or an output and the target, that name the same file (same directory
//! by real path, same name): one would replace the other, or the report the target. Before any I/O.
void check_distinct_paths(const std::vector<std::pair<std::string, std::string>>& named) {
    std::vector<std::string> landed;
    for (const auto& n : named)
        landed.push_back(n.second.empty() ? std::string() : landing_path(n.second));
    for (std::size_t i = 0; i < named.size(); ++i)
        for (std::size_t j = i + 1; j < named.size(); ++j)
            if (!landed[i].empty() && landed[i] == landed[j])
                throw config_error(named[i].first + " '" + named[i].second + "' and " + named[j].first +
                                   " '" + named[j].second + "' name the same file (" + landed[i] +
                                   "); give each output its own path, apart from the target");
}

report_outputs open_outputs(const characterize_args& a) {
    report_outputs r;
    r.csv_path = a.csv_path;
    std::vector<std::string> plot_files;
    if (!a.out_dir.empty()) {
        struct stat st {};
        if (::stat(a.out_dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
            throw refused_output("--out '" + a.out_dir + "' exists and is not a directory");
        r.json_path = a.out_dir + "/characterize.json";
        if (r.csv_path.empty()) r.csv_path = a.out_dir + "/characterize.csv";
        if (!a.no_plots) {
            r.terminal = gnuplot_terminal();
            r.plot_prefix = a.out_dir + "/characterize";
            const std::string ext = r.terminal == "svg" || r.terminal.empty() ? ".svg" : ".png";
            plot_files = ch::gnuplot_outputs(r.plot_prefix, ext);
            if (!a.fit.empty())
                for (const auto& f : ch::fit_gnuplot_outputs(r.plot_prefix, ext))
                    plot_files.push_back(f);
        }
    }
    std::string json_opt = "--out", csv_opt = a.csv_path.empty() ? "--out" : "--csv";
    std::vector<std::pair<std::string, std::string>> named{
        {"--file", a.file},    {"--block-device", a.block_device}, {json_opt, r.json_path},
        {csv_opt, r.csv_path}, {"--io-log", a.io_log_path},        {"--fit-config", a.fit_config_path}};
    for (const auto& p : plot_files)
        named.emplace_back("--out", p);
    check_distinct_paths(named);
    for (const auto& p : plot_files)
        check_output_path(p, "--out", a.force, {ch::gnuplot_signature()});
    if (a.dry_run) { // check only: a dry run creates nothing
        if (!r.json_path.empty()) check_output_path(r.json_path, json_opt, a.force, {ch::json_signature()});
        if (!r.csv_path.empty()) check_output_path(r.csv_path, csv_opt, a.force, {ch::csv_header});
        if (!a.io_log_path.empty())
            check_output_path(a.io_log_path, "--io-log", a.force, {ch::io_log_header});
        if (!a.fit_config_path.empty())
            check_output_path(a.fit_config_path, "--fit-config", a.force, {fit_config_signature});
        return r;
    }
    if (!a.out_dir.empty()) {
        if (::mkdir(a.out_dir.c_str(), 0755) == 0)
            r.out_dir.path = a.out_dir;
        else if (errno != EEXIST)
            throw io_failure("--out '" + a.out_dir +
                             "': cannot create the directory: " + std::strerror(errno));
    }
    if (!r.json_path.empty())
        r.json = std::make_unique<safe_output_file>(r.json_path, json_opt, a.force,
                                                    std::vector<std::string>{ch::json_signature()});
    if (!r.csv_path.empty())
        r.csv = std::make_unique<safe_output_file>(r.csv_path, csv_opt, a.force,
                                                   std::vector<std::string>{ch::csv_header});
    if (!a.io_log_path.empty())
        r.io_log = std::make_unique<safe_output_file>(a.io_log_path, "--io-log", a.force,
                                                      std::vector<std::string>{ch::io_log_header});
    if (!a.fit_config_path.empty())
        r.fit_config = std::make_unique<safe_output_file>(a.fit_config_path, "--fit-config", a.force,
                                                          std::vector<std::string>{fit_config_signature});
    return r;
}

//! Runs gnuplot on the script with each image sent to a temporary file, stamps and commits them.
void draw_charts(const characterize_args& a, const ch::gnuplot_files& g) {
    std::vector<std::unique_ptr<safe_output_file>> images;
    std::vector<std::string> defs;
    for (std::size_t i = 0; i < g.images.size(); ++i) {
        images.push_back(std::make_unique<safe_output_file>(
            g.images[i], "--out", a.force, std::vector<std::string>{ch::gnuplot_signature()}));
        const std::string& tmp = images.back()->temp_path();
        defs.push_back(g.image_vars[i] + "='" + tmp.substr(tmp.find_last_of('/') + 1) + "'");
    }
    const gnuplot_outcome drawn = run_gnuplot(a.out_dir, defs, "characterize.gp", false);
    if (!drawn.ok) {
        std::cerr << "flashxxl: warning: no charts from " << g.script << ": " << drawn.why << "\n";
        return;
    }
    for (auto& img : images) {
        ch::stamp_image(img->temp_path());
        img->commit();
        if (!a.quiet) (a.json ? std::cerr : std::cout) << "wrote " << img->path() << "\n";
    }
}

//! The limits of a run given on the command line: --max-write and --memory.
struct run_limits {
    std::optional<std::uint64_t> max_write;
    std::uint64_t memory = ch::default_memory_budget;
};

run_limits parse_run_limits(const characterize_args& a) {
    run_limits l;
    if (!a.max_write_text.empty()) l.max_write = parse_size_option("--max-write", a.max_write_text);
    if (!a.memory_text.empty()) {
        l.memory = parse_size_option("--memory", a.memory_text);
        if (l.memory == 0)
            throw config_error("--memory " + a.memory_text + ": expected a positive size (e.g. 256MiB)");
    }
    return l;
}

//! A run's plan, checked against its target (and, for a real one, its write volume) before any I/O.
struct planned_run {
    std::string plan;             //!< the built-in plan's name, empty with --experiments
    ch::plan_options po;          //!< the knobs it was made with
    std::string queue_depth_list; //!< --queue-depths as given or defaulted
    std::vector<unsigned> queue_depths;
    std::vector<ch::experiment_step> steps;   //!< as parsed (the runner checks its own copy)
    std::vector<ch::experiment_step> checked; //!< checked against the target: spans resolved
    ch::plan_cost estimate;
    std::string write_refusal; //!< dry run: why the write volume would be refused
    ch::plan_memory needed;
    std::string memory_refusal; //!< dry run: why the memory bound would be refused
    bool plot_data = false;
};

//! The span a plan uses: --span, or on a model 8 GiB of flash / 112 GiB of disk, or the target.
std::uint64_t plan_span(const characterize_args& a, const ch::target& t) {
    std::uint64_t span = t.capacity();
    if (!a.span_text.empty())
        span = parse_size_option("--span", a.span_text);
    else if (t.modelled())
        span = std::min<std::uint64_t>(t.capacity(), t.klass() == device_class::flash ? 8 * GiB : 112 * GiB);
    if (span % t.alignment() || span == 0 || span > t.capacity())
        throw config_error("--span " + format_size(span) + " must be a positive multiple of " +
                           std::to_string(t.alignment()) + " bytes and at most the target's " +
                           format_size(t.capacity()));
    return span;
}

//! The built-in plans' knobs from the options: the plan's defaults, then --time, --count, ...
ch::plan_options plan_knobs(const characterize_args& a, const ch::target& t, const std::string& plan,
                            std::uint64_t span) {
    ch::plan_options po;
    po.alignment = t.alignment();
    po.span = span;
    if (plan == "quick") {
        po.repeats = 1;
        // a real SSD: 0.5 s per point, about a minute in all; a model: 300 requests per point
        // (modelled time is free, and a 16 MiB point needs hundreds of requests to settle)
        if (t.modelled())
            po.time_s = 0, po.count = 300;
        else
            po.time_s = 0.5;
    }
    if (a.time_s >= 0) po.time_s = a.time_s;
    if (a.count >= 0) po.count = static_cast<std::uint64_t>(a.count);
    if (a.repeat > 0) po.repeats = static_cast<std::uint64_t>(a.repeat);
    if (a.uflip_count > 0) po.uflip_count = static_cast<std::uint64_t>(a.uflip_count);
    if (po.time_s == 0 && po.count == 0)
        throw config_error(std::string("no limit per repeat: the time limit is 0 (") +
                           (a.time_s >= 0 ? "--time 0" : "none in plan " + plan + " on a model") +
                           ") and so is the request-count limit (" +
                           (a.count >= 0 ? "--count 0" : "no --count") +
                           "); give --time SECONDS or --count N above 0");
    po.random_state = a.random_state;
    po.bursts = !a.no_bursts;
    po.misaligned = !a.no_misaligned;
    po.between_s = t.modelled() ? 0 : 1;
    return po;
}

//! The plan and its checks: steps, queue depths, write volume and memory (a dry run keeps a
//! refusal to print it; a real run throws it).
planned_run make_plan(const characterize_args& a, const ch::target& t, const run_limits& limits,
                      bool plot_data) {
    planned_run p;
    const std::uint64_t span = plan_span(a, t);
    if (a.dry_run && a.json) throw config_error("--dry-run prints a plan as text; it takes no --json");
    // Requests in flight: a model's clock serves one at a time, so only real targets measure them.
    p.queue_depth_list = a.queue_depths.empty() ? (t.modelled() ? "none" : "1,2,4,8,16") : a.queue_depths;
    p.queue_depths = parse_queue_depths(p.queue_depth_list);
    if (t.modelled() && !p.queue_depths.empty())
        throw config_error(
            "--queue-depths " + a.queue_depths + ": '" + t.name() +
            "' is a model, which serves one request at a time; queue depths apply to a file or "
            "block device");
    p.plan = a.plan.empty() && a.experiments.empty() ? "quick" : a.plan;
    if (!p.plan.empty() && !a.experiments.empty())
        throw config_error("give either --plan or --experiments, not both");
    p.po = plan_knobs(a, t, p.plan, span);
    if (!a.experiments.empty())
        p.steps = ch::load_experiments(a.experiments);
    else
        p.steps = ch::parse_experiments(ch::plan_text(p.plan, p.po), "plan " + p.plan);
    if (a.seed != 1)
        for (auto& s : p.steps)
            s.seed = s.seed * 1000003ull + a.seed;
    p.checked = p.steps;
    ch::check_experiments(p.checked, t.capacity(), t.alignment());
    p.estimate = ch::estimate_plan(p.checked);
    if (!t.modelled()) {
        try {
            ch::check_write_volume(p.estimate.bytes_written, t.capacity(), t.name(), limits.max_write,
                                   a.force);
        } catch (const config_error& e) {
            if (!a.dry_run) throw;
            p.write_refusal = e.what();
        }
    }
    // What the measurements hold does not grow with the request count, only with the records
    // the plan makes (memory_estimate.hpp): checked against --memory before any I/O.
    p.plot_data = plot_data;
    p.needed = ch::estimate_memory(p.checked, ch::recorder_limits{}, plot_data);
    try {
        ch::check_memory(p.needed, limits.memory);
    } catch (const config_error& e) {
        if (!a.dry_run) throw;
        p.memory_refusal = e.what();
    }
    return p;
}

//! --dry-run: the checked plan, the bytes it writes and reads, the limits, the expected time.
void print_dry_run(const characterize_args& a, const made_target& m, const planned_run& p,
                   const run_limits& limits) {
    const ch::target& t = *m.t;
    std::cout << "plan (" << (a.experiments.empty() ? "built-in " + p.plan : a.experiments) << ") for "
              << t.name() << " [" << t.kind() << ", " << format_bytes(double(t.capacity())) << "]:\n";
    for (const auto& s : p.checked)
        std::cout << "  " << s.where() << ": " << s.text << "\n";
    ch::plan_cost cost;
    if (t.modelled() && p.memory_refusal.empty()) {
        ch::model_target fresh(make_model(m.preset, m.params), m.preset);
        ch::runner_options dro;
        dro.plot_data = false;
        dro.memory_bytes = limits.memory;
        ch::runner r(fresh, dro);
        ch::characterization c = r.run(p.steps);
        cost.bytes_written = c.bytes_written;
        cost.bytes_read = c.bytes_read;
        cost.seconds = c.device_seconds;
        cost.exact = true;
    } else {
        cost = p.estimate;
    }
    const bool saturated = cost.bytes_written == ch::saturated_bytes; // "more than 16777216 TiB (...)"
    std::cout << "bytes to write: " << (cost.exact || saturated ? "" : "at most ")
              << ch::format_bound(cost.bytes_written) << " (" << (saturated ? "more than " : "")
              << cost.bytes_written << ")";
    if (!t.modelled())
        std::cout << ", " << std::fixed << std::setprecision(1)
                  << double(cost.bytes_written) / double(std::max<std::uint64_t>(t.capacity(), 1))
                  << " x the target; to read: about ";
    else
        std::cout << ", to read: ";
    std::cout << ch::format_bound(cost.bytes_read) << "\n";
    if (!t.modelled())
        std::cout << "write limit: "
                  << (limits.max_write ? "--max-write " + format_bytes(double(*limits.max_write))
                      : a.force        ? std::string("none (--force)")
                                       : std::to_string(ch::default_write_multiple) + " x the target (" +
                                      format_bytes(double(
                                          ch::saturating_mul(ch::default_write_multiple, t.capacity()))) +
                                      ")")
                  << (p.write_refusal.empty()
                          ? ": within it\n"
                          : ": EXCEEDED, the run would be refused:\n  " + p.write_refusal + "\n");
    std::cout << "memory: at most " << ch::format_bound(p.needed.total()) << " for the measurements ("
              << p.needed.run_records << " run records, " << p.needed.burst_records << " bursts, "
              << p.needed.stride_records << " stride tests; whatever their request counts), limit --memory "
              << format_bytes(double(limits.memory))
              << (p.memory_refusal.empty()
                      ? ": within it\n"
                      : ": EXCEEDED, the run would be refused:\n  " + p.memory_refusal + "\n");
    if (!p.queue_depths.empty())
        std::cout << "then: random reads of the recommended Br at queue depths " << p.queue_depth_list
                  << ", at most " << a.queue_depth_time_s << " s each (reads only)\n";
    if (!a.fit.empty())
        std::cout << "then: fit model " << a.fit << " to the results (held out: " << a.fit_holdout
                  << "; no I/O)\n";
    std::cout << "expected time: " << std::fixed << std::setprecision(1) << cost.seconds << " s"
              << (cost.exact
                      ? " of modelled device time (exact: the plan was run on a fresh copy of the model)"
                  : t.modelled()
                      ? " (estimate: the plan exceeds --memory, so it was not run on the model)"
                      : " (estimate at 100 MiB/s and 0.2 ms per request; time limits count in full)")
              << "\nnothing was written (dry run)\n";
}

//! The target a run measures. A real one is opened (or created) only now, after the checks,
//! and wrapped so that the first SIGINT / SIGTERM stops the run before its next request;
//! release() puts the signals' actions back once the last request is done.
class measured_target {
public:
    measured_target(made_target& m, const characterize_args& a) {
        if (m.t->modelled()) {
            target_ = m.t.get();
            return;
        }
        catcher_.emplace(); // from here on Ctrl-C / SIGTERM unwind: a target file made here is removed
        m.t.reset();        // the probe goes before the real target is opened or created
        m = make_target(a);
        stoppable_.emplace(*m.t);
        target_ = &*stoppable_;
    }
    ch::target& get() const { return *target_; }
    //! After the last request: signals act as before the run again (one that came after the
    //! last request's check still stops the run here).
    void release() {
        if (!stoppable_) return;
        catcher_.reset();
        stoppable_->stop_if_interrupted();
    }

private:
    std::optional<interrupt_catcher> catcher_;
    std::optional<interruptible_target> stoppable_;
    ch::target* target_ = nullptr;
};

//! Runs the plan's steps on `t` with a progress bar and the per-IO log, if asked for.
ch::characterization measure(const characterize_args& a, ch::target& t, const planned_run& p,
                             const run_limits& limits, report_outputs& outs) {
    // Off a terminal the bar prints a few plain lines, as every long command of the CLI does.
    const bool show = !a.quiet && !a.no_progress && !a.json;
    progress_bar bar(stderr, show);
    ch::runner_options ro;
    ro.plot_data = p.plot_data;
    ro.memory_bytes = limits.memory;
    // The per-IO log streams into its (temporary) file as the requests complete: nothing per
    // request is held; a failed or interrupted run discards it with the other outputs.
    std::optional<ch::io_log_writer> io_log;
    if (outs.io_log) io_log.emplace(outs.io_log->stream(), t.base_offset());
    if (io_log) ro.observer = &*io_log;
    if (show) ro.progress = [&](double f, const std::string& what) { bar.update(f, what); };
    ch::runner r(t, ro);
    ch::characterization c = r.run(p.steps);
    bar.finish();
    return c;
}

//! Random reads of the recommended Br at the plan's queue depths, into `rec` (queue_depths,
//! io_threads); returns the notes on depths left out or not measured.
std::string measure_queue_depths(const characterize_args& a, ch::target& t, const planned_run& p,
                                 ch::recommendation& rec) {
    if (p.queue_depths.empty()) return "";
    if (!rec.br) return "note: no Br was reached, so no queue depths were measured (they read Br blocks)\n";
    std::string note;
    ch::queue_depth_options qo;
    qo.block = *rec.br;
    // One buffer per request in flight: depths whose buffers pass the bound are left out, and said so.
    qo.depths.clear();
    for (unsigned d : p.queue_depths) {
        if (d * qo.block <= qo.max_buffer_bytes)
            qo.depths.push_back(d);
        else
            note += "note: queue depth " + std::to_string(d) + " left out: " + std::to_string(d) +
                    " reads of Br = " + format_size(qo.block) + " need more than " +
                    format_size(qo.max_buffer_bytes) + " of buffers\n";
    }
    qo.span = p.po.span;
    qo.seconds_per_depth = a.queue_depth_time_s;
    qo.seed = a.seed;
    const bool show = !a.quiet && !a.no_progress && !a.json;
    progress_bar depth_bar(stderr, show); // a bar of its own: the plan's ended at 100 %
    if (show) qo.progress = [&](double f, const std::string& what) { depth_bar.update(f, what); };
    if (!qo.depths.empty()) rec.queue_depths = ch::measure_queue_depths(t, qo);
    depth_bar.finish();
    rec.io_threads = ch::recommend_io_threads(rec.queue_depths, rec.io_threads_share);
    return note;
}

//! What Linux says of the device of a file or block device target (none for a model).
ch::device_hints target_hints(const characterize_args& a) {
    if (!a.block_device.empty()) return ch::read_device_hints(a.block_device);
    if (!a.file.empty()) return ch::read_device_hints(a.file);
    return {};
}

//! --fit: the model fitted to `c`, which the plan's checked steps produced on `t`.
ch::model_fit fit_results(const characterize_args& a, const ch::target& t, const ch::characterization& c,
                          const planned_run& p, const ch::device_hints& hints) {
    ch::fit_options fo;
    fo.model = a.fit;
    fo.holdout = a.fit_holdout;
    if (t.modelled()) fo.klass = t.klass();
    fo.hints = hints.start();
    fo.hints.rotational.reset(); // not trusted to pick the kind: a virtio disk says 1 whatever backs it
    const bool show = !a.quiet && !a.no_progress && !a.json;
    if (show) std::cerr << "fitting " << a.fit << " model to " << c.runs.size() << " runs ...\n";
    return ch::fit_model(c, p.checked, fo);
}

//! The fitted model's device line: --config-path / --config-name as the snippet's ("memory":
//! a memory backing).
std::string fit_config_line(const characterize_args& a, const made_target& m, const ch::model_fit& f,
                            std::uint64_t capacity) {
    const std::string path = a.config_path.empty() ? m.snippet_path : a.config_path;
    std::string line = f.config_line(path, capacity, a.config_name.empty() ? m.snippet_name : a.config_name);
    if (path == "memory") line.replace(line.find(",syscall "), 9, ",memory ");
    return line;
}

//! Writes the JSON, CSV, per-IO log, fitted config and plots that were asked for, and says so.
void write_reports(const characterize_args& a, report_outputs& outs, const ch::characterization& c,
                   const ch::recommendation& rec, const nlohmann::json& report, const ch::model_fit* fit,
                   const std::string& fit_line) {
    // With --json stdout holds the report only; the notes on written files go to stderr.
    std::ostream& notes = a.json ? std::cerr : std::cout;
    const bool say = !a.quiet;
    if (outs.json) {
        outs.json->stream() << ch::to_json_text(report);
        outs.json->commit();
        if (say) notes << "wrote " << outs.json_path << "\n";
    }
    if (outs.csv) {
        ch::write_csv(outs.csv->stream(), c);
        outs.csv->commit();
        if (say) notes << "wrote " << outs.csv_path << "\n";
    }
    if (outs.io_log) {
        outs.io_log->commit();
        if (say) notes << "wrote " << a.io_log_path << "\n";
    }
    if (outs.fit_config && fit) {
        outs.fit_config->stream() << fit_config_signature << " (" << fit->kind << ", median error "
                                  << fit->median_error << ", held out " << fit->holdout_median_error << ")\n"
                                  << fit_line << "\n";
        outs.fit_config->commit();
        if (say) notes << "wrote " << a.fit_config_path << "\n";
    }
    if (!outs.plot_prefix.empty()) {
        const std::string terminal = outs.terminal.empty() ? "svg" : outs.terminal;
        std::vector<ch::gnuplot_files> scripts{
            ch::write_gnuplot(outs.plot_prefix, c, rec, terminal, a.force)};
        if (fit) scripts.push_back(ch::write_fit_gnuplot(outs.plot_prefix, *fit, terminal, a.force));
        for (const auto& g : scripts) {
            if (outs.terminal.empty()) {
                if (say)
                    notes << "gnuplot not found: wrote " << g.script
                          << " (run it with gnuplot for the plots)\n";
            } else {
                draw_charts(a, g);
            }
        }
    }
}

int run_characterize(const characterize_args& a) {
    const run_limits limits = parse_run_limits(a);
    // Every output path is checked before the target is touched (an --out directory this run
    // creates is removed again if the run fails before writing into it).
    report_outputs outs = open_outputs(a);
    // A target that issues no I/O (a planned file, or an existing one opened without writing)
    // for planning and the write-volume check; the real one is made after the check.
    characterize_args probe = a;
    probe.dry_run = true;
    made_target m = make_target(probe);
    const planned_run plan = make_plan(a, *m.t, limits, !outs.plot_prefix.empty());
    if (a.dry_run) {
        print_dry_run(a, m, plan, limits);
        return 0;
    }
    measured_target target(m, a);
    ch::target& real = target.get();
    ch::characterization c = measure(a, real, plan, limits, outs);

    ch::recommendation_options rop;
    rop.read_share = a.read_share;
    rop.write_share = a.write_share;
    rop.unaligned_granularity = std::max<std::uint64_t>(4 * KiB, real.alignment());
    ch::recommendation rec = ch::recommend(c, rop);
    const std::string queue_depth_note = measure_queue_depths(a, real, plan, rec);
    target.release(); // the last request is done
    const ch::device_hints hints = target_hints(a);
    std::string snippet = ch::config_snippet(
        rec, a.config_path.empty() ? m.snippet_path : a.config_path, real.capacity(),
        a.config_name.empty() ? m.snippet_name : a.config_name, real.klass() == device_class::flash);
    std::optional<ch::model_fit> fit;
    std::string fit_line;
    if (!a.fit.empty()) {
        fit = fit_results(a, real, c, plan, hints);
        fit_line = fit_config_line(a, m, *fit, real.capacity());
    }
    const bool say = !a.quiet;
    if (say && !a.json) {
        print_summary(std::cout, c, rec, snippet, hints);
        if (fit) ch::print_fit(std::cout, *fit, fit_line);
    }
    if (say && !queue_depth_note.empty()) (a.json ? std::cerr : std::cout) << queue_depth_note;

    nlohmann::json report = ch::to_json(c, rec, snippet);
    report.update(run_metadata()); // version, command line, timestamp
    if (!hints.empty()) report["device_hints"] = hints_json(hints);
    if (fit) report["fit"] = ch::fit_json(*fit, fit_line);
    write_reports(a, outs, c, rec, report, fit ? &*fit : nullptr, fit_line);
    if (a.json) std::cout << ch::to_json_text(report);
    return 0;
}

} // namespace

void register_characterize_command(CLI::App& app) {
    auto a = std::make_shared<characterize_args>();
    CLI::App* cmd = app.add_subcommand(
        "characterize", "measure a device (a model, a file, or a block device) and recommend Br and Bw");
    cmd->add_option("--model", a->model, "device-model preset (" + detail::model_preset_list() + ")");
    cmd->add_option("--param", a->params, "model parameter override key=value (repeatable)");
    auto* machine = cmd->add_option("--machine", a->machine,
                                    "machine preset (" + machine_preset_names() + ") or config file");
    auto* config = cmd->add_option("--config,-c", a->machine_config,
                                   "machine config file (as in every command; the same as --machine FILE)")
                       ->check(non_empty_path("a machine config file"));
    machine->check(non_empty_path("a machine preset or config file"));
    machine->excludes(config);
    config->excludes(machine);
    cmd->add_option("--device", a->device,
                    "with --machine: the name of the device to measure (as in every command)");
    cmd->add_option("--block-device", a->block_device,
                    "a block device to measure by writing it (needs --allow-write)")
        ->check(non_empty_path("a block device"));
    cmd->add_option("--allow-write", a->allow_write,
                    "consent to destroy the contents of this block device (exact path)");
    cmd->add_option("--limit", a->limit_text, "block device: use only the first SIZE bytes");
    cmd->add_option("--file", a->file,
                    "target file (created and marked by characterize; existing foreign files are refused)")
        ->check(non_empty_path("a file"));
    cmd->add_option("--size", a->size_text, "usable size of the target file (IEC units, e.g. 4GiB)");
    cmd->add_flag("--keep", a->keep, "keep the target file after the run");
    cmd->add_option("--plan", a->plan, "built-in plan: ajwani, uflip, stride, quick (default quick)");
    cmd->add_option("--experiments", a->experiments, "experiment file (verb key=value lines)")
        ->check(non_empty_path("an experiment file"));
    cmd->add_option("--span", a->span_text,
                    "bytes of the target to use (default: all; models: 8GiB flash, 112GiB hdd)");
    cmd->add_option(
           "--time", a->time_s,
           "time limit per repeat in seconds, 0: none (modelled on a model; ajwani 30, quick 0.5, quick on a "
           "model: none)")
        ->check(finite_number(0, 1e7));
    cmd->add_option("--count", a->count, "request-count limit per repeat, 0: none (quick on a model: 300)")
        ->check(whole_number(0, ch::max_count));
    cmd->add_option("--repeat", a->repeat, "repeats per pattern (ajwani 3, quick 1)")
        ->check(whole_number(1, 1000));
    cmd->add_option("--uflip-count", a->uflip_count, "uFLIP IOCount per run (default 1024)")
        ->check(whole_number(1, ch::max_count));
    cmd->add_flag("--random-state", a->random_state,
                  "uflip: enforce a random state first (uFLIP Section 4.1)");
    cmd->add_flag("--no-bursts", a->no_bursts, "ajwani: leave out the burst / recovery experiments");
    cmd->add_flag("--no-misaligned", a->no_misaligned, "ajwani: leave out the misaligned random writes");
    cmd->add_option("--read-share", a->read_share,
                    "Br threshold: share of peak read throughput (default 0.95)")
        ->check(CLI::Range(0.01, 1.0));
    cmd->add_option("--write-share", a->write_share,
                    "Bw threshold: share of peak sequential write (default 0.90)")
        ->check(CLI::Range(0.01, 1.0));
    cmd->add_option("--out", a->out_dir, "directory for characterize.json, .csv and the plots")
        ->check(non_empty_path("a directory"));
    cmd->add_flag("--json", a->json,
                  "print the JSON report on stdout (and only it); --out DIR also writes it to a file");
    cmd->add_option("--csv", a->csv_path,
                    "write the CSV (one row per experiment, repeat and block size) here")
        ->check(non_empty_path("a file"));
    cmd->add_option("--io-log", a->io_log_path,
                    "write every request's offset and response time here (CSV, streamed as the requests "
                    "complete: nothing per request is held in memory)")
        ->check(non_empty_path("a file"));
    cmd->add_flag("--no-plots", a->no_plots, "do not write or run the gnuplot script");
    cmd->add_flag("--force", a->force,
                  "replace existing output files flashxxl did not write; run a plan that writes more than " +
                      std::to_string(ch::default_write_multiple) +
                      " x a real target (see docs/characterize.md)");
    cmd->add_option(
        "--max-write", a->max_write_text,
        "refuse a plan that may write more than SIZE (IEC units) to a real target; replaces the default "
        "limit of " +
            std::to_string(ch::default_write_multiple) + " x the target");
    const ch::recorder_limits limits;
    cmd->add_option(
        "--memory", a->memory_text,
        "bound on the memory of the measurements (IEC units, default " +
            format_size(ch::default_memory_budget) +
            "): it does not grow with a run's request "
            "count (the run in progress holds at most " +
            format_bytes(double(limits.working_bytes(true))) +
            ", a finished one its statistics and, with plots, at most " +
            format_bytes(double(limits.plot_bytes(true))) + " of plot data; percentiles exact up to " +
            std::to_string(limits.exact_requests) + " requests per run, then within " +
            "0.5 %), only with the records a plan makes (--dry-run prints the bound); a plan needing "
            "more is refused before any I/O. I/O buffers are apart (docs/characterize.md)");
    cmd->add_option("--queue-depths", a->queue_depths,
                    "file / block device: random reads of the recommended Br at these queue depths, for the "
                    "io_threads of the snippet (default 1,2,4,8,16; none: skip)");
    cmd->add_option("--queue-depth-time", a->queue_depth_time_s, "seconds per queue depth (default 2)")
        ->check(finite_number(0.001, 3600));
    cmd->add_option("--fit", a->fit,
                    "fit a device model to the results (" + ch::fit_model_choices() +
                        "): parameters, measured vs fitted per experiment, held-out error, and the "
                        "machine-config line that emulates the device (docs/characterize.md)")
        ->check([](const std::string& v) {
            try {
                ch::fit_kinds(v, std::nullopt, {});
            } catch (const config_error& e) {
                return std::string(e.what());
            }
            return std::string();
        });
    cmd->add_option("--fit-holdout", a->fit_holdout,
                    "experiments the check fit leaves out to report the held-out error: alternate (every "
                    "other block size of each pattern, default) or large (block sizes above 128 KiB)")
        ->check(CLI::IsMember({"alternate", "large"}));
    cmd->add_option("--fit-config", a->fit_config_path,
                    "with --fit: write the fitted device line as a machine config here (for --config of "
                    "every command)")
        ->check(non_empty_path("a file"));
    cmd->add_option("--config-path", a->config_path,
                    "path to put into the machine-config snippet (and the fitted line; memory: a memory "
                    "backing)");
    cmd->add_option("--config-name", a->config_name, "device name for the machine-config snippet");
    cmd->add_flag("--dry-run", a->dry_run,
                  "print the plan, the bytes to write and the expected time; write nothing");
    cmd->add_flag("--no-progress", a->no_progress, "no progress bar (off a terminal: no progress lines)");
    cmd->add_flag("--quiet", a->quiet, "no summary, no notes, no progress bar");
    cmd->add_option("--seed", a->seed, "seed of the random patterns (default 1)");
    cmd->callback([a]() {
        int rc = run_characterize(*a);
        if (rc != 0) throw CLI::RuntimeError(rc);
    });
}

} // namespace flashxxl::cli
