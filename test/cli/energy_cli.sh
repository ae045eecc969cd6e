#!/usr/bin/env bash
# End-to-end checks of modelled energy: sort's records per Joule, null when unknown, the seeds/004 reproduce tables.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null

# An SLC chip of seeds/004 alone: sort's device energy is known, and records per Joule follow from it.
printf 'name=chip\nflash=memory,200MiB,memory name=ssd model=chip-a-slc2\nplacement=single device=ssd\n' > "$work/chip.cfg"
check "sort on an SLC chip prints records per Joule" 0 "records per Joule of device energy \(device energy only\): [0-9]+; .*FAWNSort 2010: 44884" \
    "$bin" sort --config "$work/chip.cfg" --bytes 4MiB --memory 2MiB --br 8KiB --bw 128KiB --no-progress
"$bin" sort --config "$work/chip.cfg" --bytes 4MiB --memory 2MiB --br 8KiB --bw 128KiB --json --no-progress 2>/dev/null \
    >"$work/chip.json"
python3 - "$work/chip.json" <<'PY' && echo "ok   sort JSON: energy per device, per role and in total" || { echo "FAIL sort JSON energy"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
total = j["modelled_energy_j"]
assert isinstance(total, float) and total > 0, total
assert abs(j["records_per_joule"] - j["items"] / total) < 1e-6 * j["records_per_joule"], j["records_per_joule"]
assert "device energy only" in j["records_per_joule_scope"]
dev = j["devices"][0]
assert dev["modelled_energy_j"] == total == dev["stats"]["total"]["modelled_energy_j"]
roles = sum(r["modelled_energy_j"] for r in dev["stats"]["by_role"].values()) + dev["stats"]["internal"]["modelled_energy_j"]
assert abs(roles - total) < 1e-9 * total, (roles, total)
PY

# The modern machine's models have no energy figures: unknown (null), not 0.
"$bin" sort --machine modern --bytes 4MiB --memory 80MiB --json --no-progress 2>/dev/null >"$work/modern.json"
python3 - "$work/modern.json" <<'PY' && echo "ok   no energy figures: null, not 0" || { echo "FAIL unknown energy"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j["modelled_energy_j"] is None and j["records_per_joule"] is None, j["modelled_energy_j"]
for d in j["devices"]:
    assert d["modelled_energy_j"] is None and d["stats"]["total"]["modelled_energy_j"] is None, d
PY
check "no energy figures: unknown in text" 0 "modelled device energy: unknown" \
    "$bin" sort --machine modern --bytes 4MiB --memory 80MiB --no-progress

# seeds/004's tables: Table 2 recomputed from op counts within 5 %, the research table filled in.
check "reproduce seeds004_chips and energy_br_bw" 0 "seeds/004 Table 2" \
    "$bin" reproduce --tiny --tables seeds004_chips,energy_br_bw --out "$work/r" --no-plots
python3 - "$work/r/report.json" <<'PY' && echo "ok   Table 2 within 5 %, Br < Bw measured" || { echo "FAIL seeds/004 tables"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
chips, research = j["tables"]
assert chips["id"] == "seeds004_chips" and research["id"] == "energy_br_bw"
compared = [r for r in chips["rows"] if r["paper"] is not None and r["measured"] is not None]
assert len(compared) >= 30, len(compared)
for r in compared:
    assert abs(r["ratio_measured_to_paper"] - 1) <= 0.05, r
assert len(research["rows"]) == 12, len(research["rows"])
for r in research["rows"]:
    assert isinstance(r["measured"], float) and r["measured"] > 0, r
PY
exit $fail
