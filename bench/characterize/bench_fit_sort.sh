#!/usr/bin/env bash
# Closes the loop: fits a device model to a real file on this machine's disk (O_DIRECT), then sorts
# on the real file and on the fitted model and compares modelled with measured time.
#
# usage: bench_fit_sort.sh path/to/flashxxl [work-dir]
#   env: SIZE=1GiB (target file)  SORT=256MiB (sort input)  TIME=0.5 (seconds per plan point)
#        FIT=auto (--fit)  HOLDOUT=alternate (--fit-holdout)  THREADS=2 (sort threads)
# The work dir must be on the device to measure (not tmpfs); default: next to the binary.
#
# 1. `characterize --file` runs a fit plan (a fill, then SR / RR / SW / RW from 4 KiB to 16 MiB, the sort's Bw) and
#    `--fit` fits the model, printing the held-out median error (the fit sees every other block
#    size of each pattern and predicts the rest) and writing the fitted device line (memory backing).
# 2. `sort` runs twice on the same input: on the real file (a `direct=on` device: wall-clock I/O)
#    and on the fitted model with host=measured (modelled I/O and CPU time). Printed: the fitted
#    model's modelled elapsed time against the real run's wall time, and the measured I/O time
#    (the device's summed service time).
set -euo pipefail
FLASHXXL=$(readlink -f "${1:?usage: bench_fit_sort.sh path/to/flashxxl [work-dir]}")
DIR=${2:-$(dirname "$FLASHXXL")/bench-fit-sort}
SIZE=${SIZE:-1GiB}
SORT=${SORT:-256MiB}
TIME=${TIME:-0.5}
FIT=${FIT:-auto}
HOLDOUT=${HOLDOUT:-alternate}
THREADS=${THREADS:-2}
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
mkdir -p "$DIR"
cd "$DIR"
rm -f target.img real.img fitted.cfg real.cfg fit.json fit.txt real-sort.json model-sort.json bench_fit_sort.json

cat > plan.txt <<PLAN
fill block=1MiB
sweep patterns=SR,RR,SW,RW from=4KiB to=16MiB selfscale=no time=$TIME count=2000
PLAN
start=$(date +%s)
"$FLASHXXL" characterize --file "$DIR/target.img" --size "$SIZE" --experiments plan.txt --queue-depths none \
    --fit "$FIT" --fit-holdout "$HOLDOUT" --config-path memory --config-name fitted --fit-config fitted.cfg \
    --no-progress --out fit-out --no-plots > fit.txt
echo "characterize + fit: $(( $(date +%s) - start )) s"
sed -n '/^model fit:/,/^machine config (fitted model):/p' fit.txt

# The host's CPU time on the virtual clock: `host=measured` times this machine's loops, so the
# fitted model's modelled elapsed time is I/O and CPU overlapped, as the real run's wall time is.
printf 'host=measured\n' >> fitted.cfg
# The real sort runs on the file characterize measured (filled, as the fit saw it): a fresh sparse
# file would add the file system's block allocation to every first write, which no fit point saw.
printf 'flash=%s,%s,syscall name=real direct=on\n' "$DIR/target.img" "$SIZE" > real.cfg
"$FLASHXXL" sort --config real.cfg --bytes "$SORT" --threads "$THREADS" --json --quiet > real-sort.json
"$FLASHXXL" sort --config fitted.cfg --bytes "$SORT" --threads "$THREADS" --json --quiet > model-sort.json
rm -f real.img target.img

python3 - fit-out/characterize.json real-sort.json model-sort.json <<'PY' | tee bench_fit_sort.json
import json, os, sys
load = os.getloadavg()[0]  # other work on the 2 cores slows the real run, not the model
fit = json.load(open(sys.argv[1]))["fit"]
real, model = (json.load(open(p)) for p in sys.argv[2:4])
def io_seconds(run, key):  # summed over every device: service_s measured, modelled_s charged by a model
    return sum(d["stats"]["total"][key] for d in run["devices"])
real_io, real_wall = io_seconds(real, "service_s"), real["wall_s"]
modelled_io = io_seconds(model, "modelled_s")  # the fitted model's time for the same requests
modelled = model["modelled_elapsed_s"]  # I/O and host=measured CPU, overlapped
rows = [("held-out median error", fit["holdout_median_error"] * 100, "%"),
        ("median error (fit on all)", fit["median_error"] * 100, "%"),
        ("real sort: wall", real_wall, "s"),
        ("real sort: measured I/O (service time)", real_io, "s"),
        ("fitted model sort: modelled I/O (the model's time)", modelled_io, "s"),
        ("modelled / measured I/O", modelled_io / real_io if real_io else float("nan"), "x"),
        ("fitted model sort: modelled elapsed (host=measured)", modelled, "s"),
        ("modelled elapsed / real wall", modelled / real_wall, "x")]
print("# 2 cores (load average %.1f), a file on this machine's disk, O_DIRECT; model" % load, fit["model"],
      "(" + fit["preset"] + ")", file=sys.stderr)
for name, v, unit in rows:
    print(f"# {name:52s} {v:10.3f} {unit}", file=sys.stderr)
print(json.dumps({"bench": "fit_sort", "cores": 2, "fit_model": fit["model"], "config_line": fit["config_line"],
                  "holdout": fit["holdout"], "holdout_median_error": fit["holdout_median_error"],
                  "median_error": fit["median_error"], "sort_bytes": real["input_bytes"],
                  "real_wall_s": real_wall, "real_io_s": real_io, "modelled_io_s": modelled_io,
                  "modelled_elapsed_s": modelled,
                  "modelled_over_real_io": modelled_io / real_io if real_io else None,
                  "modelled_over_real_wall": modelled / real_wall, "host": "measured", "load_average": load}, indent=2))
PY
