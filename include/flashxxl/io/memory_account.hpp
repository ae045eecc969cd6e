// Per-container accounting of the memory its buffers occupy: current and peak bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

namespace flashxxl {

class structure_meter;

//! Counts the bytes of the buffers one container holds (every aligned_buffer it allocates
//! reports here), with the peak. Not a global: each container owns one. Not thread-safe (the
//! containers are not either).
//!
//! An account may have a parent (a memory_budget's account): every add and remove rolls up
//! into it, so the parent's current and peak are those of all its children together (Thrill's
//! mem::Manager hierarchy). The parent must outlive the child.
class memory_account {
public:
    memory_account() = default;
    explicit memory_account(memory_account* parent) : parent_(parent) {}
    memory_account(const memory_account&) = delete;
    memory_account& operator=(const memory_account&) = delete;

    //! The account this one rolls up into, or nullptr.
    memory_account* parent() const { return parent_; }

    //! Names the structure that holds this account (or whose budget carries it): the I/O of
    //! every container whose account rolls up into this one is counted into `meter`
    //! (structure_meter.hpp; cost/structure.hpp sets it up).
    void set_meter(structure_meter* meter) { meter_ = meter; }
    //! The meter of this account or of the nearest parent that has one, or nullptr.
    structure_meter* meter() const {
        for (const memory_account* a = this; a; a = a->parent_)
            if (a->meter_) return a->meter_;
        return nullptr;
    }

    void add(std::uint64_t bytes) {
        if (reclaim_ && !reclaiming_ && current_ + bytes > limit_) {
            reclaiming_ = true;
            struct done {
                bool& flag;
                ~done() { flag = false; }
            } guard{reclaiming_};
            reclaim_(current_ + bytes - limit_);
        }
        current_ += bytes;
        peak_ = std::max(peak_, current_);
        if (parent_) parent_->add(bytes);
    }
    void remove(std::uint64_t bytes) {
        const std::uint64_t removed = std::min(bytes, current_);
        current_ -= removed;
        if (parent_) parent_->remove(removed);
    }
    //! Bytes held now.
    std::uint64_t current() const { return current_; }
    //! The most bytes ever held at once.
    std::uint64_t peak() const { return peak_; }
    void reset_peak() { peak_ = current_; }

    //! Lets `reclaim(excess)` free memory that some holder under this account can give up at
    //! once (clean copies, such as cluster_cache's) whenever an add() would take the account
    //! above `limit`: it is asked for the excess, frees what it can through remove(), and the
    //! add goes ahead. A holder of reclaimable memory thus uses whatever of a budget the others
    //! leave idle and the peak stays within the budget as long as it can free enough. One at a
    //! time (reclaimer_scope sets and clears it); adds made by the reclaim itself are not
    //! reclaimed for.
    void set_reclaimer(std::uint64_t limit, std::function<void(std::uint64_t)> reclaim) {
        limit_ = limit;
        reclaim_ = std::move(reclaim);
    }
    void clear_reclaimer() { reclaim_ = nullptr; }

private:
    memory_account* parent_ = nullptr;
    structure_meter* meter_ = nullptr;
    std::uint64_t current_ = 0;
    std::uint64_t peak_ = 0;
    std::uint64_t limit_ = 0;
    std::function<void(std::uint64_t)> reclaim_;
    bool reclaiming_ = false;
};

//! Installs a reclaimer on an account for its lifetime (memory_account::set_reclaimer).
class reclaimer_scope {
public:
    reclaimer_scope(memory_account& account, std::uint64_t limit, std::function<void(std::uint64_t)> reclaim)
        : account_(&account) {
        account_->set_reclaimer(limit, std::move(reclaim));
    }
    ~reclaimer_scope() { account_->clear_reclaimer(); }
    reclaimer_scope(const reclaimer_scope&) = delete;
    reclaimer_scope& operator=(const reclaimer_scope&) = delete;

private:
    memory_account* account_;
};

} // namespace flashxxl
