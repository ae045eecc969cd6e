#!/usr/bin/env bash
# `flashxxl btree` refuses a --memory or a size it cannot run with before any phase: exit 2, one error line naming the option.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
tiny_config "$work/tiny.cfg"
base="--config $work/tiny.cfg --no-progress --br 4KiB --bw 64KiB --finds 10 --inserts 10 --batch 10 --scans 1 --scan-length 10"
refused() {  # description, extended regex for the error, command...: exit 2 and the error line only (no phase ran)
    local what=$1 pattern=$2; shift 2
    local out rc
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" -ne 2 ]; then echo "FAIL $what: exit $rc, expected 2"; echo "$out" | head -5; fail=1; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ] || ! grep -qE -- "^flashxxl: error: $pattern" <<<"$out"; then
        echo "FAIL $what: expected one line /flashxxl: error: $pattern/"; echo "$out" | head -5; fail=1; return
    fi
    echo "ok   $what"
}
refused "--memory 0 is refused like the other commands'" "--memory 0: expected a positive memory budget" \
    "$bin" btree $base --items 1000 --memory 0
physical_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
refused "--memory beyond physical memory is refused" "--memory $((2 * physical_kib))KiB is more than this machine's physical memory" \
    "$bin" btree $base --items 1000 --memory "$((2 * physical_kib))KiB"
# Two-level (about 0.34 MiB) and Br (0.10 MiB) fit in 400 KiB, Bw (8 x 64 KiB + 64 KiB) does not:
# refused before the first layout runs (3 M items: those runs would take a while).
refused "--layout all checks every layout's minimum first" \
    "--memory 400KiB is below the minimum 585\.[0-9]+ KiB of the map with --layout all \(its one block Bw run\), Br = 64KiB, Bw = 64KiB" \
    timeout 60 "$bin" btree $base --items 3000000 --memory 400KiB --layout all
refused "--layout bw names its minimum" "--memory 400KiB is below the minimum 585\.[0-9]+ KiB of the map with --layout bw, Br = 64KiB, Bw = 64KiB" \
    "$bin" btree $base --items 1000 --memory 400KiB --layout bw
check "--layout all runs with 600KiB" 0 "results verified" "$bin" btree $base --items 1000 --memory 600KiB --layout all
# The default --memory covers --layout all on the default machine (Bw = 16 MiB: 130 MiB for
# the one-block-Bw layout).
check "the default --memory suffices for --layout all" 0 "one block Bw +Br = 16MiB, Bw = 16MiB, M = 160 MiB" \
    "$bin" btree --no-progress --items 1000 --finds 10 --inserts 10 --batch 10 --scans 1 --scan-length 10 --layout all
# Room: whole Bw nodes, not 16 bytes an item. 1 M items (16 MB) and 110 000 new keys on a
# 40 MiB device with Bw = 16 MiB: up to 2 leaves and a root, 48 MiB (the run would end in
# out_of_space after the bulk load).
printf 'name=small\nflash=memory,40MiB,memory name=ssd\nplacement=single device=ssd\n' > "$work/small.cfg"
refused "room for whole Bw nodes, naming --items and the device" \
    "--items 1000000 with --inserts 10000 and --batch 100000: the map with --layout two-level, Br = 128KiB, Bw = 16MiB may need up to 3 nodes of Bw \(48 MiB.*more than the 40 MiB its devices can hold on machine 'small' \(.*ssd" \
    "$bin" btree --config "$work/small.cfg" --no-progress --items 1000000 --finds 1 --scans 1 --scan-length 1
exit $fail
