// Streaming reader of the binary edge list (FXEDGES1), checking header, size and id range.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/binary_edge_format.hpp"
#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/edge_source.hpp"
#include "flashxxl/graph/stdio_file.hpp"

namespace flashxxl {

//! Reads a binary edge list (binary_edge_format.hpp) through a fixed buffer.
//!
//! The constructor checks the header: bad magic, unknown version, an id width other than 4 / 8,
//! or a file size that differs from 32 + 2 x width x edges (truncated or trailing bytes) throw
//! `input_error` with "FILE: byte offset N: what was expected". `next` throws the same way for
//! an id >= the header's node count. An edge source (edge_source.hpp).
class binary_edge_reader {
public:
    //! Opens `path` and validates its header and size.
    explicit binary_edge_reader(std::string path, std::size_t buffer_bytes = std::size_t(1) << 20)
        : file_(path, "rb"), path_(std::move(path)) {
        namespace fmt = binary_edge_format;
        std::error_code ec;
        std::uint64_t size = std::filesystem::file_size(path_, ec);
        if (ec) throw io_failure("cannot get the size of '" + path_ + "': " + ec.message());
        unsigned char raw[fmt::header_bytes];
        std::size_t got = file_.read_some(raw, sizeof raw);
        if (got < 8 || std::memcmp(raw, fmt::magic, 8) != 0)
            fail(0, got < 8 ? "truncated header: the file has " + std::to_string(got) +
                                  " bytes, expected magic \"FXEDGES1\" and a 32-byte header"
                            : "bad magic " + quoted(raw, 8) + ", expected \"FXEDGES1\"");
        if (got < fmt::header_bytes)
            fail(got, "truncated header: the file has " + std::to_string(got) + " bytes, the header needs " +
                          std::to_string(fmt::header_bytes));
        header_.version = static_cast<std::uint32_t>(fmt::load_le(raw + fmt::offset_version, 4));
        header_.id_width = static_cast<std::uint32_t>(fmt::load_le(raw + fmt::offset_id_width, 4));
        header_.nodes = fmt::load_le(raw + fmt::offset_nodes, 8);
        header_.edges = fmt::load_le(raw + fmt::offset_edges, 8);
        if (header_.version != fmt::version)
            fail(fmt::offset_version, "unsupported version " + std::to_string(header_.version) +
                                          ", expected " + std::to_string(fmt::version));
        if (header_.id_width != 4 && header_.id_width != 8)
            fail(fmt::offset_id_width,
                 "id width " + std::to_string(header_.id_width) + ", expected 4 or 8 (bytes)");
        width_ = header_.id_width;
        std::uint64_t record = 2 * width_;
        std::uint64_t data_bytes = size - fmt::header_bytes;
        if (header_.edges > data_bytes / record) {
            std::uint64_t complete = data_bytes / record;
            fail(fmt::header_bytes + complete * record,
                 "truncated file: the header promises " + std::to_string(header_.edges) +
                     " edges, the file has " + std::to_string(size) + " bytes, room for " +
                     std::to_string(complete) + " complete edges; edge " + std::to_string(complete) +
                     " should start here");
        }
        std::uint64_t expected = fmt::header_bytes + header_.edges * record;
        if (size != expected)
            fail(expected, "edge count mismatch: the header says " + std::to_string(header_.edges) +
                               " edges (" + std::to_string(expected) + " bytes), but the file has " +
                               std::to_string(size - expected) + " more bytes from here");
        std::size_t buf = buffer_bytes / record * record;
        buf_.resize(buf < record ? record : buf);
    }

    //! Yields the next edge; false after the header's edge count.
    bool next(edge& e) {
        if (index_ == header_.edges) return false;
        if (pos_ == filled_) refill();
        const unsigned char* p = buf_.data() + pos_;
        e.u = binary_edge_format::load_le(p, width_);
        e.v = binary_edge_format::load_le(p + width_, width_);
        if (e.u >= header_.nodes || e.v >= header_.nodes) {
            std::uint64_t off = offset_of(index_) + (e.u >= header_.nodes ? 0 : width_);
            fail(off, "node id " + std::to_string(e.u >= header_.nodes ? e.u : e.v) + " of edge " +
                          std::to_string(index_) + " is out of range: the header's node count is " +
                          std::to_string(header_.nodes));
        }
        pos_ += 2 * width_;
        ++index_;
        return true;
    }

    //! The header's node count.
    node_id node_count() const { return header_.nodes; }
    //! The header's edge count.
    std::uint64_t edge_count() const { return header_.edges; }
    //! Bytes per id (4 or 8).
    std::uint32_t id_width() const { return header_.id_width; }
    //! The decoded header.
    const binary_edge_format::header& file_header() const { return header_; }
    //! The file's path.
    const std::string& path() const { return path_; }
    //! Where node_count() comes from, for messages: "PATH: byte offset 16: the header declares N
    //! nodes", or, for a header of no edges and no nodes, "PATH: byte offset 24: no edges: ...".
    std::string node_count_origin() const {
        namespace fmt = binary_edge_format;
        if (header_.edges == 0 && header_.nodes == 0)
            return path_ + ": byte offset " + std::to_string(fmt::offset_edges) +
                   ": no edges: the header declares 0 edges and 0 nodes";
        return path_ + ": byte offset " + std::to_string(fmt::offset_nodes) + ": the header declares " +
               std::to_string(header_.nodes) + " nodes";
    }
    //! Where the edge last yielded starts: "PATH: byte offset N (edge K)", for messages.
    std::string position() const {
        std::uint64_t last = index_ ? index_ - 1 : 0;
        return path_ + ": byte offset " + std::to_string(offset_of(last)) + " (edge " + std::to_string(last) +
               ")";
    }

private:
    std::uint64_t offset_of(std::uint64_t edge_index) const {
        return binary_edge_format::header_bytes + edge_index * 2 * width_;
    }

    void refill() {
        std::uint64_t left = (header_.edges - index_) * 2 * width_;
        std::size_t want = left < buf_.size() ? static_cast<std::size_t>(left) : buf_.size();
        std::size_t got = file_.read_some(buf_.data(), want);
        if (got < want)
            fail(offset_of(index_) + got, "truncated file: expected " + std::to_string(want - got) +
                                              " more bytes of edge data (did the file shrink?)");
        pos_ = 0;
        filled_ = got;
    }

    static std::string quoted(const unsigned char* p, std::size_t n) {
        std::string s = "\"";
        for (std::size_t i = 0; i < n; ++i) {
            if (p[i] >= 32 && p[i] < 127)
                s += static_cast<char>(p[i]);
            else {
                char hex[8];
                std::snprintf(hex, sizeof hex, "\\x%02x", p[i]);
                s += hex;
            }
        }
        return s + "\"";
    }

    [[noreturn]] void fail(std::uint64_t offset, const std::string& what) const {
        throw input_error(path_ + ": byte offset " + std::to_string(offset) + ": " + what);
    }

    stdio_file file_;
    std::string path_;
    binary_edge_format::header header_;
    std::uint32_t width_ = 8;
    std::vector<unsigned char> buf_;
    std::size_t pos_ = 0, filled_ = 0;
    std::uint64_t index_ = 0;
};

//! Streams every edge of the binary file `path` into `sink(const edge&)`.
template <class Sink> edge_list_summary read_binary_edges(const std::string& path, Sink&& sink) {
    binary_edge_reader reader(path);
    return copy_edges(reader, std::forward<Sink>(sink));
}

} // namespace flashxxl
