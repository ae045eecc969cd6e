// Threads owned by one sorter that sort chunks of its run buffer while the caller keeps filling it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "flashxxl/container/sort_range.hpp"

namespace flashxxl {

//! Sorts submitted chunks [first, last) on its own threads, so that sorting overlaps with
//! whatever the caller does meanwhile (typically waiting for input I/O). The threads start at
//! the first submit() and end with the pool; nothing is process-wide. Each chunk belongs to one
//! of two batches (the two halves of a double-buffered run buffer); wait(batch) lets the
//! calling thread sort queued chunks of that batch too and returns when all of them are
//! sorted; an exception thrown by the comparator while sorting a chunk of that batch is rethrown
//! there (the batch's first one; its other chunks are still sorted, the caller must treat the
//! batch's buffer as garbage). Each batch keeps its own error: a failed chunk of one half never
//! makes the other half's wait() throw, nor does it pass unreported. One thread
//! submits; any thread may wait for a batch.
//!
//! Threads of its own rather than a TBB task_group in a task_arena: the test suite's
//! ThreadSanitizer stage checks this pool's hand-over of chunks between threads, and it cannot
//! see the synchronisation inside Debian's uninstrumented libtbb (each hand-over would need a
//! suppression, hiding real races with it); and a thread waiting in task_group::wait may run
//! other tasks of the arena, here the other batch's chunks, while wait(batch) should return as
//! soon as its own batch is sorted. The merges use libstdc++'s parallel mode (parallel_merge.hpp).
//!
//! The pool does not depend on the item type: it sorts through a `sort_function`
//! (sort_chunk_with<T, Cmp> sorts with sort_range), so its threads, queue and locking are
//! compiled once, in the core library, rather than in every unit that sorts.
class chunk_sort_pool {
public:
    //! Sorts the items in [first, last) (typed pointers the function casts back) by `order`.
    using sort_function = void (*)(void* first, void* last, const void* order);

    //! \param sort    sorts one chunk
    //! \param order   handed to `sort` with every chunk (the sorter's comparator)
    //! \param threads sorting threads besides the caller (at least 1)
    chunk_sort_pool(sort_function sort, const void* order, std::size_t threads);
    chunk_sort_pool(const chunk_sort_pool&) = delete;
    chunk_sort_pool& operator=(const chunk_sort_pool&) = delete;
    ~chunk_sort_pool();

    //! Queues the chunk [first, last) of `batch` (0 or 1) to be sorted; it must stay untouched
    //! until wait(batch) returns.
    void submit(void* first, void* last, int batch = 0);
    //! Sorts queued chunks of `batch` on this thread as well, then waits until every chunk of
    //! it is sorted. Rethrows the first comparator exception of `batch` not yet reported.
    void wait(int batch = 0);
    //! Sorting threads besides the caller.
    std::size_t threads() const { return thread_count_; }

private:
    struct chunk {
        void* first;
        void* last;
        int batch;
    };
    void start(); // called with the mutex held
    void serve();
    void sort_one(const chunk& c); // keeps a comparator's exception for wait()

    sort_function sort_;
    const void* order_;
    std::size_t thread_count_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable work_, done_;
    std::deque<chunk> queue_;
    std::size_t outstanding_[2] = {0, 0}; // queued or being sorted, per batch
    bool stop_ = false;
    std::exception_ptr error_[2]; // the first comparator exception not yet reported, per batch
};

//! chunk_sort_pool's sort_function for items T ordered by Cmp: sort_range.
template <class T, class Cmp> void sort_chunk_with(void* first, void* last, const void* order) {
    sort_range(static_cast<T*>(first), static_cast<T*>(last), *static_cast<const Cmp*>(order));
}

} // namespace flashxxl
