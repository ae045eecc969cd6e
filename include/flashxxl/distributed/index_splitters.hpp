// Splitters sampled from the runs' page index: multisequence selection over the page starts, no I/O.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/distributed/multisequence_selection.hpp"
#include "flashxxl/distributed/sorted_array_sequence.hpp"

namespace flashxxl::distributed {

//! A splitter: the first item of a Br page of rank `rank`'s run `run`, or past every item.
//! An item x of rank r's run s goes before it when (x, r, s) precedes (value, rank, run):
//! by the comparator, ties by (rank, run).
template <class T> struct index_splitter {
    T value{};
    std::int32_t rank = 0;
    std::uint32_t run = 0;
    std::uint32_t beyond_all = 1; //!< 1: no page start is right of the cut; every item goes before
    std::uint32_t pad = 0;
};

//! Where one target cuts: the splitter and, per local run, how many of its page starts precede it.
template <class T> struct index_split {
    index_splitter<T> splitter;
    std::vector<std::uint64_t> pages_before; //!< per local run
};

//! The splitters for global ranks `targets` (ascending, each at most the item count), chosen from
//! the first items of the runs' Br pages, which every run keeps in memory (sorted_run): the
//! target k is mapped to the page rank k' = ceil(k / B) (B items per Br page; the item count n
//! to every page), the page starts of all ranks' runs are cut exactly at k' by multisequence
//! selection (select_splits, DEMSort), and the splitter is the first page start right of that
//! cut (none for n: every item goes before it). Nothing is read from the devices.
//!
//! How close it comes: in a run whose a > 0 page starts precede the splitter, the items before it
//! are all of its first a - 1 pages and 1 to B items of page a - 1, so the items before the
//! splitter of k number between k - R B and k + B - 1, R the runs of all ranks (the last target,
//! the item count n, is cut exactly). A share or slice between two targets therefore differs from
//! its exact size by fewer than (R + 1) B items. Every rank calls it with the same targets.
template <class T, class Before, class Run>
std::vector<index_split<T>> select_index_splitters(communicator& c, std::vector<std::unique_ptr<Run>>& runs,
                                                   const std::vector<std::uint64_t>& targets,
                                                   std::uint64_t items_per_page, Before before,
                                                   std::size_t batch, selection_report* report = nullptr) {
    std::vector<sorted_array_sequence<T>> index;
    for (auto& r : runs)
        index.emplace_back(r->page_firsts());
    std::vector<sorted_array_sequence<T>*> sequences;
    for (auto& s : index)
        sequences.push_back(&s);
    // Target k: page rank ceil(k / B); the item count n: every page (runs end in partial pages).
    std::uint64_t local_items = 0, local_pages = 0;
    for (auto& r : runs) {
        local_items += r->size();
        local_pages += r->pages();
    }
    const std::uint64_t items = all_sum(c, local_items), pages = all_sum(c, local_pages);
    std::vector<std::uint64_t> page_targets;
    for (std::uint64_t k : targets)
        page_targets.push_back(k >= items ? pages : (k + items_per_page - 1) / items_per_page);
    std::vector<index_split<T>> splits;
    batch = std::max<std::size_t>(1, batch);
    for (std::size_t first = 0; first < page_targets.size(); first += batch) {
        const std::vector<std::uint64_t> some(
            page_targets.begin() + std::ptrdiff_t(first),
            page_targets.begin() + std::ptrdiff_t(std::min(page_targets.size(), first + batch)));
        for (std::vector<std::uint64_t>& cut : select_splits<T>(c, sequences, some, before, report)) {
            index_split<T> s;
            s.pages_before = std::move(cut);
            splits.push_back(std::move(s));
        }
    }
    // The splitter of each target: the least page start right of its cut, over every rank.
    const int me = c.rank();
    std::vector<index_splitter<T>> mine(splits.size());
    auto precedes = [&](const index_splitter<T>& a, const index_splitter<T>& b) {
        if (a.beyond_all != b.beyond_all) return b.beyond_all != 0;
        if (a.beyond_all) return false;
        if (before(a.value, b.value)) return true;
        if (before(b.value, a.value)) return false;
        return std::make_pair(a.rank, a.run) < std::make_pair(b.rank, b.run);
    };
    for (std::size_t t = 0; t < splits.size(); ++t)
        for (std::size_t s = 0; s < runs.size(); ++s) {
            const std::uint64_t a = splits[t].pages_before[s];
            if (a == runs[s]->pages()) continue;
            index_splitter<T> x;
            x.value = runs[s]->page_firsts()[a];
            x.rank = me;
            x.run = std::uint32_t(s);
            x.beyond_all = 0;
            if (precedes(x, mine[t])) mine[t] = x;
        }
    for (const std::vector<index_splitter<T>>& theirs : all_gather_items(c, mine))
        for (std::size_t t = 0; t < splits.size(); ++t)
            if (precedes(theirs[t], splits[t].splitter)) splits[t].splitter = theirs[t];
    return splits;
}

} // namespace flashxxl::distributed
