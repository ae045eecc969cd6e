// How a pipeline divides its memory budget M among its stages: each states a minimum and a weight.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::stream {

//! What one stage of a pipeline needs: `minimum` bytes it cannot work without (a reader's 2 Br,
//! a writer's 2 Bw, a sorter's min_memory) and a `weight` by which it shares what is left of M
//! once every minimum is covered (0: the minimum is all it uses). TPIE's pipelining states
//! each node's memory the same way (a minimum and a fraction of the rest).
struct stage_memory {
    std::string stage;
    std::uint64_t minimum = 0;
    double weight = 0;
};

//! Divides `memory` among `stages`, in their order: each gets its minimum, and what is left is
//! shared by weight (rounded down to whole bytes); every part charges the budget's account, so
//! the pipeline's peak is read there. config_error naming every stage's minimum when M does not
//! cover their sum, or for a negative weight.
inline std::vector<memory_budget> split_among_stages(const memory_budget& memory,
                                                     const std::vector<stage_memory>& stages) {
    std::uint64_t minimums = 0;
    double weights = 0;
    std::string list;
    for (const stage_memory& s : stages) {
        if (!(s.weight >= 0))
            throw config_error("pipeline stage " + s.stage + ": weight " + std::to_string(s.weight) +
                               " (expected a number >= 0)");
        minimums += s.minimum;
        weights += s.weight;
        list += (list.empty() ? "" : ", ") + s.stage + " " + format_bytes(double(s.minimum));
    }
    memory.require(minimums, "flashxxl pipeline", "the sum of its stages' minimums: " + list);
    const std::uint64_t rest = memory.bytes() - minimums;
    std::uint64_t left = rest; // the shares never add up to more than the rest
    std::vector<memory_budget> parts;
    for (const stage_memory& s : stages) {
        const double share = weights > 0 ? s.weight / weights : 0;
        const std::uint64_t extra = std::min(left, std::uint64_t(double(rest) * share));
        left -= extra;
        parts.push_back(memory.part(s.minimum + extra, s.stage));
    }
    return parts;
}

} // namespace flashxxl::stream
