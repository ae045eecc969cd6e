// Tests of the BFS tools' input and output: graph specs, file detection, vector output, the experiment
// runner.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <sys/stat.h>

#include "flashxxl/graph/bfs_experiment.hpp"
#include "flashxxl/graph/bfs_output.hpp"
#include "flashxxl/graph/binary_edge_writer.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/graph/text_edge_writer.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "flashxxl/units.hpp"
#include "support/temp_dir.hpp"
#include "graph/test_bfs_support.hpp"

namespace {

using namespace flashxxl;

std::uint64_t count_edges(any_edge_source& s) {
    edge e;
    std::uint64_t k = 0;
    while (s.next(e))
        ++k;
    return k;
}

TEST(bfs_graph_source, generator_specs) {
    auto g = open_graph_source("grid:side=10");
    EXPECT_EQ(g->node_count(), 100u);
    EXPECT_EQ(count_edges(*g), 180u);
    auto t = open_graph_source("tree:nodes=1001,levels=10");
    EXPECT_EQ(count_edges(*t), 1000u);
    EXPECT_NE(t->describe().find("levels=10"), std::string::npos);
    // levels= is the most levels: 100 nodes have 99 below the source, and the description says so.
    EXPECT_NE(open_graph_source("tree:nodes=100,levels=1000")->describe().find("levels=99"),
              std::string::npos);
    auto td = open_graph_source("tree:nodes=50000");
    EXPECT_NE(td->describe().find("levels=105"), std::string::npos); // sqrt(128 KiB / 12)
    auto r = open_graph_source("random:nodes=1000,degree=4,seed=3");
    EXPECT_EQ(count_edges(*r), 2000u);
    auto rm = open_graph_source("rmat:scale=8,edge_factor=4");
    EXPECT_EQ(rm->node_count(), 256u);
    EXPECT_EQ(count_edges(*rm), 1024u);
}

TEST(bfs_graph_source, bad_specs_name_the_problem) {
    try {
        open_graph_source("grid:sides=10");
        FAIL();
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("sides"), std::string::npos) << e.what();
    }
    EXPECT_THROW(open_graph_source("grid:"), config_error);
    EXPECT_THROW(open_graph_source("random:nodes=10"), config_error);
    EXPECT_THROW(open_graph_source("tree:nodes=10,levels=2,block=4KiB"), config_error);
    EXPECT_THROW(open_graph_source("/nonexistent/graph.txt"), input_error);
    // a key given twice, and a scale that a 32-bit cast would have wrapped to 1
    try {
        open_graph_source("grid:side=3,side=4");
        ADD_FAILURE() << "accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("side= is given twice"), std::string::npos) << e.what();
    }
    // A count is a count: no byte unit (side=1KiB was 1024 nodes per side), no trailing comma.
    for (const char* spec :
         {"grid:side=1KiB", "tree:nodes=1MiB", "random:nodes=10,edges=1KiB", "grid:side=4,"})
        EXPECT_THROW(open_graph_source(spec), config_error) << spec;
    try {
        open_graph_source("grid:side=1KiB");
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "'1KiB' is not a node count (nodes per side) (byte units do not apply"),
                  std::string::npos)
            << e.what();
    }
    try {
        open_graph_source("rmat:scale=4294967297");
        ADD_FAILURE() << "accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("rmat scale 4294967297 out of range"), std::string::npos)
            << e.what();
    }
    try {
        open_graph_source("grid:side=3037000501"); // 2 side (side - 1) edges would wrap 64 bits
        ADD_FAILURE() << "accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("side: '3037000501' is out of range; expected a node count "
                                             "(nodes per side), a whole number from 1 to 3037000500"),
                  std::string::npos)
            << e.what();
    }
}

// A text edge list from a FIFO (as `<(zcat g.txt.gz)` gives one) is read whole: the bytes read to
// tell text from binary are parsed, not lost (the reader used to reopen the path and start
// 4 KiB in, in the middle of a line, inventing an edge).
TEST(bfs_graph_source, reads_a_text_edge_list_from_a_fifo) {
    flashxxl::testing::temp_dir dir;
    const std::string fifo = dir.file("graph.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::uint64_t n = 3000; // a path of 3000 edges: about 27 KiB of text
    std::thread writer([&] {
        std::FILE* f = std::fopen(fifo.c_str(), "w");
        if (!f) return;
        for (std::uint64_t i = 0; i < n; ++i)
            std::fprintf(f, "%llu %llu\n", (unsigned long long)i, (unsigned long long)i + 1);
        std::fclose(f);
    });
    auto g = open_graph_source(fifo);
    edge e;
    std::uint64_t k = 0;
    bool path = true;
    while (g->next(e)) {
        path = path && e.u == k && e.v == k + 1;
        ++k;
    }
    writer.join();
    EXPECT_EQ(k, n);
    EXPECT_TRUE(path) << "an edge out of sequence";
    EXPECT_EQ(g->node_count(), n + 1);
}

TEST(bfs_graph_source, detects_text_and_binary_files) {
    flashxxl::testing::temp_dir dir;
    std::vector<edge> edges = {{0, 1}, {1, 2}, {2, 2}, {3, 4}};
    {
        text_edge_writer w(dir.file("g.txt"));
        for (const edge& e : edges)
            w.push(e);
        w.close();
        binary_edge_writer b(dir.file("g.bin"), 4, 6);
        for (const edge& e : edges)
            b.push(e);
        b.close();
    }
    auto t = open_graph_source(dir.file("g.txt"));
    EXPECT_NE(t->describe().find("(text)"), std::string::npos);
    EXPECT_EQ(count_edges(*t), 4u);
    EXPECT_EQ(t->node_count(), 5u);
    auto b = open_graph_source(dir.file("g.bin"));
    EXPECT_NE(b->describe().find("(binary)"), std::string::npos);
    EXPECT_EQ(count_edges(*b), 4u);
    EXPECT_EQ(b->node_count(), 6u);
}

TEST(bfs_experiment, runs_both_algorithms_with_the_csr_phase_first) {
    const block_sizes b(4096, 16384);
    for (std::string algo : {"mm", "mr"}) {
        machine m = flashxxl::testing::two_device_machine("flash_aware");
        auto src = open_graph_source("grid:side=40");
        bfs_experiment_options o;
        o.algo = algo;
        o.memory = bfs_experiment_min_memory(b) + 64 * 1024;
        bfs_level_recorder rec(1600);
        bfs_experiment_result r = run_bfs_experiment(m, *src, b, o, rec);
        EXPECT_EQ(r.br, b.br);
        EXPECT_EQ(r.bw, b.bw);
        EXPECT_EQ(r.csr.edges(), 2u * 40 * 39);
        EXPECT_EQ(r.bfs.reached, 1600u);
        EXPECT_EQ(r.bfs.levels(), 79u);
        ASSERT_GE(r.bfs.phases.size(), 2u);
        EXPECT_EQ(r.bfs.phases[0].name, "csr");
        EXPECT_EQ(rec.level[1599], 78u);
    }
    machine m = flashxxl::testing::plain_machine();
    auto src = open_graph_source("grid:side=4");
    bfs_experiment_options o;
    o.algo = "xx";
    o.memory = 1 << 20;
    bfs_visitor v;
    EXPECT_THROW(run_bfs_experiment(m, *src, b, o, v), config_error);
    o.algo = "mm";
    flashxxl::testing::expect_invalid_pair_rejected(
        [&] { run_bfs_experiment(m, *src, flashxxl::testing::invalid_pair(), o, v); });
}

// A translation layer's segment buffers answer reads of the pages they hold, so the experiment
// charges the layers' memory to M (as dfs does): every phase gets M less the buffers and maps,
// or less the buffers alone (tl_charge::buffers, what seeds/001 Table 2 uses at scale). The
// same BFS on the same grid then has a smaller in-memory hot pool behind the layer, and a
// budget that does not cover the layer is refused, naming what it does not cover.
TEST(bfs_experiment, charges_the_translation_layers_memory_to_m) {
    const block_sizes b(4096, 16384);
    const std::uint64_t memory = bfs_experiment_min_memory(b) + 2 * MiB;
    auto run = [&](bool layered, tl_charge charge) {
        machine m = machine::from_config_text(std::string("flash=memory,64MiB,memory name=ssd") +
                                              (layered ? " tl=on tl_page=4KiB tl_segment=16KiB" : "") +
                                              "\nplacement=single device=ssd\n");
        auto src = open_graph_source("grid:side=40");
        bfs_experiment_options o;
        o.memory = memory;
        o.charge = charge;
        bfs_level_recorder rec(1600);
        bfs_experiment_result r = run_bfs_experiment(m, *src, b, o, rec);
        EXPECT_EQ(r.bfs.reached, 1600u);
        EXPECT_EQ(r.memory + r.tl_memory, memory);
        if (layered) {
            const std::uint64_t want = charge == tl_charge::buffers ? translation_layer_buffer_memory(m)
                                                                    : translation_layer_memory(m);
            EXPECT_EQ(r.tl_memory, want);
            EXPECT_EQ(translation_layer_buffer_memory(m), 2 * 16 * KiB);
            EXPECT_GT(translation_layer_memory(m),
                      translation_layer_buffer_memory(m)); // the maps come on top
        } else {
            EXPECT_EQ(r.tl_memory, 0u);
        }
        return r;
    };
    const bfs_experiment_result plain = run(false, tl_charge::buffers_and_maps);
    const bfs_experiment_result layered = run(true, tl_charge::buffers_and_maps);
    const bfs_experiment_result buffers_only = run(true, tl_charge::buffers);
    EXPECT_EQ(plain.bfs.level_sizes, layered.bfs.level_sizes);
    EXPECT_LT(layered.bfs.pool_memory_bytes, plain.bfs.pool_memory_bytes);
    EXPECT_LT(buffers_only.tl_memory, layered.tl_memory);
    EXPECT_LE(layered.bfs.pool_memory_bytes, buffers_only.bfs.pool_memory_bytes);

    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd tl=on tl_page=4KiB "
                                          "tl_segment=16KiB\nplacement=single device=ssd\n");
    auto src = open_graph_source("grid:side=4");
    bfs_experiment_options o;
    o.memory = translation_layer_memory(m);
    bfs_visitor v;
    try {
        run_bfs_experiment(m, *src, b, o, v);
        FAIL() << "a budget that only covers the layer was accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("translation layers"), std::string::npos) << e.what();
    }
}

TEST(bfs_experiment, records_the_run_time_pair_it_ran_with) {
    for (const block_sizes& b : flashxxl::testing::runtime_block_pairs()) {
        SCOPED_TRACE(b.describe());
        machine m = flashxxl::testing::plain_machine();
        auto src = open_graph_source("grid:side=20");
        bfs_experiment_options o;
        o.algo = "mr";
        o.memory = bfs_experiment_min_memory(b);
        bfs_level_recorder rec(400);
        bfs_experiment_result r = run_bfs_experiment(m, *src, b, o, rec);
        EXPECT_EQ(r.br, b.br);
        EXPECT_EQ(r.bw, b.bw);
        EXPECT_EQ(r.bfs.reached, 400u);
        EXPECT_EQ(rec.level[399], 38u);
        EXPECT_GE(bfs_experiment_min_memory(b), std::max(mm_bfs_min_memory(b), csr_build_min_memory(b)));
    }
}

TEST(bfs_output, vector_output_holds_every_reached_node_in_level_order) {
    const block_sizes b(4096, 16384);
    machine m = flashxxl::testing::plain_machine();
    auto src = open_graph_source("grid:side=30");
    auto g = build_csr(m, 256 * 1024, b, *src);
    vector<bfs_level_entry> out(m, vector<bfs_level_entry>::min_memory(b), b, role::stream);
    {
        bfs_vector_output vis(out);
        mm_bfs(m, *g, 512 * 1024, b, 0, vis);
        vis.finish();
    }
    ASSERT_EQ(out.size(), 900u);
    std::uint64_t prev_level = 0;
    for (vector<bfs_level_entry>::stream_reader r(out); !r.empty(); ++r) {
        EXPECT_GE(r->level, prev_level);
        prev_level = r->level;
        EXPECT_EQ(r->level, r->v / 30 + r->v % 30); // grid distance from the corner
    }
}

} // namespace
