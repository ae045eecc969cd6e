// MM_BFS, MR_BFS and DFS under memory_budget: the machine's overhead taken off once, peaks within M, on a
// machine with a translation layer.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/dfs.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mr_bfs.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/usable_memory.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;

const block_sizes small{4 * KiB, 16 * KiB};
constexpr std::uint64_t program_memory = 2 * MiB;

//! One device with a translation layer (64 KiB segments): its buffers and maps are the
//! machine's fixed overhead.
machine tl_machine() {
    return machine::from_config_text("name=tl\nflash=memory,128MiB,memory name=ssd tl=on tl_page=4KiB "
                                     "tl_segment=64KiB\nplacement=single device=ssd\n",
                                     "tl-machine");
}

//! Reads and writes of every phase, to compare two runs.
std::string io_of(const std::vector<phase_stats>& phases) {
    std::string s;
    for (const phase_stats& p : phases) {
        const io_counters c = p.total();
        s += p.name + ":" + std::to_string(c.read_ops) + "r" + std::to_string(c.read_bytes) + "/" +
             std::to_string(c.write_ops) + "w" + std::to_string(c.write_bytes) + " ";
    }
    return s;
}

//! `search(m, g, budget)` on a fresh machine and a 60 x 60 grid, the budget given either as
//! plain bytes (the algorithm takes the machine's overhead off itself) or already net of it
//! (usable_memory, as a command does once): both must do the same I/O, and the program
//! account's peak must stay within M less the overhead.
template <class Search> void expect_overhead_taken_once(const std::string& algorithm, Search search) {
    SCOPED_TRACE(algorithm);
    std::string io[2];
    for (int net = 0; net < 2; ++net) {
        machine m = tl_machine();
        grid_generator gen(60);
        auto g = build_csr(m, 512 * KiB, small, gen, 64 * KiB);
        const std::uint64_t overhead = translation_layer_memory(m);
        memory_account program;
        const memory_budget M(program_memory, program);
        const memory_budget given = net ? usable_memory(m, M) : M;
        const std::vector<phase_stats> phases = search(m, *g, given);
        io[net] = io_of(phases);
        EXPECT_GT(program.peak(), 0u) << "nothing rolled up into the budget's account";
        EXPECT_LE(program.peak(), program_memory - overhead)
            << (net ? "net" : "plain") << " budget: the algorithm used the overhead's share of M";
    }
    EXPECT_EQ(io[0], io[1]) << "a plain and a net budget must give the same run";
}

TEST(memory_budget_graph, mm_bfs_takes_the_machine_overhead_off_once) {
    expect_overhead_taken_once("mm_bfs", [](machine& m, csr_graph& g, const memory_budget& M) {
        bfs_result r = mm_bfs(m, g, M, small, 0);
        EXPECT_EQ(r.reached, 3600u);
        return r.phases;
    });
}

TEST(memory_budget_graph, mr_bfs_takes_the_machine_overhead_off_once) {
    expect_overhead_taken_once("mr_bfs", [](machine& m, csr_graph& g, const memory_budget& M) {
        bfs_result r = mr_bfs(m, g, M, small, 0);
        EXPECT_EQ(r.reached, 3600u);
        return r.phases;
    });
}

TEST(memory_budget_graph, dfs_takes_the_machine_overhead_off_once) {
    expect_overhead_taken_once("dfs", [](machine& m, csr_graph& g, const memory_budget& M) {
        dfs_result r = dfs(m, g, M, small, 0);
        EXPECT_EQ(r.visited, 3600u);
        EXPECT_EQ(r.tl_memory, translation_layer_memory(m));
        EXPECT_LE(r.peak_memory, program_memory);
        return r.phases;
    });
}

// Before: mm_bfs(m, g, M) on a machine with a translation layer used all of M besides the
// layer's memory. Now a budget that the overhead leaves too small is refused, naming it.
TEST(memory_budget_graph, a_budget_the_overhead_eats_is_refused) {
    machine m = tl_machine();
    grid_generator gen(10);
    auto g = build_csr(m, 512 * KiB, small, gen, 64 * KiB);
    try {
        (void)mm_bfs(m, *g, translation_layer_memory(m), small, 0);
        FAIL() << "no config_error";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("translation layers"), std::string::npos) << e.what();
    }
}

} // namespace
