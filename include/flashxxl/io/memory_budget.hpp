// A memory budget M: the bytes a container or algorithm may hold, and the account its holdings roll up into.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! What every container and algorithm takes as M, in the same position (right after the
//! machine, or the graph for the graph algorithms): the bytes its buffers may hold, optionally
//! the memory_account its own account rolls up into (memory_account's parent), and whether the
//! machine's fixed overhead (its translation layers' buffers and maps, usable_memory()) has
//! been deducted already.
//!
//! A byte count converts to a budget, so `vector<T> v(m, 64 * MiB, b)` reads as before. A caller
//! that wants the combined peak of several structures gives them parts of one budget that
//! charge its account:
//!
//!     memory_account program;
//!     memory_budget M(512 * MiB, program);
//!     auto parts = M.split({0.75, 0.25});          // 384 MiB and 128 MiB, both charging `program`
//!     sorter<int> s(m, parts[0], b);
//!     priority_queue<int> pq(m, parts[1], b);
//!     ... program.peak() <= 512 MiB
//!
//! The meaning of M is the same everywhere: the most bytes of buffers (and their bookkeeping) the
//! structure holds at once, stream readers and writers it opens included where its documentation
//! says so; a structure's memory_usage(M, b) says what it holds under M, its min_memory(b) the
//! least M it accepts (config_error naming the structure, the budget and the minimum below it).
class memory_budget {
public:
    //! A budget of `bytes`, charging no caller's account (the structure counts on its own).
    memory_budget(std::uint64_t bytes) noexcept : bytes_(bytes) {} // NOLINT: a byte count is a budget
    //! A budget of `bytes` whose holdings roll up into `account`.
    memory_budget(std::uint64_t bytes, memory_account& account) noexcept
        : bytes_(bytes), account_(&account) {}

    std::uint64_t bytes() const noexcept { return bytes_; }
    //! The account a structure's own account rolls up into, or nullptr.
    memory_account* account() const noexcept { return account_; }
    //! Whether the machine's fixed overhead has been taken off already (usable_memory()).
    bool machine_overhead_deducted() const noexcept { return overhead_deducted_; }
    //! The machine overhead taken off (0 until usable_memory() did it).
    std::uint64_t machine_overhead() const noexcept { return overhead_; }

    //! `bytes` of this budget for one part, charging the same account; config_error naming
    //! `part_name` when this budget has less.
    memory_budget part(std::uint64_t bytes, const std::string& part_name = "a part") const {
        if (bytes > bytes_)
            throw config_error(part_name + ": " + format_bytes(double(bytes)) +
                               " asked of a memory budget of " + format_bytes(double(bytes_)));
        memory_budget p = *this;
        p.bytes_ = bytes;
        return p;
    }

    //! Divides the budget by `shares` (each in (0, 1], summing to at most 1; each part rounded
    //! down to whole bytes), every part charging the same account: how an algorithm divides M
    //! among its phases or stages (TPIE's memory fractions). config_error for a bad share.
    std::vector<memory_budget> split(std::initializer_list<double> shares) const {
        double sum = 0;
        for (double s : shares) {
            if (!(s > 0 && s <= 1))
                throw config_error("memory_budget::split: share " + std::to_string(s) +
                                   " (expected a number in (0, 1])");
            sum += s;
        }
        if (sum > 1 + 1e-9)
            throw config_error("memory_budget::split: the shares sum to " + std::to_string(sum) +
                               " (expected at most 1)");
        std::vector<memory_budget> parts;
        for (double s : shares)
            parts.push_back(part(std::uint64_t(std::floor(double(bytes_) * s))));
        return parts;
    }

    //! This budget less `bytes` held by `holder` (a fixed overhead taken off once);
    //! config_error naming the holder when the budget does not cover it.
    memory_budget less(std::uint64_t bytes, const std::string& holder) const {
        if (bytes >= bytes_ && bytes > 0)
            throw config_error("memory budget " + format_bytes(double(bytes_)) + " does not cover " + holder +
                               "'s " + format_bytes(double(bytes)) + " (expected more than that)");
        return part(bytes_ - bytes);
    }

    //! config_error "STRUCTURE: memory budget B is below the minimum MIN (WHY)" when the budget
    //! is below `minimum`.
    void require(std::uint64_t minimum, const std::string& structure, const std::string& why = "") const {
        if (bytes_ >= minimum) return;
        throw config_error(structure + ": memory budget " + format_bytes(double(bytes_)) +
                           " is below the minimum " + format_bytes(double(minimum)) +
                           (why.empty() ? "" : " (" + why + ")"));
    }

    //! The same budget marked as net of a machine overhead of `overhead` bytes (usable_memory()).
    memory_budget net_of_machine_overhead(std::uint64_t overhead) const noexcept {
        memory_budget b = *this;
        b.overhead_deducted_ = true;
        b.overhead_ = overhead;
        return b;
    }

private:
    std::uint64_t bytes_ = 0;
    memory_account* account_ = nullptr;
    bool overhead_deducted_ = false;
    std::uint64_t overhead_ = 0;
};

} // namespace flashxxl
