// seeds/000 Table 2.1's first three rows (generate, scan, merge sort per double) run on an emulated device
// with a host model: modelled time per double, CPU and I/O overlapping.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/device/host_model.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::reproduce {

//! Modelled microseconds per double of the three streaming rows, and the host's share.
struct table21_host_row {
    double generate_us = 0; //!< generating a random double and writing it
    double scan_us = 0;     //!< scanning
    double sort_us = 0;     //!< external merge sort (input read, runs, one merge, output)
    double generate_io_wait_us = 0, scan_io_wait_us = 0, sort_io_wait_us = 0;
    std::uint64_t sort_passes = 0;
};

//! The experiment's size: `bytes` of doubles, sorted with budget `memory`, blocks `blocks`
//! (seeds/000 Table 2.1 names none; 2 MiB, the size of Table 3.1's large requests, is STXXL's
//! default block).
struct table21_host_options {
    std::uint64_t bytes = 128 * MiB;
    std::uint64_t memory = 40 * MiB;
    block_sizes blocks{2 * MiB, 2 * MiB};
};

//! Runs the three rows on a lone device of model preset `model` (`disk` for an HDD, else
//! flash) under host `host`: a vector written with a stream writer from a seeded generator,
//! summed with a stream reader, and sorted with flashxxl::sort; each timed on the machine's
//! virtual clock. Deterministic.
inline table21_host_row run_table21_host(const std::string& model, bool disk, const host_model& host,
                                         const table21_host_options& o = {}) {
    const std::string line = std::string(disk ? "disk" : "flash") + "=memory," +
                             std::to_string(4 * o.bytes + 256 * MiB) + "B,memory name=dev model=" + model;
    machine m = machine::from_config_text("name=table21\n" + line + "\nplacement=single device=dev\n",
                                          "reproduce table 2.1");
    m.set_host(host);
    const std::uint64_t n = o.bytes / sizeof(double);
    const double per_item = 1e6 / double(n);
    vector<double> v(m, vector<double>::min_memory(o.blocks), o.blocks, role::stream);
    table21_host_row r;
    modelled_time t0 = m.modelled();
    {
        vector<double>::stream_writer w(v);
        std::mt19937_64 rng(2008);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (std::uint64_t i = 0; i < n; ++i)
            w.push(unit(rng));
        w.finish();
    }
    modelled_time d = m.modelled() - t0;
    r.generate_us = d.elapsed_s * per_item, r.generate_io_wait_us = d.io_wait_s * per_item;
    t0 = m.modelled();
    double sum = 0;
    for (vector<double>::stream_reader in(v); !in.empty(); ++in)
        sum += *in;
    if (!(sum > 0)) throw error("reproduce: seeds000_table2_1: the scan summed to " + std::to_string(sum));
    d = m.modelled() - t0;
    r.scan_us = d.elapsed_s * per_item, r.scan_io_wait_us = d.io_wait_s * per_item;
    t0 = m.modelled();
    r.sort_passes = sort(v, std::less<double>(), o.memory).passes;
    d = m.modelled() - t0;
    r.sort_us = d.elapsed_s * per_item, r.sort_io_wait_us = d.io_wait_s * per_item;
    return r;
}

} // namespace flashxxl::reproduce
