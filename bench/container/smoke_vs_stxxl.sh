#!/usr/bin/env bash
# Smoke test of bench_container_vs_stxxl: a tiny sorter sweep on both libraries, its in-memory merge rows, Br read rates and JSON.
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
     /^  }/ { if (sorter) { rows++; if (!seen || wait < 0 || wait > phase) bad++ } sorter = 0; seen = 0 }
     END { exit !(rows == 4 && bad == 0) }' "$dir/out.json" || fail "a sorter row's merge I/O wait is missing or outside [0, its merge time]"
# Bad input names the option and what was expected.
if "$bench" --dir "$dir/work" --sweep 1,x >"$dir/bad.txt" 2>&1; then fail "--sweep 1,x was accepted"; fi
grep -q -- '--sweep 1,x: expected thread counts' "$dir/bad.txt" || fail "--sweep 1,x: unclear error"
echo "smoke_vs_stxxl: ok"
