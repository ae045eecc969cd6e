#!/usr/bin/env bash
# End-to-end checks of the predicted-beside-measured figures of `flashxxl sort`, `pq` and `btree` (cost/ predictors).
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
tiny_config "$work/tiny.cfg"
base="--config $work/tiny.cfg --no-progress"
check "sort prints the prediction and measured / predicted" 0 "predicted \(.*\): RDV .* measured / predicted: RDV 1\.0[0-9]*, WRV 1\.0" \
    "$bin" sort $base --br 16KiB --bw 128KiB --memory 2MiB --items 1500000
# Volumes within 10 % of the closed form, at sizes of this script's own choosing.
for args in "sort --br 16KiB --bw 128KiB --memory 2MiB --items 1500000" \
            "sort --br 32KiB --bw 256KiB --memory 3MiB --items 2000000 --mode sorter" \
            "pq --br 16KiB --bw 64KiB --memory 1MiB --items 1200000"; do
    "$bin" $args $base --json > "$work/c.json" && python3 -c "
import json; d=json.load(open('$work/c.json'))
for k in ('predicted_rdv_bytes', 'predicted_wrv_bytes', 'predicted_modelled_s', 'rdv_bytes', 'wrv_bytes', 'modelled_elapsed_s'):
    assert isinstance(d[k], (int, float)), (k, d[k])
assert abs(d['rdv_bytes'] / d['predicted_rdv_bytes'] - 1) <= 0.10, d
assert abs(d['wrv_bytes'] / d['predicted_wrv_bytes'] - 1) <= 0.10, d
assert abs(d['rdv_over_predicted'] - d['rdv_bytes'] / d['predicted_rdv_bytes']) < 1e-9, d
assert d['predicted_modelled_s'] > 0 and d['prediction_is_bound'] is False, d" \
        && echo "ok   $args: measured volumes within 10 % of predicted" || { echo "FAIL $args"; fail=1; }
done
# Interleaved (monotone) pq use is bounded by n pushes then n pops: labelled a bound, measured at or below it.
"$bin" pq $base --br 16KiB --bw 64KiB --memory 1MiB --items 400000 --mode interleaved --json > "$work/i.json" && python3 -c "
import json; d=json.load(open('$work/i.json'))
assert d['prediction_is_bound'] is True, d
assert d['predicted_rdv_bytes'] > 0 and d['rdv_bytes'] <= d['predicted_rdv_bytes'], d
assert d['wrv_bytes'] <= d['predicted_wrv_bytes'], d" \
    && echo "ok   pq interleaved: measured at or below the bound" || { echo "FAIL pq interleaved bound"; fail=1; }
"$bin" btree $base --br 4KiB --bw 64KiB --memory 1MiB --items 200000 --finds 2000 --inserts 100 --batch 1000 --scans 2 --scan-length 100 --json > "$work/b.json" && python3 -c "
import json; d=json.load(open('$work/b.json'))
assert d['prediction_scope'] == ['bulk load', 'random finds'], d['prediction_scope']
assert abs(d['wrv_bytes'] / d['predicted_wrv_bytes'] - 1) <= 0.10, d
assert abs(d['rdv_bytes'] / d['predicted_rdv_bytes'] - 1) <= 0.10, d
ph = {p['name']: p for p in d['runs'][0]['phases']}
for name in ('random inserts', 'batched inserts', 'range scans'):
    p = ph[name]
    assert p['prediction_is_bound'] is True and p['predicted_rdv_bytes'] > 0, p
    assert p['read_bytes'] <= p['predicted_rdv_bytes'] and p['write_bytes'] <= p['predicted_wrv_bytes'], p
assert ph['random finds']['prediction_is_bound'] is False, ph['random finds']
assert abs(ph['random finds']['rdv_over_predicted'] - 1) <= 0.10, ph['random finds']" \
    && echo "ok   btree: bulk load and finds within 10 % of predicted, inserts and scans at or below their bounds" || { echo "FAIL btree prediction"; fail=1; }
# bfs and dfs: per phase, the csr build within 10 % of its closed form, every algorithm phase at or below its bound.
for args in "bfs --algo mm grid:side=80" "bfs --algo mr grid:side=80" "bfs --algo mm random:nodes=6000,degree=4,seed=3" \
            "bfs --algo mr --mr-adjacency scan random:nodes=6000,degree=4,seed=3" "dfs grid:side=80"; do
    "$bin" $args $base --br 8KiB --bw 64KiB --memory 2MiB --json > "$work/g.json" && python3 -c "
import json; d=json.load(open('$work/g.json'))
phases = d['result']['phases'] if d['command'] == 'bfs' else d['phases']
names = [p['name'] for p in phases]
want = {'bfs': {'mm': ['csr', 'preprocessing', 'bfs'], 'mr': ['csr', 'bfs']}.get(d.get('algo')), 'dfs': ['csr', 'dfs']}[d['command']]
assert names == want, names
for p in phases:
    for k in ('predicted_rdv_bytes', 'predicted_wrv_bytes', 'predicted_modelled_s', 'rdv_bytes', 'wrv_bytes', 'modelled_elapsed_s'):
        assert isinstance(p[k], (int, float)), (p['name'], k, p[k])
    if p['name'] == 'csr':
        assert p['prediction_is_bound'] is False, p
        assert abs(p['rdv_bytes'] - p['predicted_rdv_bytes']) <= 0.10 * p['predicted_rdv_bytes'] + 1, p
        assert abs(p['wrv_over_predicted'] - 1) <= 0.10, p
    else:
        assert p['prediction_is_bound'] is True, p
        assert p['rdv_bytes'] <= p['predicted_rdv_bytes'] and p['wrv_bytes'] <= p['predicted_wrv_bytes'], p
        assert p['rdv_bytes'] + p['wrv_bytes'] > 0, p" \
        && echo "ok   $args: csr within 10 %, the other phases at or below their bounds" || { echo "FAIL $args"; fail=1; }
done
"$bin" bfs --algo mm grid:side=40 $base --br 8KiB --bw 64KiB --memory 2MiB | grep -q "^bfs phase against its bound (mm_bfs bfs-phase bound" \
    && echo "ok   bfs prints the bound beside the bfs phase" || { echo "FAIL bfs table: no bound line"; fail=1; }
# reproduce's table: every container row within 10 %, every DFS row at or below its bound, a scatter plot.
"$bin" reproduce --tiny --tables seeds001_cost_model --out "$work/rep" --no-progress > /dev/null 2>&1 && python3 -c "
import json; j=json.load(open('$work/rep/report.json'))
t = j['tables'][0]
assert t['id'] == 'seeds001_cost_model', t['id']
bounds = [r for r in t['rows'] if 'bound,' in r['label']]
estimates = [r for r in t['rows'] if 'bound,' not in r['label']]
assert len(bounds) >= 4 and len(estimates) >= 10, (len(bounds), len(estimates))
for r in estimates: assert abs(r['ratio_measured_to_paper'] - 1) <= 0.10, r
for r in bounds: assert 0 < r['ratio_measured_to_paper'] <= 1, r" \
    && echo "ok   reproduce seeds001_cost_model: estimates within 10 %, DFS below its bound" || { echo "FAIL reproduce seeds001_cost_model"; fail=1; }
"$bin" reproduce --tiny --tables seeds001_cost_time --out "$work/rep-time" --no-progress --no-plots > /dev/null 2>&1 && python3 -c "
import json; d=json.load(open('$work/rep-time/report.json'))
t = d['tables'][0]
assert t['id'] == 'seeds001_cost_time', t['id']
rows = [r for r in t['rows'] if r['label'].startswith('nvme-gen4:')]
assert len(rows) >= 8, rows
for r in rows:
    assert r['paper'] > 0 and abs(r['measured'] / r['paper'] - 1) <= 0.15, r" \
    && echo "ok   reproduce seeds001_cost_time: nvme-gen4 rows within 15 %" || { echo "FAIL reproduce seeds001_cost_time"; fail=1; }
if command -v gnuplot > /dev/null; then
    grep -q "set logscale xy" "$work/rep/seeds001_cost_model.gp" && grep -q "x with lines" "$work/rep/seeds001_cost_model.gp" \
        && echo "ok   the plot is log-log with the diagonal" || { echo "FAIL the cost-model plot"; fail=1; }
fi
exit $fail
