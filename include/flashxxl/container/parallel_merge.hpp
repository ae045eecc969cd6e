// Stable multiway merge of sorted in-memory sequences on several threads (libstdc++ parallel mode, OpenMP).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

#include <omp.h>
// multiway_merge.h uses __equally_split and __merge_advance without including their headers (GCC 12).
#include <parallel/parallel.h>
#include <parallel/equally_split.h>
#include <parallel/multiway_merge.h>
#include <parallel/merge.h>  // after multiway_merge.h, which declares what it needs

namespace flashxxl {

//! The machine's thread count for merging and sorting: OpenMP's default team size
//! (omp_get_max_threads(): the cores, or OMP_NUM_THREADS). Containers take it when their
//! thread count is left at 0.
inline std::size_t default_threads() { return std::size_t(std::max(1, omp_get_max_threads())); }

//! Resolves a requested thread count: 0 means default_threads().
inline std::size_t resolve_threads(std::size_t requested) { return requested == 0 ? default_threads() : requested; }

//! Fewest items worth a parallel merge: below this an OpenMP team costs more than it saves
//! (starting one is a few microseconds, merging 8192 items about 100).
constexpr std::uint64_t parallel_merge_min_items = 8192;

namespace detail {

//! Wraps a comparator for use inside an OpenMP region, where an exception would end the
//! process: the first exception is kept (rethrown by rethrow()) and the comparison answers
//! false from then on, which leaves the merge finite (its output is then garbage).
template <class Before>
class guarded_before {
public:
    struct state {
        std::atomic<bool> failed{false};
        std::mutex mutex;
        std::exception_ptr error;
    };
    guarded_before(const Before* before, state* s) : before_(before), state_(s) {}
    template <class T>
    bool operator()(const T& a, const T& b) const {
        if (state_->failed.load(std::memory_order_relaxed)) return false;
        try {
            return (*before_)(a, b);
        } catch (...) {
            std::lock_guard<std::mutex> lock(state_->mutex);
            if (!state_->error) state_->error = std::current_exception();
            state_->failed.store(true);
            return false;
        }
    }

private:
    const Before* before_;
    state* state_;
};

} // namespace detail

//! Merges the `n` smallest items of the sorted sequences `seqs` ([first, second) each) into
//! `out` and advances each sequence's first past what it gave; returns the end of the output
//! (out + min(n, items in seqs)). Stable: ties leave in the order of their sequences, so the
//! output is exactly what the sequential stable merge writes, whatever `threads` is.
//!
//! With threads > 1 and at least parallel_merge_min_items to write, the output is cut into
//! `threads` pieces of equal size by exact multisequence selection and the pieces are merged
//! on an OpenMP team (libstdc++'s parallel mode: __gnu_parallel::parallel_multiway_merge with
//! exact splitting; its per-piece merge is the same loser tree as the sequential one). Called
//! directly rather than through __gnu_parallel::stable_multiway_merge so that the thread count
//! given here decides, not the process-wide __gnu_parallel::_Settings thresholds.
//! A comparator exception is rethrown here (the output and positions are then undefined).
//! The sequences are pairs of mutable pointers because libstdc++'s loser tree wants them; the
//! items are only read.
template <class T, class Before>
T* merge_sorted(std::vector<std::pair<T*, T*>>& seqs, T* out, std::uint64_t n, const Before& before,
                std::size_t threads) {
    using seq = std::pair<T*, T*>;
    std::uint64_t total = 0;
    const T* some_item = nullptr;
    for (const seq& s : seqs) {
        total += std::uint64_t(s.second - s.first);
        if (s.first != s.second) some_item = s.first;
    }
    n = std::min(n, total);
    if (n == 0) return out;
    if (seqs.size() == 1) {
        std::memcpy(static_cast<void*>(out), seqs[0].first, n * sizeof(T));
        seqs[0].first += n;
        return out + n;
    }
    const auto length = std::ptrdiff_t(n);
    // Leading empty sequences are left out: libstdc++ binds a reference to the first one's end,
    // which must not be a null pointer (an empty std::vector's data()).
    seq* first = seqs.data();
    while (first->first == first->second) ++first;
    seq* last = seqs.data() + seqs.size();
    if (threads > 1 && n >= parallel_merge_min_items) {
        using guarded = detail::guarded_before<Before>;
        typename guarded::state failure;
        guarded cmp(&before, &failure);
        T* end = __gnu_parallel::parallel_multiway_merge</*stable=*/true, /*sentinels=*/false>(
            first, last, out,
            __gnu_parallel::multiway_merge_exact_splitting</*stable=*/true, seq*, guarded, std::ptrdiff_t>, length,
            cmp, __gnu_parallel::_ThreadIndex(std::min<std::size_t>(threads, 1u << 15)));
        if (failure.error) std::rethrow_exception(failure.error);
        return end;
    }
    // The sentinel argument is unused without sentinels; any item serves.
    return __gnu_parallel::__sequential_multiway_merge</*stable=*/true, /*sentinels=*/false>(
        first, last, out, *some_item, length, before);
}

} // namespace flashxxl
