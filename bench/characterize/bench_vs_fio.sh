#!/usr/bin/env bash
# Compares `flashxxl characterize` with fio on the same file: SR/RR/SW/RW at 4 KiB and 1 MiB, O_DIRECT, QD1.
#
# usage: bench_vs_fio.sh path/to/flashxxl [work-dir]   (env: SIZE=1GiB TIME=5)
# The work dir must be on the device to measure (not tmpfs); default: next to the binary.
# Each pattern runs flashxxl, then fio, alternately, on the same target file (fio skips the
# 4 KiB ownership header with --offset=4096). Prints a ratio table and writes compare.json.
set -euo pipefail
FLASHXXL=$(readlink -f "${1:?usage: bench_vs_fio.sh path/to/flashxxl [work-dir]}")
DIR=${2:-$(dirname "$FLASHXXL")/bench-characterize}
SIZE=${SIZE:-1GiB}
TIME=${TIME:-5}
command -v fio >/dev/null || { echo "fio not installed" >&2; exit 1; }
mkdir -p "$DIR"
cd "$DIR"
FILE=$PWD/target.img
rm -f "$FILE"
BYTES=$(python3 -c "import sys; s='$SIZE'; u={'KiB':1<<10,'MiB':1<<20,'GiB':1<<30}; print(int(s[:-3])*u[s[-3:]] if s[-3:] in u else int(s))")

# create and fill the target once (sequential 1 MiB writes), so reads hit written blocks
printf 'fill block=1MiB\n' > fill.txt
"$FLASHXXL" characterize --file "$FILE" --size "$SIZE" --experiments fill.txt --keep --quiet --no-plots

run_fio() { # pattern block fio-block round
  fio --name="$1-$2" --filename="$FILE" --offset=4096 --size="$BYTES" --direct=1 --ioengine=psync \
    --iodepth=1 --rw="${FIO_RW[$1]}" --bs="$3" --runtime="$TIME" --time_based --randrepeat=1 \
    --output-format=json > "fio-$1-$2-$4.json"
}
declare -A FIO_RW=([SR]=read [RR]=randread [SW]=write [RW]=randwrite)
declare -A OP=([SR]=read [RR]=read [SW]=write [RW]=write)
declare -A ORDER=([SR]=seq [RR]=rand [SW]=seq [RW]=rand)
for bs in 4KiB 1MiB; do
  fbs=${bs/KiB/k}; fbs=${fbs/MiB/m}
  for p in SR RR SW RW; do
    printf 'run op=%s order=%s block=%s time=%s label=%s-%s\n' "${OP[$p]}" "${ORDER[$p]}" "$bs" "$TIME" "$p" "$bs" > "exp-$p-$bs.txt"
    # ABBA order (flashxxl, fio, fio, flashxxl): caches and drift below the file system favour
    # neither tool; each side reports the mean of its two runs
    for round in a b; do
      if [ "$round" = b ]; then run_fio "$p" "$bs" "$fbs" a; fi
      "$FLASHXXL" characterize --file "$FILE" --experiments "exp-$p-$bs.txt" --json "flashxxl-$p-$bs-$round.json" \
        --keep --quiet --no-plots
      if [ "$round" = a ]; then run_fio "$p" "$bs" "$fbs" b; fi
    done
  done
done

python3 - "$SIZE" "$TIME" <<'PY'
import json, sys
rows = []
for bs in ("4KiB", "1MiB"):
    for p in ("SR", "RR", "SW", "RW"):
        fxs = [json.load(open(f"flashxxl-{p}-{bs}-{r}.json"))["runs"][0] for r in "ab"]
        sides = []
        for r in "ab":
            job = json.load(open(f"fio-{p}-{bs}-{r}.json"))["jobs"][0]
            sides.append(job["read"] if p[1] == "R" else job["write"])
        mean = lambda xs: sum(xs) / len(xs)
        fx_mib = mean([f["throughput_mib_s"] for f in fxs])
        # the same bytes over the run's wall time, as fio counts (includes time between requests)
        fx_wall_mib = mean([f["bytes"] / 2**20 / f["wall_s"] for f in fxs if f["wall_s"] > 0] or [0])
        fio_mib = mean([s["bw_bytes"] / 2**20 for s in sides])
        rows.append({"pattern": p, "block": bs,
                     "flashxxl_mib_s": fx_mib, "flashxxl_wall_mib_s": fx_wall_mib, "fio_mib_s": fio_mib,
                     "flashxxl_runs_mib_s": [f["throughput_mib_s"] for f in fxs],
                     "fio_runs_mib_s": [s["bw_bytes"] / 2**20 for s in sides],
                     "ratio": fx_mib / fio_mib if fio_mib else None,
                     "flashxxl_mean_latency_s": mean([f["latency"]["mean_s"] for f in fxs]),
                     "fio_mean_clat_s": mean([s["clat_ns"]["mean"] / 1e9 for s in sides]),
                     "flashxxl_p99_latency_s": mean([f["latency"]["p99_s"] for f in fxs]),
                     "fio_p99_clat_s": mean([s["clat_ns"]["percentile"].get("99.000000", 0) / 1e9 for s in sides])})
print(f"{'pattern':8} {'block':6} {'flashxxl MiB/s':>15} {'(wall)':>8} {'fio MiB/s':>10} {'ratio':>6} {'mean lat ms fx/fio':>18}  runs fx | fio")
for r in rows:
    print(f"{r['pattern']:8} {r['block']:6} {r['flashxxl_mib_s']:15.2f} {r['flashxxl_wall_mib_s']:8.2f} {r['fio_mib_s']:10.2f} {r['ratio']:6.3f} "
          f"{r['flashxxl_mean_latency_s']*1e3:9.3f}/{r['fio_mean_clat_s']*1e3:.3f}  "
          + " ".join(f"{x:.0f}" for x in r["flashxxl_runs_mib_s"]) + " | " + " ".join(f"{x:.0f}" for x in r["fio_runs_mib_s"]))
within = all(r["ratio"] and abs(r["ratio"] - 1) <= 0.10 for r in rows)
print("all within 10% of fio:", within)
json.dump({"size": sys.argv[1], "time_s_per_pattern": float(sys.argv[2]), "rows": rows,
           "all_within_10_percent": within}, open("compare.json", "w"), indent=2)
print("wrote", "compare.json")
PY
rm -f "$FILE"
