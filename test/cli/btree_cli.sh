#!/usr/bin/env bash
# End-to-end checks of `flashxxl btree`: the phases table, the three layouts, JSON, bad options.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
tiny_config "$work/tiny.cfg"
base="--config $work/tiny.cfg --no-progress --br 4KiB --bw 64KiB --items 100000 --finds 300 --inserts 300 --batch 3000 --scans 5 --scan-length 2000"
small="$base --memory 1MiB"
check "btree prints every phase" 0 "random finds +two-level +[0-9.]+" "$bin" btree $small
check "btree verifies its results" 0 "results verified" "$bin" btree $small
check "btree --layout all runs three layouts side by side" 0 "range scans +one block Bw" "$bin" btree $small --layout all
"$bin" btree $small --layout all --json > "$work/b.json" && python3 -c "
import json; d=json.load(open('$work/b.json'))
runs = {r['layout']: r for r in d['runs']}
assert set(runs) == {'two-level', 'one block Br', 'one block Bw'}, runs.keys()
two, big = runs['two-level'], runs['one block Bw']
ph = lambda r, n: [p for p in r['phases'] if p['name'] == n][0]
assert two['br_bytes'] == 4096 and two['bw_bytes'] == 65536 and two['verified'], two
# Finds read Br blocks inside Bw nodes: far fewer items than with whole Bw nodes.
assert ph(two, 'random finds')['read_bytes'] * 4 < ph(big, 'random finds')['read_bytes'], (two, big)
# The bulk load writes in Bw blocks only, each item about once.
bl = ph(two, 'bulk load')
assert bl['write_bytes'] == bl['write_ops'] * 65536 and bl['write_bytes'] < 1.2 * 16 * d['items'], bl
assert ph(two, 'random finds')['modelled_s'] > 0, two
# Every phase on the virtual clock, as in every command (docs/machine-config.md): one device, so
# elapsed = I/O wait = at least the device's busy time (no CPU time is charged).
for r in d['runs']:
    for p in r['phases']:
        assert p['modelled_elapsed_s'] >= p['modelled_s'] - 1e-9 and p['modelled_io_wait_s'] <= p['modelled_elapsed_s'] + 1e-9, p
        assert p['modelled_io_wait_s'] > 0 or p['modelled_s'] == 0, p
assert ph(two, 'random finds')['modelled_elapsed_s'] > 0, two" \
    && echo "ok   btree json: layouts, Br reads for finds, Bw writes for the bulk load, modelled elapsed and I/O wait per phase" || { echo "FAIL btree json"; fail=1; }
check "btree --items 0 states the range it accepts" 2 "--items: '0' is out of range; expected a whole number from 1 to 68719476736 \(2\^36\)" "$bin" btree --config "$work/tiny.cfg" --no-progress --items 0
check "btree --items -5 states the range from 1" 2 "--items: '-5' is not accepted; expected a whole number from 1 to 68719476736 \(2\^36\)" "$bin" btree --config "$work/tiny.cfg" --no-progress --items -5
check "bad layout is named" 2 "--layout 'b-tree' \(expected two-level, br, bw or all\)" "$bin" btree $small --layout b-tree
check "memory too small names the minimum" 2 "--memory 128KiB is below the minimum 341\.78 KiB of the map with --layout two-level, Br = 4KiB, Bw = 64KiB" \
    "$bin" btree $base --memory 128KiB
# Sizes that cannot be held are refused before any work (they ran for minutes, or until the OOM killer).
check "items beyond the devices are refused" 2 "--items 68719476736 with --inserts 10000 and --batch 100000: the map with --layout two-level, Br = 128KiB, Bw = 16MiB may need up to [0-9]+ nodes of Bw \(2\.0[0-9] TiB.* more than the .* its devices can hold on machine 'hybrid-2009' \(.*static_data -> ssd" \
    "$bin" btree --items 68719476736 --no-progress
check "items beyond what a run can finish are refused with the bound" 2 "--items: '18446744073709551615' is out of range; expected a whole number from 1 to 68719476736 \(2\^36\)" \
    "$bin" btree --items 18446744073709551615 --no-progress
exit $fail
