#!/usr/bin/env bash
# End-to-end checks of `flashxxl dfs`: a verified run on a grid, both variants, JSON, and the errors users see;
# the translation layers' memory charged to M by dfs and bfs alike.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
small=(--br 4KiB --bw 16KiB --memory 4MiB --no-progress)
check "grid run prints the table" 0 "900 nodes visited in 1 trees" "$bin" dfs grid:side=30 "${small[@]}" --out "$work/o.txt"
check "table has RDV, WRV, modelled time" 0 "RDV .* WRV .* modelled_s" "$bin" dfs grid:side=30 "${small[@]}"
check "table has per-phase modelled and wall time" 0 "phase dfs: modelled elapsed [0-9.]+ s \(I/O wait [0-9.]+ s\); wall [0-9.]+ s" "$bin" dfs grid:side=30 "${small[@]}"
# --out: every node discovered once and finished once, after its discovery; parents discovered earlier.
python3 - "$work/o.txt" <<'PY' && echo "ok   --out: 900 nodes discovered and finished once, times valid" || { echo "FAIL --out check"; fail=1; }
import sys
d, f, t = {}, {}, set()
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].startswith("# flashxxl dfs --out:"), lines[0]
for line in lines[1:]:
    p = line.split()
    if p[0] == "d":
        v, time, parent = int(p[1]), int(p[2]), int(p[3])
        assert v not in d, ("discovered twice", v)
        assert parent == v or (parent in d and parent not in f), ("bad parent", v, parent)
        d[v] = time
    else:
        assert p[0] == "f", p
        v, time = int(p[1]), int(p[2])
        assert v in d and v not in f and d[v] < time, ("bad finish", v)
        f[v] = time
    assert int(p[2]) not in t
    t.add(int(p[2]))
assert sorted(d) == list(range(900)) and sorted(f) == list(range(900)), (len(d), len(f))
PY
"$bin" dfs grid:side=30 "${small[@]}" --variant with-nodes --source 17 --json > "$work/d.json" &&
    python3 -c "import json; d=json.load(open('$work/d.json')); assert d['command']=='dfs' and d['visited']==900 and d['variant']=='with-nodes' and [p['name'] for p in d['phases']]==['csr','dfs'] and 'total' in d['phases'][1]['devices'][0] and d['phases'][1]['modelled_elapsed_s'] > 0 and d['modelled_elapsed_s'] >= d['phases'][1]['modelled_elapsed_s'], d" &&
    echo "ok   json (with-nodes) parseable, 900 visited" || { echo "FAIL json"; fail=1; }
"$bin" dfs grid:side=30 --br 4KiB --bw 16KiB --memory 4MiB > "$work/so.txt" 2> "$work/se.txt" &&
    grep -q "building CSR" "$work/se.txt" && ! grep -q "building CSR" "$work/so.txt" &&
    echo "ok   progress on stderr only" || { echo "FAIL progress"; fail=1; }
check "any valid pair runs (4KiB, 4KiB was not compiled before)" 0 "900 nodes visited" \
    "$bin" dfs grid:side=30 --br 4KiB --bw 4KiB --memory 4MiB --no-progress
check "a non-power-of-two pair runs" 0 "Br 12 KiB, Bw 36 KiB" "$bin" dfs grid:side=30 --br 12KiB --bw 36KiB --memory 8MiB --no-progress
check "bad --br/--bw names both and the rule" 2 "Br = 16KiB, Bw = 8KiB: Br must not exceed Bw" \
    "$bin" dfs grid:side=30 --br 16KiB --bw 8KiB
check "missing file named" 2 "cannot open graph file '$work/nope.el'" "$bin" dfs "$work/nope.el" "${small[@]}"
check "bad graph spec named" 2 "graph spec 'grid:sid=30'.*sid" "$bin" dfs grid:sid=30 "${small[@]}"
printf '0 1\n1 x\n' > "$work/bad.el"
check "bad edge file named" 2 "bad.el" "$bin" dfs "$work/bad.el" "${small[@]}"
check "bad variant" 2 "with-nodes" "$bin" dfs grid:side=30 --variant marks "${small[@]}"
check "source out of range" 2 "source 5000 is not a node" "$bin" dfs grid:side=30 "${small[@]}" --source 5000
check "memory too small" 2 "below" "$bin" dfs grid:side=30 --br 4KiB --bw 16KiB --memory 16KiB
# Behind a translation layer (two 16 KiB segment buffers and the maps of a 64 MiB device: 232 KiB)
# M covers the layer: 300 KiB is enough for the blocks alone but not with the layer.
printf 'name=tl\nflash=memory,64MiB,memory name=ssd tl=on tl_page=4KiB tl_segment=16KiB\nplacement=single device=ssd\n' > "$work/tl.cfg"
check "bfs says what of M the layer takes" 0 "M 4 MiB \(of which the translation layers' buffers and maps 232 KiB\)" \
    "$bin" bfs grid:side=30 --config "$work/tl.cfg" "${small[@]}"
check "bfs: a budget that does not cover the layer names it" 2 "--memory 300KiB is below the .* need with the translation layers' buffers and maps \(232 KiB, charged to M\)" \
    "$bin" bfs grid:side=30 --config "$work/tl.cfg" --br 4KiB --bw 16KiB --memory 300KiB --no-progress
check "dfs: the same" 2 "--memory 100KiB is below the .* need with the translation layers' buffers and maps \(232 KiB, charged to M\)" \
    "$bin" dfs grid:side=30 --config "$work/tl.cfg" --br 4KiB --bw 16KiB --memory 100KiB --no-progress
exit $fail
