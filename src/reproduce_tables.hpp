// The tables `flashxxl reproduce` regenerates, one function each, and the scale they run at.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "flashxxl/reproduce/report.hpp"

namespace flashxxl::cli::reproduce {

using flashxxl::reproduce::report_row;
using flashxxl::reproduce::report_table;

//! How big the runs are: tiny (the CLI test, seconds), quick (minutes), full. Each table's
//! function reads what it needs; docs/reproduce.md lists the sizes and the ratios they keep.
enum class scale { tiny, quick, full };

inline const char* to_string(scale s) {
    return s == scale::tiny ? "tiny" : s == scale::quick ? "quick" : "full";
}

//! `v` with `decimals` digits after the point ("0.342"): how the tables print their numbers.
inline std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

//! Progress lines on stderr ("reproduce: <table>: <what>"), silent when not wanted.
using progress_fn = std::function<void(const std::string&)>;

//! A table's id, what it is, and the function that makes it.
struct table_entry {
    std::string id;
    std::string what;
    std::function<report_table(scale, const progress_fn&)> run;
};

//! Every table in the report's order (seeds/000 2.1, 3.1, 4.1; seeds/001 Table 1, Table 2,
//! DFS; uFLIP Table 3).
std::vector<table_entry> all_tables();

report_table seeds000_table2_1(scale s, const progress_fn& progress); // reproduce_devices.cpp
report_table seeds000_table3_1(scale s, const progress_fn& progress); // reproduce_devices.cpp
report_table uflip_table3(scale s, const progress_fn& progress);      // reproduce_devices.cpp
report_table seeds000_table4_1(scale s, const progress_fn& progress); // reproduce_bfs.cpp
report_table seeds001_table2(scale s, const progress_fn& progress);   // reproduce_bfs.cpp
report_table seeds001_table1(scale s, const progress_fn& progress);   // reproduce_sort.cpp
report_table seeds001_dfs(scale s, const progress_fn& progress);      // reproduce_dfs.cpp
report_table seeds004_chips(scale s, const progress_fn& progress);    // reproduce_energy.cpp
report_table energy_br_bw(scale s, const progress_fn& progress);      // reproduce_energy.cpp
report_table log_block_fit(scale s, const progress_fn& progress);     // reproduce_log_block.cpp

//! seeds/001's analysis against the behaviour: include/flashxxl/cost/'s predictions beside measured volumes
//! (reproduce_cost.cpp).
report_table seeds001_cost_model(scale s, const progress_fn& progress);
//! The same predictions' time, priced per request stream, beside the device models' time on three
//! devices (reproduce_cost.cpp).
report_table seeds001_cost_time(scale s, const progress_fn& progress);

} // namespace flashxxl::cli::reproduce
