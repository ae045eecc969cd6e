// `flashxxl dsort`: the distributed sort of 100-byte records over MPI, each rank its own flashxxl machine.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common_options.hpp"
#include "dsort_options.hpp"
#include "flashxxl/error.hpp"
#include "machine_options.hpp"
#include "option_checks.hpp"

namespace flashxxl::cli {

void register_dsort_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "dsort",
        "distributed sort over MPI (run under mpirun -np P): each rank generates its share of --records "
        "100-byte records (10-byte keys), forms runs on its own machine, the ranks agree on "
        "splitters (multisequence selection over the runs' page index) and exchange every record once; rank "
        "R "
        "writes DIR/part-R");
    auto o = std::make_shared<dsort_options>();
    add_machine_options(cmd, o->choice);
    cmd->get_option("--backing-dir")
        ->description(cmd->get_option("--backing-dir")->get_description() + "; %r is replaced by the rank");
    cmd->get_option("--config")
        ->description(cmd->get_option("--config")->get_description() +
                      "; %r in its name and in its device paths is replaced by the rank");
    add_block_size_options(cmd, o->br, o->bw, o->memory, "memory budget M of each rank (IEC units)");
    auto* records = cmd->add_option("--records", o->records, "records to generate and sort, over all ranks")
                        ->check(whole_number(1, std::uint64_t(1) << 40));
    cmd->add_option("--input", o->input,
                    "sort existing records instead: rank R reads DIR/input-R (raw 100-byte records, as "
                    "--keep-input writes them)")
        ->check(existing_directory())
        ->excludes(records);
    cmd->add_option("--out", o->out,
                    "directory for part-R (rank R's sorted records) and, with --keep-input, input-R")
        ->required()
        ->check(non_empty_path("an output directory"));
    cmd->add_option("--type", o->type,
                    "items: records (100 bytes, 10-byte keys compared as unsigned bytes) or u64 (8-byte "
                    "unsigned integers, native byte order in the files)")
        ->capture_default_str();
    cmd->add_flag("--force", o->force, "replace existing DIR/part-R and DIR/input-R files");
    cmd->add_flag("--keep-input", o->keep_input, "also write each rank's generated input as DIR/input-R");
    cmd->add_flag("--baseline", o->baseline,
                  "sort with the single-process flashxxl::sort instead (one rank): the reference of "
                  "bench/distributed/bench_dsort.sh");
    cmd->add_option("--seed", o->seed, "seed of the records (the same input for any rank count)")
        ->capture_default_str();
    cmd->add_option("--threads", o->threads, "threads per rank that sort and merge (0: the machine's)")
        ->capture_default_str()
        ->check(whole_number(0, 1024));
    cmd->add_option("--net-gbit", o->net_gbit,
                    "network model: link bandwidth per rank in Gbit/s (10: 10 GbE)")
        ->capture_default_str()
        ->check(finite_number(1e-3, 1e6));
    cmd->add_option("--net-latency-us", o->net_latency_us,
                    "network model: latency per collective step in microseconds")
        ->capture_default_str()
        ->check(finite_number(0, 1e6));
    add_report_flags(cmd, o->json, o->no_progress);
    cmd->callback([o] {
#ifdef FLASHXXL_WITH_MPI
        run_dsort(*o);
#else
        throw error(
            "dsort: this flashxxl was built without MPI (CMake found no MPI, or FLASHXXL_WITH_MPI=OFF); "
            "install libopenmpi-dev and rebuild to sort across ranks");
#endif
    });
}

} // namespace flashxxl::cli
