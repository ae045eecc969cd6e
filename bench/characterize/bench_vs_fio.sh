#!/usr/bin/env bash
# Compares `flashxxl characterize` with fio on the same file: SR/RR/SW/RW at 4 KiB and 1 MiB, O_DIRECT, QD1.
#
# usage: bench_vs_fio.sh path/to/flashxxl [work-dir]
#   env: SIZE=1GiB  TIME=5 (seconds per run)  ROUNDS=1 (ABBA rounds per pattern)
#        FIO_IOMEM=auto|malloc|mmaphuge  OFFSETS=0 (1: log every request's offset on both sides and check them)
# The work dir must be on the device to measure (not tmpfs); default: next to the binary.
#
# Same requests on both sides: fio gets --offset = the data offset recorded in the target's header
# (1 MiB; 4 KiB in files made by older versions) and --size = the data region, so both issue
# block-aligned offsets from the same base, sequential ones wrapping at the same end.
#
# Same buffers on both sides: flashxxl's request buffer sits in transparent huge pages (one
# physically contiguous DMA segment per request, see include/flashxxl/characterize/page_backing.hpp).
# fio's default malloc buffer is scattered 4 KiB pages or not, by chance, and on a virtio disk a
# scattered 1 MiB buffer halves the throughput. So fio runs with --iomem=mmaphuge (hugetlb pages)
# when the hugetlb pool has a free page (reserve two: `sudo sysctl vm.nr_hugepages=2`); without
# one the 1 MiB rows compare different buffers and the script says so.
set -euo pipefail
FLASHXXL=$(readlink -f "${1:?usage: bench_vs_fio.sh path/to/flashxxl [work-dir]}")
DIR=${2:-$(dirname "$FLASHXXL")/bench-characterize}
SIZE=${SIZE:-1GiB}
TIME=${TIME:-5}
ROUNDS=${ROUNDS:-1}
FIO_IOMEM=${FIO_IOMEM:-auto}
OFFSETS=${OFFSETS:-0}
command -v fio >/dev/null || { echo "bench_vs_fio.sh: fio not found in PATH; expected fio installed (e.g. apt-get install fio)" >&2; exit 1; }
mkdir -p "$DIR"
cd "$DIR"
FILE=$PWD/target.img
rm -f "$FILE" flashxxl-*-*-*.json flashxxl-*-*-*.csv fio-*-*-*.json fio-*-*-*.log compare.json
BYTES=$(python3 -c "import sys; s='$SIZE'; u={'KiB':1<<10,'MiB':1<<20,'GiB':1<<30}; print(int(s[:-3])*u[s[-3:]] if s[-3:] in u else int(s))")

# create and fill the target once (sequential 1 MiB writes), so reads hit written blocks
printf 'fill block=1MiB\n' > fill.txt
"$FLASHXXL" characterize --file "$FILE" --size "$SIZE" --experiments fill.txt --keep --quiet --no-plots
OFFSET=$(head -c 4096 "$FILE" | tr -d '\000' | sed -n 's/^data_offset=//p')
OFFSET=${OFFSET:-4096}

if [ "$FIO_IOMEM" = auto ]; then
  free_huge=$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)
  thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo "[never]")
  if [ "${free_huge:-0}" -ge 1 ] && [[ "$thp" != *"[never]"* ]]; then
    FIO_IOMEM=mmaphuge
  else
    FIO_IOMEM=malloc
    echo "warning: no free hugetlb page (or THP off): fio uses malloc buffers, flashxxl huge pages;" \
         "1 MiB rows compare different buffer layouts (sudo sysctl vm.nr_hugepages=2 fixes that)" >&2
  fi
fi
echo "target $FILE: $BYTES bytes from byte $OFFSET; fio --iomem=$FIO_IOMEM; $ROUNDS ABBA round(s) of ${TIME} s runs"

run_fio() { # pattern block fio-block tag
  local log=()
  if [ "$OFFSETS" = 1 ]; then log=(--write_iolog="fio-$1-$2-$4.log"); fi
  fio --name="$1-$2" --filename="$FILE" --offset="$OFFSET" --size="$BYTES" --direct=1 --ioengine=psync \
    --iodepth=1 --rw="${FIO_RW[$1]}" --bs="$3" --runtime="$TIME" --time_based --randrepeat=1 \
    --iomem="$FIO_IOMEM" "${log[@]}" --output-format=json > "fio-$1-$2-$4.json"
}
run_flashxxl() { # pattern block tag
  local log=() out="flashxxl-$1-$2-$3.json"
  if [ "$OFFSETS" = 1 ]; then log=(--io-log "flashxxl-$1-$2-$3.csv"); fi
  # --json is a flag: the report comes on stdout (and only it)
  if ! "$FLASHXXL" characterize --file "$FILE" --experiments "exp-$1-$2.txt" --json \
      "${log[@]}" --keep --quiet --no-plots > "$out"; then
    echo "bench_vs_fio.sh: flashxxl characterize failed on $1 $2 (run $3); see the messages above and $DIR/$out" >&2
    exit 1
  fi
}
declare -A FIO_RW=([SR]=read [RR]=randread [SW]=write [RW]=randwrite)
declare -A OP=([SR]=read [RR]=read [SW]=write [RW]=write)
declare -A ORDER=([SR]=seq [RR]=rand [SW]=seq [RW]=rand)
for bs in 4KiB 1MiB; do
  fbs=${bs/KiB/k}; fbs=${fbs/MiB/m}
  for p in SR RR SW RW; do
    printf 'run op=%s order=%s block=%s time=%s label=%s-%s\n' "${OP[$p]}" "${ORDER[$p]}" "$bs" "$TIME" "$p" "$bs" > "exp-$p-$bs.txt"
    # ABBA order (flashxxl, fio, fio, flashxxl): caches and drift below the file system favour
    # neither tool; each round gives each side the mean of its two runs
    for ((r = 0; r < ROUNDS; r++)); do
      run_flashxxl "$p" "$bs" "$r-a"
      run_fio "$p" "$bs" "$fbs" "$r-a"
      run_fio "$p" "$bs" "$fbs" "$r-b"
      run_flashxxl "$p" "$bs" "$r-b"
    done
  done
done

python3 - "$SIZE" "$TIME" "$ROUNDS" "$OFFSET" "$BYTES" "$FIO_IOMEM" "$OFFSETS" <<'PY'
import csv, glob, json, sys
size, time_s, rounds, base, length, iomem, offsets = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7] == "1"
mean = lambda xs: sum(xs) / len(xs)
rows, notes = [], []
for bs in ("4KiB", "1MiB"):
    block = 4096 if bs == "4KiB" else 1 << 20
    for p in ("SR", "RR", "SW", "RW"):
        fx_runs, fio_runs, ratios, fx_wall, buffers = [], [], [], [], set()
        fio_lat, fx_lat, fio_p99, fx_p99 = [], [], [], []
        for r in range(rounds):
            fxs = [json.load(open(f"flashxxl-{p}-{bs}-{r}-{t}.json"))["runs"][0] for t in "ab"]
            sides = []
            for t in "ab":
                job = json.load(open(f"fio-{p}-{bs}-{r}-{t}.json"))["jobs"][0]
                sides.append(job["read"] if p[1] == "R" else job["write"])
            fx = [f["throughput_mib_s"] for f in fxs]
            fo = [s["bw_bytes"] / 2**20 for s in sides]
            fx_runs += fx
            fio_runs += fo
            ratios.append(mean(fx) / mean(fo) if mean(fo) else float("nan"))
            # the same bytes over the run's wall time, as fio counts (includes time between requests)
            fx_wall += [f["transferred_bytes"] / 2**20 / f["wall_s"] for f in fxs if f["wall_s"] > 0]
            buffers |= {f.get("io_buffer", "unknown") for f in fxs}
            fx_lat += [f["latency"]["mean_s"] for f in fxs]
            fx_p99 += [f["latency"]["p99_s"] for f in fxs]
            fio_lat += [s["clat_ns"]["mean"] / 1e9 for s in sides]
            fio_p99 += [s["clat_ns"]["percentile"].get("99.000000", 0) / 1e9 for s in sides]
        fx_mib, fio_mib = mean(fx_runs), mean(fio_runs)
        rows.append({"pattern": p, "block": bs,
                     "flashxxl_mib_s": fx_mib, "flashxxl_wall_mib_s": mean(fx_wall) if fx_wall else 0,
                     "fio_mib_s": fio_mib, "ratio": fx_mib / fio_mib if fio_mib else None,
                     "round_ratios": ratios, "flashxxl_runs_mib_s": fx_runs, "fio_runs_mib_s": fio_runs,
                     "flashxxl_io_buffer": sorted(buffers),
                     "flashxxl_mean_latency_s": mean(fx_lat), "fio_mean_clat_s": mean(fio_lat),
                     "flashxxl_p99_latency_s": mean(fx_p99), "fio_p99_clat_s": mean(fio_p99)})
        if block > 4096 and buffers != {"huge pages"}:
            notes.append(f"{p} {bs}: flashxxl's buffer was {sorted(buffers)}, not huge pages")
        if offsets:
            # every request of both tools: block-aligned relative to the data offset, inside the data region
            for name in glob.glob(f"flashxxl-{p}-{bs}-*.csv"):
                offs = [int(x["file_offset_bytes"]) for x in csv.DictReader(open(name))]
                bad = [o for o in offs if (o - base) % block or not base <= o <= base + length - block]
                notes.append(f"{name}: {len(offs)} requests, first {offs[:3]}, {len(bad)} outside the expected grid")
            for name in glob.glob(f"fio-{p}-{bs}-*.log"):
                # iolog v2 "file action offset length", v3 "time file action offset length"
                offs = [int(f[-2]) for f in (l.split() for l in open(name)) if len(f) >= 4 and f[-3] in ("read", "write")]
                bad = [o for o in offs if (o - base) % block or not base <= o <= base + length - block]
                notes.append(f"{name}: {len(offs)} requests, first {offs[:3]}, {len(bad)} outside the expected grid")
print(f"{'pattern':8} {'block':6} {'flashxxl MiB/s':>15} {'(wall)':>8} {'fio MiB/s':>10} {'ratio':>6} {'rounds min-max':>15} "
      f"{'mean lat ms fx/fio':>18}  runs fx | fio")
for r in rows:
    rr = r["round_ratios"]
    print(f"{r['pattern']:8} {r['block']:6} {r['flashxxl_mib_s']:15.2f} {r['flashxxl_wall_mib_s']:8.2f} {r['fio_mib_s']:10.2f} "
          f"{r['ratio']:6.3f} {min(rr):7.3f}-{max(rr):.3f} "
          f"{r['flashxxl_mean_latency_s']*1e3:9.3f}/{r['fio_mean_clat_s']*1e3:.3f}  "
          + " ".join(f"{x:.0f}" for x in r["flashxxl_runs_mib_s"]) + " | " + " ".join(f"{x:.0f}" for x in r["fio_runs_mib_s"]))
for n in notes:
    print("note:", n)
within = all(r["ratio"] and abs(r["ratio"] - 1) <= 0.10 for r in rows)
print("all within 10% of fio:", within)
json.dump({"size": size, "time_s_per_run": time_s, "abba_rounds": rounds, "data_offset_bytes": base,
           "fio_iomem": iomem, "rows": rows, "all_within_10_percent": within}, open("compare.json", "w"), indent=2)
print("wrote", "compare.json")
PY
rm -f "$FILE"
