// The cluster index of MM_BFS: adjacency records laid out cluster by cluster (role static_data).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/io/block_writer.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/segment.hpp"
#include "flashxxl/machine/extent.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! The file F of shared/BFS.md: adjacency records (v, w, c(w)) sorted by (c(v), v, w), written
//! once with Bw writes (block_writer, role static_data: on flash under flash_aware), and the
//! index I[c] = first record of cluster c (K + 1 entries, held in memory: 8 bytes per cluster).
//!
//! read() fetches a whole cluster with one read request per Bw segment it touches (one request
//! when the cluster lies within a segment, which is the common case for clusters much smaller
//! than Bw), covering only the Br blocks that hold the cluster. Memory: the writer's 2 x Bw
//! while building (writer_memory; charged to the account the constructor gets, else to the
//! file's own), one Bw read buffer from the first read on (the file's own account()), plus the
//! index. The block sizes are a run-time value (blocks()); the file owns its segments, which go
//! back to the devices with it. Not thread-safe.
class cluster_file {
public:
    using layout_type = block_layout<adjacency_record>;
    using writer_type = block_writer<adjacency_record>;

    //! Bytes of the write buffers while the file is built with block sizes `b`: 2 x Bw.
    static std::uint64_t writer_memory(const block_sizes& b) { return writer_type::memory_usage(b, 2); }

    //! An empty file with `clusters` clusters on machine `m` with block sizes `b` (config_error
    //! for an invalid pair); append records in (c(v), v, w) order with push(), then finish().
    //! The write buffers are charged to `write_account` when given (it must outlive finish(),
    //! or the file if finish() is not called), else to account().
    cluster_file(machine& m, std::uint64_t clusters, const block_sizes& b, role r = role::static_data,
                 memory_account* write_account = nullptr)
        : role_(r), blocks_((b.validate(), b)), layout_(b.br),
          items_per_segment_(writer_type::items_per_segment(b)), index_(clusters + 1, 0) {
        writer_ = std::make_unique<writer_type>(m, r, blocks_, counter_,
                                                write_account ? write_account : &account_, 2);
    }
    cluster_file(const cluster_file&) = delete;
    cluster_file& operator=(const cluster_file&) = delete;

    //! Appends the record of an adjacency entry of a node of cluster `c` (c non-decreasing).
    void push(bfs_node c, const adjacency_record& rec) {
        if (!writer_) throw invalid_request("cluster_file::push after finish()");
        if (c + 1 >= index_.size() || c < current_)
            throw invalid_request("cluster_file::push: cluster " + std::to_string(c) +
                                  " out of order or >= " + std::to_string(index_.size() - 1));
        while (current_ < c)
            index_[++current_] = records_;
        writer_->push(rec);
        ++records_;
    }
    //! Writes the rest and completes the index.
    void finish() {
        if (!writer_) return;
        segments_ = writer_->finish();
        writer_.reset();
        while (current_ + 1 < index_.size())
            index_[++current_] = records_;
    }

    //! K.
    std::uint64_t clusters() const { return index_.size() - 1; }
    //! Records in the file.
    std::uint64_t records() const { return records_; }
    //! Records of cluster c.
    std::uint64_t cluster_records(std::uint64_t c) const { return index_.at(c + 1) - index_.at(c); }
    //! Bytes on the devices (whole Br blocks).
    std::uint64_t bytes() const { return layout_.bytes_for(records_); }
    //! Bytes of the in-memory index.
    std::uint64_t index_bytes() const { return index_.size() * sizeof(std::uint64_t); }
    //! Read requests issued by read().
    std::uint64_t read_requests() const { return read_requests_; }
    //! Records in one Bw segment of the file.
    std::uint64_t items_per_segment() const { return items_per_segment_; }
    //! The block sizes of the file.
    const block_sizes& blocks() const { return blocks_; }
    const memory_account& account() const { return account_; }

    //! Calls f(record) for every record of cluster c, in (v, w) order.
    template <class F> void read(std::uint64_t c, F&& f) {
        if (c >= clusters())
            throw invalid_request("cluster_file::read: cluster " + std::to_string(c) +
                                  " >= " + std::to_string(clusters()));
        read_clusters(c, c + 1, f);
    }

    //! The Br blocks [first, last) that read(c) reads, numbered over the whole file (block g
    //! holds records [g x items per Br block, (g + 1) x items per Br block)); empty for an empty
    //! cluster.
    std::pair<std::uint64_t, std::uint64_t> block_span(std::uint64_t c) const {
        if (c >= clusters())
            throw invalid_request("cluster_file::block_span: cluster " + std::to_string(c) +
                                  " >= " + std::to_string(clusters()));
        const std::uint64_t per_block = layout_.items_per_block();
        const std::uint64_t a = index_[c], b = index_[c + 1];
        if (a == b) return {a / per_block, a / per_block};
        return {a / per_block, (b - 1) / per_block + 1};
    }
    //! The clusters that lie wholly inside the Br blocks [first, last) (block_span numbering):
    //! read_cluster_range on them reads no block outside that range.
    std::pair<std::uint64_t, std::uint64_t> clusters_in_blocks(std::uint64_t first,
                                                               std::uint64_t last) const {
        const std::uint64_t per_block = layout_.items_per_block();
        const std::uint64_t lo = first * per_block, hi = std::min(records_, last * per_block);
        const std::uint64_t f = std::lower_bound(index_.begin(), index_.end(), lo) - index_.begin();
        std::uint64_t l = std::upper_bound(index_.begin(), index_.end(), hi) - index_.begin();
        l = l == 0 ? 0 : l - 1; // index_[l] <= hi: clusters [f, l) end by hi
        return {std::min(f, clusters()), std::max(std::min(f, clusters()), std::min(l, clusters()))};
    }

    //! Calls f(record) for every record of clusters [first, last), in (c(v), v, w) order, with one
    //! read request per Bw segment the range touches.
    template <class F> void read_clusters(std::uint64_t first, std::uint64_t last, F&& f) {
        read_cluster_range(first, last, [&](std::uint64_t, const adjacency_record& rec) { f(rec); });
    }
    //! The same, calling f(c, record) with the cluster c of each record.
    template <class F> void read_cluster_range(std::uint64_t first, std::uint64_t last, F&& f) {
        if (writer_) throw invalid_request("cluster_file::read before finish()");
        if (first >= last || last > clusters())
            throw invalid_request("cluster_file::read_clusters: range [" + std::to_string(first) + ", " +
                                  std::to_string(last) + ") not within " + std::to_string(clusters()) +
                                  " clusters");
        if (buffer_.empty()) buffer_ = aligned_buffer(blocks_.bw, &account_); // the first read
        const std::uint64_t br = blocks_.br;
        const std::uint64_t per_block = layout_.items_per_block();
        std::uint64_t a = index_[first], b = index_[last];
        std::uint64_t c = first, i = a; // cluster of record i
        while (a < b) {
            std::uint64_t k = a / items_per_segment_;
            const extent& ext = segments_[k].ext.get();
            std::uint64_t j0 = a - k * items_per_segment_;
            std::uint64_t j1 = std::min(b, (k + 1) * items_per_segment_) - k * items_per_segment_;
            std::uint64_t blk0 = j0 / per_block, blk1 = (j1 - 1) / per_block + 1;
            stxxl::request_ptr req =
                ext.dev->aread(buffer_.data(), ext.offset + blk0 * br, (blk1 - blk0) * br, role_);
            ext.dev->wait(req, role_);
            ++read_requests_;
            // The buffer holds blocks [blk0, blk1) of the segment; records [j0, j1) block by block.
            const char* block = buffer_.data();
            for (std::uint64_t blk = blk0; blk < blk1; ++blk, block += br) {
                const std::uint64_t first_item = blk * per_block;
                const std::uint64_t from = std::max(j0, first_item),
                                    to = std::min(j1, first_item + per_block);
                const char* p = block + (from - first_item) * sizeof(adjacency_record);
                for (std::uint64_t j = from; j < to; ++j, p += sizeof(adjacency_record), ++i) {
                    while (index_[c + 1] <= i)
                        ++c;
                    adjacency_record rec;
                    std::memcpy(&rec, p, sizeof rec);
                    f(c, rec);
                }
            }
            a = k * items_per_segment_ + j1;
        }
    }

private:
    role role_;
    block_sizes blocks_;
    layout_type layout_;
    std::uint64_t items_per_segment_;
    std::vector<std::uint64_t> index_;
    std::uint64_t current_ = 0;
    std::uint64_t records_ = 0;
    std::uint64_t counter_ = 0;
    memory_account account_;
    std::vector<segment> segments_;       // owned: dropped with the file
    std::unique_ptr<writer_type> writer_; // destroyed first: waits for its writes
    aligned_buffer buffer_;
    std::uint64_t read_requests_ = 0;
};

} // namespace flashxxl
