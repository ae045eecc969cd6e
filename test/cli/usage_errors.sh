#!/usr/bin/env bash
# Usage errors name the input (command, option, file) and what was expected, and exit with status 2 (README).
set -u
bin=$(readlink -f "$1")
source "$(dirname "$0")/check_lib.bash"
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
unset STXXLCFG
cd "$work"
tiny_config tiny.cfg
mkdir adir
: > empty.file
graph=(--config tiny.cfg --no-progress)

# An unknown command is named, with the commands there are.
check "an unknown command is named" 2 "'frobnicate' is not a flashxxl command \(expected one of: machine, gen, " \
    "$bin" frobnicate
if "$bin" frobnicate 2>&1 | grep -q "A subcommand is required"; then
    echo "FAIL an unknown command is not reported as a missing one"; fail=1
else
    echo "ok   an unknown command is not reported as a missing one"
fi
check "... a near one still gets a suggestion" 2 "did you mean 'sort' for 'srot'\?" "$bin" srot

# An empty graph file names the file and says it has no edges, whatever the command.
check "bfs /dev/null: no edges" 2 "/dev/null: no edges: the file is empty" "$bin" bfs /dev/null "${graph[@]}"
check "dfs on an empty file: no edges" 2 "empty.file: no edges: the file is empty" "$bin" dfs empty.file "${graph[@]}"

# placement --cluster-br names the option and the value given, not a Bw derived from it.
check "placement --cluster-br 3000" 2 "placement --cluster-br 3000 \(3000 bytes\): expected a multiple of 4 KiB" \
    "$bin" placement --cluster-br 3000 --no-progress
check "placement --cluster-bw 5000" 2 "placement --cluster-bw 5000 \(5000 bytes\): expected a multiple of 4 KiB" \
    "$bin" placement --cluster-bw 5000 --no-progress
check "placement --cluster-br above --bw" 2 "placement --cluster-br 1MiB with --bw 768KiB: .*larger than Bw" \
    "$bin" placement --cluster-br 1MiB --no-progress

# characterize --block-device says what the path is before asking for consent.
check "--block-device on a regular file" 2 "--block-device 'empty.file' is a regular file, not a block device" \
    "$bin" characterize --block-device empty.file
check "--block-device /dev/null" 2 "--block-device '/dev/null' is a character device, not a block device" \
    "$bin" characterize --block-device /dev/null
check "--block-device on a missing path" 2 "--block-device 'no/such/dev': No such file or directory; expected a block device" \
    "$bin" characterize --block-device no/such/dev
check "--block-device on a directory" 2 "--block-device 'adir' is a directory, not a block device" \
    "$bin" characterize --block-device adir --allow-write=adir

# gen --id-width 4 on more than 2^32 nodes names --id-width and --out, before writing anything.
check "gen --id-width 4 on too many nodes" 2 \
    "gen grid: --id-width 4 holds node ids below 2\^32, but the graph has 4900000000 nodes; expected --id-width 8 .*--out 'g.bin'" \
    "$bin" gen grid --side 70000 --format binary --id-width 4 --out g.bin --quiet
[ ! -e g.bin ] || { echo "FAIL gen left g.bin behind"; fail=1; }

# Exit status 2 for a path that is a directory, a file where a directory is expected, or empty.
check "bfs on a directory" 2 "graph file 'adir' is a directory \(expected an edge-list file" "$bin" bfs adir "${graph[@]}"
check "characterize --out FILE" 2 "--out 'empty.file' exists and is not a directory" \
    "$bin" characterize --model hama-ssd-2009 --out empty.file --dry-run
check "reproduce --out FILE" 2 "--out 'empty.file' exists and is not a directory" \
    "$bin" reproduce --tiny --tables uflip_table3 --out empty.file
check "reproduce --out ''" 2 "--out: empty path; expected a directory" "$bin" reproduce --tiny --out ''
check "characterize --out ''" 2 "--out: empty path; expected a directory" \
    "$bin" characterize --model hama-ssd-2009 --out '' --dry-run
check "characterize --experiments ''" 2 "--experiments: empty path; expected an experiment file" \
    "$bin" characterize --model hama-ssd-2009 --experiments '' --dry-run
check "characterize --csv ''" 2 "--csv: empty path; expected a file" \
    "$bin" characterize --model hama-ssd-2009 --csv '' --dry-run
check "characterize --io-log ''" 2 "--io-log: empty path; expected a file" \
    "$bin" characterize --model hama-ssd-2009 --io-log '' --dry-run
check "bfs --out ''" 2 "--out: empty path; expected a file" "$bin" bfs grid:side=3 --out '' "${graph[@]}"
check "dfs --out ''" 2 "--out: empty path; expected a file" "$bin" dfs grid:side=3 --out '' "${graph[@]}"
check "machine --config ''" 2 "--config: empty path; expected a machine config file" "$bin" machine --config '' --no-probe
check "machine --machine ''" 2 "--machine: empty path; expected a machine preset or config file" \
    "$bin" machine --machine '' --no-probe
exit $fail
