// The exact cuts of a rank's runs at index splitters, from Br pages kept until the exchange used them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/distributed/index_splitters.hpp"
#include "flashxxl/io/memory_account.hpp"

namespace flashxxl::distributed {

//! Where the splitters of select_index_splitters cut this rank's runs, and the Br pages that hold
//! the cuts. Target t's cut in a run is known from the index when no page start of the run
//! precedes the splitter (0), when the run holds the splitter (its page start), or when the
//! splitter is past every item (the run's size); otherwise it lies in page a - 1 (a: the run's
//! page starts before the splitter), which cut(t) reads and searches. Piece u of a run, between
//! cuts u and u + 1, may touch the cut pages of both; such a page is read once and kept until
//! every piece that may touch it is done (piece_done), so the exchange reads each page of a run
//! once. A page that would take the kept pages beyond `capacity` bytes is not kept; the pieces
//! then read it again (pages_not_kept). Pieces are done in any order.
template <class T, class Before, class Run> class cut_pages {
public:
    cut_pages(std::vector<std::unique_ptr<Run>>& runs, std::vector<index_split<T>> splits, int rank,
              Before before, std::uint64_t capacity, memory_account* account)
        : runs_(&runs), splits_(std::move(splits)), rank_(rank), before_(before), capacity_(capacity),
          account_(account), cuts_(splits_.size()), page_of_(splits_.size()),
          done_(splits_.size() > 0 ? splits_.size() - 1 : 0, false) {
        for (std::size_t t = 0; t < splits_.size(); ++t)
            for (std::size_t s = 0; s < runs.size(); ++s)
                page_of_[t].push_back(page_to_read(t, s));
    }
    ~cut_pages() {
        if (account_) account_->remove(kept_bytes_);
    }
    cut_pages(const cut_pages&) = delete;
    cut_pages& operator=(const cut_pages&) = delete;

    //! Target t's cut in every local run (reads the cut pages the index cannot settle).
    const std::vector<std::uint64_t>& cut(std::size_t t) {
        if (cuts_[t].empty() && !runs_->empty()) {
            std::vector<std::uint64_t> at;
            for (std::size_t s = 0; s < runs_->size(); ++s)
                at.push_back(resolve(t, s));
            cuts_[t] = std::move(at);
        }
        return cuts_[t];
    }
    //! The items of page p of run s while they are kept, or nullptr.
    const std::vector<T>* kept(std::size_t s, std::uint64_t p) const {
        auto it = kept_.find({s, p});
        return it == kept_.end() ? nullptr : &it->second.items;
    }
    //! Piece u (between cuts u and u + 1) has been read from every run: drop the pages it was the
    //! last piece to need.
    void piece_done(std::size_t u) {
        done_[u] = true;
        for (std::size_t s = 0; s < runs_->size(); ++s) {
            const std::uint64_t a = page_of_[u][s], b = page_of_[u + 1][s];
            release(s, a);
            if (b != a) release(s, b);
        }
    }

    std::uint64_t pages_read() const { return pages_read_; }
    //! Cut pages not kept for lack of capacity: the pieces that touch them read them again.
    std::uint64_t pages_not_kept() const { return pages_not_kept_; }
    std::uint64_t peak_bytes() const { return peak_bytes_; }

    //! No page to read: the index settles the cut.
    static constexpr std::uint64_t no_page = ~std::uint64_t(0);

private:
    struct kept_page {
        std::vector<T> items;
        std::uint64_t users = 0; //!< pieces not done that may touch it
    };

    std::uint64_t page_to_read(std::size_t t, std::size_t s) const {
        const index_splitter<T>& v = splits_[t].splitter;
        const std::uint64_t a = splits_[t].pages_before[s];
        if (v.beyond_all || a == 0 || (v.rank == rank_ && v.run == s)) return no_page;
        return a - 1;
    }
    std::uint64_t resolve(std::size_t t, std::size_t s) {
        Run& run = *(*runs_)[s];
        const index_splitter<T>& v = splits_[t].splitter;
        if (v.beyond_all) return run.size();
        const std::uint64_t p = page_of_[t][s], per_page = run.items_per_page();
        if (p == no_page) return splits_[t].pages_before[s] * per_page;
        const bool earlier = std::make_pair(rank_, std::uint32_t(s)) < std::make_pair(v.rank, v.run);
        auto goes_before = [&](const T& item) {
            return earlier ? !before_(v.value, item) : before_(item, v.value);
        };
        std::vector<T> read_now;
        const std::vector<T>* page = kept(s, p);
        if (!page) {
            read_now = read_page(s, p);
            page = keep(s, p, read_now);
        }
        return p * per_page +
               std::uint64_t(std::partition_point(page->begin(), page->end(), goes_before) - page->begin());
    }
    std::vector<T> read_page(std::size_t s, std::uint64_t p) {
        Run& run = *(*runs_)[s];
        const std::uint64_t per_page = run.items_per_page();
        std::vector<T> items;
        typename vector<T>::stream_reader in(run.items(), p * per_page,
                                             std::min(run.size(), (p + 1) * per_page), 1, account_);
        while (!in.empty()) {
            const T* first = &*in;
            items.insert(items.end(), first, first + in.run());
            in.skip(in.run());
        }
        ++pages_read_;
        return items;
    }
    //! Keeps page p of run s (moved from `items`) while a piece not done may touch it and it
    //! fits; returns where its items are now.
    const std::vector<T>* keep(std::size_t s, std::uint64_t p, std::vector<T>& items) {
        std::uint64_t users = 0;
        for (std::size_t u = 0; u < done_.size(); ++u)
            if (!done_[u] && (page_of_[u][s] == p || page_of_[u + 1][s] == p)) ++users;
        const std::uint64_t bytes = items.size() * sizeof(T);
        if (users == 0) return &items;
        if (kept_bytes_ + bytes > capacity_) {
            ++pages_not_kept_;
            return &items;
        }
        kept_page& k = kept_[{s, p}];
        k.items = std::move(items);
        k.users = users;
        kept_bytes_ += bytes;
        peak_bytes_ = std::max(peak_bytes_, kept_bytes_);
        if (account_) account_->add(bytes);
        return &k.items;
    }
    void release(std::size_t s, std::uint64_t p) {
        if (p == no_page) return;
        auto it = kept_.find({s, p});
        if (it == kept_.end() || --it->second.users > 0) return;
        const std::uint64_t bytes = it->second.items.size() * sizeof(T);
        kept_bytes_ -= bytes;
        if (account_) account_->remove(bytes);
        kept_.erase(it);
    }

    std::vector<std::unique_ptr<Run>>* runs_;
    std::vector<index_split<T>> splits_;
    int rank_;
    Before before_;
    std::uint64_t capacity_;
    memory_account* account_;
    std::vector<std::vector<std::uint64_t>> cuts_;    //!< [target][run], once resolved
    std::vector<std::vector<std::uint64_t>> page_of_; //!< [target][run]: the page cut(t) reads, or no_page
    std::vector<bool> done_;                          //!< [piece]
    std::map<std::pair<std::size_t, std::uint64_t>, kept_page> kept_;
    std::uint64_t kept_bytes_ = 0, peak_bytes_ = 0, pages_read_ = 0, pages_not_kept_ = 0;
};

} // namespace flashxxl::distributed
