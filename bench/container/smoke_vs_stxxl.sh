#!/usr/bin/env bash
# Smoke test of bench_container_vs_stxxl: a tiny sorter sweep on both libraries (in-memory merge rows, Br read rates, JSON), the scan's and PQ's like-for-like settings, and the refusals before any run.
# Usage: smoke_vs_stxxl.sh BENCH_BINARY
set -euo pipefail
bench=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/flashxxl-bench-smoke.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "smoke_vs_stxxl: $*" >&2; exit 1; }

"$bench" --dir "$dir/work" --bytes 32MiB --memory 16MiB --only sorter --sweep 1,2 --json "$dir/out.json" \
    >"$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "the benchmark failed"; }
grep -q '^in-memory merge (no I/O)' "$dir/out.txt" || fail "no in-memory merge table"
grep -q 'in memory (' "$dir/out.txt" || fail "no sorter speedup beside the in-memory merge's"
# Two stage sizes (Br 256 KiB and 2 MiB) at two thread counts; four sorter rows; all sorted.
[ "$(grep -c '"benchmark": "in-memory merge"' "$dir/out.json")" -eq 4 ] || fail "expected 4 in-memory merge rows in the JSON"
[ "$(grep -c '"benchmark": "sorter push/sort/pop"' "$dir/out.json")" -eq 4 ] || fail "expected 4 sorter rows in the JSON"
! grep -q '"ok": false' "$dir/out.json" || fail "a benchmark's output was wrong"
grep -q '"in_memory_merge_speedup": 1.0' "$dir/out.json" || fail "the sorter rows lack the in-memory speedup"
# The disk's rate for each Br, and the sorter's reading rate in its merge phase beside it.
grep -q '^  reads of Br = 256 KiB, queue depth 1: ' "$dir/out.txt" || fail "no read rate at Br = 256 KiB"
grep -q '^  reads of Br = 2 MiB, queue depth 1: ' "$dir/out.txt" || fail "no read rate at Br = 2 MiB"
[ "$(grep -c '^ *8-byte items, .* threads: .*/s (.* % of ' "$dir/out.txt")" -eq 4 ] || fail "expected 4 merge read rates"
! grep -q '"br_read_bandwidth_bytes_s": 0' "$dir/out.json" || fail "a row lacks its Br read rate"
# The time the merge phase blocked on I/O: printed beside the read rate, and in the JSON of every
# sorter row between 0 and the phase's own time.
[ "$(grep -c '^ *8-byte items, .* threads: .*; waited .* s of .* s (' "$dir/out.txt")" -eq 4 ] || fail "expected 4 merge I/O waits"
awk '/"benchmark": "sorter/ { sorter = 1 }
     /"flashxxl_merge_io_wait_s":/ { gsub(/[,"]/, "", $2); wait = $2; seen = 1 }
     /"flashxxl_merge_s":/ { gsub(/[,"]/, "", $2); phase = $2 }
     /^    }/ { if (sorter) { rows++; if (!seen || wait < 0 || wait > phase) bad++ } sorter = 0; seen = 0 }
     END { exit !(rows == 4 && bad == 0) }' "$dir/out.json" || fail "a sorter row's merge I/O wait is missing or outside [0, its merge time]"
# Bad input names the option and what was expected.
if "$bench" --dir "$dir/work" --sweep 1,x >"$dir/bad.txt" 2>&1; then fail "--sweep 1,x was accepted"; fi
grep -q -- '--sweep 1,x: expected thread counts' "$dir/bad.txt" || fail "--sweep 1,x: unclear error"

# The vector scan: the same read-ahead bytes on both sides (4 MiB at Br 256 KiB, 32 MiB at 2 MiB), said in table and JSON.
"$bench" --dir "$dir/work" --bytes 8MiB --memory 16MiB --only scan --json "$dir/scan.json" >"$dir/scan.txt" 2>&1 ||
    { cat "$dir/scan.txt"; fail "the scan failed"; }
grep -q '^vector scan, 8-byte items, fx 2 MiB/2 MiB: both sides have the same bytes of reads in flight .*(flashxxl 32 MiB in blocks of Br, STXXL 32 MiB' \
    "$dir/scan.txt" || fail "the scan's read-ahead is not in the table's notes"
python3 - "$dir/scan.json" <<'PY' || fail "scan rows: read-ahead or STXXL block size wrong in the JSON"
import json, sys
doc = json.load(open(sys.argv[1]))
envelope = ("version", "command_line", "timestamp", "host")
assert doc["benchmark"] == "bench_container_vs_stxxl" and all(k in doc for k in envelope), sorted(doc)
rows = doc["results"]
assert len(rows) == 2 and all(r["ok"] for r in rows), rows
for r in rows:
    assert r["flashxxl_readahead_bytes"] == r["stxxl_readahead_bytes"] == (4 << 20 if r["flashxxl_blocks"].startswith("256") else 32 << 20), r
    assert r["stxxl_block_bytes"] == 2 << 20 and r["scan_consumer"].startswith("per item"), r
PY
# The priority queue: STXXL's block size is the generator's (128 KiB for these items), not 2 MiB.
"$bench" --dir "$dir/work" --bytes 2MiB --memory 40MiB --only pq --item 8,16 --blocks split --json "$dir/pq.json" \
    >"$dir/pq.txt" 2>&1 || { cat "$dir/pq.txt"; fail "the priority queue failed"; }
grep -qE '^ +8 priority_queue n push, n pop +256 KiB/2 MiB +128 KiB ' "$dir/pq.txt" || fail "no st_B of 128 KiB in the PQ row"
python3 -c 'import json, sys; rows = json.load(open(sys.argv[1]))["results"]; assert len(rows) == 2 and all(r["ok"] and r["stxxl_block_bytes"] == 128 << 10 for r in rows), rows' \
    "$dir/pq.json" || fail "PQ rows: stxxl_block_bytes is not 128 KiB"
# Refused before any run (exit 2, nothing measured): a --memory below a selected benchmark's
# minimum (STXXL's PQ: 40 MiB), an unwritable --json. A failed JSON write is a failed run (1).
status=0; "$bench" --dir "$dir/work" --bytes 64MiB --memory 16MiB >"$dir/bad.txt" 2>&1 || status=$?
[ $status -eq 2 ] || fail "--memory 16MiB with the PQ rows: exit $status, expected 2"
grep -q -- "^--memory 16 MiB: below the minimum of a selected benchmark" "$dir/bad.txt" &&
    grep -q "STXXL's priority queue .* needs 40 MiB" "$dir/bad.txt" && grep -q 'flashxxl::priority_queue needs' "$dir/bad.txt" &&
    ! grep -q '^sequential bandwidth' "$dir/bad.txt" || { cat "$dir/bad.txt"; fail "--memory 16MiB: unclear refusal, or it ran first"; }
status=0; "$bench" --dir "$dir/work" --only sorter --json "$dir/no/such/out.json" >"$dir/bad.txt" 2>&1 || status=$?
[ $status -eq 2 ] && grep -q -- "--json $dir/no/such/out.json: cannot write there" "$dir/bad.txt" &&
    ! grep -q '^sequential bandwidth' "$dir/bad.txt" || fail "unwritable --json: exit $status, or it ran first"
if [ -w /dev/full ]; then
    status=0; "$bench" --dir "$dir/work" --bytes 1MiB --only scan --side flashxxl --json /dev/full >"$dir/bad.txt" 2>&1 || status=$?
    [ $status -eq 1 ] && grep -q -- '--json /dev/full: writing failed' "$dir/bad.txt" || fail "--json /dev/full: exit $status, expected 1"
fi
echo "smoke_vs_stxxl: ok"
