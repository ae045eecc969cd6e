#!/usr/bin/env bash
# The benchmark scripts around the CLI (bench/*/*.sh): each parses, and bench_placement.sh runs once on a small grid.
set -u
bin=$1
bench=$(cd "$(dirname "$0")/../../bench" && pwd)
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG

for script in "$bench"/*/*.sh; do
    bash -n "$script" && echo "ok   bash -n ${script#$bench/}" || { echo "FAIL bash -n ${script#$bench/}"; fail=1; }
done

# bench_placement.sh: the four configurations of Table 4.1 on a 400-node grid, paced (seconds).
if GRAPH=grid:side=20 SCALE=0.01 bash "$bench/graph/bench_placement.sh" "$bin" "$work/placement.json" > "$work/placement.txt" 2>&1; then
    echo "ok   bench_placement.sh runs on grid:side=20"
else
    echo "FAIL bench_placement.sh: exit $?"; head -8 "$work/placement.txt"; fail=1
fi
grep -qE "modelled s +mod\. I/O wait s .* wall s +wall I/O wait s" "$work/placement.txt" &&
    [ "$(grep -cE '^[^ ].* [0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  ' "$work/placement.txt")" -eq 4 ] &&
    echo "ok   bench_placement.sh: modelled and wall columns, one row per configuration" ||
    { echo "FAIL bench_placement.sh table"; head -8 "$work/placement.txt"; fail=1; }
python3 - "$work/placement.json" <<'PY' && echo "ok   bench_placement.sh JSON: 4 configurations with modelled and wall times" || { echo "FAIL bench_placement.sh JSON"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j["command"] == "placement" and j["pace"] is True, j.get("command")
c = j["configurations"]
assert len(c) == 4, len(c)
for x in c:
    assert x["modelled_elapsed_s"] > 0 and x["modelled_io_wait_s"] >= 0 and x["wall_s"] > 0 and x["wall_io_wait_s"] >= 0, x["configuration"]
PY
check "bench_placement.sh without the binary: usage, exit 2" 2 "usage: bench_placement.sh" bash "$bench/graph/bench_placement.sh"
check "bench_placement.sh with a bad graph: exit 1" 1 "flashxxl placement nosuch:x .* failed" \
    env GRAPH=nosuch:x bash "$bench/graph/bench_placement.sh" "$bin" "$work/bad.json"
exit $fail
