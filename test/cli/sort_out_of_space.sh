#!/usr/bin/env bash
# `flashxxl sort` on a device smaller than one Bw: exit 1 naming out of space, the device and what to do, no lost items.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
printf 'flash=memory,8MiB,memory name=ssd model=hama-ssd-2009\n' > "$work/s8.cfg"
printf 'flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\n' > "$work/s64.cfg"
# Before: every item was lost without out_of_space ("output check failed (sorted, 0 of 1000
# items, checksum differs)"), the input writer's failure swallowed by its destructor.
too_small() {  # description, config, options...
    local what=$1 cfg=$2; shift 2
    check "$what: out of space, naming the device, role and structure" 1 \
        "error: out of space on device 'ssd' \(role stream, structure flashxxl::vector\): requested [0-9]+ MiB" \
        "$bin" sort --config "$cfg" --no-progress "$@"
    check "$what: says what to do" 1 "hint: one block of [0-9]+ MiB is larger than the whole device 'ssd' \((8|64) MiB\): use a smaller --bw" \
        "$bin" sort --config "$cfg" --no-progress "$@"
    if "$bin" sort --config "$cfg" --no-progress "$@" 2>&1 | grep -q "output check failed"; then
        echo "FAIL $what: the output check saw lost items"; fail=1
    else
        echo "ok   $what: no output check failed"
    fi
}
too_small "8 MiB device, Bw 16 MiB" "$work/s8.cfg" --items 1000
too_small "8 MiB device, --bw 12MiB" "$work/s8.cfg" --items 1000 --bw 12MiB
too_small "64 MiB device, --bw 128MiB" "$work/s64.cfg" --items 1000 --bw 128MiB --memory 2GiB
# The same sort on a device with room still verifies its output.
check "an 8 MiB device with --bw 1MiB sorts" 0 "output verified: sorted" \
    "$bin" sort --config "$work/s8.cfg" --no-progress --items 1000 --bw 1MiB --memory 8MiB
exit $fail
