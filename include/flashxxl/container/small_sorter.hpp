// A sorter that stays an in-memory array while its items are few and becomes a flashxxl::sorter when they are
// not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flashxxl/container/sorter.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_charge.hpp"

namespace flashxxl {

//! Sorts like flashxxl::sorter (push, sort(), then `*`, `->`, `++`, empty(), size()) within the
//! same budget `memory`, for the many small sorts of a level-by-level algorithm (MM_BFS's
//! neighbour lists: shared/BFS.md, "small sorters in memory while small"). A sorter claims its
//! run buffer, most of its budget, at the first push; this one holds its items in a std::vector
//! that grows by doubling (charged to `account` at its capacity, both arrays while it
//! reallocates) and takes a sorter only when the array would pass `array_limit(memory, b)`: a
//! third of the budget, less what the sorter then needs at least. The sorter gets the budget
//! less the array, which is moved into it and freed. The output is the sorter's: std::sort
//! with `Cmp`, so items that compare equal come out in an unspecified order either way.
template <class T, class Cmp = std::less<T>> class small_sorter {
public:
    using value_type = T;
    using big_sorter = sorter<T, Cmp>;

    //! Bytes the array may hold before a sorter takes over (0: the sorter from the first push).
    static std::uint64_t array_limit(std::uint64_t memory, const block_sizes& b) {
        const std::uint64_t floor = big_sorter::min_memory(b);
        if (memory < floor) return 0;
        return std::min(memory / 3, memory - floor);
    }

    //! config_error as flashxxl::sorter's for a budget below big_sorter::min_memory(b).
    small_sorter(machine& m, std::uint64_t memory, const block_sizes& b, Cmp cmp = Cmp(),
                 role r = role::scratch, memory_account* account = nullptr)
        : machine_(&m), memory_(memory), blocks_((b.validate(), b)), cmp_(std::move(cmp)), role_(r),
          account_(account), limit_(array_limit(memory, b)), charge_(account, 0) {
        if (memory < big_sorter::min_memory(b))
            throw config_error("flashxxl::small_sorter: memory budget " + format_bytes(double(memory)) +
                               " is below the " + format_bytes(double(big_sorter::min_memory(b))) + " that " +
                               b.describe() + " need");
    }
    small_sorter(const small_sorter&) = delete;
    small_sorter& operator=(const small_sorter&) = delete;

    void push(const T& item) {
        if (sorted_) throw invalid_request("flashxxl::small_sorter::push after sort()");
        if (big_) {
            big_->push(item);
            return;
        }
        if (items_.size() == items_.capacity() && !grow()) {
            spill();
            big_->push(item);
            return;
        }
        items_.push_back(item);
    }
    //! Ends the input and prepares the sorted output.
    void sort() {
        if (sorted_) throw invalid_request("flashxxl::small_sorter::sort called twice");
        sorted_ = true;
        if (big_) {
            big_->sort();
            return;
        }
        std::sort(items_.begin(), items_.end(), cmp_);
    }
    //! Items not yet streamed out (before sort(): items pushed).
    std::uint64_t size() const { return big_ ? big_->size() : items_.size() - pos_; }
    bool empty() const { return size() == 0; }
    //! True once the items outgrew the array and a sorter holds them.
    bool external() const { return big_ != nullptr; }
    //! The smallest item not yet streamed out (after sort(), not empty()).
    const T& operator*() const {
        if (big_) return **big_;
        check_output("operator*");
        return items_[pos_];
    }
    const T* operator->() const { return &**this; }
    small_sorter& operator++() {
        if (big_) {
            ++*big_;
            return *this;
        }
        check_output("operator++");
        ++pos_;
        return *this;
    }

private:
    void check_output(const char* what) const {
        if (!sorted_ || pos_ == items_.size())
            throw invalid_request(std::string("flashxxl::small_sorter::") + what +
                                  (sorted_ ? " past the end" : " before sort()"));
    }
    //! Doubles the array if the result stays within the limit.
    bool grow() {
        const std::uint64_t now = items_.capacity() * sizeof(T);
        const std::uint64_t next = std::max<std::uint64_t>(2 * now, 64 * sizeof(T));
        if (next > limit_) return false;
        charge_.set(now + next); // both arrays while the items move
        items_.reserve(next / sizeof(T));
        charge_.set(items_.capacity() * sizeof(T));
        return true;
    }
    //! Hands the items to a sorter with the budget less the array, then frees the array. The
    //! sorter is taken on only once it holds them all: a spill that fails (out_of_space, a
    //! failed write) leaves the items in the array, and the push may be retried.
    void spill() {
        auto big = std::make_unique<big_sorter>(*machine_, memory_ - items_.capacity() * sizeof(T), blocks_,
                                                cmp_, role_, account_);
        big->push(items_.data(), items_.size());
        big_ = std::move(big);
        std::vector<T>().swap(items_);
        charge_.set(0);
    }

    machine* machine_;
    std::uint64_t memory_;
    block_sizes blocks_;
    Cmp cmp_;
    role role_;
    memory_account* account_;
    std::uint64_t limit_;
    std::vector<T> items_;
    std::uint64_t pos_ = 0;
    bool sorted_ = false;
    memory_charge charge_;
    std::unique_ptr<big_sorter> big_;
};

} // namespace flashxxl
