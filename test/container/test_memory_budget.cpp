// memory_budget: one meaning of M for every container, the machine's overhead taken off once, peaks and heap
// within M.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/map.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/spillable_list.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/io/usable_memory.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;
using tracker = flashxxl_test::alloc_tracker;

const block_sizes blocks(4 * KiB, 16 * KiB);
//! M of every program below: a sixteenth of the data they move.
constexpr std::uint64_t program_memory = 768 * KiB;
constexpr std::uint64_t items = 160000; // 1.25 MiB of uint64_t

//! A memory-backed machine whose one device has a translation layer (64 KiB segments: its
//! buffers and maps are the machine's fixed overhead, which M must cover).
machine tl_machine() {
    return machine::from_config_text("name=tl\nflash=memory,64MiB,memory name=ssd tl=on tl_page=4KiB "
                                     "tl_segment=64KiB\nplacement=single device=ssd\n",
                                     "tl-machine");
}

//! Stops counting the test thread's allocations for its lifetime: the reference data and
//! oracles are the test's, not the structure's.
struct untracked {
    bool was = tracker::tracking();
    untracked() { tracker::tracking() = false; }
    ~untracked() { tracker::tracking() = was; }
};

std::vector<std::uint64_t> random_items(std::uint64_t n, std::uint64_t seed) {
    untracked off;
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v)
        x = rng() % (n * 4);
    return v;
}

//! Runs `work(m, usable)` on a machine with a translation layer, where `usable` is
//! usable_memory(m, M) of a budget M charging one program account, and checks that the program
//! account's peak plus the machine's overhead, and what the test thread allocated, stay within
//! M. `slack` covers bookkeeping a structure documents as outside M (directories, page maps).
template <class Work> void expect_within_budget(const std::string& what, std::uint64_t slack, Work work) {
    SCOPED_TRACE(what);
    machine m = tl_machine();
    const std::uint64_t overhead = translation_layer_memory(m);
    ASSERT_GT(overhead, 2 * 64 * KiB); // two segment buffers and the maps
    memory_account program;
    const memory_budget usable = usable_memory(m, memory_budget(program_memory, program));
    EXPECT_EQ(usable.bytes() + overhead, program_memory);
    EXPECT_EQ(usable.account(), &program);
    tracker::start();
    work(m, usable);
    tracker::stop();
    EXPECT_GT(program.peak(), 0u) << "nothing rolled up into the program's account";
    EXPECT_LE(program.peak() + overhead, program_memory);
    EXPECT_EQ(program.current(), 0u) << "everything given back";
    EXPECT_LE(std::uint64_t(tracker::peak()), program_memory + slack)
        << "the test thread's heap peak exceeds M (the machine's overhead included) + " << slack;
}

TEST(memory_budget, parts_split_and_require) {
    memory_account acc;
    const memory_budget m(1000, acc);
    EXPECT_EQ(m.bytes(), 1000u);
    EXPECT_EQ(m.part(400).bytes(), 400u);
    EXPECT_EQ(m.part(400).account(), &acc);
    EXPECT_THROW(m.part(1001), config_error);
    const auto parts = m.split({0.75, 0.25});
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].bytes(), 750u);
    EXPECT_EQ(parts[1].bytes(), 250u);
    EXPECT_EQ(parts[1].account(), &acc);
    EXPECT_THROW(m.split({0.75, 0.5}), config_error);
    EXPECT_THROW(m.split({0.0}), config_error);
    EXPECT_EQ(m.less(100, "x").bytes(), 900u);
    EXPECT_THROW(m.less(1000, "the layers"), config_error);
    const memory_budget plain = 4096; // a byte count is a budget
    EXPECT_EQ(plain.account(), nullptr);
    try {
        plain.require(8192, "flashxxl::thing", "two pages");
        FAIL() << "no config_error";
    } catch (const config_error& e) {
        const std::string w = e.what();
        EXPECT_NE(w.find("flashxxl::thing"), std::string::npos) << w;
        EXPECT_NE(w.find("4 KiB"), std::string::npos) << w;
        EXPECT_NE(w.find("minimum 8 KiB"), std::string::npos) << w;
    }
}

TEST(memory_budget, accounts_roll_up_into_their_parent) {
    memory_account program;
    {
        memory_account a(&program), b(&program);
        a.add(100);
        b.add(50);
        EXPECT_EQ(program.current(), 150u);
        a.remove(100);
        b.add(20);
        EXPECT_EQ(program.current(), 70u);
        EXPECT_EQ(program.peak(), 150u);
        EXPECT_EQ(a.peak(), 100u);
        b.remove(70);
    }
    EXPECT_EQ(program.current(), 0u);
}

// The machine's overhead is taken off once: usable_memory of a budget already net of it gives it
// back unchanged; a budget that does not cover it is refused with the holder named.
TEST(memory_budget, machine_overhead_is_taken_off_once) {
    machine m = tl_machine();
    const std::uint64_t overhead = translation_layer_memory(m);
    const memory_budget once = usable_memory(m, 4 * MiB);
    EXPECT_EQ(once.bytes(), 4 * MiB - overhead);
    EXPECT_TRUE(once.machine_overhead_deducted());
    EXPECT_EQ(once.machine_overhead(), overhead);
    EXPECT_EQ(usable_memory(m, once).bytes(), once.bytes());
    try {
        (void)usable_memory(m, overhead);
        FAIL() << "no config_error";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("translation layers"), std::string::npos) << e.what();
    }
    machine plain = flashxxl_test::tiny_machine();
    EXPECT_EQ(usable_memory(plain, 4 * MiB).bytes(), 4 * MiB);
}

// memory_usage(M, b) means one thing for every container: the most it holds under M.
TEST(memory_budget, memory_usage_is_what_a_container_holds_under_M) {
    const std::uint64_t M = 4 * MiB;
    EXPECT_EQ((vector<std::uint64_t>::memory_usage(M, blocks)), M);
    EXPECT_EQ((sorter<std::uint64_t>::memory_usage(M, blocks)), M);
    EXPECT_EQ((priority_queue<std::uint64_t>::memory_usage(M, blocks)), M);
    EXPECT_EQ((map<std::uint64_t, std::uint64_t>::memory_usage(M, blocks)), M);
    EXPECT_EQ(stack<std::uint64_t>::memory_usage(M, blocks), 2 * blocks.bw);
    EXPECT_EQ(queue<std::uint64_t>::memory_usage(M, blocks), 2 * blocks.bw + 2 * blocks.br);
    for (std::uint64_t min :
         {vector<std::uint64_t>::min_memory(blocks), sorter<std::uint64_t>::min_memory(blocks),
          priority_queue<std::uint64_t>::min_memory(blocks),
          map<std::uint64_t, std::uint64_t>::min_memory(blocks), stack<std::uint64_t>::min_memory(blocks),
          queue<std::uint64_t>::min_memory(blocks)})
        EXPECT_LE(min, M);
}

//! The config_error of a budget below the minimum names the structure, the budget and the minimum.
template <class Make> void expect_too_small(const std::string& structure, std::uint64_t minimum, Make make) {
    SCOPED_TRACE(structure);
    machine m = tl_machine();
    const std::uint64_t budget = minimum - 1;
    try {
        make(m, memory_budget(budget));
        FAIL() << "no config_error below the minimum";
    } catch (const config_error& e) {
        const std::string w = e.what();
        EXPECT_NE(w.find(structure), std::string::npos) << w;
        EXPECT_NE(w.find("memory budget " + format_bytes(double(budget))), std::string::npos) << w;
        EXPECT_NE(w.find(format_bytes(double(minimum))), std::string::npos) << w;
    }
}

TEST(memory_budget, a_budget_below_the_minimum_names_structure_budget_and_minimum) {
    using T = std::uint64_t;
    expect_too_small("flashxxl::vector", vector<T>::min_memory(blocks),
                     [](machine& m, const memory_budget& b) { vector<T> v(m, b, blocks); });
    expect_too_small("flashxxl::sorter", sorter<T>::min_memory(blocks),
                     [](machine& m, const memory_budget& b) { sorter<T> s(m, b, blocks); });
    expect_too_small("flashxxl::priority_queue", priority_queue<T>::min_memory(blocks),
                     [](machine& m, const memory_budget& b) { priority_queue<T> q(m, b, blocks); });
    expect_too_small("flashxxl::map", map<T, T>::min_memory(blocks),
                     [](machine& m, const memory_budget& b) { map<T, T> t(m, b, blocks); });
    expect_too_small("flashxxl::stack", stack<T>::min_memory(blocks),
                     [](machine& m, const memory_budget& b) { stack<T> s(m, b, blocks); });
    expect_too_small("flashxxl::queue", queue<T>::min_memory(blocks),
                     [](machine& m, const memory_budget& b) { queue<T> q(m, b, blocks); });
    const std::uint64_t sort_min = sort_stream_memory<T>(blocks) + sorter<T>::min_memory(blocks);
    expect_too_small("flashxxl::sort", sort_min, [](machine& m, const memory_budget& b) {
        vector<T> v(m, 64 * KiB, blocks);
        v.push_back(1);
        sort(v, b);
    });
}

TEST(memory_budget, vector_with_its_streams_stays_within_M) {
    expect_within_budget("vector", 64 * KiB, [](machine& m, const memory_budget& M) {
        const auto data = random_items(items, 1);
        vector<std::uint64_t> v(m, M, blocks);
        {
            vector<std::uint64_t>::stream_writer w(v); // charged to the vector's account
            for (std::uint64_t x : data)
                w.push(x);
            w.finish();
        }
        std::mt19937_64 rng(2);
        for (int i = 0; i < 3000; ++i) {
            const std::uint64_t k = rng() % items;
            ASSERT_EQ(v.get(k), data[k]);
        }
        std::uint64_t i = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i)
            ASSERT_EQ(*r, data[i]);
        EXPECT_EQ(i, items);
        EXPECT_LE(v.account().peak(), M.bytes());
    });
}

TEST(memory_budget, sorter_and_sort_stay_within_M) {
    expect_within_budget("sorter", 64 * KiB, [](machine& m, const memory_budget& M) {
        auto data = random_items(items, 3);
        sorter<std::uint64_t> s(m, M, blocks);
        for (std::uint64_t x : data)
            s.push(x);
        s.sort();
        {
            untracked off;
            std::sort(data.begin(), data.end());
        }
        for (std::uint64_t x : data) {
            ASSERT_EQ(*s, x);
            ++s;
        }
        EXPECT_GE(s.runs_formed(), 2u) << "the data should not fit in M";
    });
    expect_within_budget("sort", 64 * KiB, [](machine& m, const memory_budget& M) {
        auto data = random_items(items, 4);
        const auto parts = M.split({0.25, 0.75}); // the vector's cache and the sort, side by side
        vector<std::uint64_t> v(m, parts[0], blocks);
        for (std::uint64_t x : data)
            v.push_back(x);
        sort(v, parts[1]);
        {
            untracked off;
            std::sort(data.begin(), data.end());
        }
        std::uint64_t i = 0;
        for (vector<std::uint64_t>::stream_reader r(v); !r.empty(); ++r, ++i)
            ASSERT_EQ(*r, data[i]);
    });
}

TEST(memory_budget, priority_queue_stays_within_M) {
    expect_within_budget("priority_queue", 64 * KiB, [](machine& m, const memory_budget& M) {
        const auto data = random_items(items, 5);
        priority_queue<std::uint64_t> pq(m, M, blocks);
        std::vector<std::uint64_t> ref;
        {
            untracked off;
            ref = data;
            std::sort(ref.begin(), ref.end());
        }
        for (std::uint64_t x : data)
            pq.push(x);
        for (auto it = ref.rbegin(); it != ref.rend();
             ++it) { // the top is the largest, as std::priority_queue's
            ASSERT_EQ(pq.top(), *it);
            pq.pop();
        }
        EXPECT_TRUE(pq.empty());
    });
}

TEST(memory_budget, stack_and_queue_share_one_budget) {
    expect_within_budget("stack + queue", 16 * KiB, [](machine& m, const memory_budget& M) {
        const auto parts = M.split({0.5, 0.5});
        stack<std::uint64_t> s(m, parts[0], blocks);
        queue<std::uint64_t> q(m, parts[1], blocks);
        for (std::uint64_t i = 0; i < items; ++i) {
            s.push(i);
            q.push(i);
        }
        for (std::uint64_t i = 0; i < items; ++i) {
            ASSERT_EQ(s.top(), items - 1 - i);
            s.pop();
            ASSERT_EQ(q.front(), i);
            q.pop();
        }
    });
}

TEST(memory_budget, map_stays_within_M) {
    expect_within_budget("map", 64 * KiB, [](machine& m, const memory_budget& M) {
        map<std::uint64_t, std::uint64_t> t(m, M, blocks);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> sorted;
        std::vector<bool> present(80000, false);
        {
            untracked off;
            for (std::uint64_t i = 0; i < 40000; ++i) {
                sorted.emplace_back(2 * i, i);
                present[2 * i] = true;
            }
        }
        t.bulk_load(sorted);
        std::mt19937_64 rng(6);
        for (int i = 0; i < 2000; ++i) {
            const std::uint64_t k = rng() % 80000;
            ASSERT_EQ(t.find(k) != t.end(), bool(present[k])) << k;
            if (!present[k]) {
                t.insert({k, k});
                present[k] = true;
            }
        }
    });
}

TEST(memory_budget, spillable_list_stays_within_M) {
    expect_within_budget("spillable_list", 16 * KiB, [](machine& m, const memory_budget& M) {
        spillable_list<std::uint64_t> l(m, M, blocks);
        for (std::uint64_t i = 0; i < items; ++i)
            l.push(i);
        l.finish();
        EXPECT_TRUE(l.external());
        std::uint64_t i = 0;
        for (auto c = l.read(); !c.empty(); ++c, ++i)
            ASSERT_EQ(*c, i);
        EXPECT_EQ(i, items);
    });
}

} // namespace
