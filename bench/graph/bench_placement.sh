#!/usr/bin/env bash
# seeds/000 Table 4.1's shape via `flashxxl placement`, with pacing on so that I/O wait is real.
#
# usage: bench_placement.sh path/to/flashxxl [out.json]   (env: GRAPH=tree:nodes=1048576 SCALE=0.05)
# SCALE is wall seconds per modelled second: the run takes about SCALE x the modelled time of the
# busiest device of each configuration, summed over the four.
set -euo pipefail
FLASHXXL=$(readlink -f "${1:?usage: bench_placement.sh path/to/flashxxl [out.json]}")
OUT=${2:-$PWD/bench-placement.json}
GRAPH=${GRAPH:-tree:nodes=1048576}
SCALE=${SCALE:-0.05}
"$FLASHXXL" placement "$GRAPH" --pace --scale "$SCALE" --json > "$OUT"
python3 - "$OUT" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"{j['graph']}: pacing scale {j['scale']}")
print(f"{'configuration':36} {'mu':>4} {'I/O wait s':>11} {'total s':>9} {'busiest s':>10}  devices (RDV MiB / WRV MiB / modelled s)")
for c in j["configurations"]:
    devs = "; ".join(f"{d['name']} {d['rdv_bytes'] / 2**20:.0f} / {d['wrv_bytes'] / 2**20:.0f} / {d['modelled_s']:.1f}" for d in c["devices"])
    print(f"{c['configuration']:36} {c['mu']:>4} {c['io_wait_s']:11.2f} {c['total_s']:9.2f} {c['busiest_modelled_s']:10.1f}  {devs}")
PY
echo "JSON: $OUT"
