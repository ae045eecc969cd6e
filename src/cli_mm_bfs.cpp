// mm_bfs for the CLI's visitor, compiled once (see cli_graph_algorithms.hpp).
#include "cli_graph_algorithms.hpp"

namespace flashxxl {
template bfs_result mm_bfs<cli::cli_bfs_visitor, void>(machine&, csr_graph&, const memory_budget&,
                                                       const block_sizes&, std::uint64_t,
                                                       cli::cli_bfs_visitor&, const mm_bfs_options&);
} // namespace flashxxl
