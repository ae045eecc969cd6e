// The cluster index of MM_BFS: adjacency records laid out cluster by cluster (role static_data).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! The file F of shared/BFS.md: adjacency records (v, w, c(w)) sorted by (c(v), v, w), written
//! once with Bw writes (block_writer, role static_data: on flash under flash_aware), and the
//! index I[c] = first record of cluster c (K + 1 entries, held in memory: 8 bytes per cluster).
//!
//! read() fetches a whole cluster with one read request per Bw segment it touches (one request
//! when the cluster lies within a segment, which is the common case for clusters much smaller
//! than Bw), covering only the Br blocks that hold the cluster. Memory: the writer's 2 x Bw
//! while building, one Bw read buffer afterwards, plus the index. Not thread-safe.
template <class Blocks>
class cluster_file {
public:
    static constexpr std::size_t Br = Blocks::read_block;
    static constexpr std::size_t Bw = Blocks::write_block;
    using layout = block_layout<adjacency_record, Br>;
    using writer_type = block_writer<adjacency_record, Br, Bw>;
    static constexpr std::uint64_t items_per_segment = writer_type::items_per_segment;

    //! An empty file with `clusters` clusters on machine `m`; append records in (c(v), v, w)
    //! order with push(), then finish().
    cluster_file(machine& m, std::uint64_t clusters, role r = role::static_data)
        : machine_(&m), role_(r), index_(clusters + 1, 0) {
        writer_ = std::make_unique<writer_type>(m, r, counter_, &account_, 2);
    }
    cluster_file(const cluster_file&) = delete;
    cluster_file& operator=(const cluster_file&) = delete;
    ~cluster_file() {
        writer_.reset();
        for (const segment& s : segments_) {
            try {
                machine_->release(s.ext);
            } catch (...) {
            }
        }
    }

    //! Appends the record of an adjacency entry of a node of cluster `c` (c non-decreasing).
    void push(bfs_node c, const adjacency_record& rec) {
        if (!writer_) throw invalid_request("cluster_file::push after finish()");
        if (c + 1 >= index_.size() || c < current_)
            throw invalid_request("cluster_file::push: cluster " + std::to_string(c) + " out of order or >= " +
                                  std::to_string(index_.size() - 1));
        while (current_ < c) index_[++current_] = records_;
        writer_->push(rec);
        ++records_;
    }
    //! Writes the rest and completes the index.
    void finish() {
        if (!writer_) return;
        segments_ = writer_->finish();
        writer_.reset();
        while (current_ + 1 < index_.size()) index_[++current_] = records_;
        buffer_ = aligned_buffer(Bw, &account_);
    }

    //! K.
    std::uint64_t clusters() const { return index_.size() - 1; }
    //! Records in the file.
    std::uint64_t records() const { return records_; }
    //! Records of cluster c.
    std::uint64_t cluster_records(std::uint64_t c) const { return index_.at(c + 1) - index_.at(c); }
    //! Bytes on the devices (whole Br blocks).
    std::uint64_t bytes() const { return layout::bytes_for(records_); }
    //! Bytes of the in-memory index.
    std::uint64_t index_bytes() const { return index_.size() * sizeof(std::uint64_t); }
    //! Read requests issued by read().
    std::uint64_t read_requests() const { return read_requests_; }
    const memory_account& account() const { return account_; }

    //! Calls f(record) for every record of cluster c, in (v, w) order.
    template <class F>
    void read(std::uint64_t c, F&& f) {
        if (writer_) throw invalid_request("cluster_file::read before finish()");
        if (c >= clusters())
            throw invalid_request("cluster_file::read: cluster " + std::to_string(c) + " >= " +
                                  std::to_string(clusters()));
        std::uint64_t a = index_[c], b = index_[c + 1];
        while (a < b) {
            std::uint64_t k = a / items_per_segment;
            const segment& s = segments_[k];
            std::uint64_t j0 = a - k * items_per_segment;
            std::uint64_t j1 = std::min(b, (k + 1) * items_per_segment) - k * items_per_segment;
            std::uint64_t blk0 = j0 / layout::items_per_block, blk1 = (j1 - 1) / layout::items_per_block + 1;
            stxxl::request_ptr req =
                s.ext.dev->aread(buffer_.data(), s.ext.offset + blk0 * Br, (blk1 - blk0) * Br, role_);
            s.ext.dev->wait(req, role_);
            ++read_requests_;
            const char* base = buffer_.data();  // holds blocks [blk0, blk1) of the segment
            for (std::uint64_t j = j0; j < j1; ++j) {
                adjacency_record rec;
                std::memcpy(&rec, base + (j / layout::items_per_block - blk0) * Br +
                                      (j % layout::items_per_block) * sizeof(adjacency_record),
                            sizeof rec);
                f(rec);
            }
            a = k * items_per_segment + j1;
        }
    }

private:
    machine* machine_;
    role role_;
    std::vector<std::uint64_t> index_;
    std::uint64_t current_ = 0;
    std::uint64_t records_ = 0;
    std::uint64_t counter_ = 0;
    memory_account account_;
    std::unique_ptr<writer_type> writer_;
    std::vector<segment> segments_;
    aligned_buffer buffer_;
    std::uint64_t read_requests_ = 0;
};

} // namespace flashxxl
