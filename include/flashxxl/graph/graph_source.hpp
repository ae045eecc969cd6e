// Opens the input of a graph algorithm: an edge-list file (text or binary) or a generator spec.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "flashxxl/comma_list.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/binary_edge_format.hpp"
#include "flashxxl/graph/binary_edge_reader.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/grid_generator.hpp"
#include "flashxxl/graph/random_graph_generator.hpp"
#include "flashxxl/graph/rmat_generator.hpp"
#include "flashxxl/graph/stdio_file.hpp"
#include "flashxxl/graph/text_edge_reader.hpp"
#include "flashxxl/graph/tree_generator.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! An edge source behind a virtual interface (edge_source.hpp protocol), so that one
//! instantiation of an algorithm serves every reader and generator.
class any_edge_source {
public:
    virtual ~any_edge_source() = default;
    virtual bool next(edge& e) = 0;
    virtual node_id node_count() const = 0;
    //! "grid side=100", "file g.txt (text)", ...
    virtual std::string describe() const = 0;
    //! Where the edge yielded last comes from, "g.txt:7" (edge_position); empty for generators.
    virtual std::string position() const = 0;
    //! Where node_count() comes from, for messages (node_count_origin); empty for generators.
    virtual std::string node_count_origin() const = 0;
};

namespace detail {
template <class Source> class edge_source_holder : public any_edge_source {
public:
    edge_source_holder(Source s, std::string description) : s_(std::move(s)), d_(std::move(description)) {}
    bool next(edge& e) override { return s_.next(e); }
    node_id node_count() const override { return s_.node_count(); }
    std::string describe() const override { return d_; }
    std::string position() const override { return edge_position(s_); }
    std::string node_count_origin() const override { return flashxxl::node_count_origin(s_); }

private:
    Source s_;
    std::string d_;
};

//! key=value pairs after "KIND:", comma-separated (parse_comma_list: an empty entry is refused as
//! in every list); unknown keys are errors.
class spec_params {
public:
    spec_params(const std::string& spec, const std::string& kind, const std::string& text,
                const std::vector<std::string>& allowed)
        : spec_(spec), kind_(kind) {
        if (text.empty()) return; // "grid:": the missing key is named by integer()
        for (const std::string& item :
             parse_comma_list("graph spec '" + spec + "': the parameter list", text)) {
            std::size_t eq = item.find('=');
            if (eq == std::string::npos)
                throw config_error("graph spec '" + spec + "': '" + item + "' is not key=value");
            std::string key = item.substr(0, eq);
            bool ok = false;
            std::string names;
            for (const std::string& a : allowed) {
                ok = ok || a == key;
                names += (names.empty() ? "" : ", ") + a;
            }
            if (!ok)
                throw config_error("graph spec '" + spec + "': " + kind + " takes no '" + key +
                                   "' (it takes " + names + ")");
            if (!values_.emplace(key, item.substr(eq + 1)).second)
                throw config_error("graph spec '" + spec + "': " + key +
                                   "= is given twice (expected each key once)");
        }
    }
    bool has(const std::string& k) const { return values_.count(k) > 0; }
    std::uint64_t integer(const std::string& k) const {
        auto it = values_.find(k);
        if (it == values_.end())
            throw config_error("graph spec '" + spec_ + "': " + kind_ + " needs " + k + "=");
        return named(k, [&] { return parse_size(it->second); });
    }
    std::uint64_t integer(const std::string& k, std::uint64_t dflt) const {
        return has(k) ? integer(k) : dflt;
    }
    //! A count (nodes, edges, levels, a seed), `noun` naming it ("a node count"): whole decimal
    //! digits from `min` to `max`, no byte unit (side=1KiB is not 1024 nodes per side).
    std::uint64_t count(const std::string& k, const std::string& noun, std::uint64_t min = 0,
                        std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
        auto it = values_.find(k);
        if (it == values_.end())
            throw config_error("graph spec '" + spec_ + "': " + kind_ + " needs " + k + "=");
        const std::string& text = it->second;
        const std::string refused = "graph spec '" + spec_ + "': " + k + ": '" + text + "' is ";
        const std::string expected =
            "; expected " + noun + ", a whole number from " + std::to_string(min) + " to " +
            (max == std::numeric_limits<std::uint64_t>::max() ? "2^64 - 1" : std::to_string(max));
        const std::size_t digits = text.find_first_not_of("0123456789");
        if (text.empty() || digits != std::string::npos)
            throw config_error(refused + "not " + noun +
                               (digits != 0 && !text.empty() ? " (byte units do not apply to a count)" : "") +
                               expected);
        std::uint64_t v = 0;
        for (char c : text) {
            if (v > (std::numeric_limits<std::uint64_t>::max() - std::uint64_t(c - '0')) / 10)
                throw config_error(refused + "out of range" + expected);
            v = v * 10 + std::uint64_t(c - '0');
        }
        if (v < min || v > max) throw config_error(refused + "out of range" + expected);
        return v;
    }
    //! count(), `dflt` when `k` is not given.
    std::uint64_t count(const std::string& k, const std::string& noun, std::uint64_t dflt, std::uint64_t min,
                        std::uint64_t max) const {
        return has(k) ? count(k, noun, min, max) : dflt;
    }
    double number(const std::string& k, double dflt) const {
        auto it = values_.find(k);
        return it == values_.end() ? dflt : named(k, [&] { return parse_number(it->second); });
    }

private:
    //! parse(), with a refusal prefixed by the spec and the key ("graph spec 'grid:side=abc':
    //! side: size 'abc' is not a number ...").
    template <class Parse> auto named(const std::string& k, Parse parse) const -> decltype(parse()) {
        try {
            return parse();
        } catch (const config_error& e) {
            throw config_error("graph spec '" + spec_ + "': " + k + ": " + e.what());
        }
    }

    std::string spec_, kind_;
    std::map<std::string, std::string> values_;
};
} // namespace detail

//! The graph specs open_graph_source understands, for --help texts.
inline const char* graph_spec_help() {
    return "an edge-list file (text `u v` lines or flashxxl's binary format, detected by its magic), or a "
           "generator: grid:side=S | tree:nodes=N[,levels=L|,block=BYTES,item_bytes=B] | "
           "random:nodes=N,degree=D|edges=M[,seed=X] | rmat:scale=S[,edge_factor=F,a=,b=,c=,seed=X]";
}

//! Opens `spec`: "grid:side=1000", "tree:nodes=1048576,levels=128" (levels default: sqrt(B) for
//! block=128KiB of item_bytes=12, seeds/000 Figure 4.1), "random:nodes=N,degree=8,seed=1",
//! "rmat:scale=20,edge_factor=16,seed=1", or a file path (binary if it starts with the magic
//! of binary_edge_format or holds NUL or control bytes in its first 4 KiB, then a wrong magic is
//! "byte offset 0: bad magic", followed, for a file without the magic, by the offset of the
//! control byte that made it binary; text otherwise). Errors name the spec and the key.
inline std::unique_ptr<any_edge_source> open_graph_source(const std::string& spec) {
    auto colon = spec.find(':');
    std::string kind = colon == std::string::npos ? "" : spec.substr(0, colon);
    std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (kind == "grid") {
        detail::spec_params p(spec, kind, rest, {"side"});
        std::uint64_t side = p.count("side", "a node count (nodes per side)", 1, grid_generator::max_side);
        return std::make_unique<detail::edge_source_holder<grid_generator>>(
            grid_generator(side), "grid side=" + std::to_string(side));
    }
    if (kind == "tree") {
        detail::spec_params p(spec, kind, rest, {"nodes", "levels", "block", "item_bytes"});
        std::uint64_t n = p.count("nodes", "a node count", 1);
        if (p.has("levels") && (p.has("block") || p.has("item_bytes")))
            throw config_error("graph spec '" + spec + "': give levels= or block= / item_bytes=, not both");
        std::uint64_t levels =
            p.has("levels")
                ? p.count("levels", "a level count", 1)
                : tree_generator::default_levels(p.integer("block", 128 * 1024), p.integer("item_bytes", 12));
        tree_generator g(n, levels); // described by the levels it has: fewer than levels= when n - 1 is
        const std::string description =
            "tree nodes=" + std::to_string(n) + " levels=" + std::to_string(g.levels());
        return std::make_unique<detail::edge_source_holder<tree_generator>>(std::move(g), description);
    }
    if (kind == "random") {
        detail::spec_params p(spec, kind, rest, {"nodes", "degree", "edges", "seed"});
        std::uint64_t n = p.count("nodes", "a node count", 1);
        if (p.has("degree") == p.has("edges"))
            throw config_error("graph spec '" + spec + "': random needs exactly one of degree= and edges=");
        std::uint64_t m = p.has("edges") ? p.count("edges", "an edge count")
                                         : random_graph_generator::edges_for_degree(n, p.number("degree", 0));
        std::uint64_t seed = p.count("seed", "a seed", 1, 0, std::numeric_limits<std::uint64_t>::max());
        return std::make_unique<detail::edge_source_holder<random_graph_generator>>(
            random_graph_generator(n, m, seed), "random nodes=" + std::to_string(n) + " edges=" +
                                                    std::to_string(m) + " seed=" + std::to_string(seed));
    }
    if (kind == "rmat") {
        detail::spec_params p(spec, kind, rest, {"scale", "edge_factor", "a", "b", "c", "seed"});
        rmat_params r;
        const std::uint64_t scale = p.count("scale", "a scale (log2 of the node count)");
        if (scale > 62) // checked here: the cast below would wrap 2^32 + 1 to 1
            throw config_error("graph spec '" + spec + "': rmat scale " + std::to_string(scale) +
                               " out of range (expected 1 ... 62)");
        r.scale = unsigned(scale);
        r.edge_factor = p.count("edge_factor", "an edge count per node", r.edge_factor, 1,
                                std::numeric_limits<std::uint64_t>::max());
        r.a = p.number("a", r.a);
        r.b = p.number("b", r.b);
        r.c = p.number("c", r.c);
        std::uint64_t seed = p.count("seed", "a seed", 1, 0, std::numeric_limits<std::uint64_t>::max());
        return std::make_unique<detail::edge_source_holder<rmat_generator>>(
            rmat_generator(r, seed), "rmat scale=" + std::to_string(r.scale) + " edge_factor=" +
                                         std::to_string(r.edge_factor) + " seed=" + std::to_string(seed));
    }
    // A file, opened once: a pipe or FIFO (`<(zcat g.txt.gz)`, /dev/stdin) gives its bytes once,
    // so the text reader goes on from the bytes read here (it used to reopen the path and lose
    // them, parsing from the middle of a line).
    if (::access(spec.c_str(), R_OK) != 0)
        throw input_error("cannot open graph file '" + spec + "': " + std::strerror(errno) +
                          " (expected a file or " + graph_spec_help() + ")");
    if (struct stat dir{}; ::stat(spec.c_str(), &dir) == 0 && S_ISDIR(dir.st_mode))
        throw input_error("graph file '" + spec + "' is a directory (expected an edge-list file or " +
                          graph_spec_help() + ")");
    stdio_file f(spec, "rb");
    // Binary by content: the magic, or bytes no text edge list has (NUL, control characters):
    // a binary file with a damaged magic is reported as such, not parsed as text.
    char head[4096] = {};
    const std::size_t got = f.read_some(head, sizeof head); // fread: fewer only at the end, also from a pipe
    bool magic = got >= sizeof binary_edge_format::magic &&
                 std::memcmp(head, binary_edge_format::magic, sizeof binary_edge_format::magic) == 0;
    std::size_t control_at = got; // the first byte no text edge list has
    for (std::size_t i = 0; i < got && !magic && control_at == got; ++i) {
        unsigned char c = static_cast<unsigned char>(head[i]);
        if (c == 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f'))
            control_at = i;
    }
    if (magic || control_at < got) {
        struct stat st {};
        if (::stat(spec.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            throw input_error("graph file '" + spec + "' is binary (" +
                              (magic ? std::string("FXEDGES1") : std::string("not text")) +
                              ") but not a regular file: the binary reader seeks; copy it to a file first");
        f.close();
        try {
            return std::make_unique<detail::edge_source_holder<binary_edge_reader>>(
                binary_edge_reader(spec), "file " + spec + " (binary)");
        } catch (const input_error& e) {
            if (magic) throw;
            // Neither format: say why it is not text either (a stray NUL in a text file, say).
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(head[control_at]));
            throw input_error(std::string(e.what()) + "; nor is it a text edge list: byte offset " +
                              std::to_string(control_at) + " holds " + byte +
                              ", a control byte that text `u v` lines do not have");
        }
    }
    return std::make_unique<detail::edge_source_holder<text_edge_reader>>(
        text_edge_reader(std::move(f), std::string(head, got)), "file " + spec + " (text)");
}

} // namespace flashxxl
