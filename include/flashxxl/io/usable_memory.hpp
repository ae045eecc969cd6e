// usable_memory: a program's budget M less the machine's fixed overhead (its translation layers' memory),
// taken off once.
#pragma once

#include <cstdint>
#include <string>

#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/tl/translation_layer_memory.hpp"

namespace flashxxl {

//! The one place a machine's fixed memory overhead is taken off a program's budget M: `M` less
//! `overhead` bytes held by `holder`, marked as net of it. Idempotent: a budget already net of
//! the machine's overhead comes back unchanged, so an algorithm that calls it on what it was
//! given (dfs, mm_bfs, mr_bfs) never deducts the overhead twice when its caller (a command, an
//! experiment) took it off first. config_error naming the holder when M does not cover it.
inline memory_budget usable_memory(const memory_budget& M, std::uint64_t overhead,
                                   const std::string& holder) {
    if (M.machine_overhead_deducted()) return M;
    return M.less(overhead, holder).net_of_machine_overhead(overhead);
}

//! usable_memory for the machine's translation layers' buffers and maps
//! (translation_layer_memory(m)); without a translation layer, M itself (marked net).
inline memory_budget usable_memory(const machine& m, const memory_budget& M) {
    return usable_memory(M, translation_layer_memory(m),
                         "the machine's translation layers (segment buffers and maps)");
}

} // namespace flashxxl
