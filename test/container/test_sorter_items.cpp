// Tests of container/sorter.hpp: results vs std::sort, memory, I/O volume and shapes, for item sizes, shapes
// and comparators.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "container/sorter_checks.hpp"
#include "flashxxl/container/sort.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;
using flashxxl_test::br;
using flashxxl_test::bw;
using flashxxl_test::check_sorter;
using flashxxl_test::item;
using flashxxl_test::mem;
using flashxxl_test::shape;
using flashxxl_test::small;
using flashxxl_test::small_blocks;

template <class T> class sorter_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(sorter_typed, item_types);

TYPED_TEST(sorter_typed, random_multi_level) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 150001, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, duplicates) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::few_distinct, 60017, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, all_equal) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::all_equal, 40003, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, sorted_and_reversed) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::sorted, 30011, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>>(shape::reversed, 30011, std::less<TypeParam>());
}
TYPED_TEST(sorter_typed, empty_and_tiny) {
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 0, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 1, std::less<TypeParam>());
    check_sorter<TypeParam, std::less<TypeParam>>(shape::random, 777, std::less<TypeParam>());
}

TEST(sorter, lambda_comparator_descending) {
    auto desc = [](const item<8>& a, const item<8>& b) { return b.key < a.key; };
    check_sorter<item<8>, decltype(desc)>(shape::random, 100003, desc);
}
