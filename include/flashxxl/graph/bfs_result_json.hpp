// JSON form of BFS results, phase statistics and CSR build counts (nlohmann::json; include where wanted).
#pragma once

#include <nlohmann/json.hpp>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/device_stats_json.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/csr_graph.hpp"

namespace flashxxl {

inline void to_json(nlohmann::json& j, const csr_build_stats& s) {
    j = nlohmann::json{{"nodes", s.nodes},
                       {"input_edges", s.input_edges},
                       {"self_loops", s.self_loops},
                       {"duplicate_arcs", s.duplicate_arcs},
                       {"arcs", s.arcs},
                       {"edges", s.edges()},
                       {"sort_passes", s.passes}};
}

inline void to_json(nlohmann::json& j, const phase_stats& p) {
    j = nlohmann::json{{"name", p.name},
                       {"wall_s", p.wall_s},
                       {"io_wait_s", p.wait_s()},
                       {"modelled_elapsed_s", p.modelled.elapsed_s},
                       {"modelled_io_wait_s", p.modelled.io_wait_s},
                       {"busiest_modelled_s", p.busiest_modelled_s()},
                       {"modelled_energy_j", energy_json(machine_total(p.devices))}};
    for (std::size_t i = 0; i < p.devices.size(); ++i) {
        nlohmann::json d = p.devices[i];
        d["name"] = p.device_names[i];
        d["class"] = p.device_classes[i] == device_class::flash ? "flash" : "hdd";
        j["devices"].push_back(d);
    }
}

inline void to_json(nlohmann::json& j, const bfs_level_detail& d) {
    j = nlohmann::json{{"nodes", d.size},
                       {"clusters_loaded", d.clusters_loaded},
                       {"cluster_reads", d.cluster_reads},
                       {"pool_memory_records", d.pool_memory_records},
                       {"pool_device_records", d.pool_device_records},
                       {"cache_records", d.cache_records}};
}

inline void to_json(nlohmann::json& j, const bfs_result& r) {
    j = nlohmann::json{{"source", r.source},
                       {"reached", r.reached},
                       {"level_count", r.levels()},
                       {"mu", r.mu},
                       {"clusters", r.clusters},
                       {"clusters_loaded", r.clusters_loaded},
                       {"cluster_reads", r.cluster_reads},
                       {"pool_memory_bytes", r.pool_memory_bytes},
                       {"cache_peak_bytes", r.cache_peak_bytes},
                       {"clusters_evicted", r.clusters_evicted},
                       {"growth_rounds", r.growth_rounds},
                       {"cluster_file_bytes", r.cluster_file_bytes},
                       {"pool_records_scanned", r.pool_records_scanned},
                       {"max_pool_records", r.max_pool_records},
                       {"neighbour_records", r.neighbour_records},
                       {"phases", r.phases}};
    // Per level: MM_BFS's details, MR_BFS's level sizes and how each level's lists were read.
    if (!r.level_details.empty()) {
        j["levels"] = r.level_details;
    } else {
        j["levels"] = nlohmann::json::array();
        for (std::size_t t = 0; t < r.level_sizes.size(); ++t) {
            nlohmann::json level = {{"nodes", r.level_sizes[t]}};
            if (t < r.scanned_levels.size()) level["adjacency"] = r.scanned_levels[t] ? "scan" : "random";
            j["levels"].push_back(level);
        }
    }
}

} // namespace flashxxl
