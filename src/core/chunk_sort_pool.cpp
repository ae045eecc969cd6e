// chunk_sort_pool: the sorting threads, their queue and the batch bookkeeping (one copy for every item type).
#include "flashxxl/container/chunk_sort_pool.hpp"

#include <algorithm>
#include <utility>

#include "flashxxl/container/worker_thread.hpp"

namespace flashxxl {

chunk_sort_pool::chunk_sort_pool(sort_function sort, const void* order, std::size_t threads)
    : sort_(sort), order_(order), thread_count_(std::max<std::size_t>(threads, 1)) {}

chunk_sort_pool::~chunk_sort_pool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        queue_.clear();
    }
    work_.notify_all();
    for (std::thread& t : threads_)
        t.join();
}

void chunk_sort_pool::submit(void* first, void* last, int batch) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (threads_.empty()) start();
        queue_.push_back(chunk{first, last, batch});
        ++outstanding_[batch];
    }
    work_.notify_one();
}

void chunk_sort_pool::wait(int batch) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        auto it =
            std::find_if(queue_.begin(), queue_.end(), [&](const chunk& c) { return c.batch == batch; });
        if (it == queue_.end()) break;
        chunk c = *it;
        queue_.erase(it);
        lock.unlock();
        sort_one(c);
        lock.lock();
        --outstanding_[batch];
    }
    done_.wait(lock, [&] { return outstanding_[batch] == 0; });
    if (error_[batch]) std::rethrow_exception(std::exchange(error_[batch], nullptr));
}

void chunk_sort_pool::start() {
    for (std::size_t i = 0; i < thread_count_; ++i)
        threads_.push_back(start_worker_thread("flashxxl::sorter's chunk sorting", i + 1, thread_count_,
                                               [this] { serve(); }));
}

void chunk_sort_pool::serve() {
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

void chunk_sort_pool::sort_one(const chunk& c) {
    try {
        sort_(c.first, c.last, order_);
    } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_[c.batch]) error_[c.batch] = std::current_exception();
    }
}

} // namespace flashxxl
