# End-to-end checks of `flashxxl characterize`: model recommendation, dry run, refusals, outputs.
set -u
BIN=$(readlink -f "$1")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flashxxl-characterize-cli-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }

# 1. the quick plan on the block-mapped Hama model recommends Br = 128 KiB, Bw = 512 KiB (16 MiB at 4 KiB offsets)
"$BIN" characterize --model hama-ssd-2009-block-mapped --plan quick --out qdir --csv q.csv --no-plots --quiet || fail "quick on the model"
grep -q '"br_bytes": 131072' qdir/characterize.json || fail "Br is not 128 KiB: $(grep br_bytes qdir/characterize.json)"
grep -q '"bw_block_aligned_bytes": 524288' qdir/characterize.json || fail "aligned Bw is not 512 KiB"
grep -q '"bw_4k_granular_bytes": 16777216' qdir/characterize.json || fail "4 KiB-granular Bw is not 16 MiB"
head -1 q.csv | grep -q '^experiment,line,pattern' || fail "CSV header"
[ "$(wc -l < q.csv)" -gt 50 ] || fail "CSV has too few rows"

# 2. the machine mapping gives the same device
"$BIN" characterize --machine hybrid-2009 --device ssd --plan quick --quiet --json > m.json || fail "machine device"
grep -q '"br_bytes": 131072' m.json || fail "machine ssd Br"
# ... and so does a config file, by --config as in every command (or by --machine FILE)
printf 'flash=memory,1GiB,memory model=hama-ssd-2009 name=fast\n' > lab.cfg
"$BIN" characterize --config lab.cfg --device fast --plan quick --quiet --json > c.json || fail "config device"
grep -q '"br_bytes": 131072' c.json || fail "config fast Br"
if "$BIN" characterize --config hybrid-2009 --device ssd 2> err.txt; then fail "--config with a preset name"; fi
grep -q -- "--config: 'hybrid-2009' is not a file (expected a machine config; a preset goes to --machine)" err.txt ||
    fail "--config preset message: $(cat err.txt)"
if "$BIN" characterize --config lab.cfg 2> err.txt; then fail "--config without --device"; fi
grep -q -- "--config lab.cfg needs --device NAME" err.txt || fail "--config without --device: $(cat err.txt)"

# 3. a dry run writes nothing and says how much it would write
out=$("$BIN" characterize --file "$WORK/new.img" --size 64MiB --plan quick --dry-run) || fail "dry run"
echo "$out" | grep -q "bytes to write" || fail "dry run prints no byte count"
[ ! -e "$WORK/new.img" ] || fail "dry run created the target file"

# 4. a file the tool did not create is refused, and left alone
printf 'precious' > foreign.dat
"$BIN" characterize --file foreign.dat --size 64KiB --plan quick 2> err.txt
rc=$?
[ "$rc" = 2 ] || fail "foreign file: exit $rc, expected 2 (a path that must not be written is a usage error)"
grep -q "not created by flashxxl characterize" err.txt || fail "refusal message: $(cat err.txt)"
[ "$(cat foreign.dat)" = "precious" ] || fail "foreign file was modified"

# 5. block devices need exact consent; experiment-file errors name the line
if "$BIN" characterize --block-device /dev/null --allow-write=/dev/nul 2> err.txt; then fail "device without consent"; fi
grep -q -- "'/dev/null' is a character device, not a block device" err.txt || fail "not a block device: $(cat err.txt)"
printf '# plan\nrun op=read block=4KiB count=1 colour=red\n' > bad.txt
if "$BIN" characterize --model hama-ssd-2009 --experiments bad.txt 2> err.txt; then fail "bad experiment file accepted"; fi
grep -q "bad.txt:2: field 'colour'" err.txt || fail "experiment error message: $(cat err.txt)"
# 6. queue depths: a model serves one request at a time; a bad list names what was expected
if "$BIN" characterize --model hama-ssd-2009 --queue-depths 1,4 --quiet 2> err.txt; then fail "queue depths on a model"; fi
grep -q "is a model, which serves one request at a time" err.txt || fail "model queue-depth message: $(cat err.txt)"
if "$BIN" characterize --file "$WORK/qd.img" --size 4MiB --queue-depths 1,x --quiet 2> err.txt; then fail "--queue-depths 1,x accepted"; fi
grep -q "expected depths 1..64 separated by commas" err.txt || fail "bad depth list message: $(cat err.txt)"
[ ! -e "$WORK/qd.img" ] || fail "a refused run created its target"
grep -q '"io_threads": null' qdir/characterize.json || fail "a model's report claims an io_threads"
# 7. limits: no time and no count limit is refused with what each was; a size of 0 is named
if "$BIN" characterize --model hama-ssd-2009 --count 0 --quiet 2> err.txt; then fail "no limit per repeat accepted"; fi
grep -q "no limit per repeat: the time limit is 0 (none in plan quick on a model) and so is the request-count limit (--count 0)" err.txt ||
    fail "no-limit message: $(cat err.txt)"
if "$BIN" characterize --file "$WORK/z.img" --size 0 --quiet 2> err.txt; then fail "--size 0 accepted"; fi
grep -q -- "--size 0: expected a size above 0" err.txt || fail "--size 0 message: $(cat err.txt)"
[ ! -e "$WORK/z.img" ] || fail "--size 0 created its target"
for dry in "" --dry-run; do
    if "$BIN" characterize --file "$WORK/odd.img" --size 3KiB --quiet $dry 2> err.txt; then fail "--size 3KiB accepted $dry"; fi
    grep -q -- "--size 3KiB (3072 bytes): expected a multiple of 4 KiB" err.txt || fail "--size 3KiB message $dry: $(cat err.txt)"
done
[ ! -e "$WORK/odd.img" ] || fail "--size 3KiB created its target"
echo "characterize CLI: all checks passed"
