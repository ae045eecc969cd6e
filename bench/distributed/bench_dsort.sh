#!/usr/bin/env bash
# Two MPI ranks of `flashxxl dsort` against the single-process flashxxl::sort of the same records on one host:
# wall and modelled time side by side, with their ratio, as a table and JSON.
# Usage: bench_dsort.sh FLASHXXL [OUT.json]; environment: RECORDS (default 2000000, 200 MB), MACHINE (preset,
# default modern), MEMORY (per rank, default 64MiB; the single process gets twice that), BR, BW (default: the
# device's). The two ranks get one thread each, the single process two: the same cores and memory in total.
set -euo pipefail
bin=$1
out=${2:-}
records=${RECORDS:-2000000}
machine=${MACHINE:-modern}
memory=${MEMORY:-64MiB}
blocks=()
[ -n "${BR:-}" ] && blocks+=(--br "$BR")
[ -n "${BW:-}" ] && blocks+=(--bw "$BW")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
double_memory=$(python3 -c "
import re, sys
m = re.fullmatch(r'(\d+)([KMGT]i)?B?', '$memory')
unit = {None: 1, 'Ki': 1 << 10, 'Mi': 1 << 20, 'Gi': 1 << 30, 'Ti': 1 << 40}[m.group(2)]
print(2 * int(m.group(1)) * unit)")
common=(--machine "$machine" --records "$records" --no-progress --json "${blocks[@]}")
mpirun --oversubscribe -np 1 "$bin" dsort "${common[@]}" --baseline --threads 2 --memory "$double_memory" \
    --out "$work/one" > "$work/one.json"
mpirun --oversubscribe -np 2 "$bin" dsort "${common[@]}" --threads 1 --memory "$memory" \
    --out "$work/two" > "$work/two.json"
cmp -s <(cat "$work/one"/part-*) <(cat "$work/two"/part-*) || { echo "bench_dsort: outputs differ" >&2; exit 1; }
python3 - "$work/one.json" "$work/two.json" "$out" "$(nproc)" "$machine" <<'PY'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
out, cores, machine = sys.argv[3], int(sys.argv[4]), sys.argv[5]
assert one["validation"]["ok"] and two["validation"]["ok"]
rows = []
for what, key in (("wall s (slowest rank)", "wall_s"), ("modelled s (slowest rank)", "modelled_s")):
    a, b = one["total"][key], two["total"][key]
    rows.append({"measure": what, "single_process": a, "two_ranks": b, "ratio": b / a if a else None})
for what, key in (("reads per item", "reads_per_item"), ("writes per item", "writes_per_item")):
    a, b = one["total"][key], two["total"][key]
    rows.append({"measure": what, "single_process": a, "two_ranks": b, "ratio": b / a if a else None})
print(f"dsort on 2 ranks vs flashxxl::sort in one process: {two['records']} records ({two['input_bytes'] / 1e6:.0f} MB), "
      f"machine {machine}, Br {two['br']}, Bw {two['bw']}; {cores} cores on this host "
      "(2 ranks x 1 thread vs 1 process x 2 threads)")
print(f"{'measure':28} {'one process':>12} {'2 ranks':>12} {'ratio':>8}")
for r in rows:
    print(f"{r['measure']:28} {r['single_process']:12.3f} {r['two_ranks']:12.3f} {r['ratio']:8.3f}")
print(f"target: 2 ranks within 1.5x of one process in wall time: {'met' if rows[0]['ratio'] <= 1.5 else 'NOT met'} "
      f"({rows[0]['ratio']:.2f}x, {cores} cores)")
doc = {"benchmark": "bench_dsort", "machine": machine, "cores": cores, "records": two["records"], "br": two["br"], "bw": two["bw"],
       "memory_per_rank": two["memory_per_rank"], "rows": rows, "single_process": one, "two_ranks": two}
if out:
    json.dump(doc, open(out, "w"), indent=2)
PY
