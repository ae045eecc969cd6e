#!/usr/bin/env bash
# Smoke test of bench_map: the real-file part on a small tree with stxxl::map's caches cold (as flashxxl's) and warm, JSON checks, exit statuses.
# Usage: smoke_map.sh BENCH_MAP_BINARY
set -euo pipefail
bench=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/flashxxl-map-smoke.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "smoke_map: $*" >&2; exit 1; }
small=(--items 200000 --finds 200 --inserts 100 --batch 2000 --scans 5 --scan-length 2000)

for cache in cold warm; do
    "$bench" --part real --dir "$dir/work" "${small[@]}" --stxxl-cache $cache --json "$dir/$cache.json" \
        >"$dir/$cache.txt" 2>&1 || { cat "$dir/$cache.txt"; fail "--stxxl-cache $cache failed"; }
    grep -q "^(b) real file, wall seconds; stxxl_cache: $cache " "$dir/$cache.txt" || fail "the table does not say stxxl_cache: $cache"
done
# The tree fits in the caches: cold stxxl::map finds read their leaves and its insert phases
# write theirs back (as flashxxl's); warm ones find everything cached and owe their writes.
python3 - "$dir/cold.json" "$dir/warm.json" <<'PY' || fail "stxxl::map's phases are not cold / warm as selected"
import json, sys
for path, cold in ((sys.argv[1], True), (sys.argv[2], False)):
    j = json.load(open(path))
    envelope = ("version", "command_line", "timestamp", "host")
    assert j["benchmark"] == "bench_map" and all(k in j for k in envelope), sorted(j)
    assert j["stxxl_cache"] == ("cold" if cold else "warm"), j["stxxl_cache"]
    assert len(j["real"]) == 3 and all(r["verified"] for r in j["real"]), [r["layout"] for r in j["real"]]
    for r in j["real"]:
        phase = {p["name"]: p for p in r["phases"]}
        reads, writes = phase["random finds"]["read_bytes"], phase["random inserts"]["write_bytes"]
        if r["layout"].startswith("flashxxl") or cold:
            assert reads > 0 and writes > 0, (path, r["layout"], reads, writes)
        else:
            assert reads == 0, (path, r["layout"], reads)
PY
[ ! -e "$dir/work/flashxxl-bench-map.stxxl" ] || fail "the STXXL config file was left behind"

# Options: a bad value or size names the option; an unwritable --json is refused before any run (2);
# a failed JSON write is a failed run (1).
status=0; "$bench" --stxxl-cache hot >"$dir/bad.txt" 2>&1 || status=$?
[ $status -eq 2 ] && grep -q -- "--stxxl-cache: 'hot' is not accepted; expected cold or warm" "$dir/bad.txt" \
    || fail "--stxxl-cache hot: exit $status"
status=0; "$bench" --memory 64M >"$dir/bad.txt" 2>&1 || status=$?
[ $status -eq 2 ] && grep -q -- "--memory: '64M' is not a size" "$dir/bad.txt" ||
    fail "--memory 64M: exit $status"
status=0; "$bench" --part real --dir "$dir/work" "${small[@]}" --json "$dir/no/such/dir/out.json" >"$dir/bad.txt" 2>&1 || status=$?
[ $status -eq 2 ] && grep -q -- "--json $dir/no/such/dir/out.json: cannot write there" "$dir/bad.txt" &&
    ! grep -q 'real file' "$dir/bad.txt" || fail "unwritable --json: exit $status or it ran first"
if [ -w /dev/full ]; then
    status=0; "$bench" --part model --items 20000 --finds 50 --inserts 20 --batch 200 --scans 2 --scan-length 100 \
        --json /dev/full >"$dir/bad.txt" 2>&1 || status=$?
    [ $status -eq 1 ] && grep -q -- '--json /dev/full: writing failed' "$dir/bad.txt" || fail "--json /dev/full: exit $status"
fi
echo "smoke_map: ok"
