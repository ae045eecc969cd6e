// The two collectives the distributed sort needs (all-gather, all-to-all), as a small virtual interface.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace flashxxl::distributed {

using byte_buffer = std::vector<unsigned char>;

//! The ranks of a distributed run, as the sort sees them: every rank calls the collectives in the
//! same order (as MPI requires). Implementations: mpi_communicator (MPI_COMM_WORLD),
//! in_process_communicator (threads of one process, for tests), metered_communicator (counts
//! bytes and charges a network model on top of another).
class communicator {
public:
    virtual ~communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    //! Every rank's `mine`, in rank order (this rank's included).
    virtual std::vector<byte_buffer> all_gather(const byte_buffer& mine) = 0;
    //! Sends to_each[j] to rank j (to_each.size() == size()); returns what each rank sent here,
    //! in rank order.
    virtual std::vector<byte_buffer> all_to_all(const std::vector<byte_buffer>& to_each) = 0;
};

//! The bytes of `items` (trivially copyable).
template <class T> byte_buffer to_bytes(const std::vector<T>& items) {
    static_assert(std::is_trivially_copyable<T>::value, "sent as bytes");
    byte_buffer b(items.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), items.data(), b.size());
    return b;
}

//! The items a byte buffer holds (its size a multiple of sizeof(T)).
template <class T> std::vector<T> from_bytes(const byte_buffer& b) {
    static_assert(std::is_trivially_copyable<T>::value, "sent as bytes");
    std::vector<T> items(b.size() / sizeof(T));
    if (!items.empty()) std::memcpy(static_cast<void*>(items.data()), b.data(), items.size() * sizeof(T));
    return items;
}

//! Every rank's `mine`, as items, in rank order.
template <class T> std::vector<std::vector<T>> all_gather_items(communicator& c, const std::vector<T>& mine) {
    std::vector<std::vector<T>> out;
    for (const byte_buffer& b : c.all_gather(to_bytes(mine)))
        out.push_back(from_bytes<T>(b));
    return out;
}

//! The sum over the ranks of `mine`.
inline std::uint64_t all_sum(communicator& c, std::uint64_t mine) {
    std::uint64_t sum = 0;
    for (const std::vector<std::uint64_t>& v : all_gather_items(c, std::vector<std::uint64_t>{mine}))
        sum += v.at(0);
    return sum;
}

//! The largest of the ranks' `mine`.
inline std::uint64_t all_max(communicator& c, std::uint64_t mine) {
    std::uint64_t most = 0;
    for (const std::vector<std::uint64_t>& v : all_gather_items(c, std::vector<std::uint64_t>{mine}))
        most = v.at(0) > most ? v.at(0) : most;
    return most;
}

} // namespace flashxxl::distributed
