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
# Every count is bounded by what a run can finish, the bound in the error and in --help (the
# finds and scans of 2^64 - 1 ran without output until killed). Refused as every option value
# is (CLI11's usage line follows the error).
bound=(--config "$work/tiny.cfg" --no-progress --br 4KiB --bw 64KiB --items 1000)
check "--finds 2^64 - 1 is refused with the bound" 2 "--finds: '18446744073709551615' is out of range; expected a whole number from 0 to 100000000" \
    timeout 20 "$bin" btree "${bound[@]}" --finds 18446744073709551615
check "--scans 2^64 - 1 is refused with the bound" 2 "--scans: '18446744073709551615' is out of range; expected a whole number from 0 to 100000000" \
    timeout 20 "$bin" btree "${bound[@]}" --scans 18446744073709551615
check "--inserts beyond 10^8" 2 "--inserts: '100000001' is out of range; expected a whole number from 0 to 100000000" \
    timeout 20 "$bin" btree "${bound[@]}" --inserts 100000001
check "--batch beyond 10^8" 2 "--batch: '100000001' is out of range; expected a whole number from 0 to 100000000" \
    timeout 20 "$bin" btree "${bound[@]}" --batch 100000001
check "--items beyond 2^36" 2 "--items: '68719476737' is out of range; expected a whole number from 1 to 68719476736 \(2\^36\)" \
    timeout 20 "$bin" btree --config "$work/tiny.cfg" --no-progress --items 68719476737
check "--scan-length 0 is refused" 2 "--scan-length: '0' is out of range; expected a whole number from 1 to" \
    timeout 20 "$bin" btree "${bound[@]}" --scan-length 0
refused "--scans x --scan-length beyond 10^10 item visits" \
    "--scans 100000 x --scan-length 1000000 would visit more than 10\^10 items, more than a run can finish" \
    timeout 20 "$bin" btree "${bound[@]}" --scans 100000 --scan-length 1000000
check "btree --help states the bounds" 0 "random finds \(at most 10\^8\)" "$bin" btree --help
exit $fail
