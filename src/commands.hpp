// Registration functions of the flashxxl CLI's subcommands, one per src/cmd_*.cpp.
#pragma once

#include <CLI/CLI.hpp>

namespace flashxxl::cli {

//! `flashxxl machine`: print a machine's devices and placement, probe each device.
void register_machine_command(CLI::App& app);

//! `flashxxl gen`: write a generated graph (grid, tree, random, rmat) as an edge list.
void register_gen_command(CLI::App& app);

//! `flashxxl characterize`: measure a device and recommend Br and Bw (src/cmd_characterize.cpp).
void register_characterize_command(CLI::App& app);

//! `flashxxl sort`: the Br/Bw merge sort benchmark, seeds/001 Table 1's columns (src/cmd_sort.cpp).
void register_sort_command(CLI::App& app);

//! `flashxxl dsort`: the distributed sort over MPI, one flashxxl machine per rank (src/cmd_dsort.cpp).
void register_dsort_command(CLI::App& app);

//! `flashxxl pq`: the merge-based priority queue benchmark (src/cmd_pq.cpp).
void register_pq_command(CLI::App& app);

//! `flashxxl bfs`: external BFS, mm_bfs or mr_bfs, with per-phase device stats (src/cmd_bfs.cpp).
void register_bfs_command(CLI::App& app);

//! `flashxxl dfs`: external DFS, marks separate or with the nodes, with per-phase device stats
//! (src/cmd_dfs.cpp).
void register_dfs_command(CLI::App& app);

//! `flashxxl placement`: seeds/000 Table 4.1, MM_BFS under several machines and policies
//! (src/cmd_placement.cpp).
void register_placement_command(CLI::App& app);

//! `flashxxl btree`: the two-level B-tree flashxxl::map, bulk load / finds / inserts / scans
//! (src/cmd_btree.cpp).
void register_btree_command(CLI::App& app);

//! `flashxxl reproduce`: the papers' tables regenerated on the emulated devices (src/cmd_reproduce.cpp).
void register_reproduce_command(CLI::App& app);

} // namespace flashxxl::cli
