// Ranks as threads of one process: the collectives of communicator without MPI (tests, single host).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "flashxxl/distributed/communicator.hpp"

namespace flashxxl::distributed {

//! The meeting point of `ranks` in-process ranks: each thread gets its in_process_communicator
//! from member(r). A collective waits until every rank has brought its part (a generation-counted
//! barrier), so the ranks must call the same collectives in the same order, as under MPI.
class in_process_group {
public:
    explicit in_process_group(int ranks) : ranks_(ranks), slots_(std::size_t(ranks)) {
        if (ranks < 1) throw std::invalid_argument("in_process_group: at least one rank");
    }
    int size() const { return ranks_; }

    //! Every rank's row of buffers (one per destination, or one for all), in rank order, once
    //! all ranks brought theirs.
    std::vector<std::vector<byte_buffer>> exchange(int rank, std::vector<byte_buffer> mine) {
        std::unique_lock<std::mutex> lock(mutex_);
        const std::uint64_t generation = generation_;
        slots_[std::size_t(rank)] = std::move(mine);
        if (++arrived_ == ranks_) {
            result_ = slots_;
            arrived_ = 0;
            ++generation_;
            changed_.notify_all();
        } else {
            changed_.wait(lock, [&] { return generation_ != generation; });
        }
        return result_; // a copy, taken before the next collective can start (it needs this rank)
    }

private:
    int ranks_;
    std::mutex mutex_;
    std::condition_variable changed_;
    int arrived_ = 0;
    std::uint64_t generation_ = 0;
    std::vector<std::vector<byte_buffer>> slots_, result_;
};

//! One rank of an in_process_group.
class in_process_communicator : public communicator {
public:
    in_process_communicator(in_process_group& group, int rank) : group_(&group), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return group_->size(); }
    std::vector<byte_buffer> all_gather(const byte_buffer& mine) override {
        std::vector<byte_buffer> out;
        for (std::vector<byte_buffer>& row : group_->exchange(rank_, {mine}))
            out.push_back(std::move(row.at(0)));
        return out;
    }
    std::vector<byte_buffer> all_to_all(const std::vector<byte_buffer>& to_each) override {
        if (int(to_each.size()) != size())
            throw std::invalid_argument(
                "in_process_communicator::all_to_all: " + std::to_string(to_each.size()) + " buffers for " +
                std::to_string(size()) + " ranks");
        std::vector<byte_buffer> out;
        for (std::vector<byte_buffer>& row : group_->exchange(rank_, to_each))
            out.push_back(std::move(row.at(std::size_t(rank_))));
        return out;
    }

private:
    in_process_group* group_;
    int rank_;
};

} // namespace flashxxl::distributed
