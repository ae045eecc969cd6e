// The BFS rows of `flashxxl reproduce --tables seeds001_cost_model`: MR_BFS and MM_BFS's phases against
// their bounds.
#pragma once

#include <functional>
#include <string>

#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/prediction.hpp"
#include "flashxxl/machine/machine.hpp"
#include "reproduce_tables.hpp"

namespace flashxxl::cli::reproduce {

//! A lone emulated device of model preset `preset` in memory, all roles on it: the machine every
//! row of the cost-model tables runs on (reproduce_cost.cpp).
machine cost_machine(const std::string& preset);

//! One phase measured beside its bound: the volume moved (RDV + WRV), its modelled time, and the
//! pricing of the device it ran on.
struct bound_row {
    std::string label;
    io_prediction bound;
    double volume = 0;
    double modelled_s = 0;
    cost_model pricing;
};

//! Runs MR_BFS and MM_BFS on grids (and, unless `tiny`, a random graph) on a lone emulated Hama
//! SSD with two block pairs, and hands add() one row per bounded phase (cost/predict_bfs.hpp).
void bfs_bound_rows(bool tiny, const progress_fn& progress, const std::function<void(const bound_row&)>& add);

} // namespace flashxxl::cli::reproduce
