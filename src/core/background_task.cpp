// background_task: the thread that runs a job and keeps its exception.
#include "flashxxl/container/background_task.hpp"

#include <stdexcept>
#include <utility>

namespace flashxxl {

background_task::~background_task() {
    if (thread_.joinable()) thread_.join();
}

void background_task::start(std::function<void()> job) {
    if (thread_.joinable()) throw std::logic_error("flashxxl::background_task::start while a job is running");
    error_ = nullptr;
    thread_ = std::thread([this, job = std::move(job)] {
        try {
            job();
        } catch (...) {
            error_ = std::current_exception();
        }
    });
}

void background_task::join() {
    if (!thread_.joinable()) return;
    thread_.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

} // namespace flashxxl
