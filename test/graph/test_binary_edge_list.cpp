// Tests of the binary edge list (FXEDGES1): writer, reader, every malformed case, text round trip.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/binary_edge_reader.hpp"
#include "flashxxl/graph/binary_edge_writer.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/graph/text_edge_reader.hpp"
#include "flashxxl/graph/text_edge_writer.hpp"
#include "support/temp_dir.hpp"

namespace {

using flashxxl::edge;

std::vector<edge> sample_edges() {
    std::vector<edge> edges;
    for (std::uint64_t i = 0; i < 50000; ++i)
        edges.push_back({i * 31 % 70001, (i * 7 + 3) % 70001});
    edges.push_back({4, 4});
    return edges;
}

std::vector<edge> read_binary(const std::string& path, std::size_t buffer = std::size_t(1) << 20) {
    flashxxl::binary_edge_reader r(path, buffer);
    std::vector<edge> out;
    edge e;
    while (r.next(e))
        out.push_back(e);
    return out;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

TEST(binary_edge_list, round_trips_with_8_and_4_byte_ids) {
    flashxxl::testing::temp_dir dir;
    const auto edges = sample_edges();
    for (std::uint32_t width : {8u, 4u}) {
        const std::string path = dir.file("g" + std::to_string(width) + ".bin");
        flashxxl::binary_edge_writer w(path, width);
        for (const edge& e : edges)
            w(e);
        w.close();
        EXPECT_EQ(std::filesystem::file_size(path), 32 + edges.size() * 2 * width);
        EXPECT_EQ(w.file_bytes(), std::filesystem::file_size(path));
        flashxxl::binary_edge_reader r(path);
        EXPECT_EQ(r.node_count(), 70001u); // max id + 1
        EXPECT_EQ(r.edge_count(), edges.size());
        EXPECT_EQ(r.id_width(), width);
        EXPECT_EQ(read_binary(path), edges);
        EXPECT_EQ(read_binary(path, 24), edges); // buffer of a few records: many refills
    }
}

TEST(binary_edge_list, header_bytes_are_little_endian_as_documented) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("h.bin");
    {
        flashxxl::binary_edge_writer w(path, 4, 0x01020305);
        w({0x01020304, 7});
    }
    const std::string b = slurp(path);
    ASSERT_EQ(b.size(), 40u);
    EXPECT_EQ(b.substr(0, 8), "FXEDGES1");
    EXPECT_EQ(b.substr(8, 4), std::string("\x01\0\0\0", 4));                // version
    EXPECT_EQ(b.substr(12, 4), std::string("\x04\0\0\0", 4));               // id width
    EXPECT_EQ(b.substr(16, 8), std::string("\x05\x03\x02\x01\0\0\0\0", 8)); // node count
    EXPECT_EQ(b.substr(24, 8), std::string("\x01\0\0\0\0\0\0\0", 8));       // 1 edge
    EXPECT_EQ(b.substr(32, 8), std::string("\x04\x03\x02\x01\x07\0\0\0", 8));
}

TEST(binary_edge_list, empty_list_is_valid) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("e.bin");
    { flashxxl::binary_edge_writer w(path, 8, 5); }
    flashxxl::binary_edge_reader r(path);
    edge e;
    EXPECT_FALSE(r.next(e));
    EXPECT_EQ(r.node_count(), 5u);
}

TEST(binary_edge_writer, rejects_ids_that_do_not_fit) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("w.bin");
    flashxxl::binary_edge_writer bounded(path, 8, 10);
    EXPECT_THROW(bounded({3, 10}), flashxxl::invalid_request);
    flashxxl::binary_edge_writer narrow(dir.file("n.bin"), 4);
    narrow({0, 4294967295ULL});
    EXPECT_THROW(narrow({4294967296ULL, 0}), flashxxl::invalid_request);
    EXPECT_THROW(flashxxl::binary_edge_writer(dir.file("x.bin"), 3), flashxxl::invalid_request);
    EXPECT_THROW(flashxxl::binary_edge_writer(dir.file("y.bin"), 4, (std::uint64_t(1) << 32) + 1),
                 flashxxl::invalid_request);
}

// A valid 3-edge file with 8-byte ids and 10 nodes.
std::string valid_file(const std::string& path) {
    {
        flashxxl::binary_edge_writer w(path, 8, 10);
        w({0, 1});
        w({1, 2});
        w({2, 9});
    }
    return slurp(path);
}

void expect_error(const std::string& path, std::uint64_t offset, const std::string& fragment,
                  bool read_edges = false) {
    try {
        flashxxl::binary_edge_reader r(path);
        if (read_edges) {
            edge e;
            while (r.next(e)) {
            }
        }
        ADD_FAILURE() << "no error, expected '" << fragment << "'";
    } catch (const flashxxl::input_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path + ": byte offset " + std::to_string(offset) + ": "), std::string::npos)
            << what;
        EXPECT_NE(what.find(fragment), std::string::npos) << what;
    }
}

TEST(binary_edge_reader, malformed_files_name_file_and_byte_offset) {
    flashxxl::testing::temp_dir dir;
    const std::string path = dir.file("bad.bin");
    const std::string good = valid_file(path);
    ASSERT_EQ(good.size(), 32u + 3 * 16);

    std::string b = good;
    b[3] = 'X';
    spit(path, b);
    expect_error(path, 0, "bad magic \"FXEXGES1\", expected \"FXEDGES1\"");

    spit(path, "abc");
    expect_error(path, 0, "truncated header");

    spit(path, good.substr(0, 20));
    expect_error(path, 20, "truncated header: the file has 20 bytes, the header needs 32");

    b = good;
    b[8] = 2;
    spit(path, b);
    expect_error(path, 8, "unsupported version 2, expected 1");

    b = good;
    b[12] = 5;
    spit(path, b);
    expect_error(path, 12, "id width 5, expected 4 or 8");

    spit(path, good.substr(0, good.size() - 3)); // last edge cut short
    expect_error(path, 32 + 2 * 16, "truncated file: the header promises 3 edges");

    spit(path, good.substr(0, 32)); // header only
    expect_error(path, 32, "truncated file");

    spit(path, good + std::string(16, '\0')); // one edge more than the header says
    expect_error(path, 32 + 3 * 16, "edge count mismatch: the header says 3 edges");

    b = good;
    b[16] = 5; // node count 5, but edge 2 has v = 9
    spit(path, b);
    expect_error(path, 32 + 2 * 16 + 8, "node id 9 of edge 2 is out of range: the header's node count is 5",
                 true);
}

TEST(binary_edge_reader, missing_file_is_an_io_failure) {
    EXPECT_THROW(flashxxl::binary_edge_reader("/nonexistent-dir/g.bin"), flashxxl::io_failure);
}

TEST(edge_lists, text_to_binary_to_text_round_trip_is_exact) {
    flashxxl::testing::temp_dir dir;
    const auto edges = sample_edges();
    const std::string text1 = dir.file("a.txt"), bin = dir.file("a.bin"), text2 = dir.file("b.txt");
    {
        flashxxl::text_edge_writer w(text1);
        for (const edge& e : edges)
            w(e);
    }
    {
        flashxxl::binary_edge_writer w(bin, 4);
        auto s = flashxxl::read_text_edges(text1, w);
        EXPECT_EQ(s.edges, edges.size());
        EXPECT_EQ(s.self_loops, 1u);
    }
    {
        flashxxl::text_edge_writer w(text2);
        auto s = flashxxl::read_binary_edges(bin, w);
        EXPECT_EQ(s.nodes, 70001u);
    }
    EXPECT_EQ(slurp(text1), slurp(text2));
    flashxxl::text_edge_reader r(text2);
    std::vector<edge> back;
    edge e;
    while (r.next(e))
        back.push_back(e);
    EXPECT_EQ(back, edges);
}

} // namespace

// A binary file with a damaged magic is recognised by its content (NUL or control bytes) and
// reported at byte offset 0, not handed to the text parser ("expected a node id ...").
TEST(graph_source, binary_with_bad_magic_says_byte_offset_0_bad_magic) {
    flashxxl::testing::temp_dir dir;
    const std::string damaged = dir / "damaged.bin", png = dir / "image.png", text = dir / "g.txt";
    {
        std::ofstream f(damaged, std::ios::binary);
        const char head[] = "FXEDGES2\x01\0\0\0\x04\0\0\0";
        f.write(head, sizeof head - 1);
        f.write(std::string(16, '\0').data(), 16);
        std::ofstream g(png, std::ios::binary);
        const char magic[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        g.write(magic, sizeof magic - 1);
        std::ofstream t(text);
        t << "# caf\xc3\xa9: UTF-8 in a comment is still text\n0 1\n";
    }
    for (const std::string& path : {damaged, png}) {
        try {
            flashxxl::open_graph_source(path);
            ADD_FAILURE() << path << " was accepted";
        } catch (const flashxxl::input_error& e) {
            EXPECT_NE(std::string(e.what()).find(path + ": byte offset 0: bad magic"), std::string::npos)
                << e.what();
        }
    }
    {
        // A text edge list with a stray NUL: the message says both why it is not binary and
        // which byte keeps it from being text.
        std::string nul = dir / "nul.txt";
        std::ofstream(nul, std::ios::binary).write("# nodes 4\n0 1\n1 2\0\n", 19);
        try {
            flashxxl::open_graph_source(nul);
            ADD_FAILURE() << "a file with a NUL byte was accepted";
        } catch (const flashxxl::input_error& e) {
            std::string what = e.what();
            EXPECT_NE(what.find(nul + ": byte offset 0: bad magic \"# nodes "), std::string::npos) << what;
            EXPECT_NE(what.find("nor is it a text edge list: byte offset 17 holds 0x00"), std::string::npos)
                << what;
        }
    }
    auto source = flashxxl::open_graph_source(text);
    edge e;
    ASSERT_TRUE(source->next(e));
    EXPECT_EQ(e.v, 1u);
    EXPECT_EQ(source->position(), text + ":2");
}
