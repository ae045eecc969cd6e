// The host-time model of seeds/001 Table 2: fitted on one cell of the paper, it must predict the paper's
// other Br BFS phases.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "flashxxl/reproduce/table2_host_model.hpp"
#include "flashxxl/reproduce/table2_paper.hpp"

using namespace flashxxl;
using namespace flashxxl::reproduce;

TEST(Table2HostModel, CornerBfsLevelsOfTheGrids) {
    EXPECT_EQ(grid_corner_bfs_levels(1), 1u);
    EXPECT_EQ(grid_corner_bfs_levels(2), 3u);
    EXPECT_EQ(table2_paper()[0].side(), 1024u);
    EXPECT_EQ(grid_corner_bfs_levels(table2_paper()[0].side()), 2047u);
    EXPECT_EQ(table2_paper()[3].side(), 8192u);
}

// 1.924 GB in 128 KiB reads on the 2009 SSD: 14 679 requests of 0.2065 ms command and page time
// plus 65.4 s of transfer at 28.07 MiB/s.
TEST(Table2HostModel, DeviceTimeOfThePapersFirstBfsPhase) {
    const double s = table2_host_model::br_bfs_device_s(table2_paper()[0]);
    EXPECT_NEAR(s, 68.40, 0.05);
    // One request's worth: c_r + t_R + 128 KiB / 28.07 MiB/s = 4.66 ms.
    EXPECT_NEAR(table2_host_model::ssd2009_read_s(128.0 * 1024, 128 * KiB), 0.143e-3 + 0.0635e-3 + 4.4531e-3,
                2e-6);
}

TEST(Table2HostModel, FittedOnTheSmallestGridItReproducesThatCell) {
    const table2_host_model m = table2_host_model::fitted_to_paper();
    EXPECT_NEAR(m.per_level_s(), 0.342, 0.001);
    EXPECT_NEAR(m.predicted_br_bfs_s(table2_paper()[0]), table2_paper()[0].br_bfs_s, 1e-9);
}

// The check that could reject the model: rows 2-4 were not used for the fit. Predicted
// 1 688 / 4 993 / 17 010 s against the paper's 1 697.0 / 4 570.4 / 15 778.9.
TEST(Table2HostModel, PredictsThePapersOtherBrBfsPhasesWithinTenPercent) {
    const table2_host_model m = table2_host_model::fitted_to_paper();
    for (std::size_t k = 1; k < table2_paper().size(); ++k) {
        const table2_paper_figures& row = table2_paper()[k];
        SCOPED_TRACE("2^" + std::to_string(row.log2_nodes));
        const double predicted = m.predicted_br_bfs_s(row);
        EXPECT_LE(predicted, 1.10 * row.br_bfs_s);
        EXPECT_GE(predicted, 0.90 * row.br_bfs_s);
    }
}

// The shape that does not fit: a host time per level growing with the level's width (sqrt |V|)
// puts 2^22 at 1.8 times the paper's time.
TEST(Table2HostModel, AHostTimeGrowingWithTheLevelsWidthDoesNotFit) {
    const table2_host_model m = table2_host_model::fitted_to_paper();
    const table2_paper_figures& first = table2_paper()[0];
    const table2_paper_figures& second = table2_paper()[1];
    const double width_growth = double(second.side()) / double(first.side());
    const table2_host_model growing(m.per_level_s() * width_growth);
    EXPECT_GT(growing.predicted_br_bfs_s(second), 1.5 * second.br_bfs_s);
}

// A run at scale s has 1/s of the paper's data and a grid with 1/sqrt(s) of its levels: its host
// time is 1/s of the paper's, so the host share of a row is kept.
TEST(Table2HostModel, ScaledRunsGetTheirShareOfTheHostTime) {
    const table2_host_model m = table2_host_model::fitted_to_paper();
    const double paper_host = m.host_s(grid_corner_bfs_levels(1024), 1);
    EXPECT_NEAR(paper_host, 0.342 * 2047, 2.0);
    for (std::uint64_t scale : {4u, 16u}) {
        const std::uint64_t side = 1024 / std::uint64_t(std::llround(std::sqrt(double(scale))));
        EXPECT_NEAR(m.host_s(grid_corner_bfs_levels(side), scale), paper_host / double(scale),
                    0.01 * paper_host / scale);
    }
    EXPECT_EQ(m.host_s(100, 0), 0.0);
}

// The paper's own volumes priced on the SSD: its layer saved 18 % of Br's device time on 2^22
// (as ours does on our first row) and 1-2 % on the larger grids; its measured wall times,
// mostly host time on the small grids, show 0.98 / 1.00 / 0.99.
TEST(Table2HostModel, ThePapersLayerSavedAFifthOfTheDeviceTimeOnItsSecondGrid) {
    EXPECT_FALSE(table2_host_model::tl_device_s(table2_paper()[0]).has_value()); // TL's read volume is lost
    const double row2 = *table2_host_model::tl_device_s(table2_paper()[1]) /
                        table2_host_model::br_device_s(table2_paper()[1]);
    EXPECT_NEAR(row2, 0.818, 0.01);
    EXPECT_GT(table2_paper()[1].tl_total_s / table2_paper()[1].br_total_s(), 0.97);
    for (std::size_t k : {2u, 3u}) {
        const table2_paper_figures& row = table2_paper()[k];
        const double ratio = *table2_host_model::tl_device_s(row) / table2_host_model::br_device_s(row);
        EXPECT_GT(ratio, 0.97);
        EXPECT_LT(ratio, 1.0);
    }
    // The Br run on 2^20: 114.7 s of device time in 799.9 s.
    EXPECT_NEAR(table2_host_model::br_device_s(table2_paper()[0]), 114.7, 0.2);
}
