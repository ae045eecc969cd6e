// Writer of SNAP-style text edge lists: optional '#' header lines, then "u<TAB>v" per line.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/graph/edge.hpp"
#include "flashxxl/graph/stdio_file.hpp"

namespace flashxxl {

//! Writes a text edge list readable by text_edge_reader (and by SNAP tools). Usable as a sink.
class text_edge_writer {
public:
    //! Creates (truncates) `path` and writes each of `comments` as a line "# COMMENT".
    explicit text_edge_writer(std::string path, const std::vector<std::string>& comments = {},
                              std::size_t buffer_bytes = std::size_t(1) << 20)
        : file_(path, "wb"), buf_(buffer_bytes < 64 ? 64 : buffer_bytes) {
        for (const std::string& c : comments) {
            std::string line = "# " + c + "\n";
            file_.write(line.data(), line.size());
            bytes_ += line.size();
        }
    }
    text_edge_writer(const text_edge_writer&) = delete;
    text_edge_writer& operator=(const text_edge_writer&) = delete;
    //! Closes if `close()` was not called; errors are swallowed then.
    ~text_edge_writer() {
        try {
            close();
        } catch (...) {
        }
    }

    //! Appends "u\tv\n".
    void push(const edge& e) {
        if (fill_ + 42 > buf_.size()) flush(); // two 20-digit ids, a tab, a newline
        char* p = buf_.data() + fill_;
        char* end = buf_.data() + buf_.size();
        p = std::to_chars(p, end, e.u).ptr;
        *p++ = '\t';
        p = std::to_chars(p, end, e.v).ptr;
        *p++ = '\n';
        std::size_t n = static_cast<std::size_t>(p - (buf_.data() + fill_));
        fill_ += n;
        bytes_ += n;
        ++edges_;
    }
    //! Sink form of push.
    void operator()(const edge& e) { push(e); }

    //! Flushes and closes. Idempotent.
    void close() {
        if (!file_.is_open()) return;
        flush();
        file_.close();
    }

    //! Edges written so far.
    std::uint64_t edges_written() const { return edges_; }
    //! Bytes written so far (comments included).
    std::uint64_t bytes_written() const { return bytes_; }
    //! The file's path.
    const std::string& path() const { return file_.path(); }

private:
    void flush() {
        file_.write(buf_.data(), fill_);
        fill_ = 0;
    }

    stdio_file file_;
    std::vector<char> buf_;
    std::size_t fill_ = 0;
    std::uint64_t edges_ = 0;
    std::uint64_t bytes_ = 0;
};

} // namespace flashxxl
