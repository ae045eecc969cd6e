// Writer of the binary edge list (FXEDGES1): streams edges, fills in the header at close.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/binary_edge_format.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/stdio_file.hpp"

namespace flashxxl {

//! Writes a binary edge list (binary_edge_format.hpp) through a fixed buffer.
//!
//! The header is written by `close()`, with the edge count and the node count (the one given,
//! or max id + 1); until then the file starts with zeros, so a file whose writer never closed
//! fails the reader's magic check. Usable as a sink: `writer(e)`.
class binary_edge_writer {
public:
    //! Creates (truncates) `path`. `id_width` is 4 or 8 bytes; `node_count` = 0 means "max id + 1
    //! at close", otherwise every id must be below it.
    explicit binary_edge_writer(std::string path, std::uint32_t id_width = 8, node_id node_count = 0,
                                std::size_t buffer_bytes = std::size_t(1) << 20)
        : path_(std::move(path)), width_(id_width), nodes_(node_count) {
        if (width_ != 4 && width_ != 8)
            throw invalid_request("binary edge list '" + path_ + "': id width " + std::to_string(width_) +
                                  ", expected 4 or 8 (bytes)");
        if (width_ == 4 && nodes_ > (std::uint64_t(1) << 32))
            throw invalid_request("binary edge list '" + path_ + "': " + std::to_string(nodes_) +
                                  " nodes do not fit 4-byte ids (at most 2^32); use id width 8");
        file_ = stdio_file(path_, "wb");
        unsigned char zeros[binary_edge_format::header_bytes] = {};
        file_.write(zeros, sizeof zeros);
        std::size_t record = 2 * width_;
        buf_.resize(buffer_bytes / record * record < record ? record : buffer_bytes / record * record);
    }
    binary_edge_writer(const binary_edge_writer&) = delete;
    binary_edge_writer& operator=(const binary_edge_writer&) = delete;
    //! Closes if `close()` was not called; errors are swallowed then (call close to see them).
    ~binary_edge_writer() {
        try {
            close();
        } catch (...) {
        }
    }

    //! Appends one edge. Throws invalid_request when an id does not fit the width or the node count.
    void push(const edge& e) {
        check(e.u);
        check(e.v);
        if (fill_ + 2 * width_ > buf_.size()) flush();
        binary_edge_format::store_le(buf_.data() + fill_, e.u, width_);
        binary_edge_format::store_le(buf_.data() + fill_ + width_, e.v, width_);
        fill_ += 2 * width_;
        ++edges_;
        node_id hi = e.max_endpoint();
        if (max_id_ == no_node || hi > max_id_) max_id_ = hi;
    }
    //! Sink form of push.
    void operator()(const edge& e) { push(e); }

    //! Flushes the edges, writes the header, closes the file. Idempotent.
    void close() {
        if (!file_.is_open()) return;
        flush();
        binary_edge_format::header h;
        h.id_width = width_;
        h.nodes = node_count();
        h.edges = edges_;
        unsigned char raw[binary_edge_format::header_bytes];
        binary_edge_format::encode_header(h, raw);
        file_.seek(0);
        file_.write(raw, sizeof raw);
        file_.close();
    }

    //! Edges written so far.
    std::uint64_t edges_written() const { return edges_; }
    //! The node count the header gets: the one given, else max id + 1 (0 without edges).
    node_id node_count() const {
        if (nodes_ != 0) return nodes_;
        return max_id_ == no_node ? 0 : max_id_ + 1;
    }
    //! Bytes the file has once closed.
    std::uint64_t file_bytes() const { return binary_edge_format::header_bytes + edges_ * 2 * width_; }
    //! The file's path.
    const std::string& path() const { return path_; }

private:
    void check(node_id id) const {
        if (nodes_ != 0 && id >= nodes_)
            throw invalid_request("binary edge list '" + path_ + "': node id " + std::to_string(id) +
                                  " of edge " + std::to_string(edges_) + " is >= the node count " +
                                  std::to_string(nodes_));
        if (width_ == 4 && id >= (std::uint64_t(1) << 32))
            throw invalid_request("binary edge list '" + path_ + "': node id " + std::to_string(id) +
                                  " of edge " + std::to_string(edges_) +
                                  " does not fit a 4-byte id; use id width 8");
    }

    void flush() {
        file_.write(buf_.data(), fill_);
        fill_ = 0;
    }

    std::string path_;
    std::uint32_t width_;
    node_id nodes_;
    stdio_file file_;
    std::vector<unsigned char> buf_;
    std::size_t fill_ = 0;
    std::uint64_t edges_ = 0;
    node_id max_id_ = no_node;
};

} // namespace flashxxl
