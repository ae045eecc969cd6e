// Tests of container/parallel_merge.hpp and parallel_run_merger.hpp: parallel merges equal the sequential
// ones, 1..8 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/parallel_merge.hpp"
#include "flashxxl/container/parallel_run_merger.hpp"

using namespace flashxxl;
using flashxxl_test::item;
using flashxxl_test::shape;

namespace {

//! Sorted runs of the given sizes; every item's payload names its run and place (tag), so
//! ties between runs are told apart by operator== (not by the order, which looks at keys).
template <class T>
std::vector<std::vector<T>> make_runs(shape sh, const std::vector<std::size_t>& sizes, std::uint32_t seed) {
    std::vector<std::vector<T>> runs;
    std::uint32_t tag = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
        std::vector<T> run;
        for (std::uint32_t k : flashxxl_test::keys(sh, sizes[r], seed + std::uint32_t(r)))
            run.push_back(T(k, tag++));
        std::stable_sort(run.begin(), run.end());
        runs.push_back(std::move(run));
    }
    return runs;
}

//! The sequential stable merge: ties leave in run order.
template <class T> std::vector<T> stable_reference(const std::vector<std::vector<T>>& runs) {
    std::vector<T> all;
    for (const auto& r : runs)
        all.insert(all.end(), r.begin(), r.end());
    std::stable_sort(all.begin(), all.end());
    return all;
}

//! Merges `runs` with merge_sorted on `threads` threads, `piece` items per call.
template <class T>
std::vector<T> merge_pieces(std::vector<std::vector<T>>& runs, std::size_t threads, std::uint64_t piece) {
    std::vector<std::pair<T*, T*>> seqs;
    std::size_t total = 0;
    for (auto& r : runs) {
        seqs.emplace_back(r.data(), r.data() + r.size());
        total += r.size();
    }
    std::vector<T> out(total, T(0));
    T* at = out.data();
    merge_team team(threads);
    while (at != out.data() + total) {
        T* end = merge_sorted(seqs, at, piece, std::less<T>(), threads > 1 ? &team : nullptr);
        EXPECT_EQ(std::uint64_t(end - at),
                  std::min<std::uint64_t>(piece, std::uint64_t(out.data() + total - at)));
        if (end == at) break;
        at = end;
    }
    for (const auto& s : seqs)
        EXPECT_EQ(s.first, s.second) << "every sequence used up";
    return out;
}

const std::vector<std::vector<std::size_t>> run_shapes = {
    {},                      // no runs
    {0, 0, 0},               // only empty runs
    {1},                     // one item
    {20000},                 // one run: a copy
    {0, 30000, 1, 0, 25000}, // two real runs among empty and tiny ones
    {9000, 9001, 9002},      // three (libstdc++'s 3-way variant)
    {5000, 1, 7000, 12000},  // four (its 4-way variant)
    {3000, 0, 4000, 5, 2, 6000, 1, 8000, 3, 2500, 7, 12000, 1, 1, 900, 4000, 3}, // 17: the loser tree
};

} // namespace

template <class T> class parallel_merge_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(parallel_merge_typed, item_types);

// merge_sorted writes exactly the sequential stable merge for every thread count, with equal
// keys (few distinct, all equal), empty and tiny runs, in one call or in pieces.
TYPED_TEST(parallel_merge_typed, equals_the_sequential_stable_merge) {
    using T = TypeParam;
    for (shape sh : {shape::random, shape::few_distinct, shape::all_equal}) {
        for (std::size_t c = 0; c < run_shapes.size(); ++c) {
            const auto runs = make_runs<T>(sh, run_shapes[c], std::uint32_t(100 * c + int(sh)));
            const std::vector<T> want = stable_reference(runs);
            for (std::size_t threads = 1; threads <= 8; ++threads) {
                for (std::uint64_t piece :
                     {std::uint64_t(1) << 40, std::uint64_t(10007), std::uint64_t(777)}) {
                    auto work = runs;
                    std::vector<T> got = merge_pieces(work, threads, piece);
                    ASSERT_EQ(got.size(), want.size());
                    for (std::size_t i = 0; i < want.size(); ++i)
                        ASSERT_TRUE(got[i] == want[i]) << "shape " << int(sh) << " case " << c << " threads "
                                                       << threads << " piece " << piece << " item " << i;
                }
            }
        }
    }
}

// A comparator that throws on the merge team's threads: the exception reaches the caller.
TEST(parallel_merge, comparator_exception_reaches_the_caller) {
    auto runs = make_runs<item<8>>(shape::random, {20000, 20000, 20000}, 7);
    std::vector<std::pair<item<8>*, item<8>*>> seqs;
    for (auto& r : runs)
        seqs.emplace_back(r.data(), r.data() + r.size());
    std::vector<item<8>> out(60000, item<8>(0));
    int calls = 0;
    auto fragile = [&calls](const item<8>& a, const item<8>& b) {
        if (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) > 5000)
            throw std::runtime_error("comparator gave up");
        return a < b;
    };
    merge_team team(4);
    EXPECT_THROW(merge_sorted(seqs, out.data(), 60000, fragile, &team), std::runtime_error);
    // The team stays usable after a job threw.
    calls = -(1 << 30);
    auto again = make_runs<item<8>>(shape::random, {20000, 20000}, 8);
    std::vector<std::pair<item<8>*, item<8>*>> seqs2;
    for (auto& r : again)
        seqs2.emplace_back(r.data(), r.data() + r.size());
    EXPECT_EQ(merge_sorted(seqs2, out.data(), 40000, std::less<item<8>>(), &team), out.data() + 40000);
    EXPECT_TRUE(std::is_sorted(out.begin(), out.begin() + 40000));
}

// merge_team: each round runs every job exactly once and returns only when all are done,
// whether its threads are still spinning from the last round (rounds back to back), asleep
// (a pause longer than the spin), or never spin (spin 0); a team that never ran, or whose
// threads spin, ends at once.
TEST(merge_team, every_job_runs_once_whether_threads_spin_or_sleep) {
    using std::chrono::microseconds;
    for (microseconds spin : {microseconds(0), microseconds(200), microseconds(20000)}) {
        for (std::size_t size : {2u, 3u, 8u}) {
            merge_team team(size, spin);
            for (int round = 0; round < 60; ++round) {
                std::size_t n = 1 + std::size_t(round) % size;
                std::vector<int> ran(size, 0); // job i writes only ran[i]
                team.run(n, [&](std::size_t i) { ++ran[i]; });
                for (std::size_t i = 0; i < size; ++i)
                    ASSERT_EQ(ran[i], i < n ? 1 : 0) << "spin " << spin.count() << " us, size " << size
                                                     << ", round " << round << ", job " << i;
                if (round % 20 == 19) std::this_thread::sleep_for(microseconds(1000)); // past the short spins
            }
        }
        merge_team idle(4, spin); // never ran: no threads to end
    }
    std::vector<int> ran(4, 0);
    {
        merge_team spinning(4, std::chrono::seconds(600));
        spinning.run(4, [&](std::size_t i) { ++ran[i]; });
    } // its threads spin (for ten minutes, unless the destructor stops them: a hang times out)
    EXPECT_EQ(ran, std::vector<int>(4, 1));
}

namespace {

//! A parallel_run_merger source over sorted runs cut into blocks of `block` items: like the
//! forecast prefetcher it shows up to `ahead` blocks beyond the current one, of which a
//! pseudo-random prefix is "completed". Checks the protocol (blocks handed out in order,
//! no call after the end).
template <class T> struct blocked_source {
    const std::vector<std::vector<T>>* runs;
    std::size_t block = 5, ahead = 3;
    std::vector<std::size_t>* next; // next block of each run to hand out
    std::mt19937* rng;

    std::size_t blocks(std::size_t i) const { return ((*runs)[i].size() + block - 1) / block; }
    const T* at(std::size_t i, std::size_t b) const { return (*runs)[i].data() + b * block; }
    const T* stop(std::size_t i, std::size_t b) const {
        return (*runs)[i].data() + std::min((b + 1) * block, (*runs)[i].size());
    }
    bool next_range(std::size_t i, const T*& cur, const T*& end, bool consumed) {
        if (!consumed) (*next)[i] = 0;
        if ((*next)[i] >= blocks(i)) {
            if ((*next)[i] > blocks(i)) throw std::logic_error("next_range after the end");
            ++(*next)[i];
            return false;
        }
        cur = at(i, (*next)[i]);
        end = stop(i, (*next)[i]);
        ++(*next)[i];
        return true;
    }
    template <class F> bool for_each_ready(std::size_t i, F&& f) {
        std::size_t b = (*next)[i]; // the first block after the current one
        std::size_t shown = std::min<std::size_t>((*rng)() % (ahead + 1), blocks(i) > b ? blocks(i) - b : 0);
        for (std::size_t s = 0; s < shown; ++s)
            if (!f(at(i, b + s), stop(i, b + s))) return true;
        return b + shown < blocks(i);
    }
};

} // namespace

// The windowed merger (what the sorter's merges run on): sorted output holding exactly the
// input, for blocks read ahead or not, 1..8 threads, pops of many sizes; with distinct keys
// exactly the sequential merge.
TEST(parallel_run_merger, bounded_steps_give_the_sequential_order) {
    for (shape sh : {shape::random, shape::few_distinct, shape::all_equal}) {
        for (std::size_t c = 0; c < run_shapes.size(); ++c) {
            for (std::size_t threads : {1, 2, 3, 8}) {
                const auto runs = make_runs<item<16>>(sh, run_shapes[c], std::uint32_t(7 * c + int(sh)));
                std::vector<std::size_t> next(runs.size(), 0);
                std::mt19937 rng(std::uint32_t(c * 31 + threads));
                blocked_source<item<16>> src{&runs, 97, 4, &next, &rng};
                parallel_run_merger<item<16>, std::less<item<16>>, blocked_source<item<16>>> m(
                    src, std::less<item<16>>(), threads);
                EXPECT_EQ(m.threads(), threads);
                m.start(runs.size());
                std::vector<item<16>> got;
                std::vector<item<16>> out(50000, item<16>(0));
                for (std::uint64_t pop : {1, 7, 1000, 9000, 50000}) {
                    while (!m.empty()) {
                        std::uint64_t n = m.pop_into(out.data(), pop);
                        ASSERT_GT(n, 0u);
                        got.insert(got.end(), out.begin(), out.begin() + std::ptrdiff_t(n));
                        if (got.size() % 3 == 0) break; // mix the pop sizes
                    }
                }
                while (!m.empty()) {
                    std::uint64_t n = m.pop_into(out.data(), out.size());
                    got.insert(got.end(), out.begin(), out.begin() + std::ptrdiff_t(n));
                }
                std::vector<item<16>> want = stable_reference(runs);
                ASSERT_EQ(got.size(), want.size());
                // The keys leave exactly in the sequential order; ties between runs may leave in
                // another order (the sorter promises no stability), the items are the same.
                for (std::size_t i = 0; i < want.size(); ++i)
                    ASSERT_EQ(got[i].key, want[i].key) << i;
                auto by_tag = [](const item<16>& a, const item<16>& b) {
                    return a.key != b.key
                               ? a.key < b.key
                               : std::lexicographical_compare(a.payload, a.payload + sizeof a.payload,
                                                              b.payload, b.payload + sizeof b.payload);
                };
                std::sort(got.begin(), got.end(), by_tag);
                std::sort(want.begin(), want.end(), by_tag);
                for (std::size_t i = 0; i < want.size(); ++i)
                    ASSERT_TRUE(got[i] == want[i]) << i;
            }
        }
    }
}
