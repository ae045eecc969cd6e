#!/usr/bin/env bash
# Bad options get a clear usage error (exit 2) naming the option and the accepted range, never a
# default or a wrap-around; --version, the exit-status help; --json output is JSON only, with run metadata.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
tiny_config tiny.cfg
small=(--config tiny.cfg --no-progress --br 4KiB --bw 512KiB --memory 4MiB)
model=(characterize --model hama-ssd-2009 --dry-run)

# Negative and overflowing integers: CLI11 alone wraps -5 to 2^64 - 5.
check "sort --items -5" 2 "--items: '-5' is not accepted; expected a whole number from 1 to 68719476736 \(2\^36\)" \
    "$bin" sort "${small[@]}" --items -5
check "sort --items beyond 64 bits" 2 "--items: '99999999999999999999' overflows 64 bits" \
    "$bin" sort "${small[@]}" --items 99999999999999999999
touch "$work/a-file"
check "sort --backing-dir that does not exist" 2 "--backing-dir: '/nonexistent/dir': No such file or directory; expected an existing directory" \
    "$bin" sort --backing-dir /nonexistent/dir --items 10 --no-progress
check "sort --backing-dir that is a file" 2 "--backing-dir: '.*a-file' is not a directory" \
    "$bin" sort --backing-dir "$work/a-file" --items 10 --no-progress
check "bfs --backing-dir empty" 2 "--backing-dir: empty path; expected a directory" \
    "$bin" bfs grid:side=4 --backing-dir "" --no-progress
check "placement --backing-dir that does not exist" 2 "--backing-dir: '/nonexistent/dir': No such file" \
    "$bin" placement grid:side=4 --backing-dir /nonexistent/dir --no-progress
check "placement --backing-dir that is not writable" 2 "--backing-dir: .*/proc.*(cannot create a file there|Permission denied|Read-only)" \
    "$bin" placement grid:side=4 --backing-dir /proc --no-progress
check "placement --scale without --pace" 2 "--scale has no effect without --pace" "$bin" placement grid:side=4 --scale 5 --no-progress
check "machine --machine CONFIG-FILE" 2 "--machine: unknown machine preset 'tiny.cfg' .*; 'tiny.cfg' is a file: a machine config file goes to --config tiny.cfg" \
    "$bin" machine --machine tiny.cfg --no-probe
check "machine --machine typo" 2 "--machine: unknown machine preset 'hybrid-2010' .*; did you mean 'hybrid-2009'?" \
    "$bin" machine --machine hybrid-2010 --no-probe
check "characterize --machine typo" 2 "--machine: unknown machine preset 'two-hdd2009' .*; did you mean 'two-hdd-2009'?" \
    "$bin" characterize --machine two-hdd2009 --device hdd0 --plan quick
check "sort --items 0x10 (no hex)" 2 "--items: '0x10' is not accepted" "$bin" sort "${small[@]}" --items 0x10
check "bfs --source -1" 2 "--source: '-1' is not accepted; expected a whole number" \
    "$bin" bfs grid:side=10 --source -1 --no-progress
check "bfs --cache-ranks 255" 2 "--cache-ranks: '255' is out of range; expected a whole number from 0 to 254" \
    "$bin" bfs grid:side=10 --cache-ranks 255 --no-progress
check "dfs --source -1" 2 "--source: '-1' is not accepted" "$bin" dfs grid:side=10 --source -1 --no-progress
check "gen --nodes -3" 2 "--nodes: '-3' is not accepted" "$bin" gen random --nodes -3 --degree 2 --out g.txt
check "characterize --count -5" 2 "--count: '-5' is not accepted; expected a whole number from 0 to" \
    "$bin" "${model[@]}" --count -5
check "characterize --repeat -1" 2 "--repeat: '-1' is not accepted; expected a whole number from 1 to 1000" \
    "$bin" "${model[@]}" --repeat -1
check "characterize --repeat 0" 2 "--repeat: '0' is out of range; expected a whole number from 1 to 1000" \
    "$bin" "${model[@]}" --repeat 0
check "characterize --time nan" 2 "--time: 'nan' is not accepted; expected a finite number from 0 to" \
    "$bin" "${model[@]}" --time nan
check "characterize --time -3" 2 "--time: '-3' is out of range" "$bin" "${model[@]}" --time -3
check "--scale inf" 2 "--scale: 'inf' is not accepted; expected a finite number from 1e-06 to" \
    "$bin" machine --no-probe --pace --scale inf
check "gen --degree nan" 2 "--degree: 'nan' is not accepted" "$bin" gen random --nodes 10 --degree nan --out g.txt
check "machine --volume 0" 2 "--volume 0: expected a positive size" "$bin" machine --volume 0
check "a generator spec's bad number names the spec and the key" 2 "graph spec 'grid:side=abc': side: 'abc' is not a node count" \
    "$bin" bfs grid:side=abc --no-progress
check "rmat's bad probability names the key" 2 "graph spec 'rmat:scale=4,a=x': a: " "$bin" bfs rmat:scale=4,a=x --no-progress
check "machine --volume not a size" 2 "--volume: size 'lots' is not a number" "$bin" machine --volume lots

# A memory budget beyond this machine is refused before anything is allocated.
check "sort --memory beyond physical memory" 2 "--memory 1000TiB is more than this machine's physical memory" \
    "$bin" sort --config tiny.cfg --no-progress --memory 1000TiB --items 10
check "bfs --memory beyond physical memory" 2 "--memory 1000TiB is more than this machine's physical memory" \
    "$bin" bfs grid:side=10 --memory 1000TiB --no-progress
check "sort input beyond the devices' capacity" 2 "the input of 100000000 items \(762.94 MiB\) needs 762.94 MiB \(stream 762.94 MiB\): more than the capacity of machine 'tiny' \(256 MiB" \
    "$bin" sort "${small[@]}" --items 100000000
check "sort --items beyond what a run can finish" 2 "--items: '999999999999999999' is out of range; expected a whole number from 1 to 68719476736 \(2\^36\)" \
    "$bin" sort "${small[@]}" --items 999999999999999999 --element-size 40
check "sort --bytes beyond 2^36 items" 2 "--bytes 1TiB holds 137438953472 items of 8 bytes; expected at most 68719476736 items" \
    "$bin" sort "${small[@]}" --bytes 1TiB
check "--memory 0" 2 "--memory 0: expected a positive memory budget" "$bin" sort --config tiny.cfg --memory 0 --items 10
check "placement: the cluster file's Bw counts against --memory" 2 "below the .* that Br = 768KiB, Bw = 768KiB with the cluster file's Br = 8KiB, Bw = 32MiB need" \
    "$bin" placement grid:side=4 --cluster-bw 32MiB --memory 64MiB --no-progress
check "placement --cluster-br 0 (divided by it)" 2 "--cluster-br 0: expected a positive block size" "$bin" placement grid:side=4 --cluster-br 0 --no-progress

# Exit codes: 2 for usage errors CLI11 finds too (it used to return 100-109), documented in --help.
check "unknown option is a usage error" 2 "--frobnicate" "$bin" sort --frobnicate
check "missing subcommand is a usage error" 2 "subcommand" "$bin"
check "a mistyped subcommand gets a suggestion" 2 "did you mean 'sort' for 'srot'\?" "$bin" srot --items 5
check "a mistyped option gets a suggestion" 2 "did you mean --items for --itmes\?" "$bin" sort --itmes 5
if "$bin" sort --zzzzzzzz 2>&1 | grep -q "did you mean"; then echo "FAIL a suggestion for a word far from every option"; fail=1
else echo "ok   no suggestion for a word far from every option"; fi
check "--help documents the exit status" 0 "Exit status: 0 success; 1 runtime error .*; 2 usage error" "$bin" --help
check "--version" 0 "^flashxxl [0-9]+\.[0-9]+\.[0-9]+$" "$bin" --version

# --json: stdout is one JSON document with version, command line, timestamp and machine spec,
# also on a file-backed device (STXXL prints its messages to stdout; they now go to stderr).
printf 'disk=%s/scratch.img,64MiB,syscall name=scratch direct=try\n' "$work" > file.cfg
json_ok() {  # description, command...: pure JSON with the run metadata and the key scheme of docs/json.md
    local what=$1; shift
    if "$@" > out.json 2> err.txt && python3 -c "
import json, re, sys
d = json.load(open('out.json'))
for k in ('version', 'command_line', 'timestamp'):
    assert k in d, k
assert isinstance(d['command_line'], list) and d['command_line'][1:2] == [sys.argv[1]], d['command_line']
assert d['timestamp'].endswith('Z'), d['timestamp']
if sys.argv[1] == 'placement':
    assert all(c['machine_spec']['devices'] for c in d['configurations']), d['configurations']
elif sys.argv[1] not in ('gen', 'characterize', 'reproduce'):
    assert d['machine_spec']['devices'], d['machine_spec']
else:  # docs/json.md: these use no machine of the options (reproduce builds the papers' own)
    assert 'machine_spec' not in d, sys.argv[1]
# Units in names: a quantity never hides its unit, and numbers are numbers.
unitless = {'br', 'bw', 'memory', 'size', 'capacity', 'rdv', 'wrv', 'cluster_br', 'cluster_bw', 'element_size', 'block', 'page',
            'pacing', 'id_width', 'segment', 'time', 'elapsed', 'translation_layer_memory',
            'marks_cache', 'tl_memory'}
number_text = re.compile(r'^-?[0-9][0-9.]*(e[-+]?[0-9]+)?\\s*([KMGT]i?B|B|[kKMGT]|s|ms|us)?$')
def walk(x, path):
    if isinstance(x, dict):
        for k, v in x.items():
            assert k not in unitless, path + '.' + k + ': a quantity without its unit in the key'
            assert not k.endswith('mibps'), path + '.' + k + ': write _mib_s'
            assert k not in ('bytes', 'seconds') and not k.startswith('bytes_') and not k.endswith('_seconds'), path + '.' + k + ': sizes end in _bytes, times in _s'
            if k not in ('command_line', 'version'):
                walk(v, path + '.' + k)
    elif isinstance(x, list):
        for i, v in enumerate(x): walk(v, path + '[%d]' % i)
    elif isinstance(x, str):
        assert not number_text.match(x), path + ': number as a string: ' + repr(x)
walk(d, '')
" "$2"; then echo "ok   $what"; else echo "FAIL $what"; head -3 out.json err.txt; fail=1; fi
}
json_ok "sort --json on a file device is pure JSON" "$bin" sort --config file.cfg --items 100000 --memory 8MiB --br 128KiB --bw 1MiB --json
json_ok "machine --json on a file device" "$bin" machine --config file.cfg --json --volume 1MiB
json_ok "bfs --json" "$bin" bfs grid:side=20 --json
json_ok "dfs --json" "$bin" dfs grid:side=20 --json
json_ok "pq --json" "$bin" pq "${small[@]}" --items 1000 --json
json_ok "gen --json" "$bin" gen grid --side 10 --out grid.txt --json
json_ok "placement --json (a machine spec per configuration)" "$bin" placement grid:side=30 --json
json_ok "characterize --json prints the report on stdout" "$bin" characterize --model hama-ssd-2009 --plan quick --json
json_ok "btree --json" "$bin" btree --config tiny.cfg --br 4KiB --bw 64KiB --items 20000 --finds 100 --inserts 100 --batch 1000 --scans 2 --scan-length 500 --memory 1MiB --json
json_ok "machine --json with a model's parameters" "$bin" machine --json --no-probe
json_ok "reproduce --json (no machine spec)" "$bin" reproduce --tiny --out "$work/rep" --no-plots --json --quiet
exit $fail
