// Streaming reader of SNAP-style text edge lists ("u v" per line, '#' comments, blank lines).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/edge_source.hpp"
#include "flashxxl/graph/stdio_file.hpp"
#include "flashxxl/text_checks.hpp"

namespace flashxxl {

//! Reads a text edge list one line at a time through a fixed buffer (never the whole file).
//!
//! Format (docs/graph-formats.md): each line is blank, a comment whose first non-blank
//! character is '#', or two non-negative decimal node ids `u v` separated by spaces or tabs
//! (leading / trailing blanks and a CR before the LF are allowed). Anything else (a third token,
//! a negative number, non-numeric text, a number above 2^64 - 1, an id >= the node bound, a
//! byte-order mark, CR-only line ends) throws `input_error` with the message "FILE:LINE: what
//! was expected, what was found".
//! An edge source (edge_source.hpp).
class text_edge_reader {
public:
    //! Opens `path`. Ids must be < `node_bound` (no_node: any 64-bit id). Lines may be at most
    //! `buffer_bytes` long.
    explicit text_edge_reader(std::string path, node_id node_bound = no_node,
                              std::size_t buffer_bytes = std::size_t(1) << 20)
        : file_(path, "rb"), path_(std::move(path)), bound_(node_bound),
          buf_(buffer_bytes < 64 ? 64 : buffer_bytes) {}
    //! Reads on from an open stream whose first `head.size()` bytes were already taken (to tell
    //! text from binary): they are parsed first. A pipe or FIFO (`<(zcat g.txt.gz)`) cannot be
    //! opened a second time, so this is how a text edge list arrives from one.
    text_edge_reader(stdio_file&& file, const std::string& head, node_id node_bound = no_node,
                     std::size_t buffer_bytes = std::size_t(1) << 20)
        : file_(std::move(file)), path_(file_.path()), bound_(node_bound),
          buf_(std::max<std::size_t>(buffer_bytes < 64 ? 64 : buffer_bytes, head.size())) {
        std::memcpy(buf_.data(), head.data(), head.size());
        end_ = head.size();
    }

    //! Yields the next edge; false at the end of the file.
    bool next(edge& e) {
        for (;;) {
            const char* line = nullptr;
            std::size_t len = 0;
            if (!next_line(line, len)) return false;
            check_text(line_no_, line, len);
            if (edges_ == 0) note_declared_nodes(line, len);
            if (parse_line(line, len, e)) {
                ++edges_;
                node_id hi = e.max_endpoint();
                if (max_id_ == no_node || hi > max_id_) max_id_ = hi;
                return true;
            }
        }
    }

    //! The bound if one was given, else max id + 1 of the edges read so far (0 if none), or
    //! the count a `# Nodes: N` comment before the first edge declares (SNAP's header, which
    //! `flashxxl gen` writes too) when that is larger: isolated nodes at the top of the id range
    //! (and the one node of a 1 x 1 grid) survive a round trip through text.
    node_id node_count() const {
        if (bound_ != no_node) return bound_;
        const node_id seen = max_id_ == no_node ? 0 : max_id_ + 1;
        return declared_nodes_ != no_node && declared_nodes_ > seen ? declared_nodes_ : seen;
    }
    //! Largest id read so far; no_node before the first edge.
    node_id max_id() const { return max_id_; }
    //! Edges yielded so far.
    std::uint64_t edges_read() const { return edges_; }
    //! 1-based number of the line last read (0 before the first).
    std::uint64_t line_number() const { return line_no_; }
    //! The file's path.
    const std::string& path() const { return path_; }
    //! Where the edge last yielded stands: "PATH:LINE", for messages.
    std::string position() const { return path_ + ":" + std::to_string(line_no_); }
    //! Where node_count() comes from, for messages: "PATH:1: the '# Nodes: N' comment declares N
    //! nodes", "PATH: the largest node id is 7, so 8 nodes", or, before any edge, "PATH: no
    //! edges: the file is empty" / "PATH: no edges: its 3 lines are all blank or comments".
    std::string node_count_origin() const {
        if (bound_ != no_node) return path_ + ": the node bound is " + std::to_string(bound_);
        if (declared_nodes_ != no_node && node_count() == declared_nodes_ && declared_nodes_ > 0)
            return path_ + ":" + std::to_string(declared_line_) +
                   ": the '# Nodes: " + std::to_string(declared_nodes_) + "' comment declares " +
                   std::to_string(declared_nodes_) + " nodes";
        if (max_id_ != no_node)
            return path_ + ": the largest node id is " + std::to_string(max_id_) + ", so " +
                   std::to_string(node_count()) + " nodes";
        return path_ + ": no edges: " +
               (line_no_ == 0 ? std::string("the file is empty")
                              : "its " + std::to_string(line_no_) + " lines are all blank or comments");
    }

private:
    // Finds the next line in the buffer, refilling it as needed; false at end of file.
    bool next_line(const char*& line, std::size_t& len) {
        for (;;) {
            if (begin_ < end_) {
                const void* nl = std::memchr(buf_.data() + begin_, '\n', end_ - begin_);
                if (nl) {
                    std::size_t stop = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
                    line = buf_.data() + begin_;
                    len = stop - begin_;
                    begin_ = stop + 1;
                    ++line_no_;
                    return true;
                }
            }
            if (eof_) {
                if (begin_ == end_) return false;
                line = buf_.data() + begin_; // last line without '\n'
                len = end_ - begin_;
                begin_ = end_;
                ++line_no_;
                return true;
            }
            // Move the partial line to the front and read more.
            if (begin_ > 0) {
                std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
                end_ -= begin_;
                begin_ = 0;
            }
            if (end_ == buf_.size()) {
                check_text(line_no_ + 1, buf_.data(), end_); // CR-only line ends make one long line
                fail(line_no_ + 1,
                     "line longer than " + std::to_string(buf_.size()) + " bytes (expected 'u v')");
            }
            std::size_t got = file_.read_some(buf_.data() + end_, buf_.size() - end_);
            if (got == 0) eof_ = true;
            end_ += got;
        }
    }

    static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    [[noreturn]] void fail(std::uint64_t line, const std::string& what) const {
        throw input_error(path_ + ":" + std::to_string(line) + ": " + what);
    }

    // Refuses a byte-order mark (line 1) and CR-only line ends (a CR inside line `number`), the
    // checks every line-based input makes (text_checks.hpp).
    void check_text(std::uint64_t number, const char* line, std::size_t len) const {
        std::string problem = number == 1 ? byte_order_mark_problem(line, len) : std::string();
        if (problem.empty() && len > 1 && std::memchr(line, '\r', len - 1))
            problem = lone_cr_problem(line, len);
        if (!problem.empty()) fail(number, problem);
    }

    // The token starting at p (up to the next blank), quoted and shortened for messages.
    static std::string token_at(const char* p, const char* end) {
        const char* q = p;
        while (q < end && !is_blank(*q))
            ++q;
        std::string t(p, q);
        if (t.size() > 40) t = t.substr(0, 37) + "...";
        return "'" + t + "'";
    }

    // Parses one node id at p; advances p past it.
    node_id parse_id(const char*& p, const char* end, const char* which) const {
        if (p == end) fail(line_no_, std::string("expected two node ids 'u v', found only one"));
        if (*p == '-')
            fail(line_no_, std::string("expected a non-negative node id as ") + which + ", found " +
                               "negative number " + token_at(p, end));
        if (!is_digit(*p))
            fail(line_no_, std::string("expected a non-negative integer node id as ") + which + ", found " +
                               token_at(p, end));
        const char* start = p;
        node_id value = 0;
        constexpr node_id max = std::numeric_limits<node_id>::max();
        while (p < end && is_digit(*p)) {
            node_id digit = static_cast<node_id>(*p - '0');
            if (value > (max - digit) / 10)
                fail(line_no_, std::string("node id ") + token_at(start, end) + " as " + which +
                                   " overflows 64 bits (expected at most 18446744073709551615)");
            value = value * 10 + digit;
            ++p;
        }
        if (p < end && !is_blank(*p))
            fail(line_no_, std::string("expected a non-negative integer node id as ") + which + ", found " +
                               token_at(start, end));
        if (bound_ != no_node && value >= bound_)
            fail(line_no_, std::string("node id ") + std::to_string(value) + " as " + which +
                               " is out of range: the node count is " + std::to_string(bound_) +
                               ", so ids must be below it");
        return value;
    }

    // False for blank and comment lines; throws for malformed ones.
    // Remembers N of a "# Nodes: N" comment line (anything may follow N, as SNAP's "Edges: M").
    // Any other comment, or a Nodes: without a number that fits, is only a comment.
    void note_declared_nodes(const char* p, std::size_t len) {
        const char* end = p + len;
        while (p < end && is_blank(*p))
            ++p;
        if (p == end || *p != '#') return;
        ++p;
        while (p < end && is_blank(*p))
            ++p;
        static constexpr char key[] = "Nodes:";
        if (std::size_t(end - p) < sizeof key - 1 || std::memcmp(p, key, sizeof key - 1) != 0) return;
        p += sizeof key - 1;
        while (p < end && is_blank(*p))
            ++p;
        node_id n = 0;
        const char* digits = p;
        for (; p < end && is_digit(*p); ++p) {
            if (n > (no_node - 1 - node_id(*p - '0')) / 10) return; // beyond any id: not a count
            n = n * 10 + node_id(*p - '0');
        }
        if (p != digits && (p == end || is_blank(*p))) declared_nodes_ = n, declared_line_ = line_no_;
    }

    bool parse_line(const char* p, std::size_t len, edge& e) const {
        const char* end = p + len;
        while (p < end && is_blank(*p))
            ++p;
        if (p == end || *p == '#') return false;
        e.u = parse_id(p, end, "first endpoint (u)");
        while (p < end && is_blank(*p))
            ++p;
        e.v = parse_id(p, end, "second endpoint (v)");
        while (p < end && is_blank(*p))
            ++p;
        if (p != end)
            fail(line_no_, "unexpected third token " + token_at(p, end) +
                               " (expected exactly two node ids 'u v' per line)");
        return true;
    }

    stdio_file file_;
    std::string path_;
    node_id bound_;
    std::vector<char> buf_;
    std::size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    std::uint64_t line_no_ = 0;
    std::uint64_t edges_ = 0;
    node_id max_id_ = no_node;
    node_id declared_nodes_ = no_node; // N of a "# Nodes: N" header, if any
    std::uint64_t declared_line_ = 0;  // its line
};

//! Streams every edge of the text file `path` into `sink(const edge&)`; see text_edge_reader.
template <class Sink>
edge_list_summary read_text_edges(const std::string& path, Sink&& sink, node_id node_bound = no_node) {
    text_edge_reader reader(path, node_bound);
    return copy_edges(reader, std::forward<Sink>(sink));
}

} // namespace flashxxl
