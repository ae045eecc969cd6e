// Every rank learns of a failure on any rank, so none waits in a collective for a rank that left.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::distributed {

//! Runs `step` (local work: I/O, sorting; results go out through its captures) on this rank,
//! then agrees with every rank on how it went (one all_gather of the error text, empty when
//! fine). When any rank failed, every rank throws: a failing rank its own exception (an
//! out_of_space keeps its type, so the CLI's hint applies), the others an error naming the
//! first failing rank and its message. So a rank that runs out of space ends the run on every
//! rank with a clear error, instead of leaving the others waiting in the next collective.
template <class F> void agree_on_failure(communicator& c, const char* phase, F&& step) {
    std::exception_ptr failure;
    std::string text;
    try {
        step();
    } catch (const std::exception& e) {
        failure = std::current_exception();
        text = e.what();
    } catch (...) {
        failure = std::current_exception();
    }
    if (failure && text.empty()) text = "unknown failure";
    const std::vector<byte_buffer> all = c.all_gather(byte_buffer(text.begin(), text.end()));
    if (failure) std::rethrow_exception(failure);
    for (int r = 0; r < c.size(); ++r) {
        const byte_buffer& said = all[std::size_t(r)];
        if (!said.empty())
            throw error(std::string("distributed sort, ") + phase + ": rank " + std::to_string(r) +
                        " failed: " + std::string(said.begin(), said.end()) + "; rank " +
                        std::to_string(c.rank()) + " stops as well");
    }
}

} // namespace flashxxl::distributed
