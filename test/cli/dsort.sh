#!/usr/bin/env bash
# `mpirun -np 1/2/4 flashxxl dsort`: byte-identical output for any rank count, the validator, I/O and
# exchange volume per item, and a rank out of space stopping every rank with a clear error, no hang.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none # one host, in containers too
if "$bin" dsort --records 1 --out "$work/probe" 2>&1 | grep -q "built without MPI"; then
    echo "skip: this flashxxl was built without MPI (flashxxl dsort says so)"; exit 0
fi
if ! command -v mpirun > /dev/null; then
    echo "FAIL: flashxxl has MPI but mpirun is not on PATH (Debian: openmpi-bin)"; exit 1
fi
run() { timeout 120 mpirun --oversubscribe -np "$@"; }
# Each rank: a 64 MiB emulated SSD, Br = 4 KiB, Bw = 16 KiB, M = 1 MiB: 60 000 records (6 MB) give
# every rank several runs and several exchange rounds.
printf 'name=rank\nflash=memory,64MiB,memory name=ssd model=hama-ssd-2009\nplacement=single device=ssd\n' > "$work/rank.cfg"
opts=(--br 4KiB --bw 16KiB --memory 1MiB --threads 1 --no-progress)
gen=(--records 60000)
for p in 1 2 4; do
    check "-np $p sorts and validates" 0 "validation: ok \(60000 records" run $p "$bin" dsort --config "$work/rank.cfg" "${opts[@]}" "${gen[@]}" --out "$work/np$p"
    cat "$work/np$p"/part-* > "$work/all$p" 2> /dev/null
done
for p in 2 4; do
    if cmp -s "$work/all1" "$work/all$p" && [ -s "$work/all1" ]; then echo "ok   -np $p output is byte-identical to -np 1"
    else echo "FAIL -np $p output differs from -np 1 (or is empty)"; fail=1; fi
done
[ "$(stat -c %s "$work/all1")" = 6000000 ] && echo "ok   60000 records of 100 bytes" || { echo "FAIL output size"; fail=1; }
# --keep-input: the generated input, which sorted (bytes as unsigned, like the validator) is the output.
check "-np 2 --keep-input" 0 "validation: ok" run 2 "$bin" dsort --config "$work/rank.cfg" "${opts[@]}" "${gen[@]}" --out "$work/keep" --keep-input
if [ -s "$work/keep/input-0" ] && [ -s "$work/keep/input-1" ] && ! cmp -s "$work/keep/input-0" "$work/keep/part-0"; then
    echo "ok   input-R written beside part-R"; else echo "FAIL input-R missing or already sorted"; fail=1; fi
# --input: the kept input, read back by 4 ranks (input-0 and input-1 split differently), sorts to the same bytes.
mkdir -p "$work/in4"
cat "$work/keep/input-0" "$work/keep/input-1" > "$work/in1"
head -c 1500000 "$work/in1" > "$work/in4/input-0"; tail -c +1500001 "$work/in1" | head -c 1000000 > "$work/in4/input-1"
tail -c +2500001 "$work/in1" | head -c 2000000 > "$work/in4/input-2"; tail -c +4500001 "$work/in1" > "$work/in4/input-3"
check "-np 4 --input of uneven files" 0 "validation: ok \(60000 records" run 4 "$bin" dsort --config "$work/rank.cfg" \
    "${opts[@]}" --out "$work/fromfile" --input "$work/in4"
cat "$work/fromfile"/part-* > "$work/allf" 2> /dev/null
cmp -s "$work/all1" "$work/allf" && echo "ok   --input output is byte-identical to the generated run" ||
    { echo "FAIL --input output differs"; fail=1; }
head -c 150 "$work/in1" > "$work/in4/input-3"
out=$(run 4 "$bin" dsort --config "$work/rank.cfg" "${opts[@]}" --out "$work/torn" --input "$work/in4" 2>&1); rc=$?
if [ "$rc" -ne 0 ] && grep -q "input-3' holds 150 bytes, not a whole number of 100-byte items" <<<"$out" &&
    grep -q "rank 3 failed" <<<"$out"; then echo "ok   --input with a torn record: every rank stops, the file named"
else echo "FAIL --input with a torn record: exit $rc"; echo "$out" | head -5; fail=1; fi
# --type u64: 8-byte integers, the same bytes for -np 1 and 3, sorted as numbers.
for p in 1 3; do
    check "--type u64 -np $p" 0 "validation: ok \(200000 records" run $p "$bin" dsort --config "$work/rank.cfg" \
        "${opts[@]}" --type u64 --records 200000 --out "$work/u$p"
done
if cmp -s <(cat "$work/u1"/part-*) <(cat "$work/u3"/part-*) && python3 - "$work/u3" <<'PY'
import struct, sys, glob
data = b"".join(open(f, "rb").read() for f in sorted(glob.glob(sys.argv[1] + "/part-*")))
keys = struct.unpack("<%dQ" % (len(data) // 8), data)
assert len(keys) == 200000 and all(a <= b for a, b in zip(keys, keys[1:]))
PY
then echo "ok   --type u64: byte-identical for -np 1 and 3, ascending as numbers"; else echo "FAIL --type u64 output"; fail=1; fi
# The JSON: every rank reads its data twice (every Br page of 40 records twice: the selection reads
# only the runs' page index, and a page that holds a cut is kept for both pieces) and writes it
# twice; exchange volume = input volume; each part within the stated imbalance of 15000 records.
run 4 "$bin" dsort --config "$work/rank.cfg" "${opts[@]}" "${gen[@]}" --out "$work/json" --json > "$work/d.json" 2> "$work/d.err"
if python3 - "$work/d.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
t, br, p = j["total"], j["br"], j["ranks"]
assert j["validation"]["ok"], "validation"
assert t["exchanged_bytes"] == j["input_bytes"], ("exchange volume", t["exchanged_bytes"], j["input_bytes"])
for r in j["per_rank"]:
    pages = -(-r["input_records"] // (br // 100)) * br
    assert r["selection_pages_read"] == 0 and r["cut_pages_not_kept"] == 0, "pages read once"
    assert r["read_bytes"] == 2 * pages, ("reads", r["read_bytes"], 2 * pages)
    assert r["write_bytes"] <= 2 * pages + r["runs"] * j["bw"], ("writes", r["write_bytes"], 2 * pages)
    assert r["runs"] > 1 and r["exchange_rounds"] > 1, "several runs and slices"
    assert abs(r["output_records"] - 15000) < r["imbalance_bound_records"], "balanced parts"
    assert r["network_modelled_s"] > 0 and r["device_modelled_s"] > 0, "modelled times"
assert t["writes_per_item"] <= 2.0 * 1.04, ("writes per item", t["writes_per_item"])
assert t["reads_per_item"] <= 2.0 * 4096 / 4000 + 2 * p * br / j["input_bytes"], ("reads per item", t["reads_per_item"])
assert {x["system"] for x in j["published"]} == {"DEMSort", "TritonSort"}
print("reads/item %.3f writes/item %.3f" % (t["reads_per_item"], t["writes_per_item"]))
PY
then echo "ok   JSON: exchange = input, every page read twice, 2 writes per item, balanced"; else echo "FAIL JSON checks"; head -5 "$work/d.err"; fail=1; fi
# Rank 1's device is too small for its runs: every rank ends with an error, none hangs (timeout 120 s).
printf 'name=small\nflash=memory,4MiB,memory name=ssd model=hama-ssd-2009\nplacement=single device=ssd\n' > "$work/rank-1.cfg"
cp "$work/rank.cfg" "$work/rank-0.cfg"
out=$(run 2 "$bin" dsort "${opts[@]}" "${gen[@]}" --config "$work/rank-%r.cfg" --out "$work/oos" 2>&1); rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "out of space on device 'ssd'" <<<"$out" && grep -q "rank 1 failed" <<<"$out"; then
    echo "ok   a rank out of space: both ranks stop with an error (exit $rc)"
else echo "FAIL out of space on rank 1: exit $rc"; echo "$out" | head -8; fail=1; fi
# An existing part is not replaced without --force, on every rank.
out=$(run 2 "$bin" dsort --config "$work/rank.cfg" "${opts[@]}" "${gen[@]}" --out "$work/np2" 2>&1); rc=$?
if [ "$rc" -ne 0 ] && grep -q "part-0' exists; remove it, choose another --out, or give --force" <<<"$out"; then
    echo "ok   existing parts are refused without --force"; else echo "FAIL existing parts: exit $rc"; fail=1; fi
check "--force replaces them" 0 "validation: ok" run 2 "$bin" dsort --config "$work/rank.cfg" "${opts[@]}" "${gen[@]}" \
    --out "$work/np2" --force
# Usage: one of --records and --input, and --out, are required.
check "--records or --input is required" 2 "give --records N \(generated input\) or --input DIR" "$bin" dsort --out "$work/x"
check "--out is required" 2 "out is required" "$bin" dsort --records 10
exit $fail
