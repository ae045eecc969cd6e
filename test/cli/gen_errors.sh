# End-to-end checks of `flashxxl gen`: its error messages, one successful run per format, determinism.
# Usage: bash gen_errors.sh /path/to/flashxxl   (exits non-zero on the first failed check)
set -u
bin=${1:?usage: bash gen_errors.sh /path/to/flashxxl}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
dir=$(mktemp -d /tmp/flashxxl-gen-cli-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_error "expected stderr fragment" args...: the command must fail and say the fragment.
expect_error() {
    local fragment=$1; shift
    if "$bin" "$@" >out.txt 2>err.txt; then
        fail "'flashxxl $*' succeeded, expected an error with '$fragment'"
    elif ! grep -qF -- "$fragment" err.txt; then
        fail "'flashxxl $*' said '$(cat err.txt)', expected '$fragment'"
    fi
}

expect_error "unknown graph kind 'ring' (expected one of: grid, tree, random, rmat)" gen ring --out a.txt
expect_error "gen grid: --side is required" gen grid --out a.txt
expect_error "option --side does not apply (rmat takes --scale" gen rmat --scale 4 --side 3 --out a.txt
expect_error "give exactly one of --degree" gen random --nodes 10 --out a.txt
expect_error "give exactly one of --degree" gen random --nodes 10 --degree 2 --edges 5 --out a.txt
expect_error "--format 'csv' is unknown (expected text or binary)" gen grid --side 3 --format csv --out a.txt
expect_error "--id-width 3 (expected 4 or 8)" gen grid --side 3 --format binary --id-width 3 --out a.txt
expect_error "rmat: scale 0 out of range" gen rmat --scale 0 --out a.txt
expect_error "--scale: '4294967297' is out of range; expected a whole number from 0 to 4294967295" gen rmat --scale 4294967297 --out a.txt
expect_error "rmat: probabilities" gen rmat --scale 4 --a 0.9 --out a.txt
expect_error "grid side 0 is out of range" gen grid --side 0 --out a.txt
expect_error "tree: node count must be at least 1" gen tree --nodes 0 --out a.txt
expect_error "decimal unit" gen tree --nodes 100 --block 128K --out a.txt
expect_error "--out" gen grid --side 3
expect_error "gen --out '$dir/no/such/dir/a.txt': cannot create a file in '$dir/no/such/dir': No such file or directory" gen grid --side 3 --out "$dir/no/such/dir/a.txt"
# A graph that cannot fit the file system is refused before a byte is written (2^54 edges here).
expect_error "gen rmat: 18014398509481984 edges need at least 65536 TiB (4 bytes an edge in text), and the file system of 'a.txt' has" gen rmat --scale 50 --out a.txt
# Not a regular file: refused even with --force (renaming the graph over it would replace the
# FIFO, device node or link itself). A FIFO stands in for a device here; it must stay a FIFO.
mkfifo fifo && ln -s target.txt link.txt
expect_error "gen --out 'fifo' is a FIFO; outputs are written only to regular files" gen grid --side 3 --out fifo --force
[ -p fifo ] || fail "the FIFO was replaced"
expect_error "gen --out 'link.txt' is a symbolic link" gen grid --side 3 --out link.txt --force
[ -L link.txt ] && [ ! -e target.txt ] || fail "the link was replaced or followed"
expect_error "gen --out '.' is a directory" gen grid --side 3 --out . --force
rm -f fifo link.txt
leftover=$(ls | grep -v -x -e out.txt -e err.txt)
[ -z "$leftover" ] || fail "failed runs left files behind: $leftover"

# A successful text run, with the exact edge count of a grid, and its JSON summary.
if "$bin" gen grid --side 10 --out grid.txt >out.txt 2>err.txt; then
    grep -q "100 nodes, 180 edges" out.txt || fail "grid summary line: $(cat out.txt)"
    [ "$(grep -vc '^#' grid.txt)" = 180 ] || fail "grid.txt has $(grep -vc '^#' grid.txt) edge lines, expected 180"
else
    fail "gen grid failed: $(cat err.txt)"
fi
expect_error "output file 'grid.txt' exists (pass --force to overwrite it)" gen grid --side 10 --out grid.txt
if "$bin" gen grid --side 10 --out grid.txt --force --json >out.json 2>err.txt; then
    grep -q '"edges": 180' out.json || fail "JSON lacks \"edges\": 180: $(cat out.json)"
    grep -q '"nodes": 100' out.json || fail "JSON lacks \"nodes\": 100: $(cat out.json)"
else
    fail "gen grid --force failed: $(cat err.txt)"
fi

# --shuffle renames the nodes: same edge count, other lines.
if "$bin" gen grid --side 10 --shuffle --seed 3 --out shuffled.txt >out.txt 2>err.txt; then
    [ "$(grep -vc '^#' shuffled.txt)" = 180 ] || fail "shuffled grid has $(grep -vc '^#' shuffled.txt) edges"
    cmp -s <(grep -v '^#' grid.txt) <(grep -v '^#' shuffled.txt) && fail "--shuffle changed nothing"
else
    fail "gen grid --shuffle failed: $(cat err.txt)"
fi

# Binary: 32-byte header plus 2 x 4 bytes per edge; the tree has n - 1 edges.
if "$bin" gen tree --nodes 1001 --levels 10 --format binary --out tree.bin >out.txt 2>err.txt; then
    size=$(stat -c %s tree.bin)
    [ "$size" = $((32 + 1000 * 8)) ] || fail "tree.bin has $size bytes, expected $((32 + 1000 * 8))"
    [ "$(head -c 8 tree.bin)" = FXEDGES1 ] || fail "tree.bin does not start with FXEDGES1"
else
    fail "gen tree failed: $(cat err.txt)"
fi

# --levels is the most levels: 100 nodes reach 99 levels below the source, and the header and
# --json say 99, not the 1000 asked for (a header that claimed 1000 levels misled a reader).
if "$bin" gen tree --nodes 100 --levels 1000 --out deep.txt --json >deep.json 2>err.txt; then
    grep -q '^# flashxxl gen tree .*levels=99 ' deep.txt ||
        fail "gen tree --nodes 100 --levels 1000: header '$(head -1 deep.txt)' does not say levels=99"
    grep -q 'levels=1000' deep.txt && fail "gen tree header still claims 1000 levels: $(head -1 deep.txt)"
    python3 -c "import json,sys; assert json.load(open('deep.json'))['params']['levels'] == 99" ||
        fail "gen tree --json params.levels is not 99: $(cat deep.json)"
else
    fail "gen tree --nodes 100 --levels 1000 failed: $(cat err.txt)"
fi

# Same seed, same file; another seed, another file.
"$bin" gen rmat --scale 8 --seed 7 --out r1.txt >/dev/null 2>&1 || fail "gen rmat (seed 7) failed"
"$bin" gen rmat --scale 8 --seed 7 --out r2.txt >/dev/null 2>&1 || fail "gen rmat (seed 7, again) failed"
"$bin" gen rmat --scale 8 --seed 8 --out r3.txt >/dev/null 2>&1 || fail "gen rmat (seed 8) failed"
cmp -s r1.txt r2.txt || fail "same seed gave different R-MAT files"
cmp -s <(grep -v '^#' r1.txt) <(grep -v '^#' r3.txt) && fail "different seeds gave the same R-MAT edges"
[ -z "$(ls | grep tmp-)" ] || fail "temporary files left behind: $(ls | grep tmp-)"

# A killed gen leaves nothing: the graph grows in an unnamed file (O_TMPFILE) until it is complete
# (before: a 671 MB 'g.txt.tmp-PID' after a kill). Killed once it has written into the directory.
mkdir killed
"$bin" gen rmat --scale 22 --edge-factor 64 --out killed/g.txt --quiet >/dev/null 2>&1 &
gen_pid=$!
for _ in $(seq 1 1200); do  # until it holds its output (at most 60 s; no time is asserted)
    ls -l "/proc/$gen_pid/fd" 2>/dev/null | grep -q "/killed/" && break
    sleep 0.05
done
ls -l "/proc/$gen_pid/fd" 2>/dev/null | grep -q "/killed/" || fail "gen never opened its output in killed/"
kill -KILL "$gen_pid" 2>/dev/null
wait "$gen_pid" 2>/dev/null
[ -z "$(ls -A killed)" ] || fail "a killed gen left files behind: $(ls -A killed)"

if [ "$failures" -ne 0 ]; then
    echo "gen_errors.sh: $failures check(s) failed" >&2
    exit 1
fi
echo "gen_errors.sh: all checks passed"
