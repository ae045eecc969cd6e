#!/usr/bin/env bash
# End-to-end checks of `flashxxl sort` and `flashxxl pq`: verified output, JSON, Table 1 columns, errors.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
tiny_config "$work/tiny.cfg"
base="--config $work/tiny.cfg --no-progress"
small="$base --br 4KiB --bw 512KiB --memory 4MiB"
check "sort vector, 8 B items" 0 "output verified: sorted" "$bin" sort $small --items 300001
check "sort prints Table 1 columns" 0 "input volume +RDV +WRV +RDV/input +WRV/input +passes" "$bin" sort $small --items 1000
check "sorter mode, 40 B items" 0 "output verified: sorted" "$bin" sort $small --items 100003 --element-size 40 --mode sorter
check "sort on hybrid-2009's ssd" 0 "ssd +[0-9.]+ MiB +[0-9.]+ MiB" "$bin" sort --device ssd --br 128KiB --bw 512KiB --memory 8MiB --bytes 32MiB --no-progress
"$bin" sort $small --items 200000 --element-size 16 --json > "$work/s.json" && python3 -c "
import json; d=json.load(open('$work/s.json'))
assert d['verified'] and d['passes'] >= 2 and d['rdv_bytes'] >= 2 * d['input_bytes'], d
assert d['devices'][0]['name'] == 'ssd' and d['devices'][0]['modelled_s'] > 0, d
# one device: the host cannot wait longer than the device was busy in the phase, and all of its
# modelled time is I/O wait (CPU time is not modelled)
assert 0 < d['modelled_elapsed_s'] <= d['devices'][0]['modelled_s'] + 1e-9, d
assert abs(d['modelled_io_wait_s'] - d['modelled_elapsed_s']) < 1e-9, d" \
    && echo "ok   sort json: verified, passes >= 2, volumes, modelled elapsed time" || { echo "FAIL sort json"; fail=1; }
check "any valid block pair runs (4KiB, 8KiB was not compiled before)" 0 "Br = 4 KiB, Bw = 8 KiB" "$bin" sort $base --br 4KiB --bw 8KiB --items 10
check "an invalid block pair names both and the rule" 2 "Br = 8KiB, Bw = 12KiB: Bw must be a multiple of Br" "$bin" sort $base --br 8KiB --bw 12KiB --items 10
check "element size checked" 2 "expected 8, 16 or 40" "$bin" sort $small --items 10 --element-size 12
check "items and bytes exclude each other" 2 "one of --items N and --bytes SIZE, not both" "$bin" sort $small --items 10 --bytes 1MiB
check "--help gives the default input and the minimum memory" 0 "at least [0-9.]+ MiB for 8-byte items.*default 1GiB when neither" \
    bash -c "'$bin' sort --help | tr -s ' \n' ' '"
check "pq --help gives the minimum memory" 0 "at least [0-9.]+ (KiB|MiB) for 8-byte items" bash -c "'$bin' pq --help | tr -s ' \n' ' '"
check "memory checked before the input is generated (a huge input fails at once)" 2 "--memory 64KiB is below the minimum .* of vector mode" \
    timeout 20 "$bin" sort $base --br 4KiB --bw 512KiB --memory 64KiB --items 68719476736
check "memory too small" 2 "--memory 64KiB is below the minimum" "$bin" sort $base --br 4KiB --bw 512KiB --memory 64KiB --items 10
check "unknown device" 2 "no such device \(it has ssd, hdd\)" "$bin" sort --device flash9 --items 10 --no-progress
check "pq push-pop" 0 "output verified: sorted" "$bin" pq $small --items 300000
check "pq interleaved, 16 B" 0 "output verified: sorted" "$bin" pq $small --items 200000 --mode interleaved --element-size 16
check "pq interleaved, 1 item" 0 "output verified: sorted" "$bin" pq $small --items 1 --mode interleaved
check "pq bad mode" 2 "push-pop or interleaved" "$bin" pq $small --items 10 --mode lifo
# --items 0 is an error, not the default 1 GiB; a thread count is capped before any thread starts.
# The range --items states is the one it accepts (README): 1 to 2^36, the most a run can finish.
check "sort --items 0 is refused (not the default input)" 2 "--items: '0' is out of range; expected a whole number from 1 to 68719476736 \(2\^36\)" "$bin" sort $small --items 0
check "pq --items 0 is refused" 2 "--items: '0' is out of range; expected a whole number from 1 to 68719476736 \(2\^36\)" "$bin" pq $small --items 0
check "sort --items -5 states the range from 1" 2 "--items: '-5' is not accepted; expected a whole number from 1 to 68719476736 \(2\^36\)" "$bin" sort $small --items -5
check "--items with --bytes: one of them" 2 "one of --items N and --bytes SIZE, not both" "$bin" sort $small --items 5 --bytes 1MiB
check "--threads above 1024 names the option and the range" 2 "--threads: '100000' is out of range; expected a whole number from 0 to 1024" \
    "$bin" sort $small --items 10 --threads 100000
check "--threads 5 on any machine" 0 "output verified: sorted" "$bin" sort $small --items 100000 --threads 5 --mode sorter
# --backing-dir files are unlinked once open: a killed run leaves none (before: two sparse files of
# 32 GiB and 400 GiB apparent size, which the next run then refused as "already exists").
mkdir "$work/bd"
"$bin" sort --backing-dir "$work/bd" --items 100000000 --memory 128MiB --no-progress >/dev/null 2>&1 &
sort_pid=$!
for _ in $(seq 1 1200); do  # until it holds its output (at most 60 s; no time is asserted)
    ls -l "/proc/$sort_pid/fd" 2>/dev/null | grep -q "/bd/.*(deleted)" && break
    sleep 0.05
done
ls -l "/proc/$sort_pid/fd" 2>/dev/null | grep -q "/bd/.*(deleted)" \
    && echo "ok   the running sort holds its backing files unlinked" || { echo "FAIL no unlinked backing file held"; fail=1; }
kill -KILL "$sort_pid" 2>/dev/null
wait "$sort_pid" 2>/dev/null
[ -z "$(ls -A "$work/bd")" ] && echo "ok   a killed sort leaves no backing file" \
    || { echo "FAIL a killed sort left $(ls -A "$work/bd")"; fail=1; }
check "the next run in that directory works" 0 "output verified: sorted" \
    "$bin" sort --backing-dir "$work/bd" --items 10000 --memory 128MiB --no-progress
exit $fail
