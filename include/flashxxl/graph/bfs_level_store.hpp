// A BFS level list kept in memory while it fits its share of M, spilled to a scratch vector past that.
#pragma once

#include "flashxxl/container/spillable_list.hpp"
#include "flashxxl/graph/bfs_records.hpp"

namespace flashxxl {

//! One BFS level, records (v, c(v), parent) pushed in increasing v: a spillable_list, so no
//! file is created for a level that stays within its share of M (mm_bfs's `split.level`).
using bfs_level_store = spillable_list<level_record>;

} // namespace flashxxl
