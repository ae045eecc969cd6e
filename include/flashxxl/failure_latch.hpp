// Remembers the failure that cost an object (a container, a block reader or writer) some of its items; every
// later use then throws it.
#pragma once

#include <exception>
#include <string>

#include "flashxxl/error.hpp"

namespace flashxxl {

//! A container (or a block reader / writer) whose write (or read, or allocation in the middle of a merge)
//! failed may have lost items it had accepted: the buffer of a failed write, a merge's input cut short. Going
//! on would hand out wrong items or silently fewer, so the container latches the failure (latch(), from the
//! catch block that rethrows it, or by running the step in run()) and every later operation calls check(),
//! which throws io_failure naming the operation and the first failure. Destruction stays safe. The cost on
//! the item path is one test of a pointer, or none where the check sits on the block path.
class failure_latch {
public:
    //! Called in a catch block: keeps the exception being handled when it is the first.
    void latch() noexcept {
        if (!first_) first_ = std::current_exception();
    }
    //! Runs f() and returns what it returns; an exception from it is latched and passed on.
    template <class F> decltype(auto) run(F&& f) {
        try {
            return f();
        } catch (...) {
            latch();
            throw;
        }
    }
    //! run(f), an out_of_space from f first named as met in `structure` (a container's name,
    //! "flashxxl::sorter"; see out_of_space::with_structure): what is latched names it too.
    template <class F> decltype(auto) run_in(const char* structure, F&& f) {
        return run([&]() -> decltype(auto) { return rethrow_out_of_space_in(structure, f); });
    }
    bool failed() const { return bool(first_); }
    //! Throws io_failure "OPERATION: unusable since an earlier failure lost items (WHAT)" after
    //! a latch(); nothing otherwise.
    void check(const char* operation) const {
        if (first_)
            throw io_failure(std::string(operation) + ": unusable since an earlier failure lost items (" +
                             what() + ")");
    }
    //! The message of the latched failure ("" when none).
    std::string what() const {
        if (!first_) return std::string();
        try {
            std::rethrow_exception(first_);
        } catch (const std::exception& e) {
            return e.what();
        } catch (...) {
            return "an exception that is not a std::exception";
        }
    }

private:
    std::exception_ptr first_;
};

} // namespace flashxxl
