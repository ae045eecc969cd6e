#!/usr/bin/env bash
# Progress on stderr when it is not a terminal: a few plain lines (no carriage-return redraws), none with --quiet / --json / --no-progress.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
tiny_config "$work/tiny.cfg"
sort=(sort --config "$work/tiny.cfg" --br 4KiB --bw 512KiB --memory 4MiB --items 3000000)
# plain_lines FILE MAX: FILE has no carriage return, 2 to MAX lines, and ends with the final "done" line.
plain_lines() {
    local lines
    lines=$(wc -l < "$1")
    ! grep -q $'\r' "$1" && [ "$lines" -ge 2 ] && [ "$lines" -le "$2" ] && tail -n 1 "$1" | grep -qE '^progress 100%  done in [0-9.]+ s$'
}
"$bin" "${sort[@]}" > "$work/so.txt" 2> "$work/se.txt" && plain_lines "$work/se.txt" 12 &&
    grep -q "^progress   0%  .*generating$" "$work/se.txt" && ! grep -q "^progress" "$work/so.txt" &&
    echo "ok   sort: a few plain progress lines on stderr, none on stdout" || { echo "FAIL sort progress"; cat -A "$work/se.txt" | head -5; fail=1; }
"$bin" "${sort[@]}" --no-progress > /dev/null 2> "$work/se.txt" && [ ! -s "$work/se.txt" ] &&
    echo "ok   sort --no-progress: stderr empty" || { echo "FAIL sort --no-progress"; fail=1; }
"$bin" "${sort[@]}" --json > /dev/null 2> "$work/se.txt" && [ ! -s "$work/se.txt" ] &&
    echo "ok   sort --json: stderr empty" || { echo "FAIL sort --json"; fail=1; }
"$bin" dfs grid:side=30 --br 4KiB --bw 16KiB --memory 4MiB > /dev/null 2> "$work/se.txt" && plain_lines "$work/se.txt" 12 &&
    echo "ok   dfs: plain progress lines" || { echo "FAIL dfs progress"; cat -A "$work/se.txt" | head -5; fail=1; }
# gen shows progress from 4 Mi edges on (rmat scale 18: 4.2 M edges, 32 MiB binary).
"$bin" gen rmat --scale 18 --format binary --out "$work/g.bin" > /dev/null 2> "$work/se.txt" && plain_lines "$work/se.txt" 12 &&
    grep -q "gen rmat: .* M edges" "$work/se.txt" &&
    echo "ok   gen: plain progress lines" || { echo "FAIL gen progress"; cat -A "$work/se.txt" | head -5; fail=1; }
rm -f "$work/g.bin"
"$bin" gen rmat --scale 18 --format binary --out "$work/g.bin" --quiet > /dev/null 2> "$work/se.txt" && [ ! -s "$work/se.txt" ] &&
    echo "ok   gen --quiet: stderr empty" || { echo "FAIL gen --quiet"; fail=1; }
rm -f "$work/g.bin"
# bfs on a terminal (script(1) gives it one, so the bar redraws at every level that reaches all
# nodes or comes 100 ms after the last): its share is the nodes reached of |V|, never above
# 100 % and with no negative ETA, for a generator and for a graph file (whose |V| is known only
# once it has been read). It used to divide by 1: 300 %, 1000 %, ...
if command -v script > /dev/null; then
    "$bin" gen grid --side 40 --out "$work/g40.txt" --quiet > /dev/null
    for graph in grid:side=40 "$work/g40.txt"; do
        script -qec "'$bin' bfs '$graph' --br 4KiB --bw 16KiB --memory 4MiB > /dev/null" /dev/null \
            < /dev/null > "$work/tty.txt" 2>&1
        rc=$?
        over=$(grep -oE '[0-9]+%' "$work/tty.txt" | tr -d % | awk '$1 > 100' | head -1)
        if [ "$rc" -eq 0 ] && grep -q "100%  ETA 0:00  bfs level" "$work/tty.txt" && [ -z "$over" ] &&
            ! grep -qE 'ETA (-[0-9]|[0-9]+:-)' "$work/tty.txt"; then
            echo "ok   bfs $graph on a terminal: the bar ends at 100 %, never above"
        else
            echo "FAIL bfs $graph progress on a terminal (exit $rc, first share above 100: ${over:-none})"
            tr '\r' '\n' < "$work/tty.txt" | head -8; fail=1
        fi
    done
    # placement on the graph file: its four columns each count levels over |V| (it took |V|
    # from the file before reading it, and showed 2275 %).
    script -qec "'$bin' placement '$work/g40.txt' > /dev/null" /dev/null < /dev/null > "$work/tty.txt" 2>&1
    rc=$?
    over=$(grep -oE '[0-9]+%' "$work/tty.txt" | tr -d % | awk '$1 > 100' | head -1)
    if [ "$rc" -eq 0 ] && grep -q "bfs level" "$work/tty.txt" && [ -z "$over" ]; then
        echo "ok   placement on a graph file: the bar never goes above 100 %"
    else
        echo "FAIL placement progress on a terminal (exit $rc, first share above 100: ${over:-none})"
        tr '\r' '\n' < "$work/tty.txt" | head -8; fail=1
    fi
else
    echo "skip bfs progress on a terminal: no script(1)"
fi
exit $fail
