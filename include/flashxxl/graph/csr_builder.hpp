// Builds a csr_graph from an edge source by external sorting: symmetrize, drop self-loops and duplicates.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/edge_source.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Memory build_csr needs at least with block sizes `b`: the sorter's minimum plus the two
//! Bw-double-buffered vector writers.
inline std::uint64_t csr_build_min_memory(const block_sizes& b) {
    return sorter<bfs_arc, arc_by_tail>::min_memory(b) +
           2 * csr_graph::target_vector::stream_writer::memory_usage(b);
}

//! Reads every edge of `source` (an edge source, edge_source.hpp), pushes both arcs (u, v) and
//! (v, u) of each non-loop edge into an external sorter (role `stream`: the graph is being
//! loaded), and writes the sorted arcs without repeats as a csr_graph whose vectors have role
//! `static_data`. Self-loops and duplicate arcs are counted in build_stats(). Node ids must be
//! below source.node_count() (read after the last edge) and that count below 2^32 - 1.
//!
//! Block sizes `b` (config_error for an invalid pair) serve the sorter and the graph's vectors.
//! Memory: at most `memory` bytes of buffers (sorter + two Bw-double-buffered writers); the
//! graph's page caches get `cache_memory` each (0: memory / 8), used only by random access later.
template <class Source>
std::unique_ptr<csr_graph> build_csr(machine& m, std::uint64_t memory, const block_sizes& b, Source& source,
                                     std::uint64_t cache_memory = 0) {
    using sorter_type = sorter<bfs_arc, arc_by_tail>;
    b.validate();
    const std::uint64_t writers = 2 * csr_graph::target_vector::stream_writer::memory_usage(b);
    if (memory < csr_build_min_memory(b))
        throw config_error("build_csr: memory budget " + format_bytes(double(memory)) +
                           " is below the minimum " + format_bytes(double(csr_build_min_memory(b))) +
                           " (an arc sorter and two Bw-double-buffered writers) for " + b.describe());
    // Before anything of ours is on the devices: what the graph's vectors could ever get. One
    // offset per node, whatever the number of arcs: a list with one id of 4 * 10^9 needs a 32 GB
    // offset array, so it is refused at that edge, not after filling the devices (or the host's
    // memory, for memory-backed devices) for a minute.
    const std::uint64_t room = m.room_for(role::static_data);
    auto offsets_beyond = [&](std::uint64_t nodes) {
        return "needs a CSR offset array of at least " +
               format_bytes(double((nodes + 1) * sizeof(std::uint64_t))) + ", more than the " +
               format_bytes(double(room)) + " that machine '" + m.name() +
               "' can hold for role static_data (" + m.describe_placement() +
               "); node ids are array indices, so renumber the nodes densely (0 .. |V| - 1)";
    };
    csr_build_stats st;
    sorter_type arcs(m, memory - writers, b, arc_by_tail(), role::stream);
    edge e;
    node_id max_id = 0;
    while (source.next(e)) {
        ++st.input_edges;
        // "g.txt:3: edge 2 (1, 4294967295)": where the edge just read stands, for refusals.
        auto this_edge = [&] {
            const std::string at = edge_position(source);
            return (at.empty() ? "build_csr" : at) + ": edge " + std::to_string(st.input_edges) + " (" +
                   std::to_string(e.u) + ", " + std::to_string(e.v) + ")";
        };
        // 32-bit BFS records hold at most 2^32 - 2 nodes (2^32 - 1 marks "no node"): ids up to
        // 2^32 - 3, refused at the edge that has one, not once the whole list has been read.
        if (e.u >= no_bfs_node - 1 || e.v >= no_bfs_node - 1)
            throw input_error(this_edge() +
                              " has an id >= 2^32 - 2 = 4294967294; 32-bit BFS records hold at most "
                              "2^32 - 2 nodes (ids 0 to 4294967293)");
        if (e.max_endpoint() > max_id) {
            max_id = e.max_endpoint();
            if ((max_id + 2) * sizeof(std::uint64_t) > room) // the offset array of nodes 0 .. max_id
                throw input_error(this_edge() + " " + offsets_beyond(max_id + 1));
        }
        if (e.u == e.v) {
            ++st.self_loops;
            continue;
        }
        arcs.push(bfs_arc{bfs_node(e.u), bfs_node(e.v)});
        arcs.push(bfs_arc{bfs_node(e.v), bfs_node(e.u)});
    }
    st.nodes = source.node_count();
    // "g.txt: no edges: the file is empty", "g.bin: byte offset 16: the header declares N nodes":
    // a file names itself; a generator says nothing.
    const std::string origin = node_count_origin(source);
    if (st.nodes == 0 && !origin.empty()) throw input_error(origin + " (expected at least one edge)");
    if (st.input_edges > 0 && max_id >= st.nodes)
        throw input_error("build_csr: node id " + std::to_string(max_id) + " is not below the node count " +
                          std::to_string(st.nodes));
    if (st.nodes >= no_bfs_node)
        throw input_error((origin.empty() ? "build_csr: " + std::to_string(st.nodes) + " nodes" : origin) +
                          "; 32-bit BFS records hold at most 2^32 - 2 nodes");
    if ((st.nodes + 1) * sizeof(std::uint64_t) > room)
        throw input_error("build_csr: a node count of " + std::to_string(st.nodes) + " " +
                          offsets_beyond(st.nodes));
    arcs.sort();
    auto g = std::make_unique<csr_graph>(m, cache_memory ? cache_memory : memory / 8, b);
    {
        csr_graph::target_vector::stream_writer targets(g->targets());
        csr_graph::offset_vector::stream_writer offsets(g->offsets());
        std::uint64_t next_node = 0; // offsets written for nodes < next_node
        bool have_last = false;
        bfs_arc last{};
        for (; !arcs.empty(); ++arcs) {
            const bfs_arc a = *arcs;
            if (have_last && a.v == last.v && a.w == last.w) {
                ++st.duplicate_arcs;
                continue;
            }
            while (next_node <= a.v) {
                offsets.push(st.arcs);
                ++next_node;
            }
            targets.push(a.w);
            ++st.arcs;
            last = a;
            have_last = true;
        }
        while (next_node <= st.nodes) {
            offsets.push(st.arcs);
            ++next_node;
        }
        targets.finish();
        offsets.finish();
    }
    st.passes = arcs.passes();
    g->set_build_stats(st);
    return g;
}

} // namespace flashxxl
