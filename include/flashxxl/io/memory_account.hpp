// Per-container accounting of the memory its buffers occupy: current and peak bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

namespace flashxxl {

//! Counts the bytes of the buffers one container holds (every aligned_buffer it allocates
//! reports here), with the peak. Not a global: each container owns one. Not thread-safe (the
//! containers are not either).
class memory_account {
public:
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
    }
    void remove(std::uint64_t bytes) { current_ -= std::min(bytes, current_); }
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
