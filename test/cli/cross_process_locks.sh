#!/usr/bin/env bash
# A characterize target and a machine's backing file exclude each other across processes (one lock), and the refused side names the file, the device and the holder.
set -u
bin=$(readlink -f "$1")
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
comm=$(basename "$bin" | cut -c1-15)  # the command name /proc gives for a flashxxl process
jobs_started=()
# No background process outlives the script, whatever fails.
trap 'for p in "${jobs_started[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$work"' EXIT

# 1. A running characterize holds its target: a machine with reuse=on on that file was built on it
# and overwrote it (flock and STXXL's fcntl lock do not see each other). On an existing target,
# characterize reads its experiments from a FIFO after it has locked the target, so it waits
# there, holding the lock.
printf 'run op=read order=seq block=4KiB count=8\n' > one.exp
mkfifo exp
check "a kept characterize target" 0 "" \
    "$bin" characterize --file "$work/t.img" --size 4MiB --experiments one.exp --queue-depths none --quiet --no-plots --keep
( "$bin" characterize --file "$work/t.img" --experiments exp --queue-depths none --quiet --no-plots \
      > char.out 2>&1
  echo $? > char.rc
  exec 4<>exp ) &  # an early end still lets the feeder's open return
jobs_started+=($!)
coproc FEEDER { exec 3>exp; echo opened; cat >&3; }
feeder_pid=$FEEDER_PID feeder_out=${FEEDER[0]} feeder_in=${FEEDER[1]}  # bash unsets FEEDER once it ends
jobs_started+=($feeder_pid)
read -r _ <&"$feeder_out"
if [ -e char.rc ]; then
    if grep -q "O_DIRECT\|tmpfs" char.out; then echo "skip characterize holding its target: $(cat char.out)"
    else echo "FAIL characterize ended before it read its experiments: $(cat char.out)"; fail=1; fi
else
    printf 'disk=%s/t.img,8MiB,syscall name=d reuse=on\n' "$work" > reuse.cfg
    check "a machine with reuse=on on the file a running characterize measures" 1 \
        "reuse.cfg:1: device 'd': field 'path': '$work/t.img' is in use: process [0-9]+ \($comm\) holds its lock" \
        "$bin" machine --config reuse.cfg --no-probe
    check "a second characterize on the same file" 1 \
        "'$work/t.img' is in use: process [0-9]+ \($comm\) holds its lock.*choose another --file" \
        "$bin" characterize --file "$work/t.img" --queue-depths none --quiet --no-plots
fi
cat one.exp >&"$feeder_in"
exec {feeder_in}>&-
wait "$feeder_pid" 2>/dev/null
wait "${jobs_started[0]}"
if [ "$(cat char.rc)" = 0 ]; then echo "ok   the characterize run ends normally"
else echo "FAIL the characterize run: exit $(cat char.rc): $(head -3 char.out)"; fail=1; fi
[ "$(head -c 31 t.img)" = "FLASHXXL-CHARACTERIZE-TARGET v1" ] && echo "ok   its target still carries its header" ||
    { echo "FAIL the target's header was overwritten"; fail=1; }
rm -f t.img
jobs_started=()

# 2. A process holds a machine device's lock (the POSIX lock STXXL takes on every file it opens):
# characterize and a second machine are refused, naming the holder's pid (was STXXL's raw
# "ufs_file_base::lock() : fcntl(,F_SETLK,) ... Resource temporarily unavailable").
coproc HOLDER { python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("locked", os.getpid(), flush=True)
sys.stdin.read()
' "$work/m.img"; }
jobs_started+=($HOLDER_PID)
holder_pid=$HOLDER_PID holder_out=${HOLDER[0]} holder_in=${HOLDER[1]}
read -r state holder <&"$holder_out"
if [ "${state:-}" != locked ]; then echo "FAIL the lock holder did not start"; fail=1; fi
printf 'disk=%s/m.img,8MiB,syscall name=m reuse=on\n' "$work" > m.cfg
check "a machine on a file another process holds" 1 \
    "m.cfg:1: device 'm': field 'path': '$work/m.img' is in use: process $holder \(python[0-9.]*\) holds its lock.*choose another file" \
    "$bin" machine --config m.cfg --no-probe
if grep -q "ufs_file_base\|F_SETLK" <<<"$("$bin" machine --config m.cfg --no-probe 2>&1)"; then
    echo "FAIL STXXL's raw lock error"; fail=1; else echo "ok   no raw STXXL lock error"; fi
check "characterize on a file a machine device holds" 1 \
    "'$work/m.img' is in use: process $holder \(python[0-9.]*\) holds its lock" \
    "$bin" characterize --file "$work/m.img" --size 4MiB --queue-depths none --quiet --no-plots
[ "$(stat -c %s m.img)" = 0 ] && echo "ok   the held file is untouched" || { echo "FAIL the held file was written"; fail=1; }
exec {holder_in}>&-
wait "$holder_pid"
jobs_started=()
check "the same machine once the holder is gone" 0 "m: hdd, 8 MiB" "$bin" machine --config m.cfg --no-probe

# 3. A read-only file with reuse=on: refused naming file, line, device and "not writable" (was a
# raw STXXL open() error; root, who may write it, wrote it).
head -c 4096 /dev/zero > ro.img && chmod 0444 ro.img
printf 'disk=%s/ro.img,8MiB,syscall name=ro reuse=on\n' "$work" > ro.cfg
check "reuse=on on a 0444 file" 2 "ro.cfg:1: device 'ro': field 'path': '$work/ro.img' is not writable \(mode 0444\)" \
    "$bin" machine --config ro.cfg --no-probe
[ "$(stat -c %s ro.img)" = 4096 ] && echo "ok   the read-only file is untouched" || { echo "FAIL ro.img was grown"; fail=1; }
exit $fail
