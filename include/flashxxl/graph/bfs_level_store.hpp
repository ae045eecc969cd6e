// A BFS level list kept in memory while it fits its share of M, spilled to a scratch vector past that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/graph/bfs_records.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_charge.hpp"
#include "flashxxl/machine/machine.hpp"

namespace flashxxl {

//! One BFS level, records (v, c(v), parent) pushed in increasing v. Held in a std::vector while
//! it fits `memory` bytes (capacity counted, a reallocation's old and new arrays together);
//! the first push that would exceed it moves everything into a level_list (role scratch,
//! Bw writes) and later pushes stream there. Its writer (2 Bw) and each cursor over the
//! external list (one stream_reader, 2 Br) allocate through `account`. No file is
//! created for a level that stays in memory.
class bfs_level_store {
public:
    using external_list = vector<level_record>;

    bfs_level_store(machine& m, const block_sizes& b, std::uint64_t memory, memory_account& account)
        : machine_(&m), blocks_(b), memory_(memory), account_(&account), charge_(&account, 0) {}
    bfs_level_store(const bfs_level_store&) = delete;
    bfs_level_store& operator=(const bfs_level_store&) = delete;

    //! Memory one cursor over a spilled level holds.
    static std::uint64_t cursor_memory(const block_sizes& b) { return external_list::stream_reader::memory_usage(b, 1); }
    //! Memory of the writer while a level spills.
    static std::uint64_t writer_memory(const block_sizes& b) { return external_list::stream_writer::memory_usage(b); }

    void push(const level_record& r) {
        ++size_;
        if (writer_) {
            writer_->push(r);
            return;
        }
        if (mem_.size() == mem_.capacity()) {
            const std::uint64_t grown = std::max<std::uint64_t>(64, 2 * mem_.capacity());
            if ((grown + mem_.capacity()) * sizeof(level_record) > memory_) {
                spill();
                writer_->push(r);
                return;
            }
            charge_.set((grown + mem_.capacity()) * sizeof(level_record));
            mem_.reserve(grown);
            charge_.set(mem_.capacity() * sizeof(level_record));
        }
        mem_.push_back(r);
    }
    //! Ends the input (writes the external rest).
    void finish() {
        if (writer_) {
            writer_->finish();
            writer_.reset();
        }
    }
    std::uint64_t size() const { return size_; }
    bool external() const { return ext_ != nullptr; }

    //! Streams the level in increasing v.
    class cursor {
    public:
        bool empty() const { return reader_ ? reader_->empty() : pos_ == end_; }
        const level_record& operator*() const { return reader_ ? **reader_ : *pos_; }
        const level_record* operator->() const { return &**this; }
        cursor& operator++() {
            if (reader_)
                ++*reader_;
            else
                ++pos_;
            return *this;
        }

    private:
        friend class bfs_level_store;
        const level_record* pos_ = nullptr;
        const level_record* end_ = nullptr;
        std::unique_ptr<external_list::stream_reader> reader_;
    };
    //! A cursor from the first record (finish() first).
    cursor read() {
        if (writer_) throw invalid_request("bfs_level_store::read before finish()");
        cursor c;
        if (ext_) {
            c.reader_ = std::make_unique<external_list::stream_reader>(*ext_, 0, std::uint64_t(-1), 1, account_);
        } else {
            c.pos_ = mem_.data();
            c.end_ = mem_.data() + mem_.size();
        }
        return c;
    }

private:
    void spill() {
        ext_ = std::make_unique<external_list>(*machine_, external_list::min_memory(blocks_), blocks_, role::scratch);
        writer_ = std::make_unique<external_list::stream_writer>(*ext_, account_);
        for (const level_record& r : mem_) writer_->push(r);
        std::vector<level_record>().swap(mem_);
        charge_.set(0);
    }

    machine* machine_;
    block_sizes blocks_;
    std::uint64_t memory_;
    memory_account* account_;
    std::vector<level_record> mem_;
    memory_charge charge_;
    std::uint64_t size_ = 0;
    std::unique_ptr<external_list> ext_;
    std::unique_ptr<external_list::stream_writer> writer_;
};

} // namespace flashxxl
