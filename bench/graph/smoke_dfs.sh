#!/usr/bin/env bash
# Smoke test of bench_graph_dfs: a small grid with Bw/Br and TL/Br ratios in table and JSON, exit 1 when a configuration cannot run, 2 for bad arguments.
# Usage: smoke_dfs.sh BENCH_BINARY
set -euo pipefail
bench=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/flashxxl-dfs-smoke.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "smoke_dfs: $*" >&2; exit 1; }

"$bench" side=32 >"$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "side=32 failed"; }
grep -q 'time/Br .*RDV/Br' "$dir/out.txt" || fail "no ratio columns in the table"
grep -qE '^Bw/Br: modelled time [0-9.]+, read volume [0-9.]+$' "$dir/out.txt" || fail "no Bw/Br line"
grep -qE '^TL/Br: modelled time [0-9.]+, read volume [0-9.]+$' "$dir/out.txt" || fail "no TL/Br line"
tail -n 1 "$dir/out.txt" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
assert doc["benchmark"] == "bench_graph_dfs" and doc["command_line"][1:] == ["side=32"], doc["command_line"]
assert all(k in doc for k in ("version", "timestamp", "host")), sorted(doc)
rows = {r["config"]: r for r in doc["results"]}
assert set(rows) == {"TL", "Br", "Bw"} and all(r["ran"] and r["visited"] == 1024 for r in rows.values()), rows
assert rows["Br"]["modelled_s_over_br"] == 1.0 and rows["Br"]["read_bytes_over_br"] == 1.0
bw = rows["Bw"]
assert abs(bw["modelled_s_over_br"] - bw["modelled_s"] / rows["Br"]["modelled_s"]) < 1e-9
assert abs(bw["read_bytes_over_br"] - bw["read_bytes"] / rows["Br"]["read_bytes"]) < 1e-9
' || fail "JSON: no envelope, or rows lack the ratios to Br"

# Caches capped at half of a tiny structure: no configuration can run; the table says why, the exit status 1.
status=0
"$bench" side=64 share=0.5 >"$dir/bad.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "configurations that did not run: exit $status, expected 1"
grep -q '^Bw  not run: ' "$dir/bad.txt" || fail "no 'not run' row"
status=0
"$bench" side=x >"$dir/bad.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q -- "--side: 'x' is not accepted; expected a whole number" "$dir/bad.txt" ||
    fail "side=x: exit $status or unclear error"
status=0
"$bench" --side 8 --shufle 2 >"$dir/bad.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q -- 'did you mean --shuffle for --shufle?' "$dir/bad.txt" ||
    fail "--shufle: exit $status or no suggestion"
echo "smoke_dfs: ok"
