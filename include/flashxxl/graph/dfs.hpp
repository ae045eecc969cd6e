// External DFS: the textbook non-recursive algorithm of seeds/001 Section 4 (visited marks + a stack).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/io/usable_memory.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Where DFS keeps its visited marks (the two variants seeds/001 Section 4 ran).
enum class dfs_marks {
    separate,  //!< one byte per node in a vector of its own (small: it mostly stays cached)
    with_nodes //!< a flag in a per-node record that also holds the adjacency range (24 bytes per
               //!< node: the marks scattered over a larger range of external memory)
};

inline const char* to_string(dfs_marks m) { return m == dfs_marks::separate ? "separate" : "with_nodes"; }

inline dfs_marks parse_dfs_marks(const std::string& s) {
    if (s == "separate") return dfs_marks::separate;
    if (s == "with_nodes") return dfs_marks::with_nodes;
    throw config_error("dfs marks '" + s + "' (expected separate or with_nodes)");
}

//! Parameters of dfs.
struct dfs_options {
    dfs_marks marks = dfs_marks::separate;
    bool whole_graph = true; //!< after the source's tree, start new trees at unvisited nodes 0, 1, ...
    //! 0: the marks' page cache gets all of M left after the stack and the translation layers.
    //! In (0, 1]: it holds at most this share of the marks' structure (|V| bytes separate,
    //! 24 |V| bytes with_nodes), seeds/001 Section 4's "cache at most half of an external memory
    //! data structure" at 0.5. config_error when one Bw group and two Br pages (the vector's
    //! minimum) exceed that share: the paper's "comparable experiments with block size Bw are
    //! not possible in these settings".
    double cache_share = 0;
};

//! Bytes of the structure holding the marks of `nodes` nodes (what cache_share is a share of).
inline std::uint64_t dfs_marks_bytes(dfs_marks marks, std::uint64_t nodes) {
    return nodes * (marks == dfs_marks::separate ? 1 : 24);
}

//! The visitor protocol of dfs, modelled on Boost.Graph's DFSVisitor: start_vertex(root) for
//! each tree, discover_vertex(v, time), tree_edge(parent, v) (before v's discovery),
//! finish_vertex(v, time). Times count discoveries and finishes together from 0 (each node gets
//! two distinct times). Derive and hide what you need.
struct dfs_visitor {
    void start_vertex(node_id /*root*/) {}
    void tree_edge(node_id /*parent*/, node_id /*v*/) {}
    void discover_vertex(node_id /*v*/, std::uint64_t /*time*/) {}
    void finish_vertex(node_id /*v*/, std::uint64_t /*time*/) {}
};

//! What dfs did.
struct dfs_result {
    std::uint64_t visited = 0; //!< nodes discovered
    std::uint64_t trees = 0;   //!< roots started
    std::uint64_t max_stack = 0;
    std::uint64_t marks_cache = 0; //!< bytes of M the marks' page cache got
    std::uint64_t tl_memory = 0;   //!< bytes of M the machine's translation layers hold
    //! The most bytes dfs held at once within M, as its buffers' memory_accounts measured them,
    //! plus tl_memory: the marks' vector's peak plus the larger of the stack's peak and the
    //! peak of the stream writer that fills the marks' structure before the stack exists (the
    //! two never coexist). A sum of peaks, so it bounds the peak of the sum; at most M
    //! (test_dfs_memory checks it, and the heap dfs allocates). The graph's caches are not in
    //! it (they come on top of M), nor is bookkeeping of O(1) plus O(1) per extent held.
    std::uint64_t peak_memory = 0;
    std::vector<phase_stats> phases; //!< "dfs"
};

namespace detail {
//! A stack frame: node v, its next unexplored arc and the end of its list.
struct dfs_frame {
    bfs_node v;
    std::uint64_t next;
    std::uint64_t end;
};
//! A node record of the with_nodes variant.
struct dfs_node_record {
    std::uint64_t begin;
    std::uint64_t end;
    std::uint64_t visited;
};
} // namespace detail

static_assert(sizeof(detail::dfs_node_record) == 24, "dfs_marks_bytes assumes 24-byte node records");

//! Memory dfs needs at least with block sizes `b` (besides the graph's page caches and the
//! machine's translation layers, translation_layer_memory(), which dfs also charges to M).
inline std::uint64_t dfs_min_memory(const block_sizes& b) {
    return stack<detail::dfs_frame>::min_memory(b) +
           std::max(vector<detail::dfs_node_record>::min_memory(b), vector<std::uint8_t>::min_memory(b));
}

//! Bytes of M that the marks' page cache gets: what is left after the stack and the
//! translation layers, capped at cache_share of the structure when that is set. Throws
//! config_error (naming the sizes) when the cap is below the vector's minimum.
inline std::uint64_t dfs_marks_cache(std::uint64_t memory, const block_sizes& b, std::uint64_t nodes,
                                     const dfs_options& opts, std::uint64_t tl_memory = 0) {
    const std::uint64_t left = memory - std::min(memory, stack<detail::dfs_frame>::min_memory(b) + tl_memory);
    if (opts.cache_share == 0) return left;
    std::ostringstream share;
    share << opts.cache_share;
    if (!(opts.cache_share > 0 && opts.cache_share <= 1))
        throw config_error("dfs: cache share " + share.str() + " (expected 0 or a number in (0, 1])");
    const std::uint64_t cap = std::uint64_t(opts.cache_share * double(dfs_marks_bytes(opts.marks, nodes)));
    const std::uint64_t need = opts.marks == dfs_marks::separate
                                   ? vector<std::uint8_t>::min_memory(b)
                                   : vector<detail::dfs_node_record>::min_memory(b);
    if (cap < need)
        throw config_error(
            "dfs: a cache of " + share.str() + " of the marks' structure (" + format_bytes(double(cap)) +
            " of " + format_bytes(double(dfs_marks_bytes(opts.marks, nodes))) + ") is below the " +
            format_bytes(double(need)) + " that " + b.describe() +
            " need (one Bw group and two Br pages): choose a larger share, smaller blocks or a larger "
            "graph (seeds/001's run with block size Bw and half caches was impossible the same way)");
    return std::min(left, cap);
}

namespace detail {
//! dfs without its failure context (dfs() adds it).
template <class Visitor>
dfs_result dfs_run(machine& m, csr_graph& g, const memory_budget& budget, const block_sizes& b,
                   std::uint64_t source, Visitor& vis, const dfs_options& opts) {
    using frame_stack = stack<detail::dfs_frame>;
    using mark_vector = vector<std::uint8_t>;
    using node_vector = vector<detail::dfs_node_record>;
    b.validate();
    if (&g.get_machine() != &m) throw config_error("dfs: the graph lives on another machine");
    const std::uint64_t n = g.node_count();
    if (source >= n)
        throw config_error("dfs: source " + std::to_string(source) +
                           " is not a node (|V| = " + std::to_string(n) + ")");
    // M as the whole run sees it: a budget net of the machine's overhead (usable_memory) gets it
    // back here, so that dfs takes it off once either way.
    const std::uint64_t tl_memory =
        budget.machine_overhead_deducted() ? budget.machine_overhead() : translation_layer_memory(m);
    const std::uint64_t memory = budget.bytes() + (budget.machine_overhead_deducted() ? tl_memory : 0);
    if (memory < dfs_min_memory(b) + tl_memory)
        throw config_error(
            "dfs: memory budget " + format_bytes(double(memory)) + " is below the minimum " +
            format_bytes(double(dfs_min_memory(b) + tl_memory)) + " for " + b.describe() +
            (tl_memory ? " and the translation layers' " + format_bytes(double(tl_memory)) : ""));
    dfs_result res;
    const std::uint64_t marks_memory = dfs_marks_cache(memory, b, n, opts, tl_memory);
    res.marks_cache = marks_memory;
    res.tl_memory = tl_memory;
    std::unique_ptr<mark_vector> marks;
    std::unique_ptr<node_vector> nodes;
    // The stream writer that fills the marks' structure (gone before the stack comes).
    memory_account filler(budget.account());
    if (opts.marks == dfs_marks::separate) {
        marks = std::make_unique<mark_vector>(m, budget.part(marks_memory), b, role::hot);
        mark_vector::stream_writer w(*marks, &filler); // resize(n, 0)'s fast path, counted
        for (std::uint64_t v = 0; v < n; ++v)
            w.push(0);
        w.finish();
    } else {
        nodes = std::make_unique<node_vector>(m, budget.part(marks_memory), b, role::hot);
        node_vector::stream_writer w(*nodes, &filler);
        // The offsets come in order through the graph's page cache (each Br page read once),
        // which is on top of M: a stream_reader of them would hold 2 Br of the graph's sizes
        // beside the writer's 2 Bw, past M when the graph's Br is larger than b's.
        csr_graph::offset_vector& offsets = g.offsets();
        std::uint64_t prev = offsets.get(0);
        for (std::uint64_t v = 0; v < n; ++v) {
            const std::uint64_t next = offsets.get(v + 1);
            w.push(detail::dfs_node_record{prev, next, 0});
            prev = next;
        }
        w.finish();
    }
    // What the writer and the marks' structure held while it was filled.
    const auto marks_peak = [&] { return marks ? marks->account().peak() : nodes->account().peak(); };
    const std::uint64_t fill_peak = filler.peak() + marks_peak();
    phase_meter meter(m, "dfs");
    frame_stack st(m, budget.part(frame_stack::min_memory(b)), b, role::hot);
    std::uint64_t time = 0;
    // Marks v visited and returns its list range.
    auto visit = [&](std::uint64_t v) -> std::pair<std::uint64_t, std::uint64_t> {
        if (marks) {
            marks->set(v, 1);
            return g.range(v);
        }
        detail::dfs_node_record r = nodes->get(v);
        r.visited = 1;
        nodes->set(v, r);
        return {r.begin, r.end};
    };
    auto visited = [&](std::uint64_t v) -> bool {
        return marks ? marks->get(v) != 0 : nodes->get(v).visited != 0;
    };
    auto run_tree = [&](std::uint64_t root) {
        ++res.trees;
        vis.start_vertex(root);
        auto [first, last] = visit(root);
        vis.discover_vertex(root, time++);
        ++res.visited;
        st.push(detail::dfs_frame{bfs_node(root), first, last});
        while (!st.empty()) {
            res.max_stack = std::max(res.max_stack, st.size());
            detail::dfs_frame f = st.top();
            std::uint64_t w = 0;
            bool found = false;
            for (; f.next < f.end; ++f.next) {
                w = g.targets().get(f.next);
                if (!visited(w)) {
                    found = true;
                    break;
                }
            }
            st.pop();
            if (!found) {
                vis.finish_vertex(f.v, time++);
                continue;
            }
            ++f.next;
            st.push(f);
            vis.tree_edge(f.v, w);
            auto [wb, we] = visit(w);
            vis.discover_vertex(w, time++);
            ++res.visited;
            st.push(detail::dfs_frame{bfs_node(w), wb, we});
        }
    };
    run_tree(source);
    if (opts.whole_graph)
        for (std::uint64_t v = 0; v < n; ++v)
            if (!visited(v)) run_tree(v);
    if (marks) marks->flush();
    if (nodes) nodes->flush();
    res.peak_memory = tl_memory + std::max(fill_peak, st.account().peak() + marks_peak());
    res.phases.push_back(meter.finish());
    return res;
}
} // namespace detail

//! Non-recursive DFS (seeds/001 Section 4): from the node on top of the stack, follow its first
//! unvisited neighbour; pop it when it has none. Adjacency lists come from the CSR graph's page
//! caches (random Br reads), marks from a vector (role hot) whose dirty pages are written back
//! one Bw group at a time: the model's O(|E| Br + |V| Bw) cost. The stack (role hot) keeps 2 Bw
//! in memory. `memory` covers the stack, the marks' page cache (both with block sizes `b`;
//! config_error for an invalid pair) and the memory of the machine's translation layers
//! (translation_layer_memory(m): their segment buffers and maps; a budget already net of them,
//! usable_memory(m, M), is not charged them again); the graph's caches come on
//! top, with the graph's own sizes. options.cache_share caps the marks' cache. Starts at
//! `source`; with options.whole_graph it then covers every other component.
//!
//! Before the stack exists, a stream writer (2 Bw) fills the marks' structure (zeros, or the
//! with_nodes records, whose list ranges come through the graph's offsets page cache), while
//! the marks' cache holds nothing yet; M >= dfs_min_memory covers either phase. The stack and
//! the vector own their memory_accounts, so the result reports what they held
//! (dfs_result::peak_memory) rather than charging a caller's account as mm_bfs does.
//!
//! Failures: a structure that finds no room throws out_of_space naming the device, the role
//! and the structure ("... in flashxxl::dfs"); that, and any other failure, ends the search: no
//! result comes back, the visitor has seen a prefix of the traversal (nodes discovered but not
//! finished among it), and every extent dfs took is given back.
template <class Visitor,
          class = std::enable_if_t<!std::is_same<std::remove_cv_t<Visitor>, dfs_options>::value>>
dfs_result dfs(machine& m, csr_graph& g, const memory_budget& memory, const block_sizes& b,
               std::uint64_t source, Visitor& vis, const dfs_options& opts = {}) {
    return rethrow_out_of_space_in("flashxxl::dfs",
                                   [&] { return detail::dfs_run(m, g, memory, b, source, vis, opts); });
}

//! dfs without a visitor.
inline dfs_result dfs(machine& m, csr_graph& g, const memory_budget& memory, const block_sizes& b,
                      std::uint64_t source, const dfs_options& opts = {}) {
    dfs_visitor vis;
    return dfs(m, g, memory, b, source, vis, opts);
}

} // namespace flashxxl
