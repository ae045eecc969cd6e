#!/usr/bin/env bash
# pq, btree, bfs and dfs on a device too small for their blocks: exit 1 (2 when refused up front), the error naming device, role and structure.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
blocks=(--br 4KiB --bw 16KiB --no-progress)
# Everything on one device of half a Bw.
printf 'name=tiny\nflash=memory,8KiB,memory name=ssd\nplacement=single device=ssd\n' > "$work/tiny.cfg"
# The graph on 'ssd', what the algorithms write for themselves (hot, scratch) on 'hdd' of half a Bw.
printf 'name=split\nflash=memory,64MiB,memory name=ssd\ndisk=memory,8KiB,memory name=hdd\nplacement=per_role static_data=ssd stream=ssd hot=hdd scratch=hdd\n' \
    > "$work/split.cfg"
check "pq: out of space names device, role and the queue" 1 \
    "^flashxxl: error: out of space on device 'ssd' \(role hot, structure flashxxl::priority_queue\): requested 16 KiB" \
    "$bin" pq --config "$work/tiny.cfg" "${blocks[@]}" --items 100000 --memory 1MiB
check "btree: refused before it starts, naming the device" 2 \
    "^flashxxl: error: --items 1000 .* more than the 8 KiB its devices can hold on machine 'tiny' \(single: everything -> ssd\)" \
    "$bin" btree --config "$work/tiny.cfg" "${blocks[@]}" --items 1000 --memory 1MiB --finds 10 --inserts 10 --batch 10 \
    --scans 1 --scan-length 10
check "bfs --algo mr: out of space names device, role and mr_bfs" 1 \
    "^flashxxl: error: out of space on device 'hdd' \(role scratch, structure [^)]*flashxxl::mr_bfs\): requested 16 KiB" \
    "$bin" bfs grid:side=20 --algo mr --config "$work/split.cfg" "${blocks[@]}" --memory 1MiB --out "$work/mr.txt"
[ ! -e "$work/mr.txt" ] && echo "ok   bfs --algo mr: no --out file from the failed search" ||
    { echo "FAIL bfs --algo mr left $work/mr.txt"; fail=1; }
# 400 KiB: the clustering's lists of a 40 x 40 grid spill (with 1 MiB it all stays in memory).
check "bfs --algo mm: out of space names device, role and mm_bfs" 1 \
    "^flashxxl: error: out of space on device 'hdd' \(role scratch, structure [^)]*flashxxl::mm_bfs \((preprocessing|bfs phase)\)\): requested 16 KiB" \
    "$bin" bfs grid:side=40 --algo mm --config "$work/split.cfg" "${blocks[@]}" --memory 400KiB --out "$work/mm.txt"
[ ! -e "$work/mm.txt" ] && echo "ok   bfs --algo mm: no --out file from the failed search" ||
    { echo "FAIL bfs --algo mm left $work/mm.txt"; fail=1; }
check "dfs: out of space names device, role and dfs" 1 \
    "^flashxxl: error: out of space on device 'hdd' \(role hot, structure [^)]*flashxxl::dfs\): requested 16 KiB" \
    "$bin" dfs grid:side=20 --config "$work/split.cfg" "${blocks[@]}" --memory 1MiB --out "$work/dfs.txt"
[ ! -e "$work/dfs.txt" ] && echo "ok   dfs: no --out file from the failed search" ||
    { echo "FAIL dfs left $work/dfs.txt"; fail=1; }
exit $fail
