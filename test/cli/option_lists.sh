#!/usr/bin/env bash
# Lists, single values and counts on the command line: one list parser (no empty entry, no repeat) for every list option, a list given to a one-value option, graph-spec counts, placement's cluster sizes.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
tiny_config tiny.cfg
small=(--config tiny.cfg --no-progress --memory 4MiB --items 1000)
empty="is empty \(a leading, trailing or doubled comma\)"

# A trailing, leading or doubled comma is refused the same way by every list option.
check "sort --bw 1MiB, (trailing comma)" 2 "--bw '1MiB,': entry 2 $empty" "$bin" sort "${small[@]}" --bw 1MiB,
check "sort --br ,4KiB (leading comma)" 2 "--br ',4KiB': entry 1 $empty" "$bin" sort "${small[@]}" --br ,4KiB
check "pq --br 4KiB,,8KiB (doubled comma)" 2 "--br '4KiB,,8KiB': entry 2 $empty" "$bin" pq "${small[@]}" --br 4KiB,,8KiB
check "reproduce --tables with a trailing comma" 2 "reproduce --tables 'seeds000_table2_1,': entry 2 $empty" \
    "$bin" reproduce --tiny --out "$work/rep" --no-plots --quiet --tables seeds000_table2_1,
check "characterize --queue-depths 1,4, (trailing comma)" 2 "--queue-depths '1,4,': entry 3 $empty" \
    "$bin" characterize --file "$work/qd.img" --size 4MiB --queue-depths 1,4, --dry-run
check "a graph spec's parameter list with a trailing comma" 2 \
    "graph spec 'grid:side=4,': the parameter list 'side=4,': entry 2 $empty" "$bin" bfs grid:side=4, --no-progress
printf 'sweep patterns=SR, count=1\n' > trailing.exp
check "an experiment file's patterns= with a trailing comma" 2 "trailing.exp:1: field 'patterns': the list 'SR,': entry 2 $empty" \
    "$bin" characterize --model hama-ssd-2009 --experiments trailing.exp --dry-run

# A repeated entry is refused, naming the option and the value (it would run the same thing twice).
check "sort --br 64KiB,64KiB repeats a pair" 2 "--br '64KiB,64KiB': '64KiB' is given twice; expected each value once" \
    "$bin" sort "${small[@]}" --br 64KiB,64KiB --bw 1MiB
check "sort --bw 64KiB,65536: the same size written twice" 2 \
    "--bw '64KiB,65536': '65536' is given twice \(as '64KiB' before\); expected each value once" \
    "$bin" sort "${small[@]}" --br 4KiB --bw 64KiB,65536
check "reproduce --tables repeated" 2 "reproduce --tables 'seeds001_dfs,seeds001_dfs': 'seeds001_dfs' is given twice" \
    "$bin" reproduce --tiny --out "$work/rep" --no-plots --quiet --tables seeds001_dfs,seeds001_dfs
check "characterize --queue-depths 4,04 repeated" 2 "--queue-depths '4,04': '04' is given twice \(as '4' before\)" \
    "$bin" characterize --file "$work/qd.img" --size 4MiB --queue-depths 4,04 --dry-run
printf 'sweep patterns=SR,RR,SR count=1\n' > repeated.exp
check "an experiment file's patterns= repeated" 2 "repeated.exp:1: field 'patterns': the list 'SR,RR,SR': 'SR' is given twice" \
    "$bin" characterize --model hama-ssd-2009 --experiments repeated.exp --dry-run
[ ! -e "$work/rep" ] && [ ! -e "$work/qd.img" ] && echo "ok   refused lists created nothing" ||
    { echo "FAIL a refused list left files"; ls -la "$work"; fail=1; }

# A list given to an option that takes one value says so.
check "bfs --br 64KiB,128KiB takes one value" 2 "--br '64KiB,128KiB': --br takes one value, not a comma-separated list" \
    "$bin" bfs grid:side=4 --br 64KiB,128KiB --no-progress
check "sort --memory 4MiB,8MiB takes one value" 2 "--memory '4MiB,8MiB': --memory takes one value, not a comma-separated list" \
    "$bin" sort --config tiny.cfg --no-progress --items 10 --memory 4MiB,8MiB
check "placement --cluster-br 8KiB,16KiB takes one value" 2 "--cluster-br '8KiB,16KiB': --cluster-br takes one value" \
    "$bin" placement grid:side=4 --cluster-br 8KiB,16KiB --no-progress
check "sort --items 5,6 takes one value" 2 "--items: '5,6' is a list; this option takes one value \(expected a whole number" \
    "$bin" sort --config tiny.cfg --no-progress --items 5,6

# A node count is a count: no byte unit, no word; the message speaks of a node count.
check "grid:side=1KiB is not a node count" 2 \
    "graph spec 'grid:side=1KiB': side: '1KiB' is not a node count \(nodes per side\) \(byte units do not apply to a count\); expected a node count \(nodes per side\), a whole number from 1 to 3037000500" \
    "$bin" bfs grid:side=1KiB --no-progress
check "grid:side=abc is not a node count" 2 "graph spec 'grid:side=abc': side: 'abc' is not a node count \(nodes per side\); expected" \
    "$bin" bfs grid:side=abc --no-progress
check "tree:nodes=1MiB is not a node count" 2 "graph spec 'tree:nodes=1MiB': nodes: '1MiB' is not a node count \(byte units" \
    "$bin" dfs tree:nodes=1MiB --no-progress
check "random:edges=1KiB is not an edge count" 2 "edges: '1KiB' is not an edge count \(byte units" \
    "$bin" bfs random:nodes=10,edges=1KiB --no-progress
check "tree:levels=0 is out of range" 2 "levels: '0' is out of range; expected a level count, a whole number from 1 to 2\^64 - 1" \
    "$bin" bfs tree:nodes=10,levels=0 --no-progress

# placement: the last column is "a smaller cluster size"; one not smaller is refused, naming both.
check "placement --small-mu not smaller than --mu" 2 "--small-mu 512 is not smaller than --mu 64: the last run is flash_aware with a smaller cluster size" \
    "$bin" placement grid:side=4 --mu 64 --small-mu 512 --no-progress
check "placement --small-mu equal to --mu" 2 "--small-mu 64 is not smaller than --mu 64" \
    "$bin" placement grid:side=4 --mu 64 --small-mu 64 --no-progress
check "placement --mu 1 leaves no smaller cluster" 2 "--small-mu 1 \(--mu / 8, at least 1\) is not smaller than --mu 1" \
    "$bin" placement grid:side=4 --mu 1 --no-progress
check "placement --mu beyond 2^32" 2 "--mu: '4294967297' is out of range; expected a whole number from 0 to 4294967296" \
    "$bin" placement grid:side=4 --mu 4294967297 --no-progress
exit $fail
