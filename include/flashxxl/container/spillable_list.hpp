// A sequence kept in memory while it fits its share of M, spilled to a scratch vector past that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/memory_charge.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! A list of T written once front to back (push, then finish) and read by cursors. Held in a
//! std::vector while it fits `memory` bytes (capacity counted, a reallocation's old and new
//! arrays together, charged to `account`; capacity doubles, or grows by what the budget still
//! allows); the first push that would exceed it moves everything into a flashxxl::vector (role
//! scratch, block sizes `b`) and later pushes stream there, so no file exists for a list that
//! stays in memory. Outside `memory`, a spilled list holds its writer (writer_memory(b)) while
//! being written and one stream_reader per cursor (cursor_memory(b)), both charged to
//! `account` as well. filter() drops records in order, in place while in memory. T must be
//! trivially copyable. Not thread-safe.
template <class T> class spillable_list {
    static_assert(std::is_trivially_copyable<T>::value, "spillable_list needs a trivially copyable T");

public:
    using external_list = vector<T>;

    //! A list with budget `memory` and block sizes `b` (the position every container takes
    //! them in), charging an account of its own that rolls up into the budget's.
    spillable_list(machine& m, const memory_budget& memory, const block_sizes& b)
        : machine_(&m), blocks_(b), memory_(memory.bytes()), own_account_(memory.account()),
          account_(&own_account_), charge_(account_, 0) {}
    //! A list whose memory is charged to `account` directly (shared with its owner's other
    //! structures, as MM_BFS's hot pool shares one).
    spillable_list(machine& m, const block_sizes& b, std::uint64_t memory, memory_account& account)
        : machine_(&m), blocks_(b), memory_(memory), account_(&account), charge_(&account, 0) {}
    spillable_list(const spillable_list&) = delete;
    spillable_list& operator=(const spillable_list&) = delete;

    //! The account the list's memory is charged to.
    const memory_account& account() const { return *account_; }

    //! Memory one cursor over a spilled list holds.
    static std::uint64_t cursor_memory(const block_sizes& b) {
        return external_list::stream_reader::memory_usage(b, 1);
    }
    //! Memory of the writer while a list spills.
    static std::uint64_t writer_memory(const block_sizes& b) {
        return external_list::stream_writer::memory_usage(b);
    }

    //! Appends r. size() counts it once it is held: a push that throws (out_of_space, naming
    //! the device, the role and "flashxxl::spillable_list", or io_failure while spilling) did
    //! not append it. A spill that fails keeps the list in memory as it was (the next push that
    //! needs room tries again; finish() and read() work on what it holds); a spilled list whose
    //! writer failed refuses every later push and its finish() (vector::stream_writer).
    void push(const T& r) {
        if (finished_) throw invalid_request("spillable_list::push after finish()");
        if (writer_) {
            rethrow_out_of_space_in("flashxxl::spillable_list", [&] { writer_->push(r); });
            ++size_;
            return;
        }
        if (mem_.size() == mem_.capacity()) {
            // Double, or take what the budget still allows while the old array is held.
            const std::uint64_t cap = mem_.capacity();
            std::uint64_t grown = std::max<std::uint64_t>(64, 2 * cap);
            if ((grown + cap) * sizeof(T) > memory_)
                grown = memory_ / sizeof(T) - std::min(cap, memory_ / sizeof(T));
            if (grown <= cap) {
                rethrow_out_of_space_in("flashxxl::spillable_list", [&] { spill(); });
                rethrow_out_of_space_in("flashxxl::spillable_list", [&] { writer_->push(r); });
                ++size_;
                return;
            }
            // set() counts old and new together for a moment, as the reallocation holds both.
            charge_.set(grown * sizeof(T));
            mem_.reserve(grown);
        }
        mem_.push_back(r);
        ++size_;
    }
    //! Makes room for `n` records at once when they fit the budget, so that a list whose final
    //! size is known up to a bound does not spill for a doubling's transient; else nothing.
    void reserve(std::uint64_t n) {
        if (finished_ || ext_ || n <= mem_.capacity() || (n + mem_.capacity()) * sizeof(T) > memory_) return;
        charge_.set(n * sizeof(T));
        mem_.reserve(n);
    }
    //! Ends the input (writes the external rest). Further pushes are refused. A finish that
    //! throws leaves the list unfinished: it cannot be read.
    void finish() {
        if (writer_) {
            rethrow_out_of_space_in("flashxxl::spillable_list", [&] { writer_->finish(); });
            writer_.reset();
        }
        finished_ = true;
    }
    std::uint64_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    //! Whether the list went to the device.
    bool external() const { return ext_ != nullptr; }
    //! Bytes of the in-memory part (its capacity; 0 once spilled).
    std::uint64_t memory_bytes() const { return charge_.bytes(); }

    //! Streams the list front to back.
    class cursor {
    public:
        bool empty() const { return reader_ ? reader_->empty() : pos_ == end_; }
        const T& operator*() const { return reader_ ? **reader_ : *pos_; }
        const T* operator->() const { return &**this; }
        cursor& operator++() {
            if (reader_)
                ++*reader_;
            else
                ++pos_;
            return *this;
        }

    private:
        friend class spillable_list;
        const T* pos_ = nullptr;
        const T* end_ = nullptr;
        std::unique_ptr<typename external_list::stream_reader> reader_;
    };
    //! A cursor from the first record (finish() first).
    cursor read() {
        if (!finished_) throw invalid_request("spillable_list::read before finish()");
        cursor c;
        if (ext_) {
            c.reader_ = std::make_unique<typename external_list::stream_reader>(*ext_, 0, std::uint64_t(-1),
                                                                                1, account_);
        } else {
            c.pos_ = mem_.data();
            c.end_ = mem_.data() + mem_.size();
        }
        return c;
    }

    //! Keeps the records r for which keep(r) is true, in order; keep is called once per record,
    //! front to back (it may have side effects, such as a merge against another sorted
    //! stream). In memory this compacts in place (the capacity stays charged); a spilled list
    //! is streamed into a new one under the same budget, which stays in memory if the rest
    //! fits. finish() first.
    template <class Keep> void filter(Keep keep) {
        if (!finished_) throw invalid_request("spillable_list::filter before finish()");
        if (!ext_) {
            auto out = mem_.begin();
            for (const T& r : mem_)
                if (keep(r)) *out++ = r;
            mem_.erase(out, mem_.end());
            size_ = mem_.size();
            return;
        }
        spillable_list rest(*machine_, blocks_, memory_, *account_);
        {
            cursor c = read();
            for (; !c.empty(); ++c)
                if (keep(*c)) rest.push(*c);
        }
        rest.finish();
        ext_ = std::move(rest.ext_);
        mem_ = std::move(rest.mem_);
        charge_ = std::move(rest.charge_);
        size_ = rest.size_;
    }

private:
    //! Moves the in-memory records into a new external list. On a failure the list stays in
    //! memory as it was: the writer and the external list (and their extents) go.
    void spill() {
        try {
            ext_ = std::make_unique<external_list>(*machine_, external_list::min_memory(blocks_), blocks_,
                                                   role::scratch);
            writer_ = std::make_unique<typename external_list::stream_writer>(*ext_, account_);
            for (const T& r : mem_)
                writer_->push(r);
        } catch (...) {
            writer_.reset();
            ext_.reset();
            throw;
        }
        std::vector<T>().swap(mem_);
        charge_.set(0);
    }

    machine* machine_;
    block_sizes blocks_;
    std::uint64_t memory_;
    memory_account own_account_; // unused when the list charges its owner's account
    memory_account* account_;
    std::vector<T> mem_;
    memory_charge charge_;
    std::uint64_t size_ = 0;
    bool finished_ = false;
    std::unique_ptr<external_list> ext_;
    std::unique_ptr<typename external_list::stream_writer> writer_;
};

} // namespace flashxxl
