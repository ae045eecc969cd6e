// communicator over MPI_COMM_WORLD (built only when CMake finds MPI: target flashxxl::distributed_sort).
#pragma once

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::distributed {

//! MPI's lifetime: MPI_Init in the constructor, MPI_Finalize in the destructor (one per process).
//! When a rank fails, the sort's failure agreement (agree_on_failure) lets every rank leave its
//! collectives before this destructor runs, so MPI_Finalize does not wait on a missing rank.
class mpi_session_scope {
public:
    mpi_session_scope(int* argc, char*** argv) {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (!initialized && MPI_Init(argc, argv) != MPI_SUCCESS) throw error("MPI_Init failed");
        owns_ = !initialized;
    }
    mpi_session_scope(const mpi_session_scope&) = delete;
    mpi_session_scope& operator=(const mpi_session_scope&) = delete;
    ~mpi_session_scope() {
        if (owns_) MPI_Finalize();
    }

private:
    bool owns_ = false;
};

//! The ranks of MPI_COMM_WORLD. Buffers move as MPI_BYTE with Allgatherv / Alltoallv; a buffer
//! of 2 GiB or more (beyond MPI's int counts) is refused with an error naming it: the sort sends
//! at most a Bw per destination per step.
class mpi_communicator : public communicator {
public:
    mpi_communicator() {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }

    std::vector<byte_buffer> all_gather(const byte_buffer& mine) override {
        int count = checked_count(mine.size(), "all_gather");
        const std::size_t n = std::size_t(size_);
        std::vector<int> counts(n), displs(n);
        check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
        byte_buffer all(offsets(counts, displs));
        check(MPI_Allgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                             MPI_COMM_WORLD),
              "MPI_Allgatherv");
        return split(all, counts, displs);
    }

    std::vector<byte_buffer> all_to_all(const std::vector<byte_buffer>& to_each) override {
        if (int(to_each.size()) != size_)
            throw std::invalid_argument("mpi_communicator::all_to_all: " + std::to_string(to_each.size()) +
                                        " buffers for " + std::to_string(size_) + " ranks");
        const std::size_t n = std::size_t(size_);
        std::vector<int> send_counts(n), send_displs(n);
        for (int j = 0; j < size_; ++j)
            send_counts[std::size_t(j)] = checked_count(to_each[std::size_t(j)].size(), "all_to_all");
        byte_buffer out(offsets(send_counts, send_displs));
        for (int j = 0; j < size_; ++j)
            if (send_counts[std::size_t(j)] > 0)
                std::memcpy(out.data() + send_displs[std::size_t(j)], to_each[std::size_t(j)].data(),
                            std::size_t(send_counts[std::size_t(j)]));
        std::vector<int> recv_counts(n), recv_displs(n);
        check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD),
              "MPI_Alltoall");
        byte_buffer in(offsets(recv_counts, recv_displs));
        check(MPI_Alltoallv(out.data(), send_counts.data(), send_displs.data(), MPI_BYTE, in.data(),
                            recv_counts.data(), recv_displs.data(), MPI_BYTE, MPI_COMM_WORLD),
              "MPI_Alltoallv");
        return split(in, recv_counts, recv_displs);
    }

private:
    static int checked_count(std::size_t bytes, const char* what) {
        if (bytes > std::size_t(INT_MAX))
            throw error(std::string("mpi_communicator::") + what + ": a buffer of " + std::to_string(bytes) +
                        " bytes is beyond MPI's int counts (expected less than 2 GiB)");
        return int(bytes);
    }
    static void check(int rc, const char* call) {
        if (rc != MPI_SUCCESS)
            throw error(std::string(call) + " failed (MPI error " + std::to_string(rc) + ")");
    }
    //! Fills displs from counts; returns the total.
    static std::size_t offsets(const std::vector<int>& counts, std::vector<int>& displs) {
        std::size_t total = 0;
        for (std::size_t i = 0; i < counts.size(); ++i) {
            displs[i] = checked_count(total, "offsets");
            total += std::size_t(counts[i]);
        }
        checked_count(total, "offsets");
        return total;
    }
    static std::vector<byte_buffer> split(const byte_buffer& all, const std::vector<int>& counts,
                                          const std::vector<int>& displs) {
        std::vector<byte_buffer> out(counts.size());
        for (std::size_t i = 0; i < counts.size(); ++i)
            out[i].assign(all.begin() + displs[i], all.begin() + displs[i] + counts[i]);
        return out;
    }
    int rank_ = 0, size_ = 1;
};

} // namespace flashxxl::distributed
