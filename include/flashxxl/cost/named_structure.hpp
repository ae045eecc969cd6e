// A name for one container: its budget carries a meter, so its I/O is counted apart from other structures of
// its role.
#pragma once

#include <string>
#include <utility>

#include "flashxxl/device/structure_meter.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/io/memory_budget.hpp"

namespace flashxxl {

//! Names a structure by its memory budget: a container built with budget() counts every read
//! and write of its extents into meter(), whatever its role and device, and its memory rolls up
//! into the account of the budget it was made from.
//!
//!     named_structure edges("edge sorter", M);
//!     sorter<edge> s(m, edges.budget(), b);
//!     ... edges.counters().read_bytes
//!
//! Everything built with one budget() counts into the same meter (an algorithm's several
//! containers count as one structure). Not copyable or movable (containers hold its account and
//! the devices its meter); it must outlive the containers built with it.
class named_structure {
public:
    named_structure(std::string name, const memory_budget& budget)
        : meter_(std::move(name)), account_(budget.account()), budget_(budget) {
        account_.set_meter(&meter_);
    }
    named_structure(const named_structure&) = delete;
    named_structure& operator=(const named_structure&) = delete;

    const std::string& name() const { return meter_.name(); }
    //! The budget to build the structure with: the given bytes, charging this structure's account.
    memory_budget budget() {
        memory_budget b(budget_.bytes(), account_);
        return budget_.machine_overhead_deducted() ? b.net_of_machine_overhead(budget_.machine_overhead())
                                                   : b;
    }
    //! Reads and writes of the structure so far (operations and bytes).
    io_counters counters() const { return meter_.counters(); }
    structure_meter& meter() { return meter_; }
    const memory_account& account() const { return account_; }

private:
    structure_meter meter_;
    memory_account account_;
    memory_budget budget_;
};

} // namespace flashxxl
