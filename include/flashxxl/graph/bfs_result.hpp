// What an external BFS run reports: levels, counters, and per-phase device statistics.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! Device statistics of one phase of an algorithm: per device, the difference of two
//! snapshots (device_stats::operator-), plus wall time.
struct phase_stats {
    std::string name; //!< "preprocessing", "bfs", "csr", ...
    std::vector<std::string> device_names;
    std::vector<device_class> device_classes;
    std::vector<device_stats> devices; //!< per device, in machine order
    double wall_s = 0;
    modelled_time modelled; //!< the phase on the machine's virtual clock

    //! Sum over devices of role r's counters.
    io_counters of(role r) const {
        io_counters c;
        for (const auto& d : devices)
            c += d.of(r);
        return c;
    }
    //! Sum over devices of the totals.
    io_counters total() const {
        io_counters c;
        for (const auto& d : devices)
            c += d.total;
        return c;
    }
    //! The largest modelled busy time of one device in this phase (devices work in parallel).
    double busiest_modelled_s() const {
        double m = 0;
        for (const auto& d : devices)
            m = std::max(m, d.total.modelled_s);
        return m;
    }
    //! Caller-side time blocked on I/O in this phase, summed over devices and roles.
    double wait_s() const {
        double w = 0;
        for (const auto& d : devices)
            w += d.total.wait_s;
        return w;
    }
};

//! Takes a snapshot at construction; finish() returns the phase's difference.
class phase_meter {
public:
    phase_meter(const machine& m, std::string name)
        : machine_(&m), name_(std::move(name)), before_(m.stats()), clock_before_(m.modelled()),
          start_(std::chrono::steady_clock::now()) {}
    phase_stats finish() const {
        phase_stats p;
        p.name = name_;
        auto after = machine_->stats();
        for (std::size_t i = 0; i < after.size(); ++i) {
            p.device_names.push_back(machine_->dev(i).name());
            p.device_classes.push_back(machine_->dev(i).klass());
            p.devices.push_back(after[i] - before_[i]);
        }
        p.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        p.modelled = machine_->modelled() - clock_before_;
        return p;
    }

private:
    const machine* machine_;
    std::string name_;
    std::vector<device_stats> before_;
    modelled_time clock_before_;
    std::chrono::steady_clock::time_point start_;
};

//! One level of MM_BFS's BFS phase (shared/BFS.md, "Log per level"): L(t) and what expanding
//! it took (the clusters its nodes asked for, the pool after they were loaded).
struct bfs_level_detail {
    std::uint64_t size = 0;                //!< |L(t)|
    std::uint64_t clusters_loaded = 0;     //!< clusters that entered the hot pool for L(t)'s lists
    std::uint64_t cluster_reads = 0;       //!< read requests for them (a read block may bring several)
    std::uint64_t pool_memory_records = 0; //!< hot-pool records in memory after the level's loads
    std::uint64_t pool_device_records = 0; //!< hot-pool records in the external overflow pool
    std::uint64_t cache_records = 0;       //!< records of unrequested clusters in the cache after the loads
};

//! The result of mr_bfs / mm_bfs.
struct bfs_result {
    std::uint64_t source = 0;
    std::uint64_t reached = 0;              //!< nodes with a level (the source included)
    std::vector<std::uint64_t> level_sizes; //!< |L(t)| for t = 0, 1, ... (the last one non-empty)
    // MM_BFS only:
    std::uint64_t mu = 0;                //!< target cluster size (nodes)
    std::uint64_t clusters = 0;          //!< clusters built (K)
    std::uint64_t clusters_loaded = 0;   //!< clusters loaded in the BFS phase (each at most once)
    std::uint64_t cluster_reads = 0;     //!< their read requests (neighbours share a read block)
    std::uint64_t pool_memory_bytes = 0; //!< M's share for the in-memory hot pool
    std::uint64_t cache_peak_bytes =
        0; //!< most bytes the cache of neighbouring clusters held (it fills idle M)
    std::uint64_t clusters_evicted = 0;     //!< cached clusters given back when other structures needed M
    std::uint64_t growth_rounds = 0;        //!< rounds of the parallel cluster BFS
    std::uint64_t cluster_file_bytes = 0;   //!< size of the cluster index file F
    std::uint64_t pool_records_scanned = 0; //!< sum over levels of |H| (records)
    std::uint64_t max_pool_records = 0;     //!< largest |H|
    std::uint64_t neighbour_records = 0;    //!< sum over levels of |S_N|
    std::vector<bfs_level_detail> level_details; //!< MM_BFS: per level t = 0, 1, ...
    //! MR_BFS: per level t = 0, 1, ..., whether L(t)'s adjacency lists were read by one scan of
    //! the graph (false: fetched at random through its page caches); mr_bfs_options::adjacency.
    std::vector<bool> scanned_levels;
    std::vector<phase_stats> phases; //!< "preprocessing", "bfs" (mm) or "bfs" (mr)

    //! Levels (number of non-empty levels).
    std::uint64_t levels() const { return level_sizes.size(); }
    //! The phase of this name, or nullptr.
    const phase_stats* phase(const std::string& name) const {
        for (const auto& p : phases)
            if (p.name == name) return &p;
        return nullptr;
    }
};

} // namespace flashxxl
