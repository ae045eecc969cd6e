// Threads owned by one sorter that sort chunks of its run buffer while the caller keeps filling it.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "flashxxl/container/sort_range.hpp"

namespace flashxxl {

//! Sorts submitted chunks [first, last) with sort_range on its own threads, so that sorting
//! overlaps with whatever the caller does meanwhile (typically waiting for input I/O). The
//! threads start at the first submit() and end with the pool; nothing is process-wide. Each
//! chunk belongs to one of two batches (the two halves of a double-buffered run buffer);
//! wait(batch) lets the calling thread sort queued chunks of that batch too and returns when
//! all of them are sorted; an
//! exception thrown by the comparator is rethrown there (the first one; later chunks are
//! still sorted or dropped, the caller must treat the buffer as garbage). One thread submits;
//! any thread may wait for a batch.
template <class T, class Cmp>
class chunk_sort_pool {
public:
    //! \param threads sorting threads besides the caller (at least 1)
    chunk_sort_pool(const Cmp* cmp, std::size_t threads) : cmp_(cmp), thread_count_(std::max<std::size_t>(threads, 1)) {}
    chunk_sort_pool(const chunk_sort_pool&) = delete;
    chunk_sort_pool& operator=(const chunk_sort_pool&) = delete;
    ~chunk_sort_pool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
            queue_.clear();
        }
        work_.notify_all();
        for (std::thread& t : threads_) t.join();
    }

    //! Queues a chunk of `batch` (0 or 1) to be sorted; it must stay untouched until
    //! wait(batch) returns.
    void submit(T* first, T* last, int batch = 0) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (threads_.empty()) start();
            queue_.push_back(chunk{first, last, batch});
            ++outstanding_[batch];
        }
        work_.notify_one();
    }

    //! Sorts queued chunks of `batch` on this thread as well, then waits until every chunk of
    //! it is sorted. Rethrows the first comparator exception not yet reported.
    void wait(int batch = 0) {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            auto it = std::find_if(queue_.begin(), queue_.end(), [&](const chunk& c) { return c.batch == batch; });
            if (it == queue_.end()) break;
            chunk c = *it;
            queue_.erase(it);
            lock.unlock();
            sort_one(c);
            lock.lock();
            --outstanding_[batch];
        }
        done_.wait(lock, [&] { return outstanding_[batch] == 0; });
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

    //! Sorting threads besides the caller.
    std::size_t threads() const { return thread_count_; }

private:
    struct chunk {
        T* first;
        T* last;
        int batch;
    };

    // Called with the mutex held.
    void start() {
        for (std::size_t i = 0; i < thread_count_; ++i) threads_.emplace_back([this] { run(); });
    }

    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            work_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (stop_) return;
            chunk c = queue_.front();
            queue_.pop_front();
            lock.unlock();
            sort_one(c);
            lock.lock();
            if (--outstanding_[c.batch] == 0) done_.notify_all();
        }
    }

    // Sorts one chunk; a comparator's exception is kept for wait() (called without the lock).
    void sort_one(const chunk& c) {
        try {
            sort_range(c.first, c.last, *cmp_);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!error_) error_ = std::current_exception();
        }
    }

    const Cmp* cmp_;
    std::size_t thread_count_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable work_, done_;
    std::deque<chunk> queue_;
    std::size_t outstanding_[2] = {0, 0};  // queued or being sorted, per batch
    bool stop_ = false;
    std::exception_ptr error_;
};

} // namespace flashxxl
