#!/usr/bin/env bash
# flashxxl bfs --algo mr --mr-adjacency: each level's lists fetched at random, scanned, or the
# cheaper of the two per level; the same levels every way. On two modelled disks with a graph
# several times the page caches, automatic fetches the thin first and last levels and scans the
# wide ones: 4.4 s modelled, where random took 7.4 s and scan 4.9 s.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
run=(bfs random:nodes=50000,degree=5,seed=3 --algo mr --machine two-hdd-2009 --br 4KiB --bw 16KiB --memory 1MiB)
for a in random scan automatic; do
    "$bin" "${run[@]}" --mr-adjacency "$a" --json >"$a.json" 2>"$a.err" ||
        { echo "FAIL bfs --mr-adjacency $a: exit $?"; head -5 "$a.err"; fail=1; }
done
read -r same keys forced mixed fastest <<<"$(python3 - <<'PY'
import json
runs = {a: json.load(open(a + ".json")) for a in ("random", "scan", "automatic")}
levels = {a: [l["nodes"] for l in r["result"]["levels"]] for a, r in runs.items()}
ways = {a: {l["adjacency"] for l in r["result"]["levels"]} for a, r in runs.items()}
print(int(levels["random"] == levels["scan"] == levels["automatic"]),
      int(all(r["mr_adjacency"] == a for a, r in runs.items())),
      int(ways["random"] == {"random"} and ways["scan"] == {"scan"}),
      int(ways["automatic"] == {"random", "scan"}),
      int(all(runs["automatic"]["result"]["phases"][-1]["modelled_elapsed_s"] <=
              1.05 * runs[a]["result"]["phases"][-1]["modelled_elapsed_s"] for a in ("random", "scan"))))
PY
)"
[ "$same" = 1 ] && echo "ok   the same levels every way" || { echo "FAIL the levels differ"; fail=1; }
[ "$keys" = 1 ] && echo "ok   the JSON says the choice" || { echo "FAIL mr_adjacency missing from the JSON"; fail=1; }
[ "$forced" = 1 ] && echo "ok   forced choices read every level their way" || { echo "FAIL a forced choice was not kept"; fail=1; }
[ "$mixed" = 1 ] && echo "ok   automatic fetched some levels and scanned others" || { echo "FAIL automatic took one way only"; fail=1; }
[ "$fastest" = 1 ] && echo "ok   automatic's bfs phase is no slower than either forced way" ||
    { echo "FAIL automatic slower than a forced way"; fail=1; }
check "the text output says how many levels were scanned" 0 "adjacency scan \(([0-9]+) of \1 levels scanned\)" \
    "$bin" "${run[@]}" --mr-adjacency scan --no-progress
check "a bad value names the option and the values" 2 \
    "--mr-adjacency 'sequential' is unknown \(expected automatic, random or scan\)" \
    "$bin" "${run[@]}" --mr-adjacency sequential --no-progress
exit $fail
