// Tests of the SNAP-style text edge-list reader and writer: good input and every malformed case.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/text_edge_reader.hpp"
#include "flashxxl/graph/text_edge_writer.hpp"
#include "support/temp_dir.hpp"

namespace {

using flashxxl::edge;
using flashxxl::no_node;

void write_file(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

std::vector<edge> read_all(const std::string& path, flashxxl::node_id bound = no_node,
                           std::size_t buffer = std::size_t(1) << 20) {
    flashxxl::text_edge_reader reader(path, bound, buffer);
    std::vector<edge> out;
    edge e;
    while (reader.next(e))
        out.push_back(e);
    return out;
}

TEST(text_edge_reader, reads_comments_blanks_tabs_crlf_and_last_line_without_newline) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("good.txt");
    write_file(path, "# Directed graph (each unordered pair of nodes is saved once)\n"
                     "# Nodes: 6 Edges: 5\n"
                     "\n"
                     "0\t1\n"
                     "  1 2  \n"
                     "   # indented comment\n"
                     "2\t \t3\r\n"
                     "\t\n"
                     "3 3\n"
                     "4 5");
    flashxxl::text_edge_reader reader(path);
    std::vector<edge> got;
    edge e;
    while (reader.next(e))
        got.push_back(e);
    const std::vector<edge> want = {{0, 1}, {1, 2}, {2, 3}, {3, 3}, {4, 5}};
    EXPECT_EQ(got, want);
    EXPECT_EQ(reader.edges_read(), 5u);
    EXPECT_EQ(reader.max_id(), 5u);
    EXPECT_EQ(reader.node_count(), 6u);
    EXPECT_EQ(reader.line_number(), 10u);
}

TEST(text_edge_reader, empty_file_has_no_nodes) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("empty.txt");
    write_file(path, "# nothing here\n\n");
    flashxxl::text_edge_reader reader(path);
    edge e;
    EXPECT_FALSE(reader.next(e));
    EXPECT_EQ(reader.node_count(), 0u);
    EXPECT_EQ(reader.max_id(), no_node);
}

TEST(text_edge_reader, accepts_the_largest_64_bit_id_and_uses_the_bound_as_node_count) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("big.txt");
    write_file(path, "18446744073709551615 0\n");
    auto got = read_all(path);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].u, 18446744073709551615ULL);

    write_file(path, "0 9\n");
    flashxxl::text_edge_reader reader(path, 100);
    edge e;
    ASSERT_TRUE(reader.next(e));
    EXPECT_EQ(reader.node_count(), 100u);
}

TEST(text_edge_reader, small_buffer_gives_the_same_edges_across_refills) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("many.txt");
    std::string text;
    std::vector<edge> want;
    for (std::uint64_t i = 0; i < 2000; ++i) {
        want.push_back({i * 7919 % 100003, i * 104729 % 1000003});
        text += (i % 5 == 0 ? "# comment " + std::to_string(i) + "\n" : std::string());
        text += std::to_string(want.back().u) + (i % 2 ? "\t" : "   ") + std::to_string(want.back().v) + "\n";
    }
    write_file(path, text);
    EXPECT_EQ(read_all(path, no_node, 64), want);
    EXPECT_EQ(read_all(path, no_node, 1000), want);
    EXPECT_EQ(read_all(path), want);
}

TEST(text_edge_reader, read_text_edges_reports_a_summary) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("s.txt");
    write_file(path, "1 2\n2 2\n7 3\n");
    std::vector<edge> got;
    auto s = flashxxl::read_text_edges(path, [&](const edge& e) { got.push_back(e); });
    EXPECT_EQ(got.size(), 3u);
    EXPECT_EQ(s.edges, 3u);
    EXPECT_EQ(s.self_loops, 1u);
    EXPECT_EQ(s.max_id, 7u);
    EXPECT_EQ(s.nodes, 8u);
}

// Reads `content` and expects an input_error naming the file, "LINE:" and `fragment`.
void expect_error(const std::string& content, std::uint64_t line, const std::string& fragment,
                  flashxxl::node_id bound = no_node, std::size_t buffer = std::size_t(1) << 20) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("bad.txt");
    write_file(path, content);
    try {
        read_all(path, bound, buffer);
        ADD_FAILURE() << "no error for: " << content;
    } catch (const flashxxl::input_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path + ":" + std::to_string(line) + ": "), std::string::npos) << what;
        EXPECT_NE(what.find(fragment), std::string::npos) << what;
    }
}

TEST(text_edge_reader, malformed_lines_name_file_line_and_expectation) {
    expect_error("0 1\n# c\n1 2 3\n", 3, "unexpected third token '3'");
    expect_error("0 1\n1 -2\n", 2, "negative number '-2'");
    expect_error("-1 2\n", 1, "negative number '-1'");
    expect_error("\n\na b\n", 3, "non-negative integer node id as first endpoint (u), found 'a'");
    expect_error("0 1\n1.5 2\n", 2, "found '1.5'");
    expect_error("12abc 3\n", 1, "found '12abc'");
    expect_error("3 x7\n", 1, "second endpoint (v), found 'x7'");
    expect_error("5\n", 1, "found only one");
    expect_error("1 2 # trailing comment\n", 1, "third token '#'");
    expect_error("0 1\n18446744073709551616 1\n", 2, "overflows 64 bits");
    expect_error("1 99999999999999999999999\n", 1, "overflows 64 bits");
    expect_error("0 9\n3 10\n", 2, "node id 10 as second endpoint (v) is out of range", 10);
    expect_error("0 9\n\n11 1\n", 3, "node id 11 as first endpoint (u) is out of range", 10);
    expect_error("0 1\n" + std::string(200, '1') + " 2\n", 2, "line longer than 64 bytes", no_node, 64);
}

TEST(text_edge_reader, missing_file_is_an_io_failure_naming_it) {
    try {
        flashxxl::text_edge_reader reader("/nonexistent-dir/edges.txt");
        FAIL() << "opened a missing file";
    } catch (const flashxxl::io_failure& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/edges.txt"), std::string::npos);
    }
}

TEST(text_edge_writer, writes_comments_and_tab_separated_edges_that_read_back) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("w.txt");
    const std::vector<edge> edges = {{0, 1}, {18446744073709551615ULL, 2}, {5, 5}};
    {
        flashxxl::text_edge_writer w(path, {"generated by a test", "Nodes: 6 Edges: 3"});
        for (const edge& e : edges)
            w(e);
        w.close();
        EXPECT_EQ(w.edges_written(), 3u);
    }
    std::ifstream in(path);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all, "# generated by a test\n# Nodes: 6 Edges: 3\n0\t1\n18446744073709551615\t2\n5\t5\n");
    EXPECT_EQ(read_all(path), edges);
}

} // namespace

// A "# Nodes: N" header before the first edge counts nodes that no edge names (isolated
// nodes at the top of the id range, the one node of a 1 x 1 grid); a smaller N, a header after
// the first edge, or one without a number changes nothing.
TEST(text_edge_reader, a_nodes_header_keeps_isolated_nodes_at_the_top) {
    flashxxl::testing::temp_dir dir;
    struct case_ {
        const char* text;
        flashxxl::node_id nodes;
    } cases[] = {
        {"# flashxxl gen random\n# Nodes: 10 Edges: 2\n0 1\n2 3\n", 10},
        {"# Nodes: 1 Edges: 0\n", 1},
        {"#Nodes:7\n0 1\n", 7},
        {"# Nodes: 2 Edges: 2\n0 1\n4 5\n", 6}, // ids beyond the header (SNAP files have them)
        {"0 1\n# Nodes: 10\n", 2},              // after the first edge: a comment
        {"# Nodes: many\n0 1\n", 2},
        {"# Nodes: 99999999999999999999999\n0 1\n", 2}, // does not fit: a comment
        {"# Nodes: 12abc\n0 1\n", 2},
    };
    for (const case_& c : cases) {
        const std::string path = dir.file("g.txt");
        write_file(path, c.text);
        flashxxl::text_edge_reader reader(path);
        edge e;
        while (reader.next(e)) {
        }
        EXPECT_EQ(reader.node_count(), c.nodes) << c.text;
    }
}
