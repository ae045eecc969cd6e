// The validator of a distributed sort's output (like valsort): order within and across ranks, count,
// checksum.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/distributed/record_checksum.hpp"
#include "flashxxl/distributed/sort_record.hpp"

namespace flashxxl::distributed {

//! One rank's part, as the validator saw it.
struct part_summary {
    std::uint64_t count = 0, checksum = 0;
    std::uint64_t unordered = 0;       //!< records that precede the record before them
    std::uint64_t first_unordered = 0; //!< index of the first of those (when unordered > 0)
    sort_record first{}, last{};
};

//! Reads one rank's part record by record (add) and summarises it (summary).
class part_validator {
public:
    void add(const sort_record* records, std::uint64_t n) {
        for (std::uint64_t i = 0; i < n; ++i)
            add(records[i]);
    }
    void add(const sort_record& r) {
        if (s_.count == 0)
            s_.first = r;
        else if (less_(r, s_.last) && s_.unordered++ == 0)
            s_.first_unordered = s_.count;
        s_.last = r;
        sum_.add(r);
        ++s_.count;
    }
    part_summary summary() const {
        part_summary s = s_;
        s.checksum = sum_.value();
        return s;
    }

private:
    part_summary s_;
    record_checksum sum_;
    record_less less_;
};

//! The verdict on all parts together.
struct validation_result {
    bool ok = false;
    std::uint64_t count = 0, checksum = 0;
    std::vector<std::string> problems; //!< each names the rank and what is wrong
};

//! Checks the parts of all ranks together (a collective: one all_gather): each part in order,
//! the last record of each non-empty part not after the first of the next non-empty one, the
//! total count `expected_count` and the checksum `expected_checksum` (of the input).
inline validation_result validate_parts(communicator& c, const part_summary& mine,
                                        std::uint64_t expected_count, std::uint64_t expected_checksum) {
    validation_result v;
    const std::vector<std::vector<part_summary>> all = all_gather_items(c, std::vector<part_summary>{mine});
    record_less less;
    const part_summary* previous = nullptr;
    int previous_rank = -1;
    for (int r = 0; r < c.size(); ++r) {
        const part_summary& p = all[std::size_t(r)].at(0);
        v.count += p.count;
        v.checksum += p.checksum;
        if (p.unordered > 0)
            v.problems.push_back("part " + std::to_string(r) + ": " + std::to_string(p.unordered) +
                                 " records out of order, the first at record " +
                                 std::to_string(p.first_unordered));
        if (p.count == 0) continue;
        if (previous && less(p.first, previous->last))
            v.problems.push_back("part " + std::to_string(r) + " starts before the end of part " +
                                 std::to_string(previous_rank));
        previous = &p;
        previous_rank = r;
    }
    if (v.count != expected_count)
        v.problems.push_back("the parts hold " + std::to_string(v.count) + " records; expected " +
                             std::to_string(expected_count));
    if (v.checksum != expected_checksum) v.problems.push_back("the parts' checksum differs from the input's");
    v.ok = v.problems.empty();
    return v;
}

} // namespace flashxxl::distributed
