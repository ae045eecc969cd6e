// The CLI's one BFS visitor type, and the graph algorithms instantiated for it once each, in their own
// translation units.
#pragma once

#include <cstdint>
#include <memory>

#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/csr_builder.hpp"
#include "flashxxl/graph/graph_source.hpp"
#include "flashxxl/graph/mm_bfs.hpp"
#include "flashxxl/graph/mr_bfs.hpp"

namespace flashxxl::cli {

//! The visitor `flashxxl bfs` and `flashxxl placement` hand to the algorithms: its hooks are
//! virtual, so mm_bfs, mr_bfs and build_csr are instantiated once for the whole CLI, each in a
//! translation unit of its own (cli_mm_bfs.cpp, cli_mr_bfs.cpp, cli_csr.cpp). Together in one
//! unit they needed 1.85 GB of compiler memory; one virtual call per node costs nothing next
//! to the I/O.
struct cli_bfs_visitor : bfs_visitor {
    virtual ~cli_bfs_visitor() = default;
    virtual void discover_vertex(node_id v, std::uint64_t level, node_id parent) {
        (void)v, (void)level, (void)parent;
    }
    virtual void finish_level(std::uint64_t level, std::uint64_t nodes) { (void)level, (void)nodes; }
};

} // namespace flashxxl::cli

namespace flashxxl {
extern template bfs_result mm_bfs<cli::cli_bfs_visitor, void>(machine&, csr_graph&, const memory_budget&,
                                                              const block_sizes&, std::uint64_t,
                                                              cli::cli_bfs_visitor&, const mm_bfs_options&);
extern template bfs_result mr_bfs<cli::cli_bfs_visitor, void>(machine&, csr_graph&, const memory_budget&,
                                                              const block_sizes&, std::uint64_t,
                                                              cli::cli_bfs_visitor&, const mr_bfs_options&);
extern template std::unique_ptr<csr_graph>
build_csr<any_edge_source>(machine&, std::uint64_t, const block_sizes&, any_edge_source&, std::uint64_t);
} // namespace flashxxl
