// Placement tests of MM_BFS: the cluster index on flash and the hot pool on HDDs under flash_aware.
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;
using flashxxl::testing::test_graph;
const block_sizes small_blocks(4096, 16384);

//! Bytes (read + written) of role r on the devices of class k in a phase.
std::uint64_t role_bytes_on(const phase_stats& p, role r, device_class k) {
    std::uint64_t b = 0;
    for (std::size_t i = 0; i < p.devices.size(); ++i)
        if (p.device_classes[i] == k) b += p.devices[i].of(r).bytes();
    return b;
}

struct placement_run {
    bfs_result result;
    std::vector<std::uint64_t> level;
};

placement_run run_on(machine& m, const test_graph& tg, std::uint64_t mu) {
    flashxxl::testing::vector_edge_source src(tg.n, tg.edges);
    auto g = build_csr(m, 512 * 1024, small_blocks, src);
    bfs_level_recorder rec(tg.n);
    mm_bfs_options o;
    o.mu = mu;
    o.pool_memory = 0; // the pool of the paper's graphs is many times M: keep it on the devices
    placement_run r;
    r.result = mm_bfs(m, *g, 512 * 1024, small_blocks, 0, rec, o);
    r.level = rec.level;
    return r;
}

TEST(bfs_placement, flash_aware_puts_the_cluster_index_on_flash_and_the_pool_on_hdd) {
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(70));
    for (const std::string name : {"hybrid-2009", "duo"}) {
        SCOPED_TRACE(name);
        machine m =
            name == "duo"
                ? flashxxl::testing::two_device_machine("flash_aware")
                : machine::from_preset("hybrid-2009", machine_options{"", false, false, 1.0, "flash_aware"});
        placement_run r = run_on(m, tg, 6);
        for (const phase_stats& p : r.result.phases) {
            SCOPED_TRACE(p.name);
            EXPECT_EQ(role_bytes_on(p, role::static_data, device_class::hdd), 0u);
            EXPECT_EQ(role_bytes_on(p, role::hot, device_class::flash), 0u);
            EXPECT_EQ(role_bytes_on(p, role::scratch, device_class::flash), 0u);
        }
        const phase_stats& pre = *r.result.phase("preprocessing");
        const phase_stats& bfs = *r.result.phase("bfs");
        EXPECT_GE(role_bytes_on(pre, role::static_data, device_class::flash), r.result.cluster_file_bytes);
        EXPECT_GT(role_bytes_on(bfs, role::static_data, device_class::flash), 0u);
        EXPECT_GT(role_bytes_on(bfs, role::hot, device_class::hdd), 0u);
    }
}

TEST(bfs_placement, random_striping_spreads_both) {
    test_graph tg = flashxxl::testing::collect("grid", grid_generator(70));
    machine m =
        machine::from_preset("hybrid-2009", machine_options{"", false, false, 1.0, "random_striping"});
    placement_run r = run_on(m, tg, 6);
    const phase_stats& pre = *r.result.phase("preprocessing");
    const phase_stats& bfs = *r.result.phase("bfs");
    EXPECT_GT(role_bytes_on(pre, role::static_data, device_class::flash), 0u);
    EXPECT_GT(role_bytes_on(pre, role::static_data, device_class::hdd), 0u);
    EXPECT_GT(role_bytes_on(bfs, role::static_data, device_class::flash), 0u);
    EXPECT_GT(role_bytes_on(bfs, role::static_data, device_class::hdd), 0u);
    EXPECT_GT(role_bytes_on(bfs, role::hot, device_class::flash), 0u);
    EXPECT_GT(role_bytes_on(bfs, role::hot, device_class::hdd), 0u);
}

//! Random striping puts each block on a device drawn by a seeded generator, so where the hot
//! pool's blocks land, and how many of its small writes cost the SSD a merge, depends on
//! every allocation before them: single seeds range from 1.06 to 1.85 s on this tree, so the
//! comparison takes the mean over eight (flash_aware 0.88 of it; seeds/000 Table 4.1 has 0.69
//! on 2^28 nodes, our 3 M-node run of it 0.68: docs/bfs.md). On the block-mapped Hama: on the
//! log-block hama-ssd-2009 this small tree's hot-pool writes (under 1 MiB) stay in the 12 MiB log
//! pool and never pay a merge, so striping wins here (flash_aware 1.32 s against 0.89 s), while
//! the 3 M-node run (`flashxxl placement`) keeps 0.67 on either model.
TEST(bfs_placement, flash_aware_beats_random_striping_on_the_figure_4_1_tree) {
    // seeds/000 Section 4: a source joined to chains of sqrt(B) levels; B = Br / 12-byte records.
    const std::uint64_t levels = tree_generator::default_levels(4096, sizeof(adjacency_record));
    test_graph tg = flashxxl::testing::collect("tree", tree_generator(20000, levels));
    auto hybrid = [](const std::string& placement) {
        return machine::from_config_text(
            "name=hybrid-2009\n"
            "flash=memory,32GiB,memory name=ssd model=hama-ssd-2009-block-mapped\n"
            "disk=memory,400GiB,memory name=hdd model=barracuda-7200.11\n"
            "placement=" +
                placement + "\n",
            "hybrid-2009");
    };
    auto busiest_bfs = [&](machine& m, std::vector<std::uint64_t>& level) {
        placement_run r = run_on(m, tg, 0);
        const phase_stats& bfs = *r.result.phase("bfs");
        level = r.level;
        for (std::size_t d = 0; d < bfs.devices.size(); ++d)
            std::cout << m.placement().name() << " " << bfs.device_names[d] << ": modelled "
                      << bfs.devices[d].total.modelled_s << " s, RDV " << bfs.devices[d].total.read_bytes
                      << ", WRV " << bfs.devices[d].total.write_bytes << "\n";
        return bfs.busiest_modelled_s();
    };
    std::vector<std::uint64_t> aware_levels, striped_levels;
    machine aware = hybrid("flash_aware");
    const double flash_aware = busiest_bfs(aware, aware_levels);
    double striped_sum = 0;
    const int seeds = 8;
    for (int seed = 1; seed <= seeds; ++seed) {
        machine striped = hybrid("random_striping seed=" + std::to_string(seed));
        striped_sum += busiest_bfs(striped, striped_levels);
        EXPECT_EQ(aware_levels, striped_levels);
    }
    const double striped_mean = striped_sum / seeds;
    EXPECT_LE(flash_aware, 0.95 * striped_mean) << "flash_aware " << flash_aware << " s vs random_striping "
                                                << striped_mean << " s (mean of " << seeds << " seeds)";
}

} // namespace
