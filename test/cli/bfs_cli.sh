#!/usr/bin/env bash
# flashxxl bfs --cache-ranks: the ranking of MM_BFS's cache of neighbouring clusters, from first
# come (0) over near / far (1) to the default 32 ranks: the same levels, fewer block reads.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
# A 400^2 grid with 64 KiB blocks and M = 2 MiB: the cluster file is several times the cache.
for r in 0 1 32; do
    "$bin" bfs grid:side=400 --br 64KiB --bw 64KiB --memory 2MiB --cache-ranks "$r" --json >"ranks$r.json" 2>"ranks$r.err" ||
        { echo "FAIL bfs --cache-ranks $r: exit $?"; head -5 "ranks$r.err"; fail=1; }
done
read -r r0 r1 r32 same key <<<"$(python3 - <<'PY'
import json
runs = {r: json.load(open(f"ranks{r}.json")) for r in (0, 1, 32)}
reads = [runs[r]["result"]["cluster_reads"] for r in (0, 1, 32)]
levels = [[l["nodes"] for l in runs[r]["result"]["levels"]] for r in (0, 1, 32)]
print(*reads, int(levels[0] == levels[1] == levels[2]), int(all(runs[r]["cache_ranks"] == r for r in runs)))
PY
)"
echo "cluster reads: first come $r0, near / far $r1, 32 ranks $r32"
[ "$same" = 1 ] && echo "ok   the same levels every way" || { echo "FAIL the levels differ"; fail=1; }
[ "$key" = 1 ] && echo "ok   the JSON says the ranks" || { echo "FAIL cache_ranks missing from the JSON"; fail=1; }
if [ "$r1" -lt "$r0" ] && [ $((r32 * 2)) -lt "$r1" ]; then echo "ok   more ranks, fewer reads"
else echo "FAIL expected $r0 > $r1 > 2 x $r32"; fail=1; fi
check "the text output names the ranks" 0 "cache of neighbouring clusters \(32 ranks\)" \
    "$bin" bfs grid:side=20 --no-progress
exit $fail
