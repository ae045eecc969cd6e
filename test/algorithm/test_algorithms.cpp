// Tests of include/flashxxl/algorithm/: scan, transform, generate, sort / stable_sort / ksort of ranges
// and random_shuffle against std:: oracles, their I/O, memory peak against M and out_of_space.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/algorithm/for_each.hpp"
#include "flashxxl/algorithm/random_shuffle.hpp"
#include "flashxxl/algorithm/sort.hpp"
#include "flashxxl/algorithm/transform.hpp"

using namespace flashxxl;

namespace {
const block_sizes small(4 * KiB, 16 * KiB);
const std::uint64_t sort_memory = 160 * KiB;

struct record {
    std::uint32_t key;
    std::uint32_t tag;
    std::uint64_t payload;
    friend bool operator==(const record& a, const record& b) {
        return a.key == b.key && a.tag == b.tag && a.payload == b.payload;
    }
};

template <class T> std::vector<T> contents(vector<T>& v) {
    std::vector<T> out;
    for (typename vector<T>::stream_reader r(v); !r.empty(); ++r)
        out.push_back(*r);
    return out;
}

//! A vector of n items make(i) whose cache can hold a group (in_place_memory).
template <class T, class Make> vector<T> filled(machine& m, std::uint64_t n, Make make) {
    vector<T> v(m, in_place_memory<T>(small), small);
    generate_back(v, n, make, vector<T>::stream_writer::memory_usage(small));
    return v;
}

std::uint64_t key_of(std::uint64_t i) { return (i * 0x9e3779b97f4a7c15ull) >> 44; }

TEST(algorithm, scan_visits_every_item_of_the_range_with_br_reads) {
    machine m = flashxxl_test::tiny_machine();
    auto v = filled<std::uint64_t>(m, 50000, [](std::uint64_t i) { return i; });
    const device_stats before = flashxxl_test::total_stats(m);
    memory_account program;
    std::uint64_t sum = 0, count = 0;
    scan(
        range_of(v, 1000, 41000), [&](std::uint64_t x) { sum += x, ++count; },
        memory_budget(scan_memory<std::uint64_t>(small), program));
    EXPECT_EQ(count, 40000u);
    EXPECT_EQ(sum, (1000u + 40999u) * 40000u / 2);
    const device_stats after = flashxxl_test::total_stats(m);
    EXPECT_EQ(after.total.write_ops, before.total.write_ops);
    EXPECT_LE(after.total.read_bytes - before.total.read_bytes, (40000 * 8 / small.br + 2) * small.br);
    EXPECT_LE(program.peak(), scan_memory<std::uint64_t>(small));
    std::uint64_t all = 0;
    for_each(
        range_of(v), [&](std::uint64_t) { ++all; }, 64 * KiB);
    EXPECT_EQ(all, 50000u);
    EXPECT_THROW(scan(
                     range_of(v), [](std::uint64_t) {}, 1024),
                 config_error);
}

TEST(algorithm, transform_into_another_vector_and_in_place) {
    machine m = flashxxl_test::tiny_machine();
    auto v = filled<std::uint64_t>(m, 30000, [](std::uint64_t i) { return i; });
    vector<std::uint32_t> out(m, vector<std::uint32_t>::min_memory(small), small);
    memory_account program;
    transform(
        range_of(v, 100, 20100), out, [](std::uint64_t x) { return std::uint32_t(x * 3); },
        memory_budget(transform_memory<std::uint64_t>(small), program));
    EXPECT_LE(program.peak(), transform_memory<std::uint64_t>(small));
    std::vector<std::uint32_t> got = contents(out);
    ASSERT_EQ(got.size(), 20000u);
    for (std::uint64_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], std::uint32_t((i + 100) * 3));

    // In place on [5000, 25000): every page read once, every group written once.
    const device_stats before = flashxxl_test::total_stats(m);
    transform_in_place(range_of(v, 5000, 25000), [](std::uint64_t x) { return x + 1000000; });
    const device_stats after = flashxxl_test::total_stats(m);
    const std::uint64_t per_group = v.items_per_group(), per_page = v.items_per_page();
    const std::uint64_t groups = (25000 - 1) / per_group - 5000 / per_group + 1;
    const std::uint64_t pages = (25000 - 1) / per_page - 5000 / per_page + 1;
    EXPECT_EQ(after.total.write_ops - before.total.write_ops, groups);
    EXPECT_LE(after.total.read_ops - before.total.read_ops, pages + 2 * v.pages_per_group());
    std::vector<std::uint64_t> now = contents(v);
    for (std::uint64_t i = 0; i < now.size(); ++i)
        ASSERT_EQ(now[i], i >= 5000 && i < 25000 ? i + 1000000 : i) << i;

    generate(range_of(v, 0, 10), [](std::uint64_t i) { return 7 * i; });
    EXPECT_EQ(v.get(3), 21u);
    EXPECT_EQ(v.get(10), 10u);
    EXPECT_THROW(transform(
                     range_of(v), v, [](std::uint64_t x) { return x; }, 1 * MiB),
                 invalid_request);
    vector<std::uint64_t> small_cache(m, vector<std::uint64_t>::min_memory(small), small);
    small_cache.resize(100, 1);
    EXPECT_THROW(transform_in_place(range_of(small_cache), [](std::uint64_t x) { return x; }), config_error);
}

//! sort of a middle range, a suffix and the whole vector against std::sort; the rest unchanged.
TEST(algorithm, sort_of_a_range_matches_std_sort) {
    const std::uint64_t n = 60000;
    for (auto [first, last] :
         {std::pair<std::uint64_t, std::uint64_t>{7000, 51000}, {12345, n}, {0, n}, {0, 0}}) {
        machine m = flashxxl_test::tiny_machine();
        auto v = filled<std::uint64_t>(m, n, key_of);
        std::vector<std::uint64_t> want = contents(v);
        std::sort(want.begin() + std::ptrdiff_t(first), want.begin() + std::ptrdiff_t(last));
        memory_account program;
        sort_report r =
            flashxxl::sort(range_of(v, first, last), std::less<>(), memory_budget(sort_memory, program));
        EXPECT_EQ(r.items, last - first);
        if (last > first) {
            EXPECT_GE(r.passes, 2u); // it went through runs
        }
        EXPECT_LE(program.peak(), sort_memory);
        EXPECT_EQ(contents(v), want) << first << ".." << last;
    }
}

TEST(algorithm, stable_sort_keeps_equal_items_in_order) {
    machine m = flashxxl_test::tiny_machine();
    auto v = filled<record>(m, 40000, [](std::uint64_t i) {
        return record{std::uint32_t(key_of(i) % 13), std::uint32_t(i), ~i};
    });
    std::vector<record> want = contents(v);
    auto by_key = [](const record& a, const record& b) { return a.key < b.key; };
    std::stable_sort(want.begin() + 3000, want.end(), by_key);
    memory_account program;
    stable_sort(range_of(v, 3000), by_key, memory_budget(sort_memory, program));
    EXPECT_LE(program.peak(), sort_memory);
    EXPECT_EQ(contents(v), want);
}

TEST(algorithm, ksort_orders_by_the_extracted_key) {
    machine m = flashxxl_test::tiny_machine();
    auto v = filled<record>(m, 40000, [](std::uint64_t i) {
        return record{std::uint32_t(i), 0, key_of(i) * 40000 + i};
    });
    std::vector<record> want = contents(v);
    std::sort(want.begin(), want.end(),
              [](const record& a, const record& b) { return a.payload < b.payload; });
    memory_account program;
    ksort(
        range_of(v), [](const record& r) { return r.payload; }, memory_budget(sort_memory, program));
    EXPECT_LE(program.peak(), sort_memory);
    EXPECT_EQ(contents(v), want);
}

TEST(algorithm, random_shuffle_permutes_the_range_only) {
    machine m = flashxxl_test::tiny_machine();
    const std::uint64_t n = 30000;
    auto v = filled<std::uint64_t>(m, n, [](std::uint64_t i) { return i; });
    memory_account program;
    random_shuffle(range_of(v, 1000, 29000), 7, memory_budget(sort_memory, program));
    EXPECT_LE(program.peak(), sort_memory);
    std::vector<std::uint64_t> got = contents(v);
    for (std::uint64_t i = 0; i < 1000; ++i)
        ASSERT_EQ(got[i], i);
    for (std::uint64_t i = 29000; i < n; ++i)
        ASSERT_EQ(got[i], i);
    std::uint64_t in_place = 0, rising = 0;
    for (std::uint64_t i = 1000; i < 29000; ++i) {
        in_place += got[i] == i;
        rising += i > 1000 && got[i] > got[i - 1];
    }
    EXPECT_LT(in_place, 20u);                        // about 1 expected
    EXPECT_NEAR(double(rising), 28000.0 / 2, 600.0); // a random order rises half the time
    std::vector<std::uint64_t> sorted = got;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(sorted[i], i);
    // The same seed gives the same order.
    auto w = filled<std::uint64_t>(m, n, [](std::uint64_t i) { return i; });
    random_shuffle(range_of(w, 1000, 29000), 7, sort_memory);
    EXPECT_EQ(contents(w), got);
}

//! Runs that find no room: out_of_space names the algorithm, the vector is as it was and every
//! extent of the runs goes back.
TEST(algorithm, sort_out_of_space_leaves_the_vector_as_it_was) {
    const std::uint64_t n = 40000; // 320000 bytes: 20 groups of 16 KiB
    machine m = flashxxl_test::tiny_machine(std::to_string(24 * small.bw) + "B");
    auto v = filled<std::uint64_t>(m, n, key_of);
    const std::vector<std::uint64_t> before = contents(v);
    const std::uint64_t used = m.dev(0).allocator().used_bytes();
    try {
        flashxxl::sort(range_of(v, 1000, 39000), std::less<>(), sort_memory);
        FAIL() << "expected out_of_space";
    } catch (const out_of_space& e) {
        EXPECT_NE(std::string(e.what()).find("flashxxl::sort(range)"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(v.failed());
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), used);
    EXPECT_EQ(contents(v), before);
    EXPECT_THROW(flashxxl::sort(range_of(v), std::less<>(), 32 * KiB), config_error);
    EXPECT_THROW(range_of(v, 10, 5), invalid_request);
}
//! transform into a vector on a full device: out_of_space names the algorithm, the output keeps
//! the whole groups written before it, the input is unchanged.
TEST(algorithm, transform_out_of_space_keeps_the_groups_written) {
    machine m = flashxxl_test::tiny_machine(std::to_string(10 * small.bw) + "B");
    auto v = filled<std::uint64_t>(m, 6 * 2048, [](std::uint64_t i) { return i; }); // 6 groups
    vector<std::uint64_t> out(m, vector<std::uint64_t>::min_memory(small), small);
    try {
        transform(
            range_of(v), out, [](std::uint64_t x) { return x + 1; }, 1 * MiB);
        FAIL() << "expected out_of_space";
    } catch (const out_of_space& e) {
        EXPECT_NE(std::string(e.what()).find("flashxxl::transform"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(out.failed());
    EXPECT_GT(out.size(), 0u);
    EXPECT_EQ(out.size() % out.items_per_group(), 0u);
    std::vector<std::uint64_t> kept = contents(out);
    for (std::uint64_t i = 0; i < kept.size(); ++i)
        ASSERT_EQ(kept[i], i + 1);
    std::vector<std::uint64_t> input = contents(v);
    for (std::uint64_t i = 0; i < input.size(); ++i)
        ASSERT_EQ(input[i], i);
}
} // namespace
