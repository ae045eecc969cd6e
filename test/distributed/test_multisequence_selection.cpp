// Exact multisequence selection across in-process ranks, checked against a sequential reference.
#include <algorithm>
#include <cstdint>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/distributed/in_process_communicator.hpp"
#include "flashxxl/distributed/multisequence_selection.hpp"
#include "flashxxl/distributed/sorted_array_sequence.hpp"

namespace fd = flashxxl::distributed;

namespace {

using sequences = std::vector<std::vector<std::uint32_t>>; // one rank's sorted sequences

//! Runs select_splits on `ranks` threads, rank r holding data[r]; returns every rank's cuts.
std::vector<std::vector<std::vector<std::uint64_t>>>
select_on_threads(const std::vector<sequences>& data, const std::vector<std::uint64_t>& targets) {
    const int ranks = int(data.size());
    fd::in_process_group group(ranks);
    std::vector<std::vector<std::vector<std::uint64_t>>> cuts(data.size());
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            fd::in_process_communicator c(group, r);
            std::vector<fd::sorted_array_sequence<std::uint32_t>> seqs;
            for (const auto& s : data[std::size_t(r)])
                seqs.emplace_back(s);
            std::vector<fd::sorted_array_sequence<std::uint32_t>*> ptrs;
            for (auto& s : seqs)
                ptrs.push_back(&s);
            cuts[std::size_t(r)] =
                fd::select_splits<std::uint32_t>(c, ptrs, targets, std::less<std::uint32_t>());
        });
    for (auto& t : threads)
        t.join();
    return cuts;
}

//! The reference: the first k items in the order (value, rank, sequence, index), counted per sequence.
std::vector<std::vector<std::uint64_t>> reference_cut(const std::vector<sequences>& data, std::uint64_t k) {
    std::vector<std::tuple<std::uint32_t, std::size_t, std::size_t, std::size_t>> all;
    for (std::size_t r = 0; r < data.size(); ++r)
        for (std::size_t s = 0; s < data[r].size(); ++s)
            for (std::size_t i = 0; i < data[r][s].size(); ++i)
                all.emplace_back(data[r][s][i], r, s, i);
    std::sort(all.begin(), all.end());
    std::vector<std::vector<std::uint64_t>> cut(data.size());
    for (std::size_t r = 0; r < data.size(); ++r)
        cut[r].assign(data[r].size(), 0);
    for (std::uint64_t i = 0; i < k; ++i)
        ++cut[std::get<1>(all[i])][std::get<2>(all[i])];
    return cut;
}

std::vector<sequences> random_sequences(int ranks, int per_rank, std::uint32_t distinct, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<sequences> data(static_cast<std::size_t>(ranks));
    for (auto& rank : data)
        for (int s = 0; s < per_rank; ++s) {
            std::vector<std::uint32_t> v(rng() % 200);
            for (auto& x : v)
                x = std::uint32_t(rng() % distinct);
            std::sort(v.begin(), v.end());
            rank.push_back(v);
        }
    return data;
}

void expect_exact(const std::vector<sequences>& data) {
    std::uint64_t total = 0;
    for (const auto& r : data)
        for (const auto& s : r)
            total += s.size();
    std::vector<std::uint64_t> targets;
    for (std::uint64_t k = 0; k <= total; k += std::max<std::uint64_t>(1, total / 13))
        targets.push_back(k);
    targets.push_back(total);
    auto cuts = select_on_threads(data, targets);
    for (std::size_t t = 0; t < targets.size(); ++t) {
        auto want = reference_cut(data, targets[t]);
        for (std::size_t r = 0; r < data.size(); ++r)
            EXPECT_EQ(cuts[r][t], want[r]) << "target " << targets[t] << ", rank " << r;
    }
}

} // namespace

TEST(MultisequenceSelection, MatchesTheReferenceOnDistinctKeys) {
    for (int ranks : {1, 2, 3, 4})
        expect_exact(random_sequences(ranks, 3, 1u << 30, 7u + unsigned(ranks)));
}

TEST(MultisequenceSelection, SplitsTiesByRankAndSequence) {
    for (int ranks : {2, 4})
        expect_exact(random_sequences(ranks, 2, 3, 11u + unsigned(ranks))); // three distinct values only
    std::vector<sequences> equal(
        3, sequences{std::vector<std::uint32_t>(50, 5), std::vector<std::uint32_t>(7, 5)});
    expect_exact(equal);
}

TEST(MultisequenceSelection, HandlesEmptySequencesAndRanks) {
    std::vector<sequences> data{sequences{}, sequences{{1, 2, 3}, {}}, sequences{{}}, sequences{{0, 9}}};
    expect_exact(data);
}

TEST(MultisequenceSelection, RefusesATargetBeyondTheItems) {
    fd::in_process_group group(1);
    fd::in_process_communicator c(group, 0);
    std::vector<std::uint32_t> v{1, 2};
    fd::sorted_array_sequence<std::uint32_t> s(v);
    std::vector<fd::sorted_array_sequence<std::uint32_t>*> ptrs{&s};
    EXPECT_THROW(fd::select_splits<std::uint32_t>(c, ptrs, {3}, std::less<std::uint32_t>()),
                 std::invalid_argument);
}
