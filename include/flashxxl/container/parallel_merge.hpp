// Stable multiway merge of sorted in-memory sequences on several threads (libstdc++'s parallel-mode selection
// and loser tree).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <omp.h>
// multiway_merge.h uses __equally_split and __merge_advance without including their headers (GCC 12).
#include <parallel/parallel.h>
#include <parallel/equally_split.h>
#include <parallel/multiway_merge.h>
#include <parallel/merge.h> // after multiway_merge.h, which declares what it needs
#include <parallel/multiseq_selection.h>

#include "flashxxl/container/worker_thread.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl {

//! The machine's thread count for merging and sorting: OpenMP's default team size
//! (omp_get_max_threads(): the cores, or OMP_NUM_THREADS). Containers take it when their
//! thread count is left at 0.
inline std::size_t default_threads() { return std::size_t(std::max(1, omp_get_max_threads())); }

//! The most threads a container accepts (set_threads, sort()): far more than any machine's cores,
//! so it only catches a mistyped count before thousands of threads (8 MiB of stack each) start.
inline constexpr std::size_t max_threads = 1024;

//! Resolves a requested thread count: 0 means default_threads(). config_error above max_threads.
inline std::size_t resolve_threads(std::size_t requested) {
    if (requested > max_threads)
        throw config_error("thread count " + std::to_string(requested) + " is above the " +
                           std::to_string(max_threads) + " a container accepts (0: the machine's, here " +
                           std::to_string(default_threads()) + ")");
    return requested == 0 ? default_threads() : requested;
}

//! Fewest items worth a parallel merge: below this an OpenMP team costs more than it saves
//! (starting one is a few microseconds, merging 8192 items about 100).
constexpr std::uint64_t parallel_merge_min_items = 8192;

//! Threads that run the pieces of a parallel merge: `size() - 1` threads of its own plus the
//! caller of run(). Between runs a thread first waits `spin` (yielding its core to any other
//! runnable thread) and then sleeps on a condition variable; the caller waits for the team the
//! same way. A streaming merge runs one short round per output step (a millisecond or two) with
//! the consumer's pass over the step in between: waking a sleeping thread at every step made
//! the sorter's 2-thread merge phase about 4 % slower on a 2-core VM (docs/results/two-cores/,
//! 2026-11-24). (An OpenMP team spin-waits without bound between parallel regions, and on a
//! loaded 2-core machine the spinning worker took the core from the thread that consumes the
//! output: with 2 threads the sorter's merge phase took 11.4 s under OMP_WAIT_POLICY=active and
//! 1.4 s under passive, against 1.0-3.0 s on one thread; the yield and the bound keep that from
//! happening here.) The threads start at the first run() and end with the team; nothing is
//! process-wide.
class merge_team {
public:
    //! How long an idle thread spins before it sleeps: a bit more than a consumer's pass over
    //! an output stage of a few MiB.
    static constexpr std::chrono::microseconds default_spin{200};

    explicit merge_team(std::size_t size, std::chrono::microseconds spin = default_spin)
        : size_(std::max<std::size_t>(size, 1)), spin_(spin) {}
    merge_team(const merge_team&) = delete;
    merge_team& operator=(const merge_team&) = delete;
    ~merge_team() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
            round_.fetch_add(1, std::memory_order_release); // ends the spinning too
        }
        work_.notify_all();
        for (std::thread& t : threads_)
            t.join();
    }

    //! Threads of the team, the caller included.
    std::size_t size() const { return size_; }

    //! Calls job(i) for i in [0, n) (n <= size()), job(0) on the calling thread, and returns
    //! when all are done; rethrows the first exception a job threw.
    template <class Job> void run(std::size_t n, const Job& job) {
        n = std::min(n, size_);
        if (n <= 1) {
            job(0);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            while (threads_.size() + 1 < size_) {
                std::size_t id = threads_.size() + 1;
                threads_.push_back(
                    start_worker_thread("flashxxl merge team", id, size_ - 1, [this, id] { serve(id); }));
            }
            job_ = [&job](std::size_t i) { job(i); };
            jobs_ = n;
            pending_.store(n - 1, std::memory_order_relaxed);
            error_ = nullptr;
            round_.fetch_add(1, std::memory_order_release);
        }
        work_.notify_all(); // no system call when every thread is still spinning
        std::exception_ptr mine;
        try {
            job(0);
        } catch (...) {
            mine = std::current_exception();
        }
        spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; });
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return pending_.load(std::memory_order_acquire) == 0; });
        job_ = nullptr;
        if (mine) std::rethrow_exception(mine);
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

private:
    //! Spins (yielding) for at most spin_ until done() holds; returns whether it did.
    template <class Done> bool spin_until(const Done& done) const {
        if (done()) return true;
        const auto until = std::chrono::steady_clock::now() + spin_;
        do {
            std::this_thread::yield();
            if (done()) return true;
        } while (std::chrono::steady_clock::now() < until);
        return false;
    }

    void serve(std::size_t id) {
        std::uint64_t seen = 0;
        for (;;) {
            spin_until([&] { return round_.load(std::memory_order_acquire) != seen; });
            std::unique_lock<std::mutex> lock(mutex_);
            work_.wait(lock, [&] { return stop_ || round_.load(std::memory_order_relaxed) != seen; });
            if (stop_) return;
            seen = round_.load(std::memory_order_relaxed);
            if (id >= jobs_) continue;
            lock.unlock();
            try {
                job_(id);
            } catch (...) {
                std::lock_guard<std::mutex> error_lock(error_mutex_);
                if (!error_) error_ = std::current_exception();
            }
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                std::lock_guard<std::mutex> done_lock(mutex_); // the caller checks under it: no lost wake-up
                done_.notify_all();
            }
        }
    }

    std::size_t size_;
    std::chrono::microseconds spin_;
    std::vector<std::thread> threads_;
    std::mutex mutex_, error_mutex_;
    std::condition_variable work_, done_;
    std::function<void(std::size_t)> job_;
    std::size_t jobs_ = 0;
    std::atomic<std::size_t> pending_{0}; // jobs of this round not done by the team's own threads
    std::atomic<std::uint64_t> round_{0}; // rounds started (written under mutex_, spun on without it)
    bool stop_ = false;
    std::exception_ptr error_;
};

//! Merges the `n` smallest items of the sorted sequences [first, last) into `out` (0 < n <= the
//! items they hold) on the calling thread and advances each sequence's first
//! past what it gave: libstdc++'s stable loser tree (the one its multiway merge takes for more
//! than four sequences; by reference for items up to four pointers, by pointer beyond). Its
//! 2-, 3- and 4-way special cases are left out: each is another instantiation per item type,
//! and a sorter's merge steps rarely see so few sequences.
template <class T, class Before>
T* loser_tree_merge(std::pair<T*, T*>* first, std::pair<T*, T*>* last, T* out, std::uint64_t n,
                    const Before& before) {
    using tree = typename std::conditional<__gnu_parallel::_LoserTreeTraits<T>::_M_use_pointer,
                                           __gnu_parallel::_LoserTreePointer<true, T, Before>,
                                           __gnu_parallel::_LoserTree<true, T, Before>>::type;
    return __gnu_parallel::multiway_merge_loser_tree<tree>(first, last, out, std::ptrdiff_t(n), before);
}

//! Merges the `n` smallest items of the sorted sequences `seqs` ([first, second) each) into
//! `out` and advances each sequence's first past what it gave; returns the end of the output
//! (out + min(n, items in seqs)). Stable: ties leave in the order of their sequences, so the
//! output is exactly what the sequential stable merge writes, whatever the team's size.
//!
//! With a team of more than one thread and at least parallel_merge_min_items to write, the
//! output is cut into pieces of equal size by exact multisequence selection and the pieces are
//! merged at once, one per thread. Both parts are libstdc++'s parallel mode
//! (__gnu_parallel::multiseq_partition, the selection its exact-splitting multiway merge uses,
//! and its stable loser tree: loser_tree_merge); only the threads
//! are merge_team's instead of an OpenMP team (see merge_team for why).
//! The sequences are pairs of mutable pointers because libstdc++'s loser tree wants them; the
//! items are only read.
template <class T, class Before>
T* merge_sorted(std::vector<std::pair<T*, T*>>& seqs, T* out, std::uint64_t n, const Before& before,
                merge_team* team = nullptr) {
    using seq = std::pair<T*, T*>;
    std::uint64_t total = 0;
    // Bookkeeping is a few words per sequence (a merge step may see thousands: every Br block
    // in memory), kept small because it counts against the containers' reserve.
    std::vector<std::uint32_t> live; // the non-empty sequences, in order
    live.reserve(seqs.size());
    for (std::size_t s = 0; s < seqs.size(); ++s) {
        total += std::uint64_t(seqs[s].second - seqs[s].first);
        if (seqs[s].first != seqs[s].second) live.push_back(std::uint32_t(s));
    }
    n = std::min(n, total);
    if (n == 0) return out;
    if (live.size() == 1) {
        std::memcpy(static_cast<void*>(out), seqs[live[0]].first, n * sizeof(T));
        seqs[live[0]].first += n;
        return out + n;
    }
    std::vector<seq> ne(live.size());
    for (std::size_t s = 0; s < live.size(); ++s)
        ne[s] = seqs[live[s]];
    const std::size_t pieces = team == nullptr || n < parallel_merge_min_items
                                   ? 1
                                   : std::size_t(std::min<std::uint64_t>(team->size(), n / 4096));
    if (pieces <= 1) {
        T* end = loser_tree_merge(ne.data(), ne.data() + ne.size(), out, n, before);
        for (std::size_t s = 0; s < live.size(); ++s)
            seqs[live[s]].first = ne[s].first;
        return end;
    }
    // Where piece t starts in sequence s: ne[s].first + cut[t * k + s] (t = pieces: where the
    // merge stops). Offsets within one sequence (a Br block or a sorted chunk) fit 32 bits
    // when the sequences do; longer ones take the 64-bit path.
    const std::size_t k = ne.size();
    std::uint64_t longest = 0;
    for (const seq& q : ne)
        longest = std::max<std::uint64_t>(longest, std::uint64_t(q.second - q.first));
    if (longest >= (std::uint64_t(1) << 32)) {
        // Not reached by the containers (a chunk holds at most M / sizeof(T) items); kept simple.
        T* end = loser_tree_merge(ne.data(), ne.data() + ne.size(), out, n, before);
        for (std::size_t s = 0; s < live.size(); ++s)
            seqs[live[s]].first = ne[s].first;
        return end;
    }
    // Each piece finds both of its ends by selection on its own thread (the selections cost
    // O(k log k log n) each and would otherwise run one after another on the caller); piece t
    // publishes its end as row t + 1 of `cut`, which the caller reads for the last piece.
    std::vector<std::uint32_t> cut((pieces + 1) * k, 0);
    // libstdc++'s multiseq_partition leaks its scratch arrays when the comparator throws, so
    // the selection gets a comparator that keeps the first exception, answers "not before"
    // from then on (a consistent order, so the selection finishes and frees its memory), and
    // the exception is rethrown once it has.
    auto select = [&](std::uint64_t rank, std::vector<T*>& split) {
        if (rank == total) {
            for (std::size_t s = 0; s < k; ++s)
                split[s] = ne[s].second;
        } else if (rank == 0) {
            for (std::size_t s = 0; s < k; ++s)
                split[s] = ne[s].first;
        } else {
            std::exception_ptr failed;
            auto guarded = [&](const T& a, const T& b) {
                if (failed) return false;
                try {
                    return bool(before(a, b));
                } catch (...) {
                    failed = std::current_exception();
                    return false;
                }
            };
            __gnu_parallel::multiseq_partition(ne.begin(), ne.end(), std::ptrdiff_t(rank), split.begin(),
                                               guarded);
            if (failed) std::rethrow_exception(failed);
        }
    };
    team->run(pieces, [&](std::size_t t) {
        std::vector<T*> from(k), to(k);
        select(n * t / pieces, from);
        select(n * (t + 1) / pieces, to);
        std::vector<seq> part(k);
        std::uint64_t at = 0, len = 0; // where the piece's output starts; its length
        for (std::size_t s = 0; s < k; ++s) {
            part[s] = seq(from[s], to[s]);
            at += std::uint64_t(from[s] - ne[s].first);
            cut[(t + 1) * k + s] = std::uint32_t(to[s] - ne[s].first);
            len += std::uint64_t(to[s] - from[s]);
        }
        if (len == 0) return;
        loser_tree_merge(part.data(), part.data() + part.size(), out + at, len,
                         before); // empty parts are fine
    });
    for (std::size_t s = 0; s < live.size(); ++s)
        seqs[live[s]].first = ne[s].first + cut[pieces * k + s];
    return out + n;
}

} // namespace flashxxl
