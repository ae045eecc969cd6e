// Devices smaller than one Bw, and filling up half-way, under priority_queue, map and spillable_list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/map.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/spillable_list.hpp"

using namespace flashxxl;

namespace {

const block_sizes small{4 * KiB, 16 * KiB};
constexpr std::uint64_t pq_memory = 160 * KiB;

//! Checks that `e` names device 'ssd', the role and, as the outermost structure, `structure`.
void expect_names(const out_of_space& e, const std::string& role, const std::string& structure) {
    const std::string what = e.what();
    EXPECT_EQ(e.device(), "ssd") << what;
    EXPECT_EQ(e.role(), role) << what;
    const std::string& s = e.structure();
    const std::string tail = " in " + structure;
    EXPECT_TRUE(s == structure ||
                (s.size() > tail.size() && s.compare(s.size() - tail.size(), std::string::npos, tail) == 0))
        << what;
    EXPECT_NE(what.find("out of space on device 'ssd' (role " + role + ", structure " + s + "): requested "),
              std::string::npos)
        << what;
}

using pq_type = priority_queue<std::uint64_t>;

//! Pushes random keys until the queue throws out_of_space (at most `limit` pushes), recording
//! what it accepted in `ref`; returns the exception.
out_of_space push_until_full(pq_type& pq, std::multiset<std::uint64_t>& ref, std::mt19937_64& rng,
                             std::uint64_t limit) {
    for (std::uint64_t i = 0; i < limit; ++i) {
        const std::uint64_t k = rng() % 100000;
        try {
            pq.push(k);
        } catch (const out_of_space& e) {
            return e;
        }
        ref.insert(k);
    }
    ADD_FAILURE() << "no out_of_space after " << limit << " pushes";
    return out_of_space("none", "none");
}

//! Pops `count` items (one at a time, then in a batch) and checks them against the greatest
//! of `ref`, which loses them too.
void pop_and_compare(pq_type& pq, std::multiset<std::uint64_t>& ref, std::uint64_t count,
                     const std::string& where) {
    ASSERT_EQ(pq.size(), ref.size()) << where;
    std::vector<std::uint64_t> got;
    for (std::uint64_t i = 0; i < count / 2; ++i) {
        got.push_back(pq.top());
        pq.pop();
    }
    std::vector<std::uint64_t> batch(count - count / 2);
    ASSERT_EQ(pq.pop_batch(batch.begin(), batch.size()), batch.size()) << where;
    got.insert(got.end(), batch.begin(), batch.end());
    for (std::uint64_t i = 0; i < count; ++i) {
        auto last = std::prev(ref.end());
        ASSERT_EQ(got[i], *last) << where << ": pop " << i;
        ref.erase(last);
    }
    ASSERT_EQ(pq.size(), ref.size()) << where;
}

//! Bytes one spill of a full arena takes on the device (measured on a large device).
std::uint64_t bytes_per_spill() {
    machine m = flashxxl_test::tiny_machine();
    pq_type pq(m, pq_memory, small);
    std::uint64_t pushed = 0;
    while (pq.arrays() == 0)
        pq.push(pushed++);
    return m.dev(0).allocator().used_bytes();
}

} // namespace

// ---- priority_queue ---------------------------------------------------------------------------

// A device smaller than one Bw: the first spill fails, the queue keeps every item it held, the
// next push tries again (and fails again), and everything pops out in order.
TEST(out_of_space_pq, device_smaller_than_bw_keeps_every_item) {
    machine m = flashxxl_test::tiny_machine(std::to_string(small.bw / 2) + "B");
    {
        pq_type pq(m, pq_memory, small);
        std::multiset<std::uint64_t> ref;
        std::mt19937_64 rng(1);
        out_of_space e = push_until_full(pq, ref, rng, 10 * pq.memory_capacity());
        expect_names(e, "hot", "flashxxl::priority_queue");
        EXPECT_EQ(pq.size(), ref.size());
        EXPECT_EQ(pq.arrays(), 0u);
        EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u) << "the failed spill gave its extents back";
        // The retry at the next push fails the same way and adds nothing.
        EXPECT_THROW(pq.push(7), out_of_space);
        std::vector<std::uint64_t> batch{1, 2, 3};
        EXPECT_THROW(pq.push_batch(batch.begin(), batch.end()), out_of_space);
        EXPECT_EQ(pq.size(), ref.size());
        pop_and_compare(pq, ref, ref.size(), "after the failed spills");
        EXPECT_TRUE(pq.empty());
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
}

// A device that fills up half-way (room for two spills and a half): the third spill fails,
// nothing is lost, and once pops have freed room the retried spill goes through and the queue
// works on; every item comes out once, in order.
TEST(out_of_space_pq, device_full_half_way_keeps_items_and_recovers) {
    const std::uint64_t spill = bytes_per_spill();
    ASSERT_GT(spill, small.bw);
    const std::uint64_t half_spill = spill / 2 / small.bw * small.bw;
    machine m = flashxxl_test::tiny_machine(std::to_string(2 * spill + half_spill) + "B");
    {
        pq_type pq(m, pq_memory, small);
        ASSERT_GE(pq.max_arrays(), 3u) << "the third spill must not need a merge";
        std::multiset<std::uint64_t> ref;
        std::mt19937_64 rng(2);
        out_of_space e = push_until_full(pq, ref, rng, 10 * pq.memory_capacity());
        expect_names(e, "hot", "flashxxl::priority_queue");
        EXPECT_EQ(pq.arrays(), 2u);
        EXPECT_EQ(pq.size(), ref.size());
        EXPECT_EQ(pq.merges(), 0u);
        // Popping most items releases the arrays' blocks; the retried spill then fits.
        pop_and_compare(pq, ref, ref.size() * 3 / 4, "after the failed spill");
        for (std::uint64_t i = 0; i < pq.memory_capacity(); ++i) {
            const std::uint64_t k = rng() % 100000;
            ASSERT_NO_THROW(pq.push(k)) << "push " << i << " after popping three quarters";
            ref.insert(k);
        }
        EXPECT_GE(pq.arrays_written(), 3u) << "the retried spill went through";
        pop_and_compare(pq, ref, ref.size(), "after the retried spill");
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
}

// push_batch on a device smaller than one Bw: the batch that fills the arena throws; what it
// added is a prefix of the batch (size() says how many), and nothing else changed.
TEST(out_of_space_pq, failed_push_batch_added_a_prefix) {
    machine m = flashxxl_test::tiny_machine(std::to_string(small.bw / 2) + "B");
    pq_type pq(m, pq_memory, small);
    std::vector<std::uint64_t> batch(3 * pq.memory_capacity());
    std::mt19937_64 rng(3);
    for (std::uint64_t& k : batch)
        k = rng() % 100000;
    try {
        pq.push_batch(batch.begin(), batch.end());
        FAIL() << "no out_of_space";
    } catch (const out_of_space& e) {
        expect_names(e, "hot", "flashxxl::priority_queue");
    }
    ASSERT_GT(pq.size(), 0u);
    ASSERT_LT(pq.size(), batch.size());
    std::multiset<std::uint64_t> ref(batch.begin(), batch.begin() + std::ptrdiff_t(pq.size()));
    pop_and_compare(pq, ref, ref.size(), "after the failed push_batch");
}

// A device with room for max_arrays() spills: the next spill needs a merge, which finds no room
// and has consumed part of its inputs: the queue latches (every later use throws io_failure
// naming the first failure), size() stays readable, and every extent goes back.
TEST(out_of_space_pq, failed_merge_latches) {
    const std::uint64_t spill = bytes_per_spill();
    machine probe = flashxxl_test::tiny_machine();
    const std::size_t arrays = pq_type(probe, pq_memory, small).max_arrays();
    machine m = flashxxl_test::tiny_machine(std::to_string(arrays * spill) + "B");
    {
        pq_type pq(m, pq_memory, small);
        std::multiset<std::uint64_t> ref;
        std::mt19937_64 rng(4);
        out_of_space e = push_until_full(pq, ref, rng, (arrays + 3) * pq.memory_capacity());
        expect_names(e, "hot", "flashxxl::priority_queue");
        EXPECT_EQ(pq.merges(), 0u) << "the merge failed";
        EXPECT_EQ(pq.size(), ref.size());
        try {
            (void)pq.top();
            ADD_FAILURE() << "top() after a failed merge did not throw";
        } catch (const io_failure& f) {
            const std::string what = f.what();
            EXPECT_NE(what.find("flashxxl::priority_queue::top: unusable since an earlier failure lost items "
                                "(out of space on device 'ssd' (role hot, structure "),
                      std::string::npos)
                << what;
        }
        EXPECT_THROW(pq.push(1), io_failure);
        EXPECT_EQ(pq.size(), ref.size());
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
    EXPECT_EQ(m.dev(0).release_errors(), 0u);
}

// ---- map --------------------------------------------------------------------------------------

namespace {

using map_type = flashxxl::map<std::uint64_t, std::uint64_t>;

//! The map equals `ref` by iteration and by find(), and its structure checks.
void expect_map_equals(map_type& m, const std::map<std::uint64_t, std::uint64_t>& ref,
                       const std::string& where) {
    ASSERT_EQ(m.size(), ref.size()) << where;
    ASSERT_NO_THROW(m.check_structure()) << where;
    auto it = m.begin();
    for (const auto& [k, v] : ref) {
        ASSERT_TRUE(it != m.end()) << where;
        ASSERT_EQ(it->first, k) << where;
        ASSERT_EQ(it->second, v) << where;
        ++it;
        auto f = m.find(k);
        ASSERT_TRUE(f != m.end()) << where << ": key " << k << " not found";
        ASSERT_EQ(f->second, v) << where;
    }
    ASSERT_TRUE(it == m.end()) << where;
}

} // namespace

// A device smaller than one Bw: the first insert, and a bulk load, throw out_of_space naming
// the device, role and map; the map stays empty and usable.
TEST(out_of_space_map, device_smaller_than_bw) {
    machine mach = flashxxl_test::tiny_machine(std::to_string(small.bw / 2) + "B");
    map_type m(mach, map_type::min_memory(small), small);
    try {
        m.insert({1, 10});
        FAIL() << "no out_of_space";
    } catch (const out_of_space& e) {
        expect_names(e, "static_data", "flashxxl::map");
    }
    EXPECT_TRUE(m.empty());
    EXPECT_TRUE(m.find(1) == m.end());
    EXPECT_EQ(m.erase(1), 0u);
    EXPECT_NO_THROW(m.check_structure());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> in{{1, 1}, {2, 2}};
    EXPECT_THROW(m.bulk_load(in.begin(), in.end()), out_of_space);
    EXPECT_TRUE(m.empty());
    EXPECT_THROW(m.insert({2, 20}), out_of_space);
    EXPECT_TRUE(m.begin() == m.end());
    EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
}

// A device that fills up half-way through random inserts and erases: each failed insert
// inserts nothing, every item stays findable and the structure checks, erases go on working
// and make room for inserts again.
TEST(out_of_space_map, device_full_half_way_stays_consistent) {
    machine mach = flashxxl_test::tiny_machine(std::to_string(12 * small.bw) + "B");
    std::map<std::uint64_t, std::uint64_t> ref;
    {
        map_type m(mach, map_type::min_memory(small), small);
        std::mt19937_64 rng(5);
        std::uint64_t failures = 0, inserted_after = 0;
        for (std::uint64_t i = 0; i < 60000; ++i) {
            const std::uint64_t k = rng() % 1000000;
            if (failures > 0 && rng() % 3 == 0 && !ref.empty()) { // after a failure: erases too
                auto at = ref.lower_bound(k);
                const std::uint64_t victim = at == ref.end() ? ref.begin()->first : at->first;
                ASSERT_EQ(m.erase(victim), 1u);
                ref.erase(victim);
                continue;
            }
            try {
                const bool inserted = m.insert({k, k * 3}).second;
                ASSERT_EQ(inserted, ref.insert({k, k * 3}).second) << "insert " << i;
                if (failures > 0) ++inserted_after;
            } catch (const out_of_space& e) {
                if (failures++ == 0) expect_names(e, "static_data", "flashxxl::map");
                ASSERT_EQ(ref.count(k), 0u);
                ASSERT_TRUE(m.find(k) == m.end()) << "the failed insert of " << k << " inserted it";
                if (failures % 50 == 1) expect_map_equals(m, ref, "failure " + std::to_string(failures));
            }
        }
        ASSERT_GT(failures, 0u) << "the device never filled up";
        EXPECT_GT(inserted_after, 0u) << "erases never made room again";
        expect_map_equals(m, ref, "at the end");
        // A bulk load larger than the device, after clear(): out_of_space, the map empty.
        m.clear();
        ref.clear();
        std::vector<std::pair<std::uint64_t, std::uint64_t>> in;
        for (std::uint64_t i = 0; i < 20 * map_type::leaf_capacity(small); ++i)
            in.emplace_back(i, i);
        try {
            m.bulk_load(in.begin(), in.end());
            FAIL() << "no out_of_space";
        } catch (const out_of_space& e) {
            expect_names(e, "static_data", "flashxxl::map");
        }
        EXPECT_TRUE(m.empty());
        EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
        ASSERT_TRUE(m.insert({5, 15}).second);
        ref[5] = 15;
        expect_map_equals(m, ref, "after the failed bulk load");
    }
    EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
}

// ---- spillable_list ---------------------------------------------------------------------------

namespace {

struct rec {
    std::uint32_t a, b;
};

std::vector<std::uint32_t> read_all(spillable_list<rec>& l) {
    std::vector<std::uint32_t> out;
    for (auto c = l.read(); !c.empty(); ++c) {
        EXPECT_EQ(c->b, 3 * c->a);
        out.push_back(c->a);
    }
    return out;
}

//! Pushes records 0, 1, 2, ... until a push throws out_of_space, which must name the list and
//! its role; returns how many pushes succeeded.
std::uint32_t push_until_out_of_space(spillable_list<rec>& l) {
    std::uint32_t pushed = 0;
    try {
        for (; pushed < 1000000; ++pushed)
            l.push(rec{pushed, 3 * pushed});
        ADD_FAILURE() << "no out_of_space";
    } catch (const out_of_space& e) {
        expect_names(e, "scratch", "flashxxl::spillable_list");
    }
    return pushed;
}

} // namespace

// A device smaller than one Bw under a list whose budget holds more than a Bw: the spill fails,
// the list stays in memory as it was (size() what it holds), a later push fails the same way,
// and once finished it reads back exactly what was pushed.
TEST(out_of_space_spillable_list, device_smaller_than_bw_keeps_the_list_in_memory) {
    machine m = flashxxl_test::tiny_machine(std::to_string(small.bw / 2) + "B");
    memory_account acc;
    {
        spillable_list<rec> l(m, small, 4 * small.bw, acc);
        const std::uint32_t pushed = push_until_out_of_space(l);
        EXPECT_FALSE(l.external());
        EXPECT_EQ(l.size(), pushed);
        EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
        EXPECT_THROW(l.push(rec{pushed, 3 * pushed}), out_of_space);
        EXPECT_EQ(l.size(), pushed);
        l.finish();
        std::vector<std::uint32_t> got = read_all(l);
        ASSERT_EQ(got.size(), pushed);
        for (std::uint32_t i = 0; i < pushed; ++i)
            ASSERT_EQ(got[i], i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

// A device that fills up half-way after the list spilled: out_of_space naming the list, size()
// counts only what was held, and the list refuses to be finished or read rather than hand out
// fewer records.
TEST(out_of_space_spillable_list, device_full_half_way_after_the_spill) {
    machine m = flashxxl_test::tiny_machine(std::to_string(3 * small.bw) + "B");
    memory_account acc;
    {
        spillable_list<rec> l(m, small, 4 * KiB, acc);
        const std::uint32_t pushed = push_until_out_of_space(l);
        EXPECT_TRUE(l.external());
        EXPECT_GT(pushed, 2 * small.bw / sizeof(rec)) << "the device filled up half-way, not at once";
        EXPECT_EQ(l.size(), pushed);
        EXPECT_THROW(l.finish(), io_failure);
        EXPECT_THROW(l.read(), invalid_request);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}
