#!/usr/bin/env bash
# seeds/001 Table 2's shape: MM_BFS on square grids with B = Br, B = Bw and the translation layer,
# read / write volume and modelled time per phase (preprocessing, BFS) on hybrid-2009's SSD.
#
# usage: bench_bfs_table2.sh path/to/flashxxl [out-dir]   (env: SIDES="256 512 1024" MEMORY=512MiB)
# Writes one JSON file per run into out-dir and prints a table.
set -euo pipefail
FLASHXXL=$(readlink -f "${1:?usage: bench_bfs_table2.sh path/to/flashxxl [out-dir]}")
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${2:-$PWD/bench-bfs-table2}
SIDES=${SIDES:-"256 512 1024"}
MEMORY=${MEMORY:-512MiB}
mkdir -p "$OUT"
for side in $SIDES; do
  "$FLASHXXL" bfs "grid:side=$side" --config "$HERE/ssd.cfg" --br 128KiB --bw 128KiB --memory "$MEMORY" --json > "$OUT/grid$side-br.json"
  "$FLASHXXL" bfs "grid:side=$side" --config "$HERE/ssd.cfg" --br 16MiB --bw 16MiB --memory "$MEMORY" --json > "$OUT/grid$side-bw.json"
  "$FLASHXXL" bfs "grid:side=$side" --config "$HERE/ssd-tl.cfg" --br 128KiB --bw 128KiB --memory "$MEMORY" --json > "$OUT/grid$side-tl.json"
done
python3 - "$OUT" $SIDES <<'PY'
import json, sys
out, sides = sys.argv[1], sys.argv[2:]
print(f"{'|V|':>10} {'config':>6} {'phase':>13} {'RDV GiB':>9} {'WRV GiB':>9} {'modelled s':>11} {'wall s':>8}")
for side in sides:
    for cfg in ("br", "bw", "tl"):
        j = json.load(open(f"{out}/grid{side}-{cfg}.json"))
        for p in j["result"]["phases"]:
            if p["name"] == "csr":
                continue
            rdv = sum(d["total"]["read_bytes"] for d in p["devices"]) / 2**30
            wrv = sum(d["total"]["write_bytes"] for d in p["devices"]) / 2**30
            print(f"{int(side)**2:>10} {cfg:>6} {p['name']:>13} {rdv:9.3f} {wrv:9.3f} {p['busiest_modelled_s']:11.1f} {p['wall_s']:8.2f}")
PY
