#!/usr/bin/env bash
# End-to-end checks that a machine leaves no file it made behind and refuses, with exit 2 and the option or field named, what it cannot honour.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"  # no .stxxl here: --config and the presets only

absent() {  # description, path: the path must not exist
    if [ -e "$2" ]; then echo "FAIL $1: $2 was left behind"; ls -ls "$2"; fail=1; else echo "ok   $1"; fi
}

# One file spelt relative and absolute is one file (the check compared "x.img" as written).
printf 'disk=x.img,64MiB,syscall name=a\ndisk=%s/x.img,64MiB,syscall name=b\n' "$work" > rel.cfg
check "a relative and an absolute path to one file" 2 "rel.cfg:2: device 'b': field 'path': .* is the backing file of device 'a'" \
    "$bin" machine --config rel.cfg --no-probe
absent "no file made for the refused machine" "$work/x.img"

# A failed build removes the file it created, keep=on or not: a 1 TiB sparse file stayed behind.
printf 'disk=%s/k.img,1TiB,syscall name=d keep=on model=hama-ssd-2009\n' "$work" > k.cfg
check "keep=on file of a device beyond its model's capacity" 2 "k.cfg:1" "$bin" machine --config k.cfg --no-probe
absent "the kept file of the failed build is gone" "$work/k.img"
rm -f "$work/k.img"
printf 'disk=%s/k.img,64MiB,syscall name=d keep=on\nplacement=single device=nosuch\n' "$work" > k2.cfg
check "keep=on file, placement naming no device" 2 "k2.cfg:2.*nosuch" "$bin" machine --config k2.cfg --no-probe
absent "the kept file of the failed build is gone" "$work/k.img"
rm -f "$work/k.img"
printf 'disk=%s/k.img,64MiB,syscall name=d keep=on\n' "$work" > k3.cfg
check "keep=on file of a machine that builds" 0 "everything|->" "$bin" machine --config k3.cfg --no-probe
[ -f "$work/k.img" ] && echo "ok   keep=on keeps the file of a machine that was built" || { echo "FAIL keep=on file missing"; fail=1; }
rm -f "$work/k.img"

# An existing empty file is not the machine's: it was grown to the device size and written.
mkdir bd
: > bd/hybrid-2009-ssd.img
# A preset takes no reuse=on: the message says what to do instead (it suggested reuse=on).
check "an existing empty file in --backing-dir" 2 "hybrid-2009-ssd.img' already exists \(0 bytes\); a preset's device never writes a file it did not create \(a preset takes no reuse=on\): remove or move the file, choose another --backing-dir, or give a --config whose line for device 'ssd' says reuse=on" \
    "$bin" machine --backing-dir bd --volume 1MiB
[ -f bd/hybrid-2009-ssd.img ] && [ ! -s bd/hybrid-2009-ssd.img ] && [ "$(du -k bd/hybrid-2009-ssd.img | cut -f1)" = 0 ] \
    && echo "ok   the empty file is still empty" || { echo "FAIL the empty file was changed"; ls -ls bd; fail=1; }
absent "the other device's file is gone" bd/hybrid-2009-hdd.img

# The input must fit on the devices its role is placed on, not on all devices together.
printf 'flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\ndisk=memory,1GiB,memory name=hdd model=barracuda-7200.11\n' > two.cfg
check "sort input beyond the one device --device names" 2 "more than the capacity of machine .*64 MiB on ssd" \
    "$bin" sort --config two.cfg --device ssd --bytes 128MiB --memory 128MiB --no-progress
check "sort input that fits the device of its role" 0 "sort" \
    "$bin" sort --config two.cfg --device hdd --bytes 128MiB --memory 128MiB --no-progress
# Each role's data must fit its own devices: under flash_aware, sort's input (stream), its runs
# (scratch) and pq's arrays (hot) go to the small HDD, however large the SSD is.
printf 'flash=memory,1GiB,memory name=ssd model=hama-ssd-2009\ndisk=memory,64MiB,memory name=hdd model=barracuda-7200.11\n' > roles.cfg
check "sort's input vector beyond the devices of stream" 2 "needs 100 MiB \(stream 100 MiB\): more than the capacity of machine .*64 MiB on hdd" \
    "$bin" sort --config roles.cfg --bytes 100MiB --memory 128MiB --no-progress
check "sorter mode's runs beyond the devices of scratch" 2 "needs 160 MiB \(scratch 160 MiB\): more than .*64 MiB on hdd" \
    "$bin" sort --config roles.cfg --mode sorter --bytes 200MiB --memory 40MiB --no-progress
check "input and runs together beyond the device both roles share" 2 "needs 70 MiB \(stream 40 MiB, scratch 30 MiB\)" \
    "$bin" sort --config roles.cfg --bytes 40MiB --memory 10MiB --br 64KiB --bw 1MiB --no-progress
check "pq's arrays beyond the devices of hot" 2 "needs 160 MiB \(hot 160 MiB\): more than .*64 MiB on hdd" \
    "$bin" pq --config roles.cfg --bytes 200MiB --memory 40MiB --no-progress
check "pq interleaved holds at least half" 2 "needs 70 MiB \(hot 70 MiB\): more than .*64 MiB on hdd" \
    "$bin" pq --config roles.cfg --bytes 220MiB --memory 40MiB --mode interleaved --no-progress
check "an input that stays in memory needs no device room" 0 "output verified" \
    "$bin" pq --config roles.cfg --bytes 60MiB --memory 128MiB --no-progress
printf 'flash=memory,8388608TiB,memory name=a\ndisk=memory,8388608TiB,memory name=b\nplacement=per_role scratch=a,b\n' > huge.cfg
check "device sizes whose sum wraps 64 bits (it was 0 B)" 0 "sort" \
    "$bin" sort --config huge.cfg --items 100000 --memory 128MiB --no-progress

# --scale without --pace, or with a config, did nothing, silently.
check "--scale without --pace" 2 "--scale" "$bin" machine --no-probe --scale 0.5
check "--scale with --config" 2 "--scale" "$bin" machine --config two.cfg --no-probe --scale 0.5
check "--scale with --pace" 0 "ssd" "$bin" machine --no-probe --pace --scale 0.5
printf 'flash=memory,64MiB,memory name=ssd model=hama-ssd-2009 pace=on scale=1e300\n' > s.cfg
check "scale= beyond the range of --scale" 2 "s.cfg:1: field 'scale'" "$bin" machine --config s.cfg --no-probe

# sort, pq and btree build a probe machine, then a fresh one per run: the keep=on file the probe
# made is reopened by the runs (it was refused as "not created by this machine"), and kept.
printf 'flash=%s/kept.img,64MiB,syscall name=ssd model=hama-ssd-2009 keep=on\nplacement=single device=ssd\n' "$work" > kept.cfg
check "sort on a new keep=on file (a sweep: three machines)" 0 "every output verified" \
    "$bin" sort --config kept.cfg --items 1000 --br 4KiB,8KiB --bw 64KiB --memory 8MiB --no-progress
rm -f "$work/kept.img"
check "btree on a new keep=on file, every layout" 0 "results verified" \
    "$bin" btree --config kept.cfg --items 1000 --finds 10 --inserts 10 --scans 1 --layout all --br 4KiB --bw 64KiB --memory 8MiB --no-progress
[ -s "$work/kept.img" ] && echo "ok   the keep=on file is kept" || { echo "FAIL the keep=on file is gone"; fail=1; }
# A rerun of the same command on the same config reopens the file flashxxl kept (it was refused
# as "not created by this machine"); a line without keep=on is told both ways to use it.
check "a rerun on the keep=on file of an earlier run" 0 "output verified" \
    "$bin" sort --config kept.cfg --items 1000 --br 4KiB --bw 64KiB --memory 8MiB --no-progress
[ -s "$work/kept.img" ] && echo "ok   the rerun keeps the file" || { echo "FAIL the keep=on file is gone"; fail=1; }
printf 'flash=%s/kept.img,64MiB,syscall name=ssd model=hama-ssd-2009\n' "$work" > nokeep.cfg
check "the kept file on a line without keep=on" 2 "nokeep.cfg:1: device 'ssd': field 'path': '$work/kept.img' already exists \([0-9]+ bytes\): flashxxl made it for a device with keep=on; add keep=on to nokeep.cfg:1 to use it again, reuse=on to overwrite it, or remove it" \
    "$bin" machine --config nokeep.cfg --no-probe
rm -f "$work/kept.img"
: > "$work/kept.img"
check "a foreign file names the line to add reuse=on to" 2 "kept.cfg:1: device 'ssd': field 'path': '$work/kept.img' already exists \(0 bytes\) and was not made by flashxxl with keep=on \(it carries no flashxxl mark\); remove it, or add reuse=on to kept.cfg:1 to overwrite it" \
    "$bin" machine --config kept.cfg --no-probe
rm -f "$work/kept.img"

# reuse=on grows a shorter file to the device's size; a build that fails gives it its length back.
head -c 1048576 /dev/urandom > short.img && cp short.img short.orig
printf 'flash=%s/short.img,64MiB,syscall name=ssd model=hama-ssd-2009 reuse=on\ndisk=memory,64MiB,memory name=hdd model=nosuch\n' "$work" > grow.cfg
check "a failed build after a reused file was grown" 2 "grow.cfg:2" "$bin" machine --config grow.cfg --no-probe
cmp -s short.img short.orig && echo "ok   the reused file has its length and bytes back" || { echo "FAIL the reused file was left changed: $(stat -c %s short.img) bytes"; fail=1; }

# A config that never ends is refused after a MiB (it was read until memory ran out).
check "--config /dev/zero" 2 "machine config '/dev/zero' is longer than 1 MiB" timeout 20 "$bin" machine --config /dev/zero --no-probe

# A --backing-dir no file can be made in is an option error, not a config line's.
check "--backing-dir /proc" 2 "--backing-dir.*/proc" "$bin" machine --backing-dir /proc --no-probe
exit $fail
