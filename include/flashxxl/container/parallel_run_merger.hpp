// k-way merge of runs whose blocks arrive over time, in parallel pieces bounded by what is already in memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "flashxxl/container/parallel_merge.hpp"

namespace flashxxl {

//! Merges k sorted sources that hand out their items as contiguous in-memory ranges (Br blocks
//! of runs read through a forecast_prefetcher, or sorted chunks of a run buffer), writing the
//! output in steps with merge_sorted on a merge_team of `threads` threads.
//!
//! A step merges only what is safe with the data in memory. Each source shows its current
//! range and the ranges it has read ahead and completed (`for_each_ready`). If a source has
//! more blocks beyond those, the last item it shows bounds the step: its unseen items are no
//! smaller, so every item in memory up to the smallest such bound (K) may leave now, and
//! nothing else. The step writes min(room, items <= K) items: at least the rest of the
//! bounding source's ranges, which is never empty. With the forecast prefetcher's read-ahead
//! (the blocks the merge needs next, by the recorded last key of every Br block) a step
//! reaches as far as the read-ahead does. Every range of the step is one sequence of the
//! stable merge, the ranges of one source in order, so a source's ranges are used up in
//! order and the sources advance through the protocol below.
//!
//! Source protocol (`Source` held by value):
//!  - `bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed)`: source
//!    i's next range, after its current one was used up (`consumed`; false on the first call),
//!    or false when the source is exhausted; range_merger's protocol.
//!  - `bool for_each_ready(std::size_t i, F f)`: calls f(cur, end) for each range source i has
//!    in memory beyond its current one, in order, until f returns false, and returns whether
//!    more items may follow (ranges not yet in memory or not reported). next_range hands these
//!    out next, in the same order.
//!
//! The output equals the sequential stable merge of the sources' items in the order sources
//! show them whenever ties are equal items (e.g. a sort of keys); with distinct items that
//! compare equal their order may depend on the step boundaries (the sorter does not promise
//! stability). Memory: a few words per source and per range in memory. Not thread-safe.
template <class T, class Before, class Source> class parallel_run_merger {
public:
    parallel_run_merger(Source source, Before before, std::size_t threads)
        : source_(std::move(source)), before_(std::move(before)), team_(threads) {}

    //! (Re)starts the merge over sources [0, k): asks each for its first range.
    void start(std::size_t k) {
        cur_.assign(k, nullptr);
        end_.assign(k, nullptr);
        live_.clear();
        for (std::size_t i = 0; i < k; ++i) {
            const T* c = nullptr;
            const T* e = nullptr;
            if (source_.next_range(i, c, e, false) && c != e) {
                cur_[i] = c;
                end_[i] = e;
                live_.push_back(i);
            }
        }
    }

    //! True when every source is exhausted.
    bool empty() const { return live_.empty(); }
    //! Threads a step merges on.
    std::size_t threads() const { return team_.size(); }
    //! Steps merged so far (each bounded by what was in memory).
    std::uint64_t steps() const { return steps_; }

    //! Moves up to n items, in order, to `out` (raw storage for trivially copyable T);
    //! returns how many (fewer only when the merge ends).
    //! A step that moves nothing while sources remain means the inputs are not sorted by the
    //! comparator (it is no strict weak order, or a sort of them failed): std::logic_error,
    //! not an endless loop.
    std::uint64_t pop_into(T* out, std::uint64_t n) {
        std::uint64_t got = 0;
        while (got < n && !live_.empty()) {
            const std::uint64_t moved = step(out + got, n - got);
            if (moved == 0)
                throw std::logic_error(
                    "flashxxl: a merge step moved no item although its inputs are not used up: they "
                    "are not sorted by the comparator (is it a strict weak order?)");
            got += moved;
        }
        return got;
    }

private:
    using range = std::pair<T*, T*>; // merge_sorted's sequences (read only)
    static T* writable(const T* p) { return const_cast<T*>(p); }

    //! One step: gathers the ranges in memory, bounds them, merges, advances the sources.
    std::uint64_t step(T* out, std::uint64_t room) {
        seqs_.clear();
        first_.clear();
        const T* bound = nullptr; // K: the smallest last shown item of a source with more to come
        std::uint64_t total = 0;
        const std::uint64_t share = std::max<std::uint64_t>(1, room / live_.size());
        for (std::size_t i : live_) {
            first_.push_back(seqs_.size());
            seqs_.emplace_back(writable(cur_[i]), writable(end_[i]));
            std::uint64_t shown = std::uint64_t(end_[i] - cur_[i]);
            const T* last = end_[i] - 1;
            // A source shows ranges until it holds its share of the step (room / sources, at
            // least its current range); the ranges left out act as items still to come. This
            // keeps a step's sequences few (about two per source) when the prefetcher holds
            // thousands of Br blocks: the selections cost per sequence, every step, and a loser
            // tree's depth is log2 of the sequences: with every read-ahead block shown, 16 runs
            // made ~500 sequences and 70 ns per item on one thread.
            bool more = shown < share && source_.for_each_ready(i, [&](const T* c, const T* e) {
                seqs_.emplace_back(writable(c), writable(e));
                shown += std::uint64_t(e - c);
                if (c != e) last = e - 1;
                return shown < share;
            });
            if (shown >= share) more = true; // ranges not asked for count as items to come
            total += shown;
            if (more && (bound == nullptr || before_(*last, *bound))) bound = last;
        }
        first_.push_back(seqs_.size());
        std::uint64_t len = std::min(room, total);
        if (bound != nullptr) {
            const T key = *bound; // the ranges stay in place during the step; a copy all the same
            std::uint64_t safe = 0;
            for (const range& s : seqs_) {
                safe += std::uint64_t(std::upper_bound(s.first, s.second, key, before_) - s.first);
                if (safe >= len) break;
            }
            len = std::min(len, safe);
        }
        begins_.resize(seqs_.size());
        for (std::size_t s = 0; s < seqs_.size(); ++s)
            begins_[s] = seqs_[s].first;
        merge_sorted(seqs_, out, len, before_, team_.size() > 1 ? &team_ : nullptr);
        ++steps_;
        advance_sources();
        return len;
    }

    //! Moves every source past the ranges the step used up and refills exhausted ones. The
    //! sources are told in the order the sequential merge would have used their ranges up (by
    //! each range's last item), so a forecast prefetcher sees the same calls and schedules the
    //! same reads as under the one-item-at-a-time merge.
    void advance_sources() {
        events_.clear();
        for (std::size_t j = 0; j + 1 < first_.size(); ++j) {
            std::size_t a = first_[j], b = first_[j + 1];
            std::size_t reached = a; // the last range of live_[j] the step took items from
            for (std::size_t s = a + 1; s < b; ++s)
                if (seqs_[s].first != begins_[s]) reached = s;
            for (std::size_t s = a; s < reached; ++s) {
                if (seqs_[s].first != seqs_[s].second)
                    throw std::logic_error(
                        "flashxxl::parallel_run_merger: a range was left before it was used up");
                events_.push_back(event{std::uint32_t(j), std::uint32_t(s), true});
            }
            if (seqs_[reached].first == seqs_[reached].second)
                events_.push_back(event{std::uint32_t(j), std::uint32_t(reached), false});
            std::size_t i = live_[j];
            cur_[i] = seqs_[reached].first;
            end_[i] = seqs_[reached].second;
        }
        std::stable_sort(events_.begin(), events_.end(), [&](const event& x, const event& y) {
            return before_(*(seqs_[x.seq].second - 1), *(seqs_[y.seq].second - 1));
        });
        bool dead = false;
        for (const event& ev : events_) {
            std::size_t i = live_[ev.live];
            const T* c = nullptr;
            const T* e = nullptr;
            bool more = source_.next_range(i, c, e, true);
            if (ev.to_shown) {
                if (!more || c != begins_[ev.seq + 1])
                    throw std::logic_error(
                        "flashxxl::parallel_run_merger: a source skipped a range it had shown");
                continue;
            }
            // The source's last range of the step is used up: its next one, or the end.
            while (more && c == e)
                more = source_.next_range(i, c, e, true);
            cur_[i] = more ? c : nullptr;
            end_[i] = more ? e : nullptr;
            dead = dead || !more;
        }
        if (dead) {
            std::size_t kept = 0;
            for (std::size_t i : live_)
                if (cur_[i] != nullptr) live_[kept++] = i;
            live_.resize(kept);
        }
    }
    Source source_;
    Before before_;
    merge_team team_;
    std::vector<const T*> cur_, end_; // each source's current range
    std::vector<std::size_t> live_;   // sources not exhausted, in index order
    std::vector<range> seqs_;         // the step's ranges
    std::vector<T*> begins_;          // where they started
    std::vector<std::size_t> first_;  // seqs_[first_[j], first_[j + 1]) belong to live_[j]
    //! A range of the step that was used up: seqs_[seq], of live_[live]; `to_shown` when the
    //! source's next range is the following one the step saw.
    struct event {
        std::uint32_t live, seq : 31;
        bool to_shown : 1;
    };
    std::vector<event> events_;
    std::uint64_t steps_ = 0;
};

//! A source of parallel_run_merger over sorted chunks in memory (run formation's run buffer):
//! chunk i is one range; nothing is read ahead.
template <class T> struct chunk_source {
    const std::vector<std::pair<const T*, const T*>>* chunks;
    bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) const {
        if (consumed) return false;
        cur = (*chunks)[i].first;
        end = (*chunks)[i].second;
        return true;
    }
    template <class F> bool for_each_ready(std::size_t, F&&) const { return false; }
};

} // namespace flashxxl
