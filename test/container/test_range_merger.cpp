// Tests of container/range_merger.hpp: k-way merges of refilled ranges against std::sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "flashxxl/container/range_merger.hpp"

using namespace flashxxl;

namespace {

//! Sorted sources handed out in pieces of at most `piece` items, counting refill calls.
struct piecewise_sources {
    std::vector<std::vector<std::uint32_t>> data;
    std::vector<std::size_t> next; // first item of the next piece
    std::size_t piece = 3;
    std::vector<int> first_calls, refills_after_end;

    bool operator()(std::size_t i, const std::uint32_t*& cur, const std::uint32_t*& end, bool consumed) {
        if (!consumed) {
            ++first_calls[i];
            next[i] = 0;
        }
        if (next[i] >= data[i].size()) {
            if (consumed) ++refills_after_end[i];
            return false;
        }
        std::size_t k = std::min(piece, data[i].size() - next[i]);
        cur = data[i].data() + next[i];
        end = cur + k;
        next[i] += k;
        return true;
    }
};

template <class Cmp>
piecewise_sources make_sources(std::size_t k, std::size_t max_len, std::uint32_t key_range, Cmp cmp,
                               std::uint32_t seed) {
    std::mt19937 rng(seed);
    piecewise_sources s;
    for (std::size_t i = 0; i < k; ++i) {
        std::vector<std::uint32_t> v(rng() % (max_len + 1));
        for (auto& x : v)
            x = rng() % key_range;
        std::sort(v.begin(), v.end(), cmp);
        s.data.push_back(std::move(v));
    }
    s.next.assign(k, 0);
    s.first_calls.assign(k, 0);
    s.refills_after_end.assign(k, 0);
    return s;
}

template <class Cmp> std::vector<std::uint32_t> expected(const piecewise_sources& s, Cmp cmp) {
    std::vector<std::uint32_t> all;
    for (const auto& v : s.data)
        all.insert(all.end(), v.begin(), v.end());
    std::sort(all.begin(), all.end(), cmp);
    return all;
}

template <class Cmp> struct by_ref {
    piecewise_sources* s;
    bool operator()(std::size_t i, const std::uint32_t*& c, const std::uint32_t*& e, bool consumed) const {
        return (*s)(i, c, e, consumed);
    }
};

} // namespace

TEST(range_merger, top_pop_matches_sort_for_many_k) {
    for (std::size_t k : {0, 1, 2, 3, 5, 8, 13, 64, 100}) {
        piecewise_sources s = make_sources(k, 50, 20, std::less<>(), std::uint32_t(k + 1));
        std::vector<std::uint32_t> want = expected(s, std::less<>());
        range_merger<std::uint32_t, std::less<std::uint32_t>, by_ref<std::less<>>> m(
            std::less<std::uint32_t>(), by_ref<std::less<>>{&s});
        m.start(k);
        std::vector<std::uint32_t> got;
        while (!m.empty()) {
            got.push_back(m.top());
            m.pop();
        }
        EXPECT_EQ(got, want) << "k = " << k;
        for (std::size_t i = 0; i < k; ++i) {
            EXPECT_EQ(s.first_calls[i], 1) << "source " << i;
            EXPECT_LE(s.refills_after_end[i], 1) << "an exhausted source is asked again";
        }
    }
}

TEST(range_merger, pop_into_in_small_batches_with_custom_order) {
    for (std::size_t k : {1, 4, 7, 33}) {
        piecewise_sources s = make_sources(k, 200, 1000, std::greater<>(), std::uint32_t(7 * k));
        std::vector<std::uint32_t> want = expected(s, std::greater<>());
        range_merger<std::uint32_t, std::greater<std::uint32_t>, by_ref<std::greater<>>> m(
            std::greater<std::uint32_t>(), by_ref<std::greater<>>{&s});
        m.start(k);
        std::vector<std::uint32_t> got(want.size() + 10, 0xdeadbeef);
        std::size_t filled = 0;
        std::size_t batch = 1;
        while (!m.empty()) {
            std::uint64_t n = m.pop_into(got.data() + filled, batch);
            EXPECT_GE(n, 1u);
            EXPECT_LE(n, batch);
            filled += n;
            batch = batch % 17 + 1;
        }
        EXPECT_EQ(m.pop_into(got.data() + filled, 5), 0u);
        ASSERT_EQ(filled, want.size());
        EXPECT_EQ(got[filled], 0xdeadbeef) << "wrote past what it reported";
        got.resize(filled);
        EXPECT_EQ(got, want) << "k = " << k;
    }
}

TEST(range_merger, position_follows_consumption_and_restart_resumes) {
    piecewise_sources s = make_sources(4, 40, 100, std::less<>(), 99);
    std::vector<std::uint32_t> want = expected(s, std::less<>());
    range_merger<std::uint32_t, std::less<std::uint32_t>, by_ref<std::less<>>> m(std::less<std::uint32_t>(),
                                                                                 by_ref<std::less<>>{&s});
    m.start(4);
    std::size_t taken = want.size() / 2;
    for (std::size_t i = 0; i < taken; ++i) {
        ASSERT_FALSE(m.empty());
        EXPECT_EQ(m.top(), want[i]);
        m.pop();
    }
    // Every source's position lies inside the piece it handed out last, or it is exhausted.
    for (std::size_t i = 0; i < 4; ++i) {
        const std::uint32_t* p = m.position(i);
        if (p == nullptr) {
            EXPECT_GE(s.next[i], s.data[i].size());
        } else {
            EXPECT_GE(p, s.data[i].data());
            EXPECT_LT(p, s.data[i].data() + s.next[i]);
        }
    }
    // A restart begins again from each source's first range (the caller syncs positions).
    m.start(4);
    std::vector<std::uint32_t> again;
    while (!m.empty()) {
        again.push_back(m.top());
        m.pop();
    }
    EXPECT_EQ(again, want);
}
