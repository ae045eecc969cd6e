# `flashxxl characterize` output and write-volume safety: devices, FIFOs, links and foreign files are never written; plans over the write limit are refused.
set -u
BIN=$(readlink -f "$1")
source "$(dirname "$0")/check_lib.bash"
cd "$work"
model=(characterize --model hama-ssd-2009 --plan quick --quiet --no-plots)

# 1. outputs: never a device, FIFO or link, even with --force; the error names option and path
check "--csv to a character device" 2 "--csv '/dev/null' is a character device" "$BIN" "${model[@]}" --csv /dev/null --force
for dev in /dev/loop0 /dev/vda /dev/sda /dev/nvme0n1; do
    if [ -b "$dev" ]; then
        check "--io-log to a block device ($dev)" 2 "--io-log '$dev' is a block device" "$BIN" "${model[@]}" --io-log "$dev" --force
        break
    fi
done
mkfifo fifo
check "--csv to a FIFO" 2 "--csv '$work/fifo' is a FIFO" timeout 20 "$BIN" "${model[@]}" --csv "$work/fifo"
echo 'precious' > user.json
ln -s user.json link.json
check "--csv to a symbolic link" 2 "--csv 'link.json' is a symbolic link" "$BIN" "${model[@]}" --csv link.json --force
[ "$(cat user.json)" = precious ] || { echo "FAIL the link's target was written"; fail=1; }

# 2. a foreign regular file is refused (before any I/O) unless --force; ours is replaced
echo 'precious' > notes.csv
check "--csv over a foreign file" 2 "--csv 'notes.csv' exists and was not written by flashxxl.*--force" \
    "$BIN" "${model[@]}" --csv notes.csv
[ "$(cat notes.csv)" = precious ] || { echo "FAIL the foreign file was modified"; fail=1; }
echo 'precious' > notes.log
check "--io-log over a foreign file" 2 "--io-log 'notes.log' exists and was not written by flashxxl" \
    "$BIN" "${model[@]}" --io-log notes.log
check "--out, --csv, --io-log to new files" 0 "" "$BIN" "${model[@]}" --out r --csv r.csv --io-log r.log
grep -q '^  "generator": "flashxxl characterize"' r/characterize.json || { echo "FAIL no generator signature in the JSON"; fail=1; }
check "outputs flashxxl wrote are replaced" 0 "" "$BIN" "${model[@]}" --out r --csv r.csv --io-log r.log
check "--force replaces a foreign file" 0 "" "$BIN" "${model[@]}" --csv notes.csv --force
head -1 notes.csv | grep -q '^experiment,line,pattern' || { echo "FAIL --force did not write the CSV"; fail=1; }
[ -z "$(ls -A | grep flashxxl-)" ] || { echo "FAIL temporary files left: $(ls -A)"; fail=1; }

# 3. --out DIR: a foreign file among the outputs is refused before the run; plots are ours afterwards
mkdir out
echo 'precious' > out/characterize.gp
check "--out over a foreign script" 2 "--out 'out/characterize.gp' exists and was not written by flashxxl" \
    "$BIN" characterize --model hama-ssd-2009 --plan quick --quiet --out out
[ "$(cat out/characterize.gp)" = precious ] || { echo "FAIL the foreign script was modified"; fail=1; }
rm out/characterize.gp
check "--out writes and rewrites its files" 0 "" "$BIN" characterize --model hama-ssd-2009 --plan quick --quiet --out out
check "--out again" 0 "" "$BIN" characterize --model hama-ssd-2009 --plan quick --quiet --out out
grep -q 'written by flashxxl characterize' out/characterize-throughput.dat || { echo "FAIL .dat signature"; fail=1; }
for img in out/characterize-throughput.png out/characterize-throughput.svg; do
    [ -e "$img" ] && { grep -qa 'written by flashxxl characterize' "$img" || { echo "FAIL $img carries no signature"; fail=1; }; }
done
[ -z "$(ls -A out | grep flashxxl-)" ] || { echo "FAIL temporary files left in out: $(ls -A out)"; fail=1; }

# 4. write volume on a real (file) target: the estimate, the default limit (64 x) and --max-write
check "dry run shows the bound" 0 "bytes to write: at most .* x the target" \
    "$BIN" characterize --file "$work/t.img" --size 4MiB --plan quick --dry-run
check "dry run shows the limit" 0 "write limit: 64 x the target \(256 MiB\): within it" \
    "$BIN" characterize --file "$work/t.img" --size 4MiB --plan quick --dry-run
check "dry run says when a plan would be refused" 0 "EXCEEDED, the run would be refused" \
    "$BIN" characterize --file "$work/t.img" --size 4MiB --plan ajwani --dry-run
check "a plan over 64 x the target is refused" 2 "the plan writes up to .* x its size of 4 MiB; more than the default limit of 64 x the target.*--max-write SIZE.*--force" \
    "$BIN" characterize --file "$work/t.img" --size 4MiB --plan ajwani --quiet
[ ! -e t.img ] || { echo "FAIL the refused run created the target"; fail=1; }
check "--max-write below the bound is refused" 2 "--max-write 1 MiB: the plan writes up to" \
    "$BIN" characterize --file "$work/t.img" --size 4MiB --plan quick --time 0.01 --max-write 1MiB --force
[ ! -e t.img ] || { echo "FAIL the refused run created the target"; fail=1; }
check "--max-write is an IEC size" 2 "--max-write: .*IEC" \
    "$BIN" characterize --file "$work/t.img" --size 4MiB --plan quick --max-write 1GB
# a small real run: written <= the dry run's bound
bound=$("$BIN" characterize --file "$work/t.img" --size 4MiB --plan quick --time 0.01 --dry-run | sed -n 's/^bytes to write: at most [^(]*(\([0-9]*\)).*/\1/p')
out=$("$BIN" characterize --file "$work/t.img" --size 4MiB --plan quick --time 0.01 --queue-depths 1,2,4 --queue-depth-time 0.05 --json --no-plots --quiet 2>&1 > small.json)
rc=$?
if [ $rc -ne 0 ]; then
    if grep -q "O_DIRECT\|tmpfs" <<<"$out"; then echo "skip real run: $out"; else echo "FAIL real run: $out"; fail=1; fi
else
    written=$(sed -n 's/.*"written_bytes": \([0-9]*\).*/\1/p' small.json | head -1)
    if [ -n "$bound" ] && [ -n "$written" ] && [ "$written" -le "$bound" ]; then echo "ok   written $written <= bound $bound"
    else echo "FAIL written '$written' vs bound '$bound'"; fail=1; fi
    # Reads at three queue depths, the io_threads chosen from them, stated in the device line.
    if python3 - small.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
if j["recommendation"]["br_bytes"] is None:  # random reads never near the peak in so short a run: nothing to read at
    assert j["queue_depths"] == [] and j["recommendation"]["io_threads"] is None, j["queue_depths"]
    sys.exit(0)
depths = [p["queue_depth"] for p in j["queue_depths"]]
assert depths == [1, 2, 4], depths
assert all(p["requests"] > 0 and p["throughput_mib_s"] > 0 for p in j["queue_depths"]), j["queue_depths"]
n = j["recommendation"]["io_threads"]
assert n in depths, n
assert (" io_threads=%d\n" % n) in j["recommendation"]["config_snippet"], j["recommendation"]["config_snippet"]
PY
    then echo "ok   queue depths 1,2,4 measured, io_threads in the snippet"
    else echo "FAIL queue depths in small.json"; fail=1; fi
fi
exit $fail
