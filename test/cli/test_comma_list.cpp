// parse_comma_list and require_single_value: every list refuses empty entries and repeats alike.
// naming the option.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flashxxl/comma_list.hpp"
#include "flashxxl/units.hpp"

namespace {

using flashxxl::config_error;
using flashxxl::parse_comma_list;

//! The message of the config_error that `f` throws; "" when it throws none.
template <class F> std::string refusal(F f) {
    try {
        f();
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

TEST(CommaList, SplitsInOrder) {
    EXPECT_EQ(parse_comma_list("--br", "64KiB"), std::vector<std::string>{"64KiB"});
    EXPECT_EQ(parse_comma_list("--br", "64KiB,1MiB,128KiB"),
              (std::vector<std::string>{"64KiB", "1MiB", "128KiB"}));
}

TEST(CommaList, RefusesEmptyListAndEntries) {
    EXPECT_EQ(refusal([] { parse_comma_list("--bw", ""); }),
              "--bw '': an empty list; expected values separated by commas");
    for (const char* text : {"1MiB,", ",1MiB", "1MiB,,2MiB", ","}) {
        const std::string why = refusal([&] { parse_comma_list("--bw", text); });
        EXPECT_NE(why.find("--bw '" + std::string(text) + "': entry "), std::string::npos) << why;
        EXPECT_NE(why.find("is empty (a leading, trailing or doubled comma)"), std::string::npos) << why;
    }
    EXPECT_EQ(
        refusal([] { parse_comma_list("--tables", "a,"); }),
        "--tables 'a,': entry 2 is empty (a leading, trailing or doubled comma); expected values separated "
        "by single commas");
}

TEST(CommaList, RefusesRepeatsNamingTheValue) {
    EXPECT_EQ(refusal([] { parse_comma_list("--br", "64KiB,1MiB,64KiB"); }),
              "--br '64KiB,1MiB,64KiB': '64KiB' is given twice; expected each value once");
    // Compared by the key: the same size written two ways is a repeat too.
    const auto size_key = [](const std::string& s) { return std::to_string(flashxxl::parse_size(s)); };
    EXPECT_EQ(refusal([&] { parse_comma_list("--br", "64KiB,65536", size_key); }),
              "--br '64KiB,65536': '65536' is given twice (as '64KiB' before); expected each value once");
    EXPECT_EQ(parse_comma_list("--br", "64KiB,128KiB", size_key).size(), 2u);
}

TEST(CommaList, KeyMayRefuseAnEntry) {
    const auto size_key = [](const std::string& s) { return std::to_string(flashxxl::parse_size(s)); };
    EXPECT_NE(refusal([&] { parse_comma_list("--br", "64KiB,abc", size_key); }), "");
}

TEST(SingleValue, RefusesAList) {
    EXPECT_EQ(refusal([] { flashxxl::require_single_value("--br", "64KiB,128KiB"); }),
              "--br '64KiB,128KiB': --br takes one value, not a comma-separated list");
    EXPECT_EQ(refusal([] { flashxxl::require_single_value("--br", "64KiB"); }), "");
}

} // namespace
