// Munagala-Ranade external BFS: per level, the frontier's adjacency lists by random fetches or one scan of
// the graph (the baseline).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/device_model.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_levels.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/graph/bfs_result.hpp"
#include "flashxxl/graph/bfs_visitor.hpp"
#include "flashxxl/graph/csr_graph.hpp"
#include "flashxxl/graph/sorted_subtraction.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/usable_memory.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! How mr_bfs reads the adjacency lists of a level's frontier L(t-1) (shared/BFS.md, MR_BFS
//! step 1).
enum class mr_adjacency {
    automatic, //!< per level, whichever of the two mr_adjacency_planner prices lower
    random,    //!< fetch each frontier node's list through the graph's Br page caches
    scan, //!< one sequential scan of the graph's offsets and targets (from the frontier's first list to its
          //!< last), merged with L(t-1)
};

//! "automatic", "random" or "scan".
inline const char* to_string(mr_adjacency a) {
    return a == mr_adjacency::random ? "random" : a == mr_adjacency::scan ? "scan" : "automatic";
}

//! Parses "automatic", "random" or "scan"; config_error naming `option` (e.g. "--mr-adjacency")
//! and the expected values otherwise.
inline mr_adjacency parse_mr_adjacency(const std::string& text,
                                       const std::string& option = "mr_bfs: adjacency") {
    if (text == "automatic") return mr_adjacency::automatic;
    if (text == "random") return mr_adjacency::random;
    if (text == "scan") return mr_adjacency::scan;
    throw config_error(option + " '" + text + "' is unknown (expected automatic, random or scan)");
}

//! Parameters of mr_bfs.
struct mr_bfs_options {
    //! How each level's adjacency lists are read (automatic: per level, the cheaper way by
    //! mr_adjacency_planner's estimate).
    mr_adjacency adjacency = mr_adjacency::automatic;
    //! When set, every buffer mr_bfs allocates (the neighbour sorter, the level readers and
    //! writers, the scan's chunk readers) is charged here, so a test can compare its peak with
    //! M. The graph's page caches belong to the graph, not to mr_bfs.
    memory_account* account = nullptr;
};

//! Br pages a scan chunk of mr_bfs holds per vector of a graph with block sizes `graph_blocks`
//! when `stream_memory` bytes are free for the scan (the subtraction's streams, idle while a
//! level's lists are read): Bw / Br of the graph (one write block), less if the two chunks
//! (offsets and targets) do not fit; 0 when not even one page each does.
inline std::uint64_t mr_scan_chunk_pages(const block_sizes& graph_blocks, std::uint64_t stream_memory) {
    return std::min(graph_blocks.reads_per_write(), stream_memory / (2 * graph_blocks.br));
}

//! Memory mr_bfs needs at least with block sizes `b` for its own streams and a graph with
//! block sizes `graph_blocks`, besides the graph's page caches: the neighbour
//! sorter's minimum, a reader of L(t-1), and the larger of what the subtraction's streams
//! (two level readers and a level writer) and the scan's chunk readers (one Br page of each
//! vector at least) need: the two never live at once.
inline std::uint64_t mr_bfs_min_memory(const block_sizes& b, const block_sizes& graph_blocks) {
    const std::uint64_t scan_min = 2 * graph_blocks.br;
    return sorter<level_record, level_by_node>::min_memory(b) +
           std::max(next_level_stream_memory(b), scan_min) + level_list::stream_reader::memory_usage(b, 1);
}
//! The same for a graph with the block sizes `b`. (Two overloads rather than a defaulted
//! std::optional, whose inlined empty temporary GCC 12 at -O1 took for uninitialised.)
inline std::uint64_t mr_bfs_min_memory(const block_sizes& b) { return mr_bfs_min_memory(b, b); }

//! What one level's frontier L(t-1) looks like to mr_adjacency_planner: sorted node ids, so
//! its size, its first and last node and the distinct Br pages of the offsets vector its
//! nodes' offsets (v and v + 1) lie in are counted while it is written (frontier_tally).
struct mr_frontier {
    std::uint64_t nodes = 0;        //!< |L(t-1)|
    std::uint64_t first = 0;        //!< smallest node (nodes > 0)
    std::uint64_t last = 0;         //!< largest node (nodes > 0)
    std::uint64_t offset_pages = 0; //!< distinct offsets-vector pages of its nodes v and v + 1
};

//! Counts an mr_frontier from its nodes in increasing order (add()).
class frontier_tally {
public:
    //! `items_per_page`: offsets per Br page of the graph's offsets vector.
    explicit frontier_tally(std::uint64_t items_per_page) : per_page_(items_per_page) {}
    void add(std::uint64_t v) {
        if (f_.nodes++ == 0) f_.first = v;
        f_.last = v;
        for (std::uint64_t page : {v / per_page_, (v + 1) / per_page_}) {
            if (have_page_ && page == page_) continue;
            have_page_ = true;
            page_ = page;
            ++f_.offset_pages;
        }
    }
    const mr_frontier& frontier() const { return f_; }

private:
    std::uint64_t per_page_;
    mr_frontier f_;
    bool have_page_ = false;
    std::uint64_t page_ = 0;
};

//! Modelled seconds of one Br read of the graph: at a random place, and right after the
//! previous one (mr_read_costs_of).
struct mr_read_costs {
    double random = 1;     //!< one Br read somewhere else than where the last one ended
    double sequential = 1; //!< one Br read that continues the last one
    bool modelled = false; //!< from device models (false: from the device classes' unit rules)
};

//! Prices a Br read of the devices that blocks of role `r` go to (the graph's role: its
//! vectors' pages are spread over them). A device with a model is asked by a fresh copy of it
//! (device_model::clone_fresh, so the device's own state is untouched): one Br read at offset
//! 0, one right after it (sequential), then one `span` / 3 further on (random: the mean
//! distance of two random places in a graph of `span` bytes). Several devices: the mean of the
//! modelled ones. A machine without models falls back to the unit rules of the papers: on
//! flash every Br read costs the same wherever it lies (the unit-cost flash model of seeds/001,
//! Section 2: random = sequential = 1); on a disk a random read costs one I/O and a read that
//! continues a transfer none (the I/O model of Aggarwal and Vitter: random = 1, sequential = 0,
//! a chunk of consecutive reads costing one I/O).
inline mr_read_costs mr_read_costs_of(machine& m, role r, std::uint64_t br, std::uint64_t span) {
    const std::vector<std::size_t> devices = m.placement().devices_for(r, m.placement_view());
    mr_read_costs modelled{0, 0, true}, unit{0, 0, false};
    std::uint64_t with_model = 0, without = 0;
    for (std::size_t i : devices) {
        const device& d = m.dev(i);
        const device_model* model = d.model();
        if (!model || model->capacity() < 4 * br) {
            ++without;
            unit.random += 1;
            unit.sequential += d.klass() == device_class::flash ? 1 : 0;
            continue;
        }
        std::unique_ptr<device_model> probe = model->clone_fresh();
        probe->service(io_op::read, 0, br);
        const double seq = probe->service(io_op::read, br, br);
        std::uint64_t far = (2 * br + span / 3) / br * br;
        far = std::max(std::min(far, (model->capacity() - br) / br * br), 3 * br);
        const double rnd = probe->service(io_op::read, far, br);
        ++with_model;
        modelled.random += rnd;
        modelled.sequential += seq;
    }
    if (with_model > 0 && modelled.random > 0) {
        modelled.random /= double(with_model);
        modelled.sequential /= double(with_model);
        return modelled;
    }
    if (without == 0) return mr_read_costs{};
    unit.random /= double(without);
    unit.sequential /= double(without);
    return unit;
}

//! MR_BFS's per-level choice between fetching the frontier's lists at random and one scan of
//! the graph (shared/BFS.md, MR_BFS step 1: "take whichever is cheaper"), by an estimate in
//! Br reads priced with mr_read_costs (r = a random read, s = a sequential one):
//! - random: the offsets pages of L(t-1)'s nodes (counted exactly: mr_frontier::offset_pages)
//!   plus min(|L(t-1)| x (1 + d / B), the targets pages the frontier spans) targets pages (d =
//!   m / n, the mean list length; B = targets per Br page: a list starts anywhere in a page
//!   and covers 1 + d / B of them on average), each missing from the vector's page cache with
//!   probability 1 - min(1, frames / pages) (as if the cache held a random subset of the
//!   vector: a vector that fits in its cache costs nothing after its first reads), each miss
//!   one random read r;
//! - scan: the chunks of `chunk` consecutive Br pages (aligned, as detail::chunk_scan reads
//!   them) of both vectors from the frontier's first node's list to its last's (the offsets
//!   exactly, the targets in proportion to the node range), each chunk r + (pages - 1) x s: its
//!   reads are issued together, so on a disk only the first seeks.
//! The scan is taken when it is cheaper (a tie goes to random). On a disk r is a seek and half
//! a rotation, s a transfer, so a frontier that touches more than about one uncached page in
//! r / s of its span is scanned; on flash, where a random Br read costs what a sequential one
//! does, the fewer pages win: random fetches.
class mr_adjacency_planner {
public:
    //! The graph's shape, its page caches' sizes and the read costs; `chunk` pages per scan
    //! chunk (at least 1).
    mr_adjacency_planner(csr_graph& g, std::uint64_t chunk, const mr_read_costs& costs)
        : costs_(costs), chunk_(std::max<std::uint64_t>(chunk, 1)), nodes_(g.node_count()),
          arcs_(g.arc_count()), offsets_per_page_(g.offsets().items_per_page()),
          targets_per_page_(g.targets().items_per_page()),
          offset_miss_(miss_rate(g.offsets(), g.offsets().size())),
          target_miss_(miss_rate(g.targets(), arcs_)) {}

    //! Estimated cost of fetching `f`'s lists at random (in the costs' unit).
    double random_cost(const mr_frontier& f) const {
        if (f.nodes == 0) return 0;
        const double per_list = 1 + mean_degree() / double(targets_per_page_);
        const auto [first, last] = target_span(f);
        const double spanned = arcs_ ? double(last / targets_per_page_ - first / targets_per_page_ + 1) : 0.0;
        const double target_pages = std::min(double(f.nodes) * per_list, spanned);
        return (double(f.offset_pages) * offset_miss_ + target_pages * target_miss_) * costs_.random;
    }
    //! Estimated cost of one scan of the graph from `f`'s first node's list to its last's.
    double scan_cost(const mr_frontier& f) const {
        if (f.nodes == 0) return 0;
        const auto [first, last] = target_span(f);
        return chunks(f.first, f.last + 1, offsets_per_page_, nodes_ + 1) +
               (arcs_ ? chunks(first, last, targets_per_page_, arcs_) : 0.0);
    }
    //! Whether `f`'s lists are cheaper to read by one scan.
    bool prefer_scan(const mr_frontier& f) const { return scan_cost(f) < random_cost(f); }
    const mr_read_costs& costs() const { return costs_; }
    std::uint64_t chunk_pages() const { return chunk_; }

private:
    //! The share of a vector's pages its page cache cannot hold (frames as vector.hpp counts
    //! them: the budget less a Bw staging buffer and 4 KiB, per Br page and its frame_overhead).
    template <class V> static double miss_rate(const V& v, std::uint64_t items) {
        const block_sizes& b = v.blocks();
        const std::uint64_t frames = (v.memory() - b.bw - 4096) / (b.br + V::frame_overhead);
        const std::uint64_t pages = (items + v.items_per_page() - 1) / v.items_per_page();
        return pages == 0 ? 0.0 : 1.0 - std::min(1.0, double(frames) / double(pages));
    }
    double mean_degree() const { return nodes_ ? double(arcs_) / double(nodes_) : 0; }
    //! The targets [first, last] the lists of f.first to f.last hold, in proportion to the
    //! node range (arcs > 0).
    std::pair<std::uint64_t, std::uint64_t> target_span(const mr_frontier& f) const {
        if (arcs_ == 0) return {0, 0};
        const double d = mean_degree();
        const std::uint64_t first = std::min(arcs_ - 1, std::uint64_t(double(f.first) * d));
        const std::uint64_t last = std::min(arcs_ - 1, std::uint64_t(double(f.last + 1) * d));
        return {first, std::max(first, last)};
    }
    //! Cost of reading the aligned chunks that hold items [first, last] of a vector of `size`
    //! items, `per_page` to a page.
    double chunks(std::uint64_t first, std::uint64_t last, std::uint64_t per_page, std::uint64_t size) const {
        const std::uint64_t pages_total = (size + per_page - 1) / per_page;
        const std::uint64_t c0 = first / per_page / chunk_, c1 = last / per_page / chunk_;
        const std::uint64_t pages = std::min(pages_total, (c1 + 1) * chunk_) - c0 * chunk_;
        const std::uint64_t n = c1 - c0 + 1;
        return double(n) * costs_.random + double(pages - n) * costs_.sequential;
    }

    mr_read_costs costs_;
    std::uint64_t chunk_, nodes_, arcs_, offsets_per_page_, targets_per_page_;
    double offset_miss_, target_miss_;
};

namespace detail {

//! Reads a vector's items front to back in chunks of `pages` Br pages: one stream_reader per
//! chunk, whose reads are issued together when it opens, so that on a disk a chunk costs one
//! seek even while another chunk_scan alternates with it. Chunks are read through in order from
//! the first item asked for (never skipped: a scan). Memory: pages x Br of the vector, charged
//! to `account`.
template <class V> class chunk_scan {
public:
    using value_type = typename V::value_type;
    chunk_scan(V& v, std::uint64_t pages, memory_account* account)
        : v_(&v), pages_(pages), chunk_items_(pages * v.items_per_page()), account_(account) {}

    //! Item i (not before the item asked for last).
    value_type at(std::uint64_t i) {
        seek(i);
        return **reader_;
    }
    //! Calls f(item) for the items [first, last) (first not before the item asked for last).
    template <class F> void for_each(std::uint64_t first, std::uint64_t last, F&& f) {
        if (first == last) return;
        seek(first);
        while (pos_ < last) {
            if (pos_ == end_) seek(pos_);
            const std::uint64_t k = std::min<std::uint64_t>(reader_->run(), last - pos_);
            const value_type* p = &**reader_;
            for (std::uint64_t j = 0; j < k; ++j)
                f(p[j]);
            reader_->skip(k);
            pos_ += k;
        }
    }

private:
    // Reads through the chunks up to the one holding item i, then skips to it.
    void seek(std::uint64_t i) {
        if (!reader_ || i >= end_) {
            std::uint64_t c = reader_ ? end_ / chunk_items_ : i / chunk_items_;
            for (;; ++c) {
                open(c);
                if (i < end_) break;
            }
        }
        while (pos_ < i) {
            const std::uint64_t k = std::min<std::uint64_t>(reader_->run(), i - pos_);
            reader_->skip(k);
            pos_ += k;
        }
    }
    void open(std::uint64_t c) {
        reader_.reset(); // its buffer goes before the next one's comes
        pos_ = c * chunk_items_;
        end_ = std::min(pos_ + chunk_items_, v_->size());
        reader_.emplace(*v_, pos_, end_, std::size_t(pages_ - 1), account_);
    }

    V* v_;
    std::uint64_t pages_, chunk_items_;
    memory_account* account_;
    std::optional<typename V::stream_reader> reader_;
    std::uint64_t pos_ = 0, end_ = 0;
};

//! mr_bfs without its failure context (mr_bfs() adds it).
template <class Visitor>
bfs_result mr_bfs_run(machine& m, csr_graph& g, std::uint64_t memory, const block_sizes& b,
                      std::uint64_t source, Visitor& vis, const mr_bfs_options& opts) {
    using sorter_type = sorter<level_record, level_by_node>;
    b.validate();
    if (&g.get_machine() != &m) throw config_error("mr_bfs: the graph lives on another machine");
    if (source >= g.node_count())
        throw config_error("mr_bfs: source " + std::to_string(source) +
                           " is not a node (|V| = " + std::to_string(g.node_count()) + ")");
    const block_sizes& gb = g.blocks();
    const std::uint64_t min_memory = mr_bfs_min_memory(b, gb);
    if (memory < min_memory)
        throw config_error("mr_bfs: memory budget " + format_bytes(double(memory)) +
                           " is below the minimum " + format_bytes(double(min_memory)) + " for " +
                           b.describe() + (gb == b ? std::string() : " (graph: " + gb.describe() + ")"));
    memory_account own_account;
    memory_account* acc = opts.account ? opts.account : &own_account;
    const std::uint64_t reader_memory = level_list::stream_reader::memory_usage(b, 1);
    const std::uint64_t stream_memory = std::max(next_level_stream_memory(b), 2 * gb.br);
    const std::uint64_t sorter_memory = memory - stream_memory - reader_memory;
    const std::uint64_t chunk = mr_scan_chunk_pages(gb, stream_memory);
    std::optional<mr_adjacency_planner> planner;
    if (opts.adjacency == mr_adjacency::automatic)
        planner.emplace(g, chunk, mr_read_costs_of(m, g.offsets().get_role(), gb.br, g.bytes()));

    phase_meter meter(m, "bfs");
    bfs_result res;
    res.source = source;
    auto prev2 = make_level_list(m, b);
    auto prev = make_level_list(m, b);
    frontier_tally tally(g.offsets().items_per_page());
    {
        level_list::stream_writer w(*prev, acc);
        w.push(level_record{bfs_node(source), 0, bfs_node(source)});
        w.finish();
        tally.add(source);
    }
    vis.discover_vertex(source, 0, source);
    vis.finish_level(0, 1);
    res.level_sizes.push_back(1);
    for (std::uint64_t t = 1;; ++t) {
        const bool scan =
            opts.adjacency == mr_adjacency::scan || (planner && planner->prefer_scan(tally.frontier()));
        res.scanned_levels.push_back(scan);
        m.charge_host(1, m.host().bfs_level_s); // the level's fixed host cost (host_model)
        sorter_type neighbours(m, sorter_memory, b, level_by_node(), role::scratch, acc);
        {
            level_list::stream_reader r(*prev, 0, level_list::size_type(-1), 1, acc);
            if (scan) {
                detail::chunk_scan<csr_graph::offset_vector> offsets(g.offsets(), chunk, acc);
                detail::chunk_scan<csr_graph::target_vector> targets(g.targets(), chunk, acc);
                for (; !r.empty(); ++r) {
                    const bfs_node v = r->v;
                    const std::uint64_t first = offsets.at(v), last = offsets.at(std::uint64_t(v) + 1);
                    targets.for_each(first, last, [&](bfs_node w) {
                        neighbours.push(level_record{w, 0, v});
                    });
                }
            } else {
                for (; !r.empty(); ++r) {
                    const bfs_node v = r->v;
                    g.for_each_neighbour(v, [&](bfs_node w) { neighbours.push(level_record{w, 0, v}); });
                }
            }
        }
        res.neighbour_records += neighbours.size();
        neighbours.sort();
        auto next = make_level_list(m, b);
        tally = frontier_tally(g.offsets().items_per_page());
        std::uint64_t count = 0;
        {
            level_list::stream_reader r1(*prev, 0, level_list::size_type(-1), 1, acc);
            level_list::stream_reader r2(*prev2, 0, level_list::size_type(-1), 1, acc);
            level_list::stream_writer w(*next, acc);
            count = subtract_sorted(neighbours, r1, r2, [&](const level_record& rec) {
                w.push(rec);
                tally.add(rec.v);
                vis.discover_vertex(rec.v, t, rec.parent);
                vis.tree_edge(rec.parent, rec.v);
            });
            w.finish();
        }
        if (count == 0) break;
        vis.finish_level(t, count);
        res.level_sizes.push_back(count);
        prev2 = std::move(prev);
        prev = std::move(next);
    }
    for (std::uint64_t s : res.level_sizes)
        res.reached += s;
    res.phases.push_back(meter.finish());
    return res;
}
} // namespace detail

//! MR_BFS (Munagala and Ranade 1999; shared/BFS.md): for t = 1, 2, ...: read the adjacency
//! list of every node of L(t-1) from the CSR graph, sort the neighbours (role scratch), drop
//! repeats, subtract L(t-1) and L(t-2). Cost O(n + sort(n + m)) I/Os: the random access per
//! node is what mm_bfs removes.
//!
//! Step 1 reads the lists one of two ways (opts.adjacency; automatic: per level, whichever
//! mr_adjacency_planner prices lower with mr_read_costs_of the graph's devices):
//! - random: each list through the graph's Br page caches, in increasing node order (so the
//!   pages are read in offset order; one random read per node at worst);
//! - scan: the offsets and targets vectors read front to back from the frontier's first node
//!   to its last, in chunks of up to Bw / Br consecutive Br pages of the graph issued together
//!   (mr_scan_chunk_pages), merged with the sorted L(t-1).
//! res.scanned_levels says per level which way was taken.
//!
//! `memory` less the machine's translation layers' memory (usable_memory(m, memory), unless the
//! caller took it off already) bounds every buffer of the algorithm, which use block sizes `b` (config_error
//! for an invalid pair; the scan's chunks use the graph's own): the neighbour sorter gets all but a reader of
//! L(t-1) and a share for streams that is the larger of the subtraction's (two level readers and a level
//! writer) and the scan's two chunks (the chunks take what the share holds, up to a Bw each), which never
//! live at once; config_error below mr_bfs_min_memory(b, g.blocks()). Everything is charged to opts.account
//! when given, else to an account that rolls up into the budget's. The graph's page caches come on top (set
//! when it was built, with the graph's own sizes). The visitor gets discover_vertex / tree_edge /
//! finish_level (bfs_visitor.hpp). The result's only phase is "bfs".
//!
//! Failures: a structure that finds no room throws out_of_space naming the device, the role
//! and the structure ("... in flashxxl::mr_bfs"); that, and any other failure, ends the search:
//! no result comes back, the visitor has seen the levels before the failing one (and perhaps
//! part of it, without its finish_level), and every extent mr_bfs took is given back.
template <class Visitor,
          class = std::enable_if_t<!std::is_same<std::remove_cv_t<Visitor>, mr_bfs_options>::value>>
bfs_result mr_bfs(machine& m, csr_graph& g, const memory_budget& memory, const block_sizes& b,
                  std::uint64_t source, Visitor& vis, const mr_bfs_options& given) {
    const std::uint64_t usable = usable_memory(m, memory).bytes();
    mr_bfs_options opts = given;
    memory_account rolled_up(memory.account());
    if (!opts.account && memory.account()) opts.account = &rolled_up;
    return rethrow_out_of_space_in("flashxxl::mr_bfs",
                                   [&] { return detail::mr_bfs_run(m, g, usable, b, source, vis, opts); });
}

//! mr_bfs with the default options (automatic adjacency, no account).
template <class Visitor,
          class = std::enable_if_t<!std::is_same<std::remove_cv_t<Visitor>, mr_bfs_options>::value>>
bfs_result mr_bfs(machine& m, csr_graph& g, const memory_budget& memory, const block_sizes& b,
                  std::uint64_t source, Visitor& vis) {
    return mr_bfs(m, g, memory, b, source, vis, mr_bfs_options{});
}

//! mr_bfs without a visitor.
inline bfs_result mr_bfs(machine& m, csr_graph& g, const memory_budget& memory, const block_sizes& b,
                         std::uint64_t source, const mr_bfs_options& opts = {}) {
    bfs_visitor vis;
    return mr_bfs(m, g, memory, b, source, vis, opts);
}

} // namespace flashxxl
