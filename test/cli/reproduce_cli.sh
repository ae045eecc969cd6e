#!/usr/bin/env bash
# End-to-end checks of `flashxxl reproduce`: a tiny run of the device tables, report.json's shape, safe outputs, errors.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
tables=seeds000_table3_1,uflip_table3,seeds000_table2_1
out="$work/r"
check "tiny run of three device tables" 0 "seeds/000 Table 3.1" "$bin" reproduce --tiny --tables "$tables" --out "$out"
check "report.md written" 0 "^# flashxxl reproduce \(tiny\)" cat "$out/report.md"
# report.json: {"tables": [{"id", "title", "rows": [{"label", "paper": number|null, "measured": number|null, ...}]}]}
# in the report's order whatever the order given, numbers where the models give them.
python3 - "$out/report.json" <<'PY' && echo "ok   report.json has the documented shape" || { echo "FAIL report.json shape"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j["generator"] == "flashxxl reproduce" and j["mode"] == "tiny", j.get("mode")
ids = [t["id"] for t in j["tables"]]
assert ids == ["seeds000_table2_1", "seeds000_table3_1", "uflip_table3"], ids
for t in j["tables"]:
    assert isinstance(t["title"], str) and t["title"] and isinstance(t["notes"], list), t["id"]
    assert len(t["rows"]) > 0, t["id"]
    for r in t["rows"]:
        assert isinstance(r["label"], str) and r["label"], r
        for k in ("paper", "measured", "ratio_measured_to_paper"):
            assert r[k] is None or isinstance(r[k], (int, float)), (t["id"], r)
        assert isinstance(r["measured"], (int, float)) and r["measured"] > 0, (t["id"], r)
t31 = j["tables"][1]
assert len(t31["rows"]) == 16, len(t31["rows"])
# The Hama SSD's golden numbers: sequential 2 MB reads 28.03 MiB/s in the paper, the model within 5%.
row = next(r for r in t31["rows"] if r["label"] == "hama SSD 32g (block-mapped): sr 2 MB")
assert row["paper"] == 28.03 and abs(row["ratio_measured_to_paper"] - 1) < 0.05, row
PY
if [ -f "$out/seeds000_table3_1.png" ]; then
    check "plots are PNG files" 0 "PNG image" file "$out/seeds000_table3_1.png"
    grep -qa 'written by flashxxl reproduce' "$out/seeds000_table3_1.png" && grep -q '^# written by flashxxl reproduce' "$out/seeds000_table3_1.gp" \
        && echo "ok   plots carry reproduce's signature" || { echo "FAIL plot signature"; fail=1; }
    # Plots of earlier versions carried characterize's signature: still ours to replace.
    printf '# written by flashxxl characterize\n' > "$out/uflip_table3.gp"
    check "a plot with the old signature is replaced" 0 "uFLIP" "$bin" reproduce --tiny --tables uflip_table3 --out "$out" --no-progress
    grep -q '^# written by flashxxl reproduce' "$out/uflip_table3.gp" && echo "ok   old-signature plot rewritten" || { echo "FAIL old plot kept"; fail=1; }
elif command -v gnuplot >/dev/null; then
    echo "FAIL gnuplot is installed but no plot was drawn"; fail=1
else
    check "report says plots were skipped" 0 "plots skipped" cat "$out/report.md"
fi
check "a rerun replaces its own outputs" 0 "uFLIP" "$bin" reproduce --tiny --tables uflip_table3 --out "$out" --no-progress
check "--json prints only the report" 0 '"generator": "flashxxl reproduce"' "$bin" reproduce --tiny --tables uflip_table3 --out "$out" --json --no-progress
"$bin" reproduce --tiny --tables uflip_table3 --out "$out" --json --no-progress 2>/dev/null | python3 -c 'import json,sys; json.load(sys.stdin)' \
    && echo "ok   --json stdout parses" || { echo "FAIL --json stdout is not JSON"; fail=1; }
mkdir -p "$work/foreign" && echo "not ours" > "$work/foreign/report.md"
check "a foreign report.md is refused" 2 "was not written by flashxxl" "$bin" reproduce --tiny --tables uflip_table3 --out "$work/foreign"
grep -qx "not ours" "$work/foreign/report.md" && echo "ok   the foreign file is untouched" || { echo "FAIL foreign file changed"; fail=1; }
check "--force replaces it" 0 "uFLIP" "$bin" reproduce --tiny --tables uflip_table3 --out "$work/foreign" --force --no-progress
check "unknown table id" 2 "unknown table 'table9'.*seeds001_dfs" "$bin" reproduce --tiny --tables table9 --out "$out"
check "an empty --tables names no table" 2 "--tables: an empty list" "$bin" reproduce --tiny --tables "" --out "$out"
check "--out is required" 2 "--out is required" "$bin" reproduce --tiny
check "--quick and --tiny together" 2 "exclude each other" "$bin" reproduce --quick --tiny --out "$out"
touch "$work/file"
check "--out naming a file" 2 "is not a directory" "$bin" reproduce --tiny --tables uflip_table3 --out "$work/file"
exit $fail
