// Options of `flashxxl dsort` and its run (src/dsort_run.cpp, built with MPI only).
#pragma once

#include <cstdint>
#include <string>

#include "machine_options.hpp"

namespace flashxxl::cli {

//! Everything `flashxxl dsort` can be told; every rank gets the same.
struct dsort_options {
    machine_choice choice; // %r in --backing-dir, --config and the config's device paths: the rank
    std::string br, bw, memory = "256MiB";
    std::uint64_t records = 0;    // 0: --input instead
    std::string input;            // DIR: rank R reads DIR/input-R
    std::string type = "records"; // records (100 bytes, 10-byte keys) or u64 (8-byte integers)
    std::string out;
    bool keep_input = false;
    bool force = false;    // replace existing part-R / input-R
    bool baseline = false; // flashxxl::sort in one process instead (the benchmark's reference)
    std::uint64_t seed = 1;
    std::size_t threads = 0;
    double net_gbit = 10, net_latency_us = 20;
    bool json = false, no_progress = false;
};

//! Runs the distributed sort on this rank (MPI_Init to MPI_Finalize) and, on rank 0, prints the
//! report. Defined only when flashxxl is built with MPI (FLASHXXL_WITH_MPI).
void run_dsort(const dsort_options& o);

} // namespace flashxxl::cli
