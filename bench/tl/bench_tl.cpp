// Driver: random Br-page writes on the emulated hama-ssd-2009-block-mapped, directly, through the translation
// layer, through wbtl_file.
//
// Modelled time only (the emulated file charges the model at submission; no pacing). The
// backing store keeps no data (writes are dropped, reads return zeros): the numbers depend only
// on the request sequence, and a span of several GiB costs no memory.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <stxxl/bits/io/wbtl_file.h>

#include "bench_args.hpp"
#include "bench_json.hpp"
#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {

//! A backing file that keeps nothing: writes are dropped, reads return zeros.
class null_file : public stxxl::disk_queued_file {
public:
    explicit null_file(std::uint64_t capacity)
        : stxxl::file(DEFAULT_DEVICE_ID), stxxl::disk_queued_file(DEFAULT_QUEUE, NO_ALLOCATOR),
          capacity_(capacity) {}
    void serve(void* buffer, offset_type, size_type bytes, stxxl::request::request_type type) override {
        if (type == stxxl::request::READ) std::memset(buffer, 0, bytes);
    }
    offset_type size() override { return capacity_; }
    void set_size(offset_type s) override {
        if (s > capacity_) throw out_of_space("null", s, capacity_, capacity_);
    }
    void lock() override {}
    const char* io_type() const override { return "null"; }

private:
    std::uint64_t capacity_;
};

struct options {
    std::string preset = "hama-ssd-2009-block-mapped"; // the model docs/translation-layer.md measured
    std::uint64_t span = 4 * GiB;
    std::uint64_t page = 128 * KiB;
    std::uint64_t segment = 16 * MiB;
    //! Spares to run, as fractions of the span; 0 = automatic (1/8).
    std::vector<double> spares = {0.0, 0.25};
    std::vector<double> utils = {0.25, 0.5, 0.75, 0.9};
    double warmup_rounds = 1.0;
    double rounds = 2.0;
    std::uint64_t direct_writes = 2000;
    bool wbtl = true;
    std::string json_path;
};

int next_queue = 1'200'000;

std::unique_ptr<emulated_file> make_device(const options& o) {
    return std::make_unique<emulated_file>("ssd", std::make_unique<null_file>(o.span), make_model(o.preset),
                                           o.span, next_queue++);
}

struct aligned {
    explicit aligned(std::size_t n) : p(static_cast<char*>(std::aligned_alloc(4096, n))) {
        std::memset(p, 0x5a, n);
    }
    ~aligned() { std::free(p); }
    char* p;
};

double mib_per_s(std::uint64_t bytes, double seconds) {
    return seconds > 0 ? double(bytes) / double(MiB) / seconds : 0;
}

//! Sequential Bw writes from offset 0 on a fresh model: the reference throughput.
double sequential_bw_mibps(const options& o) {
    auto model = make_model(o.preset);
    double t = 0;
    const std::uint64_t n = std::min<std::uint64_t>(64, o.span / o.segment);
    for (std::uint64_t i = 0; i < n; ++i)
        t += model->service(io_op::write, i * o.segment, o.segment);
    return mib_per_s(n * o.segment, t);
}

struct row {
    double util = 0, live_over_physical = 0;
    double direct_mibps = 0;
    double tl_mibps = 0, tl_wa = 0, tl_copies_per_page = 0;
    double wbtl_mibps = 0;
    bool wbtl_failed = false, wbtl_ran = false;
    double wbtl_fail_after = 0; // physical capacities of overwrites before the failure
    std::string wbtl_error;
};

double run_direct(const options& o, std::uint64_t working_pages, std::mt19937_64& rng) {
    auto dev = make_device(o);
    aligned buf(o.page);
    for (int i = 0; i < 100; ++i)
        dev->awrite(buf.p, (rng() % working_pages) * o.page, o.page)->wait(); // warm up
    const double t0 = dev->busy_seconds();
    for (std::uint64_t i = 0; i < o.direct_writes; ++i)
        dev->awrite(buf.p, (rng() % working_pages) * o.page, o.page)->wait();
    return mib_per_s(o.direct_writes * o.page, dev->busy_seconds() - t0);
}

void run_tl(const options& o, const tl_config& cfg, std::uint64_t working_pages, std::mt19937_64& rng,
            row& r) {
    auto dev = make_device(o);
    translation_layer tl(*dev, o.span, cfg, "ssd", next_queue++);
    aligned buf(o.page);
    for (std::uint64_t p = 0; p < working_pages; ++p)
        tl.awrite(buf.p, p * o.page, o.page)->wait();
    const std::uint64_t physical_pages = tl.physical_capacity() / o.page;
    for (std::uint64_t i = 0; i < std::uint64_t(o.warmup_rounds * double(physical_pages)); ++i)
        tl.awrite(buf.p, (rng() % working_pages) * o.page, o.page)->wait();
    const double t0 = dev->busy_seconds();
    const tl_stats s0 = tl.stats();
    const std::uint64_t n = std::uint64_t(o.rounds * double(physical_pages));
    for (std::uint64_t i = 0; i < n; ++i)
        tl.awrite(buf.p, (rng() % working_pages) * o.page, o.page)->wait();
    const tl_stats s1 = tl.stats();
    const double t = dev->busy_seconds() - t0;
    r.tl_mibps = mib_per_s(s1.host_bytes_written - s0.host_bytes_written, t);
    r.tl_wa = double(s1.device_bytes_written - s0.device_bytes_written) /
              double(s1.host_bytes_written - s0.host_bytes_written);
    r.tl_copies_per_page = double(s1.cleaning_page_copies - s0.cleaning_page_copies) / double(n);
}

void run_wbtl(const options& o, std::uint64_t working_pages, std::mt19937_64& rng, row& r) {
    r.wbtl_ran = true;
    auto* dev = make_device(o).release(); // wbtl_file deletes its backend
    emulated_file& d = *dev;
    auto wb = std::make_unique<stxxl::wbtl_file>(dev, o.segment, 2, next_queue++);
    wb->set_size(o.span);
    aligned buf(o.page);
    const std::uint64_t physical_pages = o.span / o.page;
    std::uint64_t overwrites = 0;
    double t0 = 0;
    const std::uint64_t warm = std::uint64_t(o.warmup_rounds * double(physical_pages));
    const std::uint64_t n = std::uint64_t(o.rounds * double(physical_pages));
    try {
        for (std::uint64_t p = 0; p < working_pages; ++p)
            wb->awrite(buf.p, p * o.page, o.page)->wait();
        for (; overwrites < warm + n; ++overwrites) {
            if (overwrites == warm) t0 = d.busy_seconds();
            wb->awrite(buf.p, (rng() % working_pages) * o.page, o.page)->wait();
        }
        r.wbtl_mibps = mib_per_s(n * o.page, d.busy_seconds() - t0);
    } catch (const std::exception& e) {
        r.wbtl_failed = true;
        r.wbtl_fail_after = double(overwrites) / double(physical_pages);
        r.wbtl_error = e.what();
        while (!r.wbtl_error.empty() && (r.wbtl_error.back() == '\n' || r.wbtl_error.back() == ' '))
            r.wbtl_error.pop_back();
    }
    wb.reset();
}

//! "0,25" (percent) -> {0, 0.25}; config_error naming `option` and the item that is not a number.
std::vector<double> parse_percent_list(const std::string& option, const std::string& s) {
    std::vector<double> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        try {
            v.push_back(parse_number(item) / 100.0);
        } catch (const config_error& e) {
            throw config_error(option + " " + s + ": " + e.what() + "; expected percentages such as 25,50");
        }
    }
    return v;
}

//! Reads the options into `o`; returns -1 to go on, else the exit status (0 after --help, 2 for
//! a bad option, named).
int parse(int argc, char** argv, options& o) {
    bench::arg_parser args("bench_tl", "bench_tl: random Br-page writes on an emulated SSD, directly vs "
                                       "through the translation layer (sizes in IEC units)");
    std::string spares = "0,25", utils = "25,50,75,90";
    bool no_wbtl = false;
    args.text("--preset", o.preset, "device model");
    args.size("--span", o.span, "device bytes the layer manages");
    args.size("--page", o.page, "Br");
    args.size("--segment", o.segment, "Bw");
    args.text("--spares", spares, "spares in percent of the span, 0 = automatic 1/8");
    args.text("--utils", utils, "utilizations of the logical capacity in percent");
    args.number("--warmup", o.warmup_rounds, "random overwrites before measuring, in physical capacities", 0);
    args.number("--rounds", o.rounds, "random overwrites while measuring, in physical capacities", 0);
    args.count("--direct-writes", o.direct_writes, "measured direct writes");
    args.flag("--no-wbtl", no_wbtl, "skip stxxl::wbtl_file");
    args.text("--json", o.json_path, "also write the results as JSON to FILE");
    if (int status = args.parse(argc, argv); status >= 0) return status;
    try {
        o.spares = parse_percent_list("--spares", spares);
        o.utils = parse_percent_list("--utils", utils);
    } catch (const config_error& e) {
        std::cerr << "bench_tl: " << e.what() << "\n";
        return 2;
    }
    o.wbtl = !no_wbtl;
    return bench::check_writable(o.json_path) ? -1 : 2;
}

} // namespace

int main(int argc, char** argv) {
    options o;
    if (int status = parse(argc, argv, o); status >= 0) return status;
    try {
        const double seq = sequential_bw_mibps(o);
        std::printf("bench_tl: %s, span %s, Br %s, Bw %s, greedy cleaning, modelled time\n", o.preset.c_str(),
                    format_bytes(double(o.span)).c_str(), format_size(o.page).c_str(),
                    format_size(o.segment).c_str());
        std::printf(
            "sequential %s writes: %.2f MiB/s; util = share of the layer's logical capacity overwritten\n\n",
            format_size(o.segment).c_str(), seq);
        std::printf("%6s %5s %6s | %8s %6s | %8s %6s %7s %5s | %s\n", "spare", "util", "live/P", "direct",
                    "ratio", "TL", "ratio", "speedup", "WA", "wbtl_file (same workload)");
        std::printf("%6s %5s %6s | %8s %6s | %8s %6s %7s %5s |\n", "%", "%", "", "MiB/s", "to seq", "MiB/s",
                    "to seq", "x dir", "");

        nlohmann::json out = bench::document("bench_tl");
        out["preset"] = o.preset;
        out["span_bytes"] = o.span;
        out["page_bytes"] = o.page;
        out["segment_bytes"] = o.segment;
        out["sequential_segment_write_mibps"] = seq;
        out["rows"] = nlohmann::json::array();
        bool target_met = false;
        std::string target_text;

        for (std::size_t si = 0; si < o.spares.size(); ++si) {
            tl_config cfg;
            cfg.page_bytes = o.page;
            cfg.segment_bytes = o.segment;
            cfg.spare_bytes =
                o.spares[si] > 0 ? std::uint64_t(o.spares[si] * double(o.span)) / o.page * o.page : 0;
            cfg.validate(o.span, "ssd");
            const std::uint64_t spare = cfg.resolved_spare(o.span);
            const double spare_pct = 100.0 * double(spare) / double(cfg.physical_bytes(o.span));
            const std::uint64_t logical_pages = cfg.logical_bytes(o.span) / o.page;
            const std::uint64_t physical_pages = cfg.physical_bytes(o.span) / o.page;
            bool met_here = true;
            for (double u : o.utils) {
                row r;
                r.util = u;
                const std::uint64_t working =
                    std::max<std::uint64_t>(1, std::uint64_t(u * double(logical_pages)));
                r.live_over_physical = double(working) / double(physical_pages);
                std::mt19937_64 rng(12345);
                r.direct_mibps = run_direct(o, working, rng);
                run_tl(o, cfg, working, rng, r);
                if (o.wbtl && si == 0) run_wbtl(o, working, rng, r);
                std::string wb = !r.wbtl_ran ? "-"
                                 : r.wbtl_failed
                                     ? "fails after " + std::to_string(r.wbtl_fail_after).substr(0, 4) +
                                           " capacities of overwrites: " + r.wbtl_error
                                     : std::to_string(r.wbtl_mibps).substr(0, 5) + " MiB/s, " +
                                           std::to_string(r.wbtl_mibps / seq).substr(0, 4) + " of seq";
                std::printf("%6.1f %5.0f %6.3f | %8.2f %6.3f | %8.2f %6.3f %7.2f %5.3f | %s\n", spare_pct,
                            u * 100, r.live_over_physical, r.direct_mibps, r.direct_mibps / seq, r.tl_mibps,
                            r.tl_mibps / seq, r.tl_mibps / r.direct_mibps, r.tl_wa, wb.c_str());
                std::fflush(stdout);
                if (u <= 0.5 && (r.tl_mibps < 0.8 * seq || r.tl_mibps < 5 * r.direct_mibps)) met_here = false;
                nlohmann::json j;
                j["spare_bytes"] = spare;
                j["spare_percent"] = spare_pct;
                j["utilization"] = u;
                j["live_over_physical"] = r.live_over_physical;
                j["direct_mibps"] = r.direct_mibps;
                j["direct_ratio_to_seq"] = r.direct_mibps / seq;
                j["tl_mibps"] = r.tl_mibps;
                j["tl_ratio_to_seq"] = r.tl_mibps / seq;
                j["tl_speedup_vs_direct"] = r.tl_mibps / r.direct_mibps;
                j["tl_write_amplification"] = r.tl_wa;
                j["tl_cleaning_copies_per_host_page"] = r.tl_copies_per_page;
                if (r.wbtl_ran) {
                    j["wbtl_failed"] = r.wbtl_failed;
                    if (r.wbtl_failed) {
                        j["wbtl_fail_after_physical_capacities"] = r.wbtl_fail_after;
                        j["wbtl_error"] = r.wbtl_error;
                    } else {
                        j["wbtl_mibps"] = r.wbtl_mibps;
                        j["wbtl_ratio_to_seq"] = r.wbtl_mibps / seq;
                    }
                }
                out["rows"].push_back(j);
            }
            char buf[96];
            std::snprintf(buf, sizeof buf, "%sspare %.1f%%: %s", target_text.empty() ? "" : "; ", spare_pct,
                          met_here ? "met" : "NOT met");
            target_text += buf;
            target_met = target_met || met_here;
        }
        out["target_met_with_some_spare"] = target_met;
        out["target_by_spare"] = target_text;
        std::printf("\ntarget (<= 50%% utilization: >= 80%% of sequential Bw writes and >= 5x direct): %s\n",
                    target_text.c_str());
        std::cout << "JSON " << out.dump() << std::endl;
        if (!o.json_path.empty() && !bench::write("bench_tl", o.json_path, out)) return 1;
    } catch (const std::exception& e) {
        std::cerr << "bench_tl: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
