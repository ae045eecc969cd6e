#!/usr/bin/env bash
# seeds/000 Table 4.1's shape via `flashxxl placement`, with pacing on so that I/O wait is real.
#
# usage: bench_placement.sh path/to/flashxxl [out.json]   (env: GRAPH=tree:nodes=1048576 SCALE=0.05)
# SCALE is wall seconds per modelled second: the run takes about SCALE x the modelled time of the
# busiest device of each configuration, summed over the four.
# Prints per configuration the modelled elapsed time and I/O wait (what the paper comparison
# uses: ratio to the first configuration beside the paper's) and the paced wall time and wall
# I/O wait. Exit status 2 for bad usage, 1 when flashxxl fails or its JSON lacks a figure.
set -euo pipefail
usage="usage: bench_placement.sh path/to/flashxxl [out.json]   (env: GRAPH=tree:nodes=1048576 SCALE=0.05)"
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
FLASHXXL=$(readlink -f "$1")
[ -x "$FLASHXXL" ] || { echo "bench_placement.sh: $1: expected the flashxxl executable" >&2; exit 2; }
OUT=${2:-$PWD/bench-placement.json}
GRAPH=${GRAPH:-tree:nodes=1048576}
SCALE=${SCALE:-0.05}
if ! "$FLASHXXL" placement "$GRAPH" --pace --scale "$SCALE" --json --no-progress > "$OUT"; then
  echo "bench_placement.sh: flashxxl placement $GRAPH --pace --scale $SCALE failed (see above)" >&2
  exit 1
fi
python3 - "$OUT" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
try:
    print(f"{j['graph']}: pacing scale {j['scale']} (wall seconds per modelled second)")
    print(f"{'configuration':36} {'mu':>4} {'modelled s':>11} {'mod. I/O wait s':>15} {'ratio':>6} {'paper':>6} "
          f"{'wall s':>8} {'wall I/O wait s':>15} {'busiest s':>10}  devices (RDV MiB / WRV MiB / modelled s)")
    for c in j["configurations"]:
        devs = "; ".join(f"{d['name']} {d['rdv_bytes'] / 2**20:.0f} / {d['wrv_bytes'] / 2**20:.0f} / {d['modelled_s']:.1f}"
                         for d in c["devices"])
        print(f"{c['configuration']:36} {c['mu']:>4} {c['modelled_elapsed_s']:11.2f} {c['modelled_io_wait_s']:15.2f} "
              f"{c['ratio']:6.2f} {c['paper_ratio']:6.2f} {c['wall_s']:8.2f} {c['wall_io_wait_s']:15.2f} "
              f"{c['busiest_modelled_s']:10.1f}  {devs}")
    print(f"ratio: modelled elapsed time over the first configuration's (paper: its Table 4.1); largest difference "
          f"{j['largest_ratio_difference']:.2f}, paper's order: {j['paper_order']}")
except KeyError as e:
    sys.exit(f"bench_placement.sh: {sys.argv[1]} lacks the key {e} (expected flashxxl placement --json's output)")
PY
echo "JSON: $OUT"
