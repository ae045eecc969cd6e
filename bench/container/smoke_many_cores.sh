#!/usr/bin/env bash
# Smoke test of many_cores.sh: packs the benchmark with its libraries, runs one tiny stage from the pack, and refuses bad input.
# Usage: smoke_many_cores.sh MANY_CORES_SCRIPT BENCH_BINARY
set -euo pipefail
script=$1
bench=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/flashxxl-many-cores-smoke.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "smoke_many_cores: $*" >&2; exit 1; }

bash "$script" pack "$bench" "$dir/pack" >"$dir/pack.txt" 2>&1 || { cat "$dir/pack.txt"; fail "pack failed"; }
[ -x "$dir/pack/bench_container_vs_stxxl" ] || fail "the pack lacks the binary"
ls "$dir"/pack/libstxxl.so.* >/dev/null 2>&1 || fail "the pack lacks STXXL's shared library"
! ls "$dir"/pack/libc.so.* >/dev/null 2>&1 || fail "the pack carries glibc"
BYTES=16MiB MEMORY=16MiB THREADS=2 WORK="$dir/work" bash "$script" run "$dir/pack" "$dir/out" sweep \
    >"$dir/run.txt" 2>&1 || { cat "$dir/run.txt"; fail "run sweep failed"; }
grep -q '^nproc: ' "$dir/out/machine.txt" || fail "machine.txt does not describe the machine"
[ "$(grep -c '"benchmark": "sorter push/sort/pop"' "$dir/out/sweep.json")" -eq 2 ] || fail "expected 2 sorter rows (1 and 2 threads)"
! grep -q '"ok": false' "$dir/out/sweep.json" || fail "a sorter's output was wrong"
[ ! -e "$dir/work" ] || fail "the benchmark's files were left behind"
# Bad input names what was expected.
if bash "$script" run "$dir/pack" "$dir/out" bogus >"$dir/bad.txt" 2>&1; then fail "stage 'bogus' was accepted"; fi
grep -q "unknown stage 'bogus'; expected sorter, sort, sweep or sweep-io4" "$dir/bad.txt" || fail "unclear error for a bad stage"
if bash "$script" pack "$bench" "$dir/pack" >"$dir/bad.txt" 2>&1; then fail "pack overwrote an existing folder"; fi
grep -q "exists; expected a new folder" "$dir/bad.txt" || fail "unclear error for an existing pack folder"
mkdir "$dir/taken"
if WORK="$dir/taken" bash "$script" run "$dir/pack" "$dir/out" sweep >"$dir/bad.txt" 2>&1; then fail "an existing WORK folder was accepted"; fi
grep -q "exists; expected a new folder (it is removed afterwards)" "$dir/bad.txt" || fail "unclear error for an existing WORK"
[ -d "$dir/taken" ] || fail "an existing WORK folder was removed"
if THREADS=x bash "$script" run "$dir/pack" "$dir/out" sweep >"$dir/bad.txt" 2>&1; then fail "THREADS=x was accepted"; fi
grep -q "THREADS=x: expected a positive whole number" "$dir/bad.txt" || fail "unclear error for THREADS=x"
echo "smoke_many_cores: ok"
