#!/usr/bin/env bash
# Carries bench_container_vs_stxxl with its shared libraries to a many-core machine without STXXL or TBB, and runs the many-core benchmark set there
# (sorter and sort(vector) against STXXL, and the merge's thread sweep).
#
# Usage:
#   many_cores.sh pack BENCH_BINARY DIR   copies the binary and every shared library it loads except glibc's
#                                         (STXXL, libgomp, libstdc++, libgcc_s, ...) into DIR, which must not exist
#   many_cores.sh run DIR OUT [STAGE...]  on the other machine: runs the stages into OUT (created), each as
#                                         STAGE.txt (the table) and STAGE.json, after machine.txt (what it is)
# Stages (default: all four, in this order; from the 16-core timings of 2026-11-23 (d9d3877), each should take a few
# minutes at the defaults, not yet run there with this script):
#   sorter     sorter push / sort / pop, 8-, 16- and 100-byte items, both libraries, THREADS threads
#   sort       sort(vector), the same
#   sweep      flashxxl's sorter, 8-byte items, 1, 2, 4, ... THREADS threads, one I/O thread
#   sweep-io4  the same with four I/O threads (queue depth 4): does the merge wait for the disk?
# Environment: BYTES (input, default 4GiB), MEMORY (M, default 512MiB), WORK (a new folder for the
# benchmark's files, default ./many-cores-work, removed afterwards), THREADS (default: nproc).
# The README of docs/results/many-cores/ says how the 16-core figures of 2026-11-23 were taken.
set -euo pipefail

die() { echo "many_cores.sh: $*" >&2; exit 2; }

pack() {
    local bin=$1 dir=$2
    [ -x "$bin" ] || die "pack: $bin is not an executable (expected the built bench_container_vs_stxxl)"
    [ ! -e "$dir" ] || die "pack: $dir exists; expected a new folder"
    mkdir -p "$dir"
    cp "$bin" "$dir/bench_container_vs_stxxl"
    local missing
    missing=$(ldd "$bin" | awk '/=> not found/ { print $1 }')
    [ -z "$missing" ] || die "pack: $bin needs libraries this machine lacks: $missing"
    # glibc (libc, libm, libpthread, libdl, librt and the loader) stays: it must match the other
    # machine's loader, and is older there than here only on an older distribution.
    ldd "$bin" | awk '/=> \// { print $3 }' | while read -r lib; do
        case $(basename "$lib") in
            libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
            *) cp -L "$lib" "$dir/" ;;
        esac
    done
    echo "packed into $dir:"
    ls -l "$dir"
}

describe_machine() {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "nproc: $(nproc)"
    grep -m1 'model name' /proc/cpuinfo || true
    grep -E 'MemTotal' /proc/meminfo || true
    echo "kernel: $(uname -r)"
    echo "benchmark files in $WORK:"
    df -h "$WORK" | tail -n 1
}

run_stage() {
    local dir=$1 out=$2 stage=$3
    local bench=(env LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$dir/bench_container_vs_stxxl"
                 --dir "$WORK" --bytes "$BYTES" --memory "$MEMORY" --json "$out/$stage.json")
    local sweep="1"
    local t=2
    while [ "$t" -le "$THREADS" ]; do sweep="$sweep,$t"; t=$((t * 2)); done
    case $stage in
        sorter) "${bench[@]}" --item 8,16,100 --only sorter --blocks split --threads "$THREADS" ;;
        sort) "${bench[@]}" --item 8,16,100 --only sort --blocks split --threads "$THREADS" ;;
        sweep) "${bench[@]}" --item 8 --only sorter --side flashxxl --blocks split --sweep "$sweep" ;;
        sweep-io4) "${bench[@]}" --item 8 --only sorter --side flashxxl --blocks split --sweep "$sweep" --io-threads 4 ;;
    esac >"$out/$stage.txt" 2>&1 || { cat "$out/$stage.txt" >&2; die "run: stage $stage failed (log: $out/$stage.txt)"; }
    cat "$out/$stage.txt"
}

run() {
    local dir=$1 out=$2
    shift 2
    [ -x "$dir/bench_container_vs_stxxl" ] || die "run: $dir holds no bench_container_vs_stxxl (make it with: many_cores.sh pack)"
    local stages=("$@")
    [ ${#stages[@]} -gt 0 ] || stages=(sorter sort sweep sweep-io4)
    # Checked before any stage runs (run_stage knows only these four).
    for s in "${stages[@]}"; do
        case $s in sorter|sort|sweep|sweep-io4) ;; *) die "run: unknown stage '$s'; expected sorter, sort, sweep or sweep-io4" ;; esac
    done
    BYTES=${BYTES:-4GiB}
    MEMORY=${MEMORY:-512MiB}
    WORK=${WORK:-$PWD/many-cores-work}
    THREADS=${THREADS:-$(nproc)}
    [[ $THREADS =~ ^[1-9][0-9]*$ ]] || die "THREADS=$THREADS: expected a positive whole number"
    # The folder is removed afterwards, so it must be the script's own.
    [ ! -e "$WORK" ] || die "WORK=$WORK exists; expected a new folder (it is removed afterwards)"
    mkdir -p "$out" "$WORK"
    trap 'rm -rf "$WORK"' EXIT
    describe_machine >"$out/machine.txt"
    cat "$out/machine.txt"
    for s in "${stages[@]}"; do
        echo "== $s"
        run_stage "$dir" "$out" "$s"
    done
}

[ $# -ge 1 ] || die "expected 'pack BENCH_BINARY DIR' or 'run DIR OUT [STAGE...]'"
verb=$1
shift
case $verb in
    pack) [ $# -eq 2 ] || die "pack: expected BENCH_BINARY DIR"; pack "$@" ;;
    run) [ $# -ge 2 ] || die "run: expected DIR OUT [STAGE...]"; run "$@" ;;
    *) die "unknown command '$verb'; expected pack or run" ;;
esac
