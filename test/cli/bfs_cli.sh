#!/usr/bin/env bash
# flashxxl bfs --cache-ranks: the ranking of MM_BFS's cache of neighbouring clusters, from first
# come (0) over near / far (1) to the default 32 ranks: the same levels, fewer block reads.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
# A 400^2 grid with 64 KiB blocks and M = 2 MiB: the cluster file is several times the cache.
for r in 0 1 32; do
    "$bin" bfs grid:side=400 --br 64KiB --bw 64KiB --memory 2MiB --cache-ranks "$r" --json >"ranks$r.json" 2>"ranks$r.err" ||
        { echo "FAIL bfs --cache-ranks $r: exit $?"; head -5 "ranks$r.err"; fail=1; }
done
read -r r0 r1 r32 same key <<<"$(python3 - <<'PY'
import json
runs = {r: json.load(open(f"ranks{r}.json")) for r in (0, 1, 32)}
reads = [runs[r]["result"]["cluster_reads"] for r in (0, 1, 32)]
levels = [[l["nodes"] for l in runs[r]["result"]["levels"]] for r in (0, 1, 32)]
print(*reads, int(levels[0] == levels[1] == levels[2]), int(all(runs[r]["cache_ranks"] == r for r in runs)))
PY
)"
echo "cluster reads: first come $r0, near / far $r1, 32 ranks $r32"
[ "$same" = 1 ] && echo "ok   the same levels every way" || { echo "FAIL the levels differ"; fail=1; }
[ "$key" = 1 ] && echo "ok   the JSON says the ranks" || { echo "FAIL cache_ranks missing from the JSON"; fail=1; }
if [ "$r1" -lt "$r0" ] && [ $((r32 * 2)) -lt "$r1" ]; then echo "ok   more ranks, fewer reads"
else echo "FAIL expected $r0 > $r1 > 2 x $r32"; fail=1; fi
# --cut-clusters: on a grid whose cluster file the cache can hold, completing the clusters a read's
# block boundaries cut reads the file about once; rereading them, over twice. Same levels.
for c in complete reread; do
    "$bin" bfs grid:side=100 --br 4KiB --bw 4KiB --memory 8MiB --cut-clusters "$c" --json >"cut-$c.json" 2>"cut-$c.err" ||
        { echo "FAIL bfs --cut-clusters $c: exit $?"; head -5 "cut-$c.err"; fail=1; }
done
read -r complete reread same key <<<"$(python3 - <<'PY'
import json
runs = {c: json.load(open(f"cut-{c}.json")) for c in ("complete", "reread")}
def bfs_read(r):
    bfs = [p for p in r["result"]["phases"] if p["name"] == "bfs"][0]
    return sum(d["total"]["read_bytes"] for d in bfs["devices"]) / r["result"]["cluster_file_bytes"]
levels = [[l["nodes"] for l in runs[c]["result"]["levels"]] for c in runs]
print(round(bfs_read(runs["complete"]), 2), round(bfs_read(runs["reread"]), 2), int(levels[0] == levels[1]),
      int(all(runs[c]["cut_clusters"] == c for c in runs)))
PY
)"
echo "BFS-phase reads / cluster file: complete $complete, reread $reread"
[ "$same" = 1 ] && echo "ok   the same levels both ways" || { echo "FAIL the levels differ"; fail=1; }
[ "$key" = 1 ] && echo "ok   the JSON says cut_clusters" || { echo "FAIL cut_clusters missing from the JSON"; fail=1; }
if python3 -c "import sys; sys.exit(not ($complete <= 1.6 and $reread >= 2.0))"; then echo "ok   completing cut clusters reads the file about once"
else echo "FAIL expected complete <= 1.6 and reread >= 2.0"; fail=1; fi
check "--cut-clusters takes complete or reread" 2 "--cut-clusters: sometimes not in \{complete,reread\}" \
    "$bin" bfs grid:side=20 --cut-clusters sometimes --no-progress
check "the text output names the ranks" 0 "cache of neighbouring clusters \(32 ranks\)" \
    "$bin" bfs grid:side=20 --no-progress
# --out: written whole under a header line; an existing file is ours to replace only when an
# earlier --out wrote it (or with --force), and the input graph never.
"$bin" gen grid --side 20 --out "$work/g20.txt" --quiet
check "--out writes a header and a line per node" 0 "400 nodes reached" \
    "$bin" bfs "$work/g20.txt" --no-progress --out "$work/levels.txt"
if head -1 "$work/levels.txt" | grep -q "^# flashxxl bfs --out:" && [ "$(grep -vc '^#' "$work/levels.txt")" = 400 ] &&
    [ "$(sed -n 2p "$work/levels.txt")" = "0 0 0" ]; then echo "ok   --out: header, 400 lines, the source first"
else echo "FAIL --out contents"; head -3 "$work/levels.txt"; fail=1; fi
check "--out replaces its own earlier output" 0 "400 nodes reached" \
    "$bin" bfs "$work/g20.txt" --no-progress --out "$work/levels.txt"
printf 'my notes\n' > "$work/notes.txt"
check "--out refuses a file flashxxl did not write" 2 "bfs --out '.*notes.txt' exists and was not written by flashxxl.*--force" \
    "$bin" bfs "$work/g20.txt" --no-progress --out "$work/notes.txt"
[ "$(cat "$work/notes.txt")" = "my notes" ] && echo "ok   the refused file is untouched" || { echo "FAIL notes.txt changed"; fail=1; }
check "--force replaces it" 0 "400 nodes reached" \
    "$bin" bfs "$work/g20.txt" --no-progress --out "$work/notes.txt" --force
check "--out refuses the input graph, even with --force" 2 "bfs --out '.*g20.txt' is the input graph" \
    "$bin" bfs "$work/g20.txt" --no-progress --out "$work/g20.txt" --force
ln "$work/g20.txt" "$work/g20-link.txt"
check "--out refuses a hard link to the input graph" 2 "is the input graph" \
    "$bin" bfs "$work/g20.txt" --no-progress --out "$work/g20-link.txt" --force
[ "$(grep -c . "$work/g20.txt")" -gt 700 ] && echo "ok   the input graph is intact" || { echo "FAIL the graph was overwritten"; fail=1; }
check "dfs --out refuses the input graph too" 2 "dfs --out '.*g20.txt' is the input graph" \
    "$bin" dfs "$work/g20.txt" --no-progress --out "$work/g20.txt"
check "dfs --out refuses bfs's output (another command's)" 2 "dfs --out '.*levels.txt' exists and was not written" \
    "$bin" dfs "$work/g20.txt" --no-progress --out "$work/levels.txt"
# A sparse id range is refused at the line that shows it, before anything is written: on the
# 256 MiB tiny machine, an edge to node 10^8 needs an 800 MB offset array.
tiny_config "$work/tiny.cfg"
printf '# two edges, ids far apart\n0 1\n1 100000000\n' > "$work/sparse.txt"
check "an id whose offset array cannot fit names the file and line" 2 \
    "sparse.txt:3: edge 2 \(1, 100000000\) needs a CSR offset array of at least 762.94 MiB, more than the 256 MiB that machine 'tiny' can hold.*renumber the nodes densely" \
    "$bin" bfs "$work/sparse.txt" --config "$work/tiny.cfg" --no-progress
# --out grows in an unnamed file until the run is complete: a killed bfs leaves nothing in the
# directory (before: a partial .levels.txt.flashxxl-XXXXXX of up to every node's line).
mkdir "$work/killed"
"$bin" bfs grid:side=1000 --no-progress --out "$work/killed/levels.txt" >/dev/null 2>&1 &
bfs_pid=$!
for _ in $(seq 1 3000); do  # until it holds its output (at most about a minute; no time is asserted)
    ls -l "/proc/$bfs_pid/fd" 2>/dev/null | grep -q "/killed/" && break
    kill -0 "$bfs_pid" 2>/dev/null || break
    sleep 0.02
done
if ls -l "/proc/$bfs_pid/fd" 2>/dev/null | grep -q "/killed/.*(deleted)"; then
    echo "ok   the running bfs writes --out into a file with no name"
else
    echo "FAIL the running bfs held no unnamed --out file: $(ls -l "/proc/$bfs_pid/fd" 2>&1 | grep killed)"; fail=1
fi
kill -KILL "$bfs_pid" 2>/dev/null
wait "$bfs_pid" 2>/dev/null
[ -z "$(ls -A "$work/killed")" ] && echo "ok   a killed bfs leaves no --out file" \
    || { echo "FAIL a killed bfs left $(ls -A "$work/killed")"; fail=1; }
exit $fail
