// One job run on a thread of its own while the caller goes on; its exception comes back at join().
#pragma once

#include <exception>
#include <functional>
#include <thread>

namespace flashxxl {

//! Runs one job at a time on a thread it starts for it (the sorter's double-buffered run
//! formation writes one half of its buffer this way while the caller fills the other). Like
//! std::async with std::launch::async, but without a shared state per result type, so it is
//! compiled once, in the core library. The job hands its result back through what it captured.
//! join() waits and rethrows the job's exception; the destructor waits and drops it.
//! Not thread-safe: one owner starts and joins.
class background_task {
public:
    background_task() = default;
    background_task(const background_task&) = delete;
    background_task& operator=(const background_task&) = delete;
    ~background_task();

    //! Starts `job` on a new thread. logic_error when a job is still running (not joined).
    void start(std::function<void()> job);
    //! True from start() until join().
    bool running() const { return thread_.joinable(); }
    //! Waits for the job (if any) and rethrows its exception.
    void join();

private:
    std::thread thread_;
    std::exception_ptr error_;
};

} // namespace flashxxl
