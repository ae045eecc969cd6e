// The run of `flashxxl dsort` on one MPI rank: its machine, generated input, the sort, part-R, the report.
#ifdef FLASHXXL_WITH_MPI

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common_options.hpp"
#include "dsort_options.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/distributed/distributed_sort.hpp"
#include "flashxxl/distributed/mpi_communicator.hpp"
#include "flashxxl/distributed/record_checksum.hpp"
#include "flashxxl/distributed/integer_generator.hpp"
#include "flashxxl/distributed/record_generator.hpp"
#include "flashxxl/distributed/record_validator.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/safe_output.hpp"
#include "flashxxl/units.hpp"
#include "machine_options.hpp"
#include "out_of_space_hint.hpp"
#include "reported_failure.hpp"

namespace flashxxl::cli {
namespace {

namespace fd = flashxxl::distributed;

//! What differs between the item types dsort sorts: the order, the generator, the name.
template <class T> struct item_kind;
template <> struct item_kind<fd::sort_record> {
    using less = fd::record_less;
    static constexpr const char* name = "records";
    static fd::sort_record make(std::uint64_t seed, std::uint64_t index) {
        return fd::record_generator(seed)(index);
    }
};
template <> struct item_kind<std::uint64_t> {
    using less = std::less<std::uint64_t>;
    static constexpr const char* name = "u64";
    static std::uint64_t make(std::uint64_t seed, std::uint64_t index) {
        return fd::integer_generator(seed)(index);
    }
};

//! Published per-node rates of the sort benchmark's Indy GraySort (100 TB) winners.
struct published_rate {
    const char* system;
    const char* source;
    double gb_per_min_per_node;
};
const published_rate published_rates[] = {
    {"DEMSort",
     "sortbenchmark.org 2009 Indy GraySort: 100 TB at 0.564 TB/min on 195 nodes (Rahn, Sanders, Singler, "
     "ICDE 2010)",
     564.0 / 195},
    {"TritonSort", "Rasmussen et al., NSDI 2011: 100 TB at 0.916 TB/min on 52 nodes", 916.0 / 52},
};

//! `text` with every "%r" replaced by the rank.
std::string with_rank(std::string text, int rank) {
    const std::string r = std::to_string(rank);
    for (std::size_t at = text.find("%r"); at != std::string::npos; at = text.find("%r", at + r.size()))
        text.replace(at, 2, r);
    return text;
}

//! This rank's machine: the chosen machine with %r expanded in --backing-dir, --config and the
//! config's device paths.
machine_spec rank_machine_spec(machine_choice choice, int rank) {
    choice.backing_dir = with_rank(choice.backing_dir, rank);
    choice.config_file = with_rank(choice.config_file, rank);
    machine_spec spec = effective_machine_spec(choice);
    for (device_spec& d : spec.devices)
        d.path = with_rank(d.path, rank);
    return spec;
}

//! Copies `v` into the plain file `path` (the records' raw bytes), feeding `check` on the way.
template <class T, class Check> void export_records(vector<T>& v, const std::string& path, Check* check) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw io_failure("dsort: cannot create '" + path + "': " + std::strerror(errno));
    bool ok = true;
    for (typename vector<T>::stream_reader in(v); !in.empty() && ok;) {
        const std::uint64_t k = in.run();
        ok = std::fwrite(&*in, sizeof(T), k, f) == k;
        if (check) check->add(&*in, k);
        in.skip(k);
    }
    const int e = errno;
    if (std::fclose(f) != 0 || !ok)
        throw io_failure("dsort: writing '" + path + "' failed: " + std::strerror(ok ? errno : e));
}

//! Refuses an output path that exists (a file flashxxl cannot tell from a user's: the parts are
//! raw records) unless `force`; never anything but a regular file.
void refuse_to_replace(const std::string& path, bool force) {
    std::error_code ec;
    const auto st = std::filesystem::symlink_status(path, ec);
    if (ec || !std::filesystem::exists(st)) return;
    if (!std::filesystem::is_regular_file(st))
        throw refused_output("dsort --out: '" + path + "' exists and is not a regular file; remove it");
    if (!force)
        throw refused_output("dsort --out: '" + path +
                             "' exists; remove it, choose another --out, or give --force");
}

//! Appends the records of the plain file `path` (raw 100-byte records, as part-R and input-R) to
//! `w`, adding each to `sum`. input_error naming the file when it is missing or not whole records.
template <class T>
void read_records(const std::string& path, typename vector<T>::stream_writer& w, fd::item_checksum<T>& sum) {
    std::error_code ec;
    const std::uint64_t bytes = std::filesystem::file_size(path, ec);
    if (ec) throw input_error("dsort --input: cannot read '" + path + "': " + ec.message());
    if (bytes % sizeof(T) != 0)
        throw input_error("dsort --input: '" + path + "' holds " + std::to_string(bytes) +
                          " bytes, not a whole number of " + std::to_string(sizeof(T)) + "-byte items");
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw input_error("dsort --input: cannot open '" + path + "': " + std::strerror(errno));
    std::vector<T> chunk(4096);
    std::uint64_t left = bytes / sizeof(T);
    while (left > 0) {
        const std::size_t want = std::size_t(std::min<std::uint64_t>(left, chunk.size()));
        const std::size_t got = std::fread(chunk.data(), sizeof(T), want, f);
        for (std::size_t k = 0; k < got; ++k) {
            w.push(chunk[k]);
            sum.add(chunk[k]);
        }
        left -= got;
        if (got < want) break;
    }
    const int e = errno;
    std::fclose(f);
    if (left > 0)
        throw io_failure("dsort --input: reading '" + path + "' stopped " + std::to_string(left) +
                         " records before its end: " + std::strerror(e));
}

//! One rank's figures, gathered to every rank for the report.
struct rank_figures {
    std::uint64_t item_bytes = 0;
    std::uint64_t input_items = 0, output_items = 0, runs = 0, rounds = 0, steps = 0, selection_pages = 0;
    std::uint64_t exchanged = 0, sent = 0, network_bytes = 0;
    std::uint64_t imbalance_bound = 0, cut_pages_read = 0, cut_pages_not_kept = 0;
    std::uint64_t read[3] = {}, written[3] = {};
    double device_s[3] = {}, network_s[3] = {}, wall_s[3] = {};

    std::uint64_t total_read() const { return read[0] + read[1] + read[2]; }
    std::uint64_t total_written() const { return written[0] + written[1] + written[2]; }
    double device() const { return device_s[0] + device_s[1] + device_s[2]; }
    double network() const { return network_s[0] + network_s[1] + network_s[2]; }
    double wall() const { return wall_s[0] + wall_s[1] + wall_s[2]; }
    //! Modelled time with no overlap of I/O and network (an upper bound), and with full overlap
    //! per phase (a lower bound).
    double modelled_serial() const { return device() + network(); }
    double modelled_overlapped() const {
        double s = 0;
        for (int i = 0; i < 3; ++i)
            s += std::max(device_s[i], network_s[i]);
        return s;
    }
};

rank_figures figures_of(const fd::distributed_sort_report& r, std::uint64_t item_bytes) {
    rank_figures f;
    f.item_bytes = item_bytes;
    f.input_items = r.input_items;
    f.output_items = r.output_items;
    f.runs = r.runs;
    f.rounds = r.exchange_rounds;
    f.steps = r.exchange_steps;
    f.selection_pages = r.selection_pages_read;
    f.imbalance_bound = r.imbalance_bound_items;
    f.cut_pages_read = r.cut_pages_read;
    f.cut_pages_not_kept = r.cut_pages_not_kept;
    f.exchanged = r.exchanged_bytes;
    f.sent = r.sent_bytes;
    for (std::size_t i = 0; i < 3 && i < r.phases.size(); ++i) {
        f.read[i] = r.phases[i].read_bytes;
        f.written[i] = r.phases[i].write_bytes;
        f.device_s[i] = r.phases[i].device_modelled_s;
        f.network_s[i] = r.phases[i].network.modelled_s;
        f.wall_s[i] = r.phases[i].wall_s;
        f.network_bytes += r.phases[i].network.sent;
    }
    return f;
}

//! GB per minute of `bytes` in `seconds`.
double gb_per_min(std::uint64_t bytes, double seconds) {
    return seconds > 0 ? double(bytes) / 1e9 / (seconds / 60) : 0;
}

nlohmann::json rank_json(const rank_figures& f, bool baseline) {
    const std::uint64_t in = f.input_items * f.item_bytes;
    nlohmann::json phases = nlohmann::json::array();
    const char* names[3] = {"run formation", "selection", "exchange and merge"};
    for (int i = 0; i < (baseline ? 1 : 3); ++i)
        phases.push_back({{"phase", names[i]},
                          {"read_bytes", f.read[i]},
                          {"write_bytes", f.written[i]},
                          {"device_modelled_s", f.device_s[i]},
                          {"network_modelled_s", f.network_s[i]},
                          {"wall_s", f.wall_s[i]}});
    if (baseline) phases[0]["phase"] = "flashxxl::sort";
    return {{"input_records", f.input_items},
            {"output_records", f.output_items},
            {"runs", f.runs},
            {"exchange_rounds", f.rounds},
            {"exchange_steps", f.steps},
            {"selection_pages_read", f.selection_pages},
            {"imbalance_bound_records", f.imbalance_bound},
            {"cut_pages_read", f.cut_pages_read},
            {"cut_pages_not_kept", f.cut_pages_not_kept},
            {"read_bytes", f.total_read()},
            {"write_bytes", f.total_written()},
            {"reads_per_item", in ? double(f.total_read()) / double(in) : 0.0},
            {"writes_per_item", in ? double(f.total_written()) / double(in) : 0.0},
            {"exchanged_bytes", f.exchanged},
            {"sent_bytes", f.sent},
            {"network_sent_bytes", f.network_bytes},
            {"device_modelled_s", f.device()},
            {"network_modelled_s", f.network()},
            {"modelled_s_no_overlap", f.modelled_serial()},
            {"modelled_s_overlapped", f.modelled_overlapped()},
            {"wall_s", f.wall()},
            {"gb_per_min_modelled", gb_per_min(in, f.modelled_serial())},
            {"gb_per_min_wall", gb_per_min(in, f.wall())},
            {"phases", phases}};
}

void print_report(const dsort_options& o, std::uint64_t records, const std::vector<rank_figures>& ranks,
                  const fd::validation_result& v, const block_sizes& b, std::uint64_t memory,
                  const fd::network_model& net) {
    rank_figures total;
    double slowest_modelled = 0, slowest_wall = 0;
    for (const rank_figures& f : ranks) {
        total.input_items += f.input_items;
        total.output_items += f.output_items;
        total.runs += f.runs;
        total.exchanged += f.exchanged;
        total.sent += f.sent;
        for (int i = 0; i < 3; ++i) {
            total.read[i] += f.read[i];
            total.written[i] += f.written[i];
        }
        slowest_modelled = std::max(slowest_modelled, f.modelled_serial());
        slowest_wall = std::max(slowest_wall, f.wall());
    }
    const std::uint64_t input_bytes = records * ranks.front().item_bytes;
    const double p = double(ranks.size());
    const double per_node_modelled = gb_per_min(input_bytes, slowest_modelled) / p;
    const double per_node_wall = gb_per_min(input_bytes, slowest_wall) / p;
    if (o.json) {
        nlohmann::json per_rank = nlohmann::json::array();
        for (const rank_figures& f : ranks)
            per_rank.push_back(rank_json(f, o.baseline));
        nlohmann::json published = nlohmann::json::array();
        for (const published_rate& r : published_rates)
            published.push_back(
                {{"system", r.system}, {"source", r.source}, {"gb_per_min_per_node", r.gb_per_min_per_node}});
        nlohmann::json j = {
            {"command", "dsort"},
            {"algorithm", o.baseline ? "flashxxl::sort (one process)" : "distributed_sort"},
            {"ranks", ranks.size()},
            {"records", records},
            {"input_bytes", input_bytes},
            {"br", b.br},
            {"bw", b.bw},
            {"memory_per_rank", memory},
            {"network", {{"bandwidth_bytes_per_s", net.bandwidth_bps}, {"latency_s", net.latency_s}}},
            {"per_rank", per_rank},
            {"total",
             {{"read_bytes", total.total_read()},
              {"write_bytes", total.total_written()},
              {"reads_per_item", double(total.total_read()) / double(input_bytes)},
              {"writes_per_item", double(total.total_written()) / double(input_bytes)},
              {"exchanged_bytes", total.exchanged},
              {"sent_bytes", total.sent},
              {"modelled_s", slowest_modelled},
              {"wall_s", slowest_wall},
              {"gb_per_min_per_node_modelled", per_node_modelled},
              {"gb_per_min_per_node_wall", per_node_wall}}},
            {"validation",
             {{"ok", v.ok}, {"records", v.count}, {"checksum", v.checksum}, {"problems", v.problems}}},
            {"published", published}};
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::printf("dsort: %llu records (%s) on %zu ranks, Br = %s, Bw = %s, M = %s per rank; network model "
                "%.3g Gbit/s, "
                "%.3g us per step\n",
                (unsigned long long)records, format_bytes(double(input_bytes)).c_str(), ranks.size(),
                format_size(b.br).c_str(), format_size(b.bw).c_str(), format_bytes(double(memory)).c_str(),
                net.bandwidth_bps * 8 / 1e9, net.latency_s * 1e6);
    std::printf("%5s %12s %5s %7s %10s %10s %6s %6s %10s %10s %10s %10s %9s\n", "rank", "records", "runs",
                "rounds", "read", "written", "R/item", "W/item", "sent", "device s", "network s",
                "modelled s", "wall s");
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const rank_figures& f = ranks[r];
        const double in = double(f.input_items * f.item_bytes);
        std::printf(
            "%5zu %12llu %5llu %7llu %10s %10s %6.3f %6.3f %10s %10.3f %10.3f %10.3f %9.3f\n", r,
            (unsigned long long)f.output_items, (unsigned long long)f.runs, (unsigned long long)f.rounds,
            format_bytes(double(f.total_read())).c_str(), format_bytes(double(f.total_written())).c_str(),
            in > 0 ? double(f.total_read()) / in : 0.0, in > 0 ? double(f.total_written()) / in : 0.0,
            format_bytes(double(f.sent)).c_str(), f.device(), f.network(), f.modelled_serial(), f.wall());
    }
    std::printf(
        "total: read %.3f and wrote %.3f times the input; exchange volume %s (input %s), %s of it between "
        "ranks\n",
        double(total.total_read()) / double(input_bytes), double(total.total_written()) / double(input_bytes),
        format_bytes(double(total.exchanged)).c_str(), format_bytes(double(input_bytes)).c_str(),
        format_bytes(double(total.sent)).c_str());
    std::printf(
        "GB/min per node: %.3f modelled (slowest rank, I/O and network not overlapped), %.3f wall (this "
        "host, %zu ranks sharing its cores)\n",
        per_node_modelled, per_node_wall, ranks.size());
    for (const published_rate& r : published_rates)
        std::printf("  published: %-10s %6.2f GB/min per node (%s)\n", r.system, r.gb_per_min_per_node,
                    r.source);
    std::printf("validation: %s (%llu records, order within and across %zu parts, checksum)\n",
                v.ok ? "ok" : "FAILED", (unsigned long long)v.count, ranks.size());
    for (const std::string& problem : v.problems)
        std::printf("  %s\n", problem.c_str());
}

//! --baseline: the single-process flashxxl::sort of the rank's whole input, in place, reported
//! as the first phase (one rank only).
template <class T>
fd::distributed_sort_report baseline_sort(fd::metered_communicator& c, vector<T>& input,
                                          const fd::distributed_sort_config& config) {
    if (c.size() != 1)
        throw config_error(
            "dsort --baseline sorts in one process: run it with -np 1 (or without mpirun), not -np " +
            std::to_string(c.size()));
    fd::distributed_sort_report report;
    report.input_items = report.global_items = input.size();
    fd::phase_measure phase("flashxxl::sort", input.get_machine(), c);
    const sort_report r =
        flashxxl::sort(input, typename item_kind<T>::less(), config.memory, config.run_role, config.threads);
    report.runs = r.runs;
    report.output_items = input.size();
    report.phases.push_back(phase.finish());
    return report;
}

//! The run of one rank for items T, after MPI is up and the options are checked.
template <class T>
void run_typed(const dsort_options& o, fd::metered_communicator& c, const fd::network_model& net) {
    using less = typename item_kind<T>::less;
    const int rank = c.rank(), ranks = c.size();
    const std::uint64_t memory = parse_memory_option(o.memory);
    std::unique_ptr<machine> m;
    block_sizes b;
    fd::agree_on_failure(c, "machine", [&] {
        m = std::make_unique<machine>(rank_machine_spec(o.choice, rank));
        b = resolve_block_sizes(*m, role::scratch, o.br, o.bw);
        std::error_code ec;
        std::filesystem::create_directories(o.out, ec); // another rank may create it at the same time
        check_writable_directory(o.out, "dsort --out");
        refuse_to_replace(o.out + "/part-" + std::to_string(rank), o.force);
        if (o.keep_input) refuse_to_replace(o.out + "/input-" + std::to_string(rank), o.force);
    });
    const std::string part = o.out + "/part-" + std::to_string(rank);
    // The input: this rank's share of the global sequence, on its machine (role stream), not measured.
    vector<T> input(*m, vector<T>::min_memory(b), b, role::stream),
        output(*m, vector<T>::min_memory(b), b, role::stream);
    fd::item_checksum<T> input_sum;
    fd::agree_on_failure(c, "input", [&] {
        typename vector<T>::stream_writer w(input);
        if (!o.input.empty()) {
            read_records<T>(o.input + "/input-" + std::to_string(rank), w, input_sum);
        } else {
            for (std::uint64_t i = fd::record_generator::first_of(o.records, rank, ranks);
                 i < fd::record_generator::first_of(o.records, rank + 1, ranks); ++i) {
                const T x = item_kind<T>::make(o.seed, i);
                w.push(x);
                input_sum.add(x);
            }
        }
        w.finish();
        if (o.keep_input)
            export_records(input, o.out + "/input-" + std::to_string(rank),
                           static_cast<fd::part_validator<T, less>*>(nullptr));
    });
    const std::uint64_t records = fd::all_sum(c, input.size());
    fd::distributed_sort_config config;
    config.memory = memory;
    config.blocks = b;
    config.threads = o.threads;
    config.release_input = true;
    const fd::distributed_sort_report report =
        o.baseline ? baseline_sort(c, input, config) : fd::distributed_sort(c, input, output, config, less());
    fd::part_validator<T, less> check;
    fd::agree_on_failure(c, "output file",
                         [&] { export_records(o.baseline ? input : output, part, &check); });
    const fd::validation_result v =
        fd::validate_parts<T, less>(c, check.summary(), records, fd::all_sum(c, input_sum.value()));
    const std::vector<std::vector<rank_figures>> all =
        fd::all_gather_items(c, std::vector<rank_figures>{figures_of(report, sizeof(T))});
    if (rank == 0) {
        std::vector<rank_figures> per_rank;
        for (const auto& one : all)
            per_rank.push_back(one.at(0));
        print_report(o, records, per_rank, v, b, memory, net);
    }
    if (!v.ok) throw error("dsort: the output in " + o.out + " failed validation: " + v.problems.front());
}

//! Prints the failure `e` as main() would, naming the rank, and returns main()'s exit status for it.
int report_failure(const std::exception& e, int rank, int ranks) {
    const std::string who =
        ranks > 1 ? "flashxxl: error: rank " + std::to_string(rank) + ": " : "flashxxl: error: ";
    std::cerr << who << e.what() << "\n";
    if (const auto* space = dynamic_cast<const out_of_space*>(&e))
        std::cerr << "flashxxl: hint: " << out_of_space_hint(*space) << "\n";
    std::cerr.flush();
    const bool usage = dynamic_cast<const config_error*>(&e) || dynamic_cast<const input_error*>(&e);
    return usage ? 2 : 1;
}

//! run_dsort after MPI is up.
void run_checked(const dsort_options& o, fd::mpi_communicator& world) {
    const fd::network_model net{o.net_gbit * 1e9 / 8, o.net_latency_us * 1e-6};
    fd::metered_communicator c(world, net);
    if (o.input.empty() == (o.records == 0))
        throw config_error(
            "dsort: give --records N (generated input) or --input DIR (DIR/input-R per rank), one of them");
    if (o.baseline && o.keep_input)
        throw config_error("dsort: --baseline sorts the input in place; leave out --keep-input");
    if (o.type == item_kind<fd::sort_record>::name)
        run_typed<fd::sort_record>(o, c, net);
    else if (o.type == item_kind<std::uint64_t>::name)
        run_typed<std::uint64_t>(o, c, net);
    else
        throw config_error("dsort --type '" + o.type + "' (expected records or u64)");
}

} // namespace

void run_dsort(const dsort_options& o) {
    fd::mpi_session_scope mpi(nullptr, nullptr);
    fd::mpi_communicator world;
    try {
        run_checked(o, world);
    } catch (const std::exception& e) {
        // Every rank says why before MPI ends: the ranks learn of a failure at the same agreement
        // and print at once, and the pause keeps the first to exit from having mpirun stop the
        // others before they printed. (A rank failing alone, outside an agreement, is stopped by
        // mpirun when it exits, as before.)
        const int status = report_failure(e, world.rank(), world.size());
        if (world.size() > 1) std::this_thread::sleep_for(std::chrono::milliseconds(500));
        throw reported_failure{status};
    }
}

} // namespace flashxxl::cli

#endif // FLASHXXL_WITH_MPI
