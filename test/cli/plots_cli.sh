#!/usr/bin/env bash
# --plot DIR (CSV table + gnuplot chart) on sort, pq, bfs, dfs and placement; the Br x Bw sweep of sort and pq; output safety.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
tiny_config tiny.cfg
small=(--config tiny.cfg --no-progress --memory 4MiB)
have_gnuplot=0; command -v gnuplot > /dev/null && have_gnuplot=1
png_ok() {  # a PNG (or SVG) image flashxxl stamped, when gnuplot is there
    [ $have_gnuplot = 0 ] && return 0
    local f=$1
    [ -e "$f.svg" ] && f=$f.svg || f=$f.png
    [ -s "$f" ] && grep -qa 'written by flashxxl' "$f"
}

# One sort run: volume per device.
check "sort --plot writes the chart" 0 "output verified" "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 100000 --plot p1
[ "$(sed -n 2p p1/sort-devices.csv)" = "device,rdv_mib,wrv_mib,modelled_s" ] &&
    grep -qE '^ssd,[0-9.]+,[0-9.]+,[0-9.]+$' p1/sort-devices.csv && [ -s p1/sort-devices.gp ] && png_ok p1/sort-devices &&
    echo "ok   sort-devices.csv has a row per device, the script and the image" ||
    { echo "FAIL sort-devices files"; ls -la p1; cat p1/sort-devices.csv; fail=1; }

# A sweep: every valid pair of the cross product in one table, the invalid one skipped and named.
check "sort sweep prints one table with the skipped pair" 0 "8KiB +4KiB +skipped: .*Br" \
    "$bin" sort "${small[@]}" --br 4KiB,8KiB --bw 4KiB,16KiB --items 50000
"$bin" sort "${small[@]}" --br 4KiB,8KiB --bw 4KiB,16KiB --items 50000 --json --plot p2 > sweep.json && python3 -c "
import json
d = json.load(open('sweep.json'))
pairs = sorted((r['br_bytes'], r['bw_bytes']) for r in d['sweep'])
assert pairs == [(4096, 4096), (4096, 16384), (8192, 16384)], pairs
assert all(r['verified'] and r['modelled_elapsed_s'] > 0 for r in d['sweep']), d['sweep']
assert min(r['modelled_ratio_to_fastest'] for r in d['sweep']) == 1.0, d['sweep']
assert [(s['br_bytes'], s['bw_bytes']) for s in d['skipped']] == [(8192, 4096)], d['skipped']
assert 'Br' in d['skipped'][0]['reason'], d['skipped']
rows = [l for l in open('p2/sort-sweep.csv') if not l.startswith('#')]
assert rows[0].strip() == 'br,Bw 4KiB,Bw 16KiB', rows
assert rows[2].startswith('Br 8KiB,NaN,'), rows
" && png_ok p2/sort-sweep && echo "ok   sort sweep JSON: three pairs verified, one skipped; the grouped-bar table" ||
    { echo "FAIL sort sweep JSON / chart"; head -c 600 sweep.json; fail=1; }
# A pair skipped for memory reports the sizes it would have run with: no --bw is the device's Bw.
"$bin" sort --config tiny.cfg --no-progress --memory 70MiB --items 1000 --br 4KiB,16MiB --json > skip.json && python3 -c "
import json
d = json.load(open('skip.json'))
s = d['skipped']
assert [(x['br_bytes'], x['bw_bytes']) for x in s] == [(16 << 20, 16 << 20)], s
assert [(r['br_bytes'], r['bw_bytes']) for r in d['sweep']] == [(4096, 16 << 20)], d['sweep']
" && echo "ok   a skipped pair names the device's Bw, not 0" || { echo "FAIL skipped pair sizes"; head -c 600 skip.json; fail=1; }
check "pq sweep" 0 "pq sweep \(push-pop\).*2 block-size pairs" bash -c "'$bin' pq ${small[*]} --br 4KiB --bw 8KiB,16KiB --items 40000 | tr '\n' ' '"
check "a typo in a list is an error, not a skip" 2 "--br: .*'4KB'|--br: size '4KB'" "$bin" sort "${small[@]}" --br 4KiB,4KB --items 10
check "a sweep where no pair can run" 2 "no block-size pair of the sweep can run" "$bin" sort "${small[@]}" --br 8KiB,16KiB --bw 4KiB --items 10

# Graph commands: per phase, each device's modelled busy time.
check "bfs --plot" 0 "levels" "$bin" bfs grid:side=30 "${small[@]}" --br 4KiB --bw 16KiB --plot p3
grep -qE '^preprocessing,' p3/bfs-phases.csv && grep -qE '^bfs,' p3/bfs-phases.csv && png_ok p3/bfs-phases &&
    echo "ok   bfs-phases.csv has the preprocessing and bfs rows" || { echo "FAIL bfs-phases"; cat p3/bfs-phases.csv; fail=1; }
check "dfs --plot" 0 "visited" "$bin" dfs grid:side=30 "${small[@]}" --br 4KiB --bw 16KiB --plot p4
grep -qE '^dfs,' p4/dfs-phases.csv && png_ok p4/dfs-phases && echo "ok   dfs-phases.csv" || { echo "FAIL dfs-phases"; fail=1; }
check "placement --plot" 0 "Table 4.1" "$bin" placement grid:side=40 --no-progress --plot p5
python3 -c "
import csv
read = lambda f: list(csv.reader(l for l in open(f) if not l.startswith('#')))
rows = read('p5/table41-ratios.csv')
assert rows[0][0] == 'configuration' and len(rows) == 5, rows
assert float(rows[1][1]) == 1.0 and float(rows[1][2]) == 1.0, rows[1]  # random striping is the reference
dev = read('p5/table41-devices.csv')
assert dev[1][1] == 'ssd' and dev[2][1] == 'hdd0', dev
" && png_ok p5/table41-devices && png_ok p5/table41-ratios && echo "ok   placement: ratio and per-device tables, both charts" ||
    { echo "FAIL placement charts"; ls p5; fail=1; }

# A graph that needs no I/O in the BFS phase (and, with --host none, no CPU time): no ratio to a zero base (it printed 0.00 and a
# "largest difference" of 1.00); text n/a, JSON null, the chart still drawn from the paper's bars.
check "placement with no I/O: ratios n/a, no largest difference" 0 "no ratios of ours: random striping's BFS phase took no modelled time" \
    "$bin" placement grid:side=1 --host none --no-progress --plot p7
"$bin" placement grid:side=1 --host none --no-progress --json > p7.json && python3 -c "
import json; d = json.load(open('p7.json'))
assert d['largest_ratio_difference'] is None and d['paper_order'] is False, d['largest_ratio_difference']
assert all(c['ratio'] is None and c['io_wait_ratio'] is None and c['paper_ratio'] > 0 for c in d['configurations'])
" && grep -q '^"random striping.*",1.000000,NaN,1.000000,NaN$' p7/table41-ratios.csv && png_ok p7/table41-ratios \
    && echo "ok   placement with no I/O: null ratios in JSON, NaN in the CSV, chart drawn" || { echo "FAIL placement no-I/O"; cat p7/table41-ratios.csv; fail=1; }

# A chart that cannot be drawn on a rerun takes the earlier run's chart with it (it stood beside
# the new CSV, showing the old data): a gnuplot that knows its terminals but fails every script.
check "sort --plot, first run" 0 "output verified" "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 1000 --plot p8
png_ok p8/sort-devices && mkdir fake && printf '#!/bin/sh\nfor a; do case "$a" in *.gp) exit 1;; esac; done\nexit 0\n' > fake/gnuplot &&
    chmod +x fake/gnuplot && echo "ok   a chart to go stale, and a failing gnuplot" || { echo "FAIL setting up the stale chart"; fail=1; }
check "a rerun whose chart fails removes the earlier chart" 0 "no chart from .*sort-devices.gp.*the chart of an earlier run, p8/sort-devices.png, was removed" \
    env PATH="$PWD/fake:$PATH" "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 1000 --plot p8
[ ! -e p8/sort-devices.png ] && [ -s p8/sort-devices.csv ] && echo "ok   the stale chart is gone, the new CSV is there" ||
    { echo "FAIL the stale chart stayed"; fail=1; }

# Output safety: a file flashxxl did not write is refused before the run, a file is not a directory.
mkdir p6 && echo precious > p6/sort-devices.csv
check "a foreign file in --plot DIR is refused before the run" 2 "--plot 'p6/sort-devices.csv' exists and was not written by flashxxl" \
    "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 1000 --plot p6
[ "$(cat p6/sort-devices.csv)" = precious ] || { echo "FAIL the foreign file was changed"; fail=1; }
check "--force replaces it" 0 "output verified" "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 1000 --plot p6 --force
echo x > plain.txt
check "--plot naming a file" 2 "--plot 'plain.txt' is not a directory" "$bin" sort "${small[@]}" --items 1000 --plot plain.txt
# gnuplot runs without a shell: a directory name with quotes and a command in it is only a name.
odd="q'; touch shell_ran; 'x"
check "--plot into a directory named with quotes" 0 "output verified" "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 1000 --plot "$odd"
[ ! -e shell_ran ] && [ -s "$odd/sort-devices.csv" ] && png_ok "$odd/sort-devices" &&
    echo "ok   the quoted name ran no command and got its chart" || { echo "FAIL quoted --plot directory"; ls -la . "$odd"; fail=1; }
check "reproduce --out with quotes" 0 "wrote" "$bin" reproduce --tiny --tables uflip_table3 --out "$odd"
[ ! -e shell_ran ] && { [ $have_gnuplot = 0 ] || grep -qa 'written by flashxxl' "$odd/uflip_table3.png"; } &&
    echo "ok   reproduce: no command ran, the plot was drawn" || { echo "FAIL reproduce quoted --out"; ls -la "$odd"; fail=1; }

# A report that cannot be written is a failure: standard output on a full disk exits 1.
if [ -w /dev/full ]; then
    check "stdout on a full disk" 1 "writing standard output failed" bash -c "'$bin' machine --no-probe --json > /dev/full"
fi
check "charts flashxxl wrote are rewritten" 0 "output verified" "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 100000 --plot p1

# --plot '' is refused, not taken for "no plots" (it exited 0 and wrote nothing).
check "sort --plot ''" 2 "--plot: empty path; expected a directory for the charts" \
    "$bin" sort "${small[@]}" --items 1000 --plot ''
check "bfs --plot ''" 2 "--plot: empty path; expected a directory for the charts" "$bin" bfs grid:side=4 --no-progress --plot ''
check "placement --plot ''" 2 "--plot: empty path; expected a directory for the charts" \
    "$bin" placement grid:side=4 --no-progress --plot ''
# A run that fails after --plot made its directory removes it again (only one it made, only empty).
check "sort --plot NEWDIR with too many items" 2 "more than the capacity of machine 'tiny'" \
    "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 100000000 --plot newdir
[ ! -e newdir ] && echo "ok   the failed run removed the directory it made" ||
    { echo "FAIL the failed run left its --plot directory"; ls -la newdir; fail=1; }
mkdir olddir
check "sort --plot an existing directory with too many items" 2 "more than the capacity of machine 'tiny'" \
    "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB --items 100000000 --plot olddir
[ -d olddir ] && echo "ok   a directory the failed run did not make stays" || { echo "FAIL olddir was removed"; fail=1; }
check "placement --plot NEWDIR from a node that is not there" 2 "source 999 is not a node" \
    "$bin" placement grid:side=4 --no-progress --source 999 --plot newdir2
check "bfs --plot NEWDIR from a node that is not there" 2 "source 999 is not a node" \
    "$bin" bfs grid:side=4 --no-progress --source 999 --plot newdir3
[ ! -e newdir2 ] && [ ! -e newdir3 ] && echo "ok   placement's and bfs's failed runs removed their directories" ||
    { echo "FAIL a failed graph run left its --plot directory"; ls -la; fail=1; }
exit $fail
