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

//! One rank's part of items T, as the validator saw it.
template <class T = sort_record> struct part_summary {
    std::uint64_t count = 0, checksum = 0;
    std::uint64_t unordered = 0;       //!< items that precede the item before them
    std::uint64_t first_unordered = 0; //!< index of the first of those (when unordered > 0)
    T first{}, last{};
};

//! Reads one rank's part item by item (add) and summarises it (summary), in the order `Less`.
template <class T = sort_record, class Less = record_less> class part_validator {
public:
    void add(const T* items, std::uint64_t n) {
        for (std::uint64_t i = 0; i < n; ++i)
            add(items[i]);
    }
    void add(const T& r) {
        if (s_.count == 0)
            s_.first = r;
        else if (less_(r, s_.last) && s_.unordered++ == 0)
            s_.first_unordered = s_.count;
        s_.last = r;
        sum_.add(r);
        ++s_.count;
    }
    part_summary<T> summary() const {
        part_summary<T> s = s_;
        s.checksum = sum_.value();
        return s;
    }

private:
    part_summary<T> s_;
    item_checksum<T> sum_;
    Less less_;
};

//! The verdict on all parts together.
struct validation_result {
    bool ok = false;
    std::uint64_t count = 0, checksum = 0;
    std::vector<std::string> problems; //!< each names the rank and what is wrong
};

//! Checks the parts of all ranks together (a collective: one all_gather): each part in order,
//! the last item of each non-empty part not after the first of the next non-empty one (by
//! `less`), the
//! total count `expected_count` and the checksum `expected_checksum` (of the input).
template <class T = sort_record, class Less = record_less>
validation_result validate_parts(communicator& c, const part_summary<T>& mine, std::uint64_t expected_count,
                                 std::uint64_t expected_checksum, Less less = Less()) {
    validation_result v;
    const std::vector<std::vector<part_summary<T>>> all =
        all_gather_items(c, std::vector<part_summary<T>>{mine});
    const part_summary<T>* previous = nullptr;
    int previous_rank = -1;
    for (int r = 0; r < c.size(); ++r) {
        const part_summary<T>& p = all[std::size_t(r)].at(0);
        v.count += p.count;
        v.checksum += p.checksum;
        if (p.unordered > 0)
            v.problems.push_back("part " + std::to_string(r) + ": " + std::to_string(p.unordered) +
                                 " items out of order, the first at item " +
                                 std::to_string(p.first_unordered));
        if (p.count == 0) continue;
        if (previous && less(p.first, previous->last))
            v.problems.push_back("part " + std::to_string(r) + " starts before the end of part " +
                                 std::to_string(previous_rank));
        previous = &p;
        previous_rank = r;
    }
    if (v.count != expected_count)
        v.problems.push_back("the parts hold " + std::to_string(v.count) + " items; expected " +
                             std::to_string(expected_count));
    if (v.checksum != expected_checksum) v.problems.push_back("the parts' checksum differs from the input's");
    v.ok = v.problems.empty();
    return v;
}

} // namespace flashxxl::distributed
