// Exact splitters over every rank's sorted sequences: multisequence selection (DEMSort), collectively.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::distributed {

//! Where one target's split lies in one sequence.
struct split_bracket {
    std::uint64_t low = 0, high = 0; //!< the split is in [low, high]
};

//! What a selection did: its rounds (each two or three all_gathers).
struct selection_report {
    std::uint64_t rounds = 0;
    std::uint64_t exact_rounds = 0; //!< rounds that needed the sequences' exact positions
};

namespace detail {

//! A pivot candidate: an item of a window, its place and the window's size (its weight).
template <class T> struct selection_candidate {
    std::uint32_t target = 0, sequence = 0;
    std::int32_t rank = 0, pad = 0;
    std::uint64_t index = 0, weight = 0;
    T value;
};

} // namespace detail

//! Cuts the union of every rank's sorted sequences at global ranks `targets`: returns, for each
//! target t and each local sequence s, the position cut[t][s] such that the cuts of all ranks'
//! sequences add up to targets[t] and every item before a cut precedes every item after any cut
//! of t. Items are ordered by `before`, ties by (rank, sequence): the order is total, so the cuts
//! are unique and the same for any equal input. Every rank calls it with the same targets (each
//! at most the global item count).
//!
//! The algorithm (the multiway selection of DEMSort, Rahn, Sanders, Singler, ICDE 2010, Section
//! IV, done for all targets at once): each sequence keeps a window [lo, hi) that holds its cut;
//! a round picks as pivot the weighted median of the windows' middle items (weight: window size),
//! and the ranks add up how many items precede it. The split is then before or after the pivot,
//! which removes at least a quarter of the windows' items, so O(log N) rounds settle every
//! target. A round costs each rank two all_gathers of a few words per target and sequence.
//!
//! A sequence S on a device answers from an in-memory index where it can, and reads only when
//! the index cannot decide: S provides size(), candidate(lo, hi) (an index in [lo, hi) near the
//! middle, one whose item it knows without reading if it can), at(i), bracket(goes_before, lo, hi)
//! (a split_bracket for the first index in [lo, hi) whose item does not go before, from the index)
//! and partition_point(goes_before, lo, hi) (that index exactly). A round first adds up the
//! brackets; only when they straddle the target does it ask for exact positions (an exact round).
template <class T, class Before, class Seq>
std::vector<std::vector<std::uint64_t>> select_splits(communicator& c, std::vector<Seq*>& seqs,
                                                      const std::vector<std::uint64_t>& targets,
                                                      Before before, selection_report* report = nullptr) {
    static_assert(std::is_trivially_copyable<T>::value, "pivots travel as bytes");
    using candidate = detail::selection_candidate<T>;
    const std::size_t nt = targets.size(), ns = seqs.size();
    std::uint64_t local_items = 0;
    for (Seq* s : seqs)
        local_items += s->size();
    const std::uint64_t total = all_sum(c, local_items);
    for (std::uint64_t k : targets)
        if (k > total)
            throw std::invalid_argument("select_splits: target " + std::to_string(k) + " beyond the " +
                                        std::to_string(total) + " items of all ranks");
    std::vector<std::vector<std::uint64_t>> lo(nt, std::vector<std::uint64_t>(ns, 0)), hi(nt), cut(nt);
    for (std::size_t t = 0; t < nt; ++t)
        for (Seq* s : seqs)
            hi[t].push_back(s->size());
    std::vector<bool> done(nt, false);
    std::size_t open = nt;
    const int me = c.rank();
    while (open > 0) {
        if (report) ++report->rounds;
        // 1. Every rank offers the middle item of each non-empty window.
        std::vector<candidate> mine;
        for (std::size_t t = 0; t < nt; ++t)
            for (std::size_t s = 0; s < ns && !done[t]; ++s)
                if (lo[t][s] < hi[t][s]) {
                    candidate x{};
                    x.target = std::uint32_t(t);
                    x.sequence = std::uint32_t(s);
                    x.rank = me;
                    x.index = seqs[s]->candidate(lo[t][s], hi[t][s]);
                    x.weight = hi[t][s] - lo[t][s];
                    x.value = seqs[s]->at(x.index);
                    mine.push_back(x);
                }
        std::vector<std::vector<candidate>> offered(nt);
        for (const std::vector<candidate>& from_rank : all_gather_items(c, mine))
            for (const candidate& x : from_rank)
                offered[x.target].push_back(x);
        // 2. Each rank, alike: the pivot of each open target is the weighted median of its offers.
        auto precedes = [&](const candidate& a, const candidate& b) {
            if (before(a.value, b.value)) return true;
            if (before(b.value, a.value)) return false;
            return std::make_pair(a.rank, a.sequence) < std::make_pair(b.rank, b.sequence) ||
                   (a.rank == b.rank && a.sequence == b.sequence && a.index < b.index);
        };
        std::vector<candidate> pivot(nt);
        for (std::size_t t = 0; t < nt; ++t) {
            if (done[t]) continue;
            if (offered[t].empty()) { // every window is empty: the cuts are the windows' ends
                cut[t] = lo[t];
                done[t] = true;
                --open;
                continue;
            }
            std::sort(offered[t].begin(), offered[t].end(), precedes);
            std::uint64_t weight = 0, half = 0;
            for (const candidate& x : offered[t])
                weight += x.weight;
            std::size_t m = 0;
            for (; m + 1 < offered[t].size(); ++m)
                if ((half += offered[t][m].weight) * 2 >= weight) break;
            pivot[t] = offered[t][m];
        }
        if (open == 0) break;
        // 3. Where the pivot falls in each local sequence: items of an earlier sequence equal to it
        //    go before it, those of a later one after it.
        auto goes_before = [&](std::size_t t, std::size_t s) {
            const candidate& p = pivot[t];
            const bool earlier = std::make_pair(me, std::uint32_t(s)) < std::make_pair(p.rank, p.sequence);
            return [&, earlier](const T& item) {
                return earlier ? !before(p.value, item) : before(item, p.value);
            };
        };
        auto is_pivot_sequence = [&](std::size_t t, std::size_t s) {
            return pivot[t].rank == me && pivot[t].sequence == s;
        };
        std::vector<std::vector<split_bracket>> where(nt, std::vector<split_bracket>(ns));
        std::vector<std::uint64_t> sums(2 * nt, 0);
        for (std::size_t t = 0; t < nt; ++t)
            for (std::size_t s = 0; s < ns && !done[t]; ++s) {
                split_bracket& b = where[t][s];
                if (is_pivot_sequence(t, s))
                    b = {pivot[t].index, pivot[t].index};
                else if (lo[t][s] == hi[t][s])
                    b = {lo[t][s], lo[t][s]};
                else
                    b = seqs[s]->bracket(goes_before(t, s), lo[t][s], hi[t][s]);
                sums[2 * t] += b.low;
                sums[2 * t + 1] += b.high;
            }
        std::vector<std::uint64_t> low_sum(nt, 0), high_sum(nt, 0);
        for (const std::vector<std::uint64_t>& v : all_gather_items(c, sums))
            for (std::size_t t = 0; t < nt; ++t) {
                low_sum[t] += v[2 * t];
                high_sum[t] += v[2 * t + 1];
            }
        // 4. Where the brackets straddle a target, the exact positions decide (reads on a device).
        std::vector<bool> needs_exact(nt, false);
        bool any_exact = false;
        for (std::size_t t = 0; t < nt; ++t)
            if (!done[t] && low_sum[t] <= targets[t] && targets[t] <= high_sum[t] &&
                low_sum[t] != high_sum[t])
                needs_exact[t] = any_exact = true;
        if (any_exact) {
            if (report) ++report->exact_rounds;
            std::vector<std::uint64_t> exact(nt, 0);
            for (std::size_t t = 0; t < nt; ++t)
                for (std::size_t s = 0; s < ns && needs_exact[t]; ++s) {
                    split_bracket& b = where[t][s];
                    if (b.low != b.high) {
                        std::uint64_t p = seqs[s]->partition_point(goes_before(t, s), b.low, b.high);
                        b = {p, p};
                    }
                    exact[t] += b.low;
                }
            std::vector<std::uint64_t> exact_sum(nt, 0);
            for (const std::vector<std::uint64_t>& v : all_gather_items(c, exact))
                for (std::size_t t = 0; t < nt; ++t)
                    exact_sum[t] += v[t];
            for (std::size_t t = 0; t < nt; ++t)
                if (needs_exact[t]) low_sum[t] = high_sum[t] = exact_sum[t];
        }
        // 5. Narrow the windows: the split is before the pivot, at it, or after it.
        for (std::size_t t = 0; t < nt; ++t) {
            if (done[t]) continue;
            const std::uint64_t k = targets[t];
            if (low_sum[t] == k && high_sum[t] == k) {
                for (std::size_t s = 0; s < ns; ++s)
                    cut[t].push_back(where[t][s].low);
                done[t] = true;
                --open;
            } else if (k < low_sum[t]) {
                for (std::size_t s = 0; s < ns; ++s)
                    hi[t][s] = where[t][s].high;
            } else if (k > high_sum[t]) {
                for (std::size_t s = 0; s < ns; ++s)
                    lo[t][s] = where[t][s].low + (is_pivot_sequence(t, s) ? 1 : 0);
            } else {
                throw std::logic_error("select_splits: target " + std::to_string(k) +
                                       " undecided after the exact positions");
            }
        }
    }
    return cut;
}

} // namespace flashxxl::distributed
