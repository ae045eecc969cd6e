// build_csr for the CLI's graph sources, compiled once (see cli_graph_algorithms.hpp).
#include "cli_graph_algorithms.hpp"

namespace flashxxl {
template std::unique_ptr<csr_graph> build_csr<any_edge_source>(machine&, std::uint64_t, const block_sizes&,
                                                               any_edge_source&, std::uint64_t);
} // namespace flashxxl
