# End-to-end checks of `flashxxl characterize --fit`: a model's own parameters back, the JSON fit
# object, the fitted config line usable by every command, the plot, and the refusals.
set -u
BIN=$(readlink -f "$1")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flashxxl-characterize-fit-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }

# A small plan that shows every parameter of the block-mapped model (docs/characterize.md, fitting).
cat > fit.txt <<'PLAN'
fill block=1MiB span=128MiB
sweep patterns=SR,RR,SW,RW from=512 to=1MiB selfscale=no count=64 span=128MiB
PLAN

# 1. the Hama model's own measurements give its parameters back, with the JSON fit object
"$BIN" characterize --model hama-ssd-2009-block-mapped --experiments fit.txt --fit block-mapped --config-path memory \
    --config-name fitted --fit-config fitted.cfg --out out --no-plots --quiet || fail "fit on the model"
python3 - out/characterize.json <<'PY' || fail "fit object"
import json, sys
f = json.load(open(sys.argv[1]))["fit"]
assert f["model"] == "ssd-block-mapped", f["model"]
for key in ("parameters", "config_line", "experiments", "median_error", "holdout_median_error"):
    assert key in f, key
assert f["median_error"] < 0.01, f["median_error"]
assert f["holdout_median_error"] < 0.05, f["holdout_median_error"]
assert f["parameters"]["chunk"] == "512KiB", f["parameters"]
assert abs(float(f["parameters"]["t_merge_ms"]) / 2.42 - 1) < 0.05, f["parameters"]
assert len(f["experiments"]) == 48, len(f["experiments"])
for e in f["experiments"]:
    assert e["measured_mib_s"] > 0 and abs(e["fitted_mib_s"] / e["measured_mib_s"] - 1) < 0.05, e
assert f["config_line"].startswith("flash=memory,32GiB,memory name=fitted model=hama-ssd-2009-block-mapped capacity=32GiB"), f["config_line"]
PY
grep -q '^# fitted by flashxxl characterize' fitted.cfg || fail "fitted config header: $(cat fitted.cfg)"

# 2. the fitted line is a machine config every command takes: characterize its device again
"$BIN" characterize --config fitted.cfg --device fitted --experiments fit.txt --quiet --json > again.json ||
    fail "characterize the fitted config"
python3 - out/characterize.json again.json <<'PY' || fail "the fitted model's throughputs differ from the measured ones"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ra = {(r["pattern"], r["block_bytes"]): r["throughput_mib_s"] for r in a["runs"]}
rb = {(r["pattern"], r["block_bytes"]): r["throughput_mib_s"] for r in b["runs"]}
assert ra.keys() == rb.keys()
for k in ra:
    assert abs(rb[k] / ra[k] - 1) < 0.05, (k, ra[k], rb[k])
PY

# 3. the text report: parameters, the per-experiment table, the held-out error, the config line
"$BIN" characterize --model barracuda-7200.11 --experiments fit.txt --fit hdd --fit-holdout large \
    --no-progress > text.txt || fail "text report"
for want in "model fit: hdd" "held out (large)" "experiment" "measured" "fitted" "machine config (fitted model):" \
    "disk=/path/to/barracuda-7200.11.img" "model=barracuda-7200.11"; do
    grep -qF "$want" text.txt || fail "text report lacks '$want': $(cat text.txt)"
done

# 4. a plot of measured against fitted, next to the others
if command -v gnuplot > /dev/null; then
    "$BIN" characterize --model hama-ssd-2009-block-mapped --experiments fit.txt --fit block-mapped --out plots --quiet ||
        fail "fit with plots"
    [ -s plots/characterize-fit.gp ] && [ -s plots/characterize-fit.dat ] || fail "no fit plot script / data"
    ls plots/characterize-fit.* | grep -q -E '\.(svg|png)$' || fail "no fit chart: $(ls plots)"
fi

# 5. refusals: an unknown model, an unknown holdout, a holdout that leaves nothing out
"$BIN" characterize --model hama-ssd-2009-block-mapped --fit ssd-flux --quiet 2> err.txt
[ $? = 2 ] || fail "--fit ssd-flux: expected exit 2"
grep -q "expected one of auto, block-mapped, log-block, page-mapped, hdd" err.txt || fail "--fit message: $(cat err.txt)"
"$BIN" characterize --model hama-ssd-2009-block-mapped --fit auto --fit-holdout half --quiet 2> err.txt
[ $? = 2 ] || fail "--fit-holdout half: expected exit 2"
printf 'sweep patterns=SR,RW from=4KiB to=64KiB selfscale=no count=20 span=64MiB\n' > small.txt
"$BIN" characterize --model hama-ssd-2009-block-mapped --experiments small.txt --fit auto --fit-holdout large --quiet 2> err.txt
[ $? = 2 ] || fail "holdout large without large blocks: expected exit 2"
grep -q "no experiment is left to hold out" err.txt || fail "holdout message: $(cat err.txt)"

# 6. a dry run says a fit follows, and fits nothing
"$BIN" characterize --model hama-ssd-2009-block-mapped --experiments fit.txt --fit auto --dry-run > dry.txt || fail "dry run"
grep -q "then: fit model auto" dry.txt || fail "dry run does not mention the fit: $(cat dry.txt)"
echo "characterize --fit: all checks passed"
