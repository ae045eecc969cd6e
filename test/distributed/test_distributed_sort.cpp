// distributed_sort on in-process ranks, each its own machine: the same output for any rank count,
// the validator, I/O volume per item, exchange volume, and a rank's out_of_space ending every rank.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "flashxxl/container/vector.hpp"
#include "flashxxl/distributed/distributed_sort.hpp"
#include "flashxxl/distributed/in_process_communicator.hpp"
#include "flashxxl/distributed/record_checksum.hpp"
#include "flashxxl/distributed/record_generator.hpp"
#include "flashxxl/distributed/record_validator.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace fd = flashxxl::distributed;
using flashxxl::KiB;
using flashxxl::MiB;

namespace {

flashxxl::machine rank_machine(const std::string& size) {
    return flashxxl::machine::from_config_text("name=rank\nflash=memory," + size +
                                                   ",memory name=ssd\nplacement=single device=ssd\n",
                                               "rank-machine");
}

//! What one in-process rank ended with.
struct rank_outcome {
    std::vector<fd::sort_record> output;
    fd::distributed_sort_report report;
    fd::part_summary<> summary;
    std::string error;
};

struct run_result {
    std::vector<rank_outcome> ranks;
    fd::validation_result validation;
};

//! Sorts `n` generated records on `ranks` threads, rank r on a machine of `device_size[r]`.
run_result sort_in_process(std::uint64_t n, int ranks, std::uint64_t memory,
                           std::vector<std::string> device_size = {}) {
    device_size.resize(std::size_t(ranks), "256MiB");
    fd::in_process_group group(ranks);
    run_result result;
    result.ranks.resize(std::size_t(ranks));
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            rank_outcome& mine = result.ranks[std::size_t(r)];
            fd::in_process_communicator inner(group, r);
            fd::metered_communicator c(inner, fd::network_model());
            try {
                flashxxl::machine m = rank_machine(device_size[std::size_t(r)]);
                const flashxxl::block_sizes b(4 * KiB, 16 * KiB);
                flashxxl::vector<fd::sort_record> input(m, flashxxl::vector<fd::sort_record>::min_memory(b),
                                                        b);
                flashxxl::vector<fd::sort_record> output(m, flashxxl::vector<fd::sort_record>::min_memory(b),
                                                         b);
                fd::record_generator gen(42);
                fd::record_checksum sum;
                std::uint64_t first = gen.first_of(n, r, ranks), last = gen.first_of(n, r + 1, ranks);
                {
                    flashxxl::vector<fd::sort_record>::stream_writer w(input);
                    for (std::uint64_t i = first; i < last; ++i) {
                        w.push(gen(i));
                        sum.add(gen(i));
                    }
                    w.finish();
                }
                fd::distributed_sort_config config;
                config.memory = memory;
                config.blocks = b;
                config.threads = 1;
                mine.report = fd::distributed_sort(c, input, output, config, fd::record_less());
                fd::part_validator<> check;
                for (flashxxl::vector<fd::sort_record>::stream_reader in(output); !in.empty(); ++in) {
                    mine.output.push_back(*in);
                    check.add(*in);
                }
                mine.summary = check.summary();
                const std::uint64_t input_sum = fd::all_sum(c, sum.value());
                fd::validation_result v = fd::validate_parts(c, mine.summary, n, input_sum);
                if (r == 0) result.validation = v;
            } catch (const std::exception& e) {
                mine.error = e.what();
            }
        });
    for (auto& t : threads)
        t.join();
    return result;
}

//! What one in-process rank of sort_items_in_process ended with.
template <class T> struct items_outcome {
    std::vector<T> output;
    fd::distributed_sort_report report;
    std::string error;
};

//! Sorts inputs[r] on rank r (one thread and machine each) with budget `memory` per rank.
template <class T, class Before>
std::vector<items_outcome<T>> sort_items_in_process(const std::vector<std::vector<T>>& inputs,
                                                    std::uint64_t memory, Before before) {
    const int ranks = int(inputs.size());
    fd::in_process_group group(ranks);
    std::vector<items_outcome<T>> outcomes(inputs.size());
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            items_outcome<T>& mine = outcomes[std::size_t(r)];
            fd::in_process_communicator inner(group, r);
            fd::metered_communicator c(inner, fd::network_model());
            try {
                flashxxl::machine m = rank_machine("256MiB");
                const flashxxl::block_sizes b(4 * KiB, 16 * KiB);
                flashxxl::vector<T> input(m, flashxxl::vector<T>::min_memory(b), b);
                flashxxl::vector<T> output(m, flashxxl::vector<T>::min_memory(b), b);
                {
                    typename flashxxl::vector<T>::stream_writer w(input);
                    for (const T& x : inputs[std::size_t(r)])
                        w.push(x);
                    w.finish();
                }
                fd::distributed_sort_config config;
                config.memory = memory;
                config.blocks = b;
                config.threads = 1;
                mine.report = fd::distributed_sort(c, input, output, config, before);
                for (typename flashxxl::vector<T>::stream_reader in(output); !in.empty(); ++in)
                    mine.output.push_back(*in);
            } catch (const std::exception& e) {
                mine.error = e.what();
            }
        });
    for (auto& t : threads)
        t.join();
    return outcomes;
}

std::vector<fd::sort_record> concatenated(const run_result& r) {
    std::vector<fd::sort_record> all;
    for (const rank_outcome& o : r.ranks)
        all.insert(all.end(), o.output.begin(), o.output.end());
    return all;
}

bool same_bytes(const std::vector<fd::sort_record>& a, const std::vector<fd::sort_record>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
}

} // namespace

TEST(DistributedSort, SameOutputForOneTwoThreeAndFourRanks) {
    const std::uint64_t n = 20000;
    std::vector<fd::sort_record> expected;
    fd::record_generator gen(42);
    for (std::uint64_t i = 0; i < n; ++i)
        expected.push_back(gen(i));
    std::sort(expected.begin(), expected.end(), fd::record_less());
    for (int ranks : {1, 2, 3, 4}) {
        run_result r = sort_in_process(n, ranks, 1 * MiB);
        for (const rank_outcome& o : r.ranks)
            ASSERT_EQ(o.error, "") << ranks << " ranks";
        EXPECT_TRUE(same_bytes(concatenated(r), expected)) << ranks << " ranks";
        EXPECT_TRUE(r.validation.ok) << ranks << " ranks";
        for (int j = 0; j < ranks; ++j) { // splitters from the page index: within (R + 1) pages of n/P
            const rank_outcome& o = r.ranks[std::size_t(j)];
            const std::uint64_t exact =
                fd::record_generator::first_of(n, j + 1, ranks) - fd::record_generator::first_of(n, j, ranks);
            EXPECT_EQ(o.report.imbalance_bound_items, (o.report.global_runs + 1) * 40);
            EXPECT_LT(o.output.size(), exact + o.report.imbalance_bound_items) << ranks << " ranks";
            EXPECT_GT(o.output.size() + o.report.imbalance_bound_items, exact) << ranks << " ranks";
        }
    }
}

TEST(DistributedSort, TwoReadsAndTwoWritesPerItemAndOneExchange) {
    const std::uint64_t n = 40000; // 4 MB over 2 ranks with M = 1 MiB: several runs and slices per rank
    const int ranks = 2;
    run_result r = sort_in_process(n, ranks, 1 * MiB);
    EXPECT_TRUE(r.validation.ok);
    const std::uint64_t br = 4 * KiB, per_page = br / sizeof(fd::sort_record);
    std::uint64_t read = 0, written = 0, exchanged = 0, sent = 0, input_bytes = n * sizeof(fd::sort_record);
    for (const rank_outcome& o : r.ranks) {
        ASSERT_EQ(o.error, "");
        const fd::distributed_sort_report& rep = o.report;
        EXPECT_GT(rep.runs, 1u);
        EXPECT_GT(rep.exchange_rounds, 1u);
        ASSERT_EQ(rep.phases.size(), 3u);
        // The data passes, in whole Br pages of items (40 records per 4 KiB page).
        const std::uint64_t pages_in = (rep.input_items + per_page - 1) / per_page * br;
        const std::uint64_t pages_out = (rep.output_items + per_page - 1) / per_page * br;
        EXPECT_EQ(rep.phases[0].read_bytes, pages_in);                  // the input, once
        EXPECT_LE(rep.phases[0].write_bytes, pages_in + rep.runs * br); // the runs, once
        EXPECT_EQ(rep.phases[1].read_bytes, 0u);         // the selection reads the page index only
        EXPECT_EQ(rep.phases[2].read_bytes, pages_in);   // every page of the runs once
        EXPECT_EQ(rep.phases[2].write_bytes, pages_out); // the output, once
        EXPECT_EQ(rep.cut_pages_not_kept, 0u);
        for (const fd::phase_figures& p : rep.phases) {
            read += p.read_bytes;
            written += p.write_bytes;
        }
        exchanged += rep.exchanged_bytes;
        sent += rep.sent_bytes;
    }
    EXPECT_EQ(exchanged, input_bytes); // every item handed to the exchange once
    EXPECT_GT(sent, input_bytes / 4);  // about half of it crossed to the other rank
    EXPECT_LT(sent, input_bytes * 3 / 4);
    // Per item at most 2 reads and 2 writes, up to the page layout (40 records of 100 bytes in a
    // 4 KiB page: 2.4 %) and a partial last page per rank.
    EXPECT_LE(double(read) / double(input_bytes),
              2.0 * 4096 / 4000 + 2.0 * ranks * 4096 / double(input_bytes));
    EXPECT_LE(double(written) / double(input_bytes), 2.0 * 1.04);
}

TEST(DistributedSort, ReadsEveryPageTwiceForOneTwoAndFourRanks) {
    // 6 MB with M = 1 MiB per rank: several runs and slices on every rank, and the kept cut pages
    // (at most 3 P R Br) fit beside the exchange's buffers and a slice: the two-pass condition holds.
    const std::uint64_t n = 60000, br = 4 * KiB, per_page = br / sizeof(fd::sort_record);
    std::vector<fd::sort_record> expected;
    fd::record_generator gen(42);
    for (std::uint64_t i = 0; i < n; ++i)
        expected.push_back(gen(i));
    std::sort(expected.begin(), expected.end(), fd::record_less());
    for (int ranks : {1, 2, 4}) {
        run_result r = sort_in_process(n, ranks, 1 * MiB);
        std::uint64_t read = 0, input_pages = 0;
        for (const rank_outcome& o : r.ranks) {
            ASSERT_EQ(o.error, "") << ranks << " ranks";
            const fd::distributed_sort_report& rep = o.report;
            EXPECT_GT(rep.runs, 1u) << ranks << " ranks";
            EXPECT_GT(rep.exchange_rounds, 1u) << ranks << " ranks";
            EXPECT_EQ(rep.cut_pages_not_kept, 0u) << ranks << " ranks";
            EXPECT_GT(rep.cut_pages_read, 0u) << ranks << " ranks";
            EXPECT_LE(rep.cut_page_peak, rep.cut_page_memory) << ranks << " ranks";
            EXPECT_LE(rep.cut_page_memory, 3 * std::uint64_t(ranks) * rep.runs * br) << ranks << " ranks";
            const std::uint64_t pages = (rep.input_items + per_page - 1) / per_page;
            std::uint64_t rank_read = 0;
            for (const fd::phase_figures& p : rep.phases)
                rank_read += p.read_bytes;
            EXPECT_EQ(rank_read, 2 * pages * br) << ranks << " ranks: every Br page of the data read twice";
            read += rank_read;
            input_pages += pages;
        }
        // In items: 2 reads per item, times the page layout (4096 / 4000 bytes) and up to one
        // partial page per rank.
        EXPECT_LE(read, 2 * input_pages * br);
        EXPECT_LE(double(read) / double(n * sizeof(fd::sort_record)),
                  2.0 * 4096 / 4000 + 2.0 * ranks * 4096 / double(n * sizeof(fd::sort_record)));
        EXPECT_TRUE(same_bytes(concatenated(r), expected)) << ranks << " ranks";
        EXPECT_TRUE(r.validation.ok) << ranks << " ranks";
    }
}

TEST(DistributedSort, EqualItemsOnEveryRankAndRunSortAlike) {
    // Five distinct values: splitters fall among equal items, ordered by (rank, run).
    const std::uint64_t n = 500000; // 4 MB: several runs on every rank with M = 768 KiB
    std::vector<std::uint64_t> all;
    for (std::uint64_t i = 0; i < n; ++i)
        all.push_back(i * 7919 % 5);
    std::vector<std::uint64_t> expected = all;
    std::sort(expected.begin(), expected.end());
    for (int ranks : {1, 2, 3, 4}) {
        std::vector<std::vector<std::uint64_t>> inputs;
        inputs.resize(std::size_t(ranks));
        for (std::uint64_t i = 0; i < n; ++i)
            inputs[std::size_t(i % std::uint64_t(ranks))].push_back(all[i]);
        std::vector<std::uint64_t> got;
        for (const auto& o : sort_items_in_process(inputs, 768 * KiB, std::less<std::uint64_t>())) {
            ASSERT_EQ(o.error, "") << ranks << " ranks";
            EXPECT_GT(o.report.runs, 1u) << ranks << " ranks";
            EXPECT_EQ(o.report.cut_pages_not_kept, 0u) << ranks << " ranks";
            got.insert(got.end(), o.output.begin(), o.output.end());
        }
        EXPECT_EQ(got, expected) << ranks << " ranks";
    }
}

TEST(DistributedSort, CutPagesThatDoNotFitAreReadAgainAndTheOutputHolds) {
    // M barely above the minimum: no room to keep cut pages; the pieces read them again.
    const std::uint64_t n = 20000;
    const flashxxl::block_sizes b(4 * KiB, 16 * KiB);
    const std::uint64_t memory =
        fd::distributed_sort_min_memory<fd::sort_record, fd::record_less>(b, 2) + 32 * KiB;
    std::vector<fd::sort_record> expected;
    fd::record_generator gen(42);
    for (std::uint64_t i = 0; i < n; ++i)
        expected.push_back(gen(i));
    std::sort(expected.begin(), expected.end(), fd::record_less());
    run_result r = sort_in_process(n, 2, memory);
    std::uint64_t not_kept = 0;
    for (const rank_outcome& o : r.ranks) {
        ASSERT_EQ(o.error, "");
        not_kept += o.report.cut_pages_not_kept;
        EXPECT_LE(o.report.cut_page_peak, o.report.cut_page_memory);
    }
    EXPECT_GT(not_kept, 0u);
    EXPECT_TRUE(same_bytes(concatenated(r), expected));
    EXPECT_TRUE(r.validation.ok);
}

TEST(DistributedSort, ARankOutOfSpaceStopsEveryRank) {
    // Rank 1's device holds less than its share's runs: it fails in run formation, rank 0 must not hang.
    run_result r = sort_in_process(40000, 2, 1 * MiB, {"256MiB", "3MiB"}); // input 2 MB + runs 2 MB
    EXPECT_NE(r.ranks[1].error.find("out of space"), std::string::npos) << r.ranks[1].error;
    EXPECT_NE(r.ranks[0].error.find("rank 1 failed"), std::string::npos) << r.ranks[0].error;
}

TEST(DistributedSort, RefusesABudgetBelowTheMinimumOnEveryRank) {
    run_result r = sort_in_process(1000, 2, 64 * KiB);
    for (const rank_outcome& o : r.ranks)
        EXPECT_NE(o.error.find("below the minimum"), std::string::npos) << o.error;
}

TEST(RecordValidator, FindsDisorderAcrossRanksAndAMissingRecord) {
    fd::record_generator gen(1);
    std::vector<fd::sort_record> records;
    for (int i = 0; i < 10; ++i)
        records.push_back(gen(std::uint64_t(i)));
    std::sort(records.begin(), records.end(), fd::record_less());
    fd::record_checksum all;
    for (const auto& x : records)
        all.add(x);
    fd::in_process_group group(2);
    std::vector<fd::validation_result> results(2);
    std::vector<std::thread> threads;
    for (int r = 0; r < 2; ++r)
        threads.emplace_back([&, r] {
            fd::in_process_communicator c(group, r);
            fd::part_validator<> v;
            // Rank 0 gets the upper half, rank 1 the lower half but its first record: out of order, one
            // missing.
            if (r == 0)
                v.add(records.data() + 5, 5);
            else
                v.add(records.data() + 1, 4);
            results[std::size_t(r)] = fd::validate_parts(c, v.summary(), 10, all.value());
        });
    for (auto& t : threads)
        t.join();
    EXPECT_FALSE(results[0].ok);
    ASSERT_EQ(results[0].problems.size(), 3u); // order across parts, count, checksum
    EXPECT_NE(results[0].problems[0].find("starts before the end of part 0"), std::string::npos);
}
