#!/usr/bin/env bash
# An existing STXXL config loads unchanged, with STXXL's units and flags: `disk=/path,1G,syscall
# unlink` (1G = 10^9 bytes), from --config, $STXXLCFG, or .stxxl in the working directory.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"
size_is() {  # description, expected size_bytes, command...
    local what=$1 want=$2; shift 2
    if "$@" --no-probe --json > out.json 2> err.txt &&
        python3 -c "
import json, sys
d = json.load(open('out.json'))
sizes = [dev['size_bytes'] for dev in d['machine_spec']['devices']]
assert sizes == [int(sys.argv[1])], sizes
" "$want"; then echo "ok   $what"; else echo "FAIL $what"; head -3 out.json err.txt; fail=1; fi
}
printf '# an STXXL 1.4.1 config\ndisk=%s/stxxl.img,1G,syscall unlink\n' "$work" > stxxl.cfg
# 10^9 bytes, in whole 4 KiB blocks: 244140 x 4096.
size_is "1G is 10^9 bytes (whole 4 KiB blocks)" 999997440 "$bin" machine --config stxxl.cfg
[ -e stxxl.img ] && { echo "FAIL unlink: the backing file outlived the run"; fail=1; }
printf 'disk=%s/a.img,100,syscall direct=no autogrow queue=3\n' "$work" > plain.cfg
size_is "a plain number is MiB, STXXL options accepted" $((100 << 20)) "$bin" machine --config plain.cfg
printf 'disk=%s/b.img,2GiB,syscall nodirect delete_on_exit devid=1\n' "$work" > iec.cfg
size_is "IEC units are powers of two" $((2 << 30)) "$bin" machine --config iec.cfg
printf 'disk=%s/c.img,512MB,syscall\n' "$work" > mb.cfg
size_is "512MB is 512 x 10^6 bytes" 512000000 "$bin" machine --config mb.cfg

# Where STXXL looks: $STXXLCFG, else .stxxl in the working directory, when no machine is named.
size_is "STXXLCFG is read without --config" 999997440 env STXXLCFG="$work/stxxl.cfg" "$bin" machine
cp plain.cfg .stxxl
size_is ".stxxl in the working directory is read" $((100 << 20)) "$bin" machine
size_is "STXXLCFG wins over .stxxl" 999997440 env STXXLCFG="$work/stxxl.cfg" "$bin" machine
check "--machine still names a preset" 0 "machine hybrid-2009" "$bin" machine --machine hybrid-2009 --no-probe
printf 'disk=%s/h.img,200,syscall\n' "$work" > .stxxl.testhost
size_is "./.stxxl.\$HOSTNAME wins over ./.stxxl" $((200 << 20)) env HOSTNAME=testhost "$bin" machine
rm .stxxl .stxxl.testhost
mkdir home
printf 'disk=%s/home.img,300,syscall\n' "$work" > home/.stxxl
size_is "\$HOME/.stxxl is read when the working directory has none" $((300 << 20)) env HOME="$work/home" "$bin" machine
printf 'disk=%s/homehost.img,400,syscall\n' "$work" > home/.stxxl.testhost
size_is "\$HOME/.stxxl.\$HOSTNAME before \$HOME/.stxxl" $((400 << 20)) env HOME="$work/home" HOSTNAME=testhost "$bin" machine
printf 'disk=%s/pid-###.img,1MiB,syscall unlink\n' "$work" > pid.cfg
if "$bin" machine --config pid.cfg --no-probe --json > pid.json 2> err.txt &&
    python3 -c "
import json, sys
p = json.load(open('pid.json'))['machine_spec']['devices'][0]['path']
assert '###' not in p and p.startswith(sys.argv[1] + '/pid-') and p[len(sys.argv[1]) + 5:-4].isdigit(), p
" "$work"; then echo "ok   ### in a path becomes the process id"; else echo "FAIL ### in a path"; cat pid.json err.txt | head -5; fail=1; fi
check "an STXXL flag that flashxxl refuses names line and field" 2 "raw.cfg:1: field 'raw_device'" \
    bash -c "printf 'disk=$work/r.img,1G,syscall raw_device\n' > raw.cfg && '$bin' machine --config raw.cfg --no-probe"
# A $STXXLCFG naming no file: the message says the name came from $STXXLCFG.
check "a missing \$STXXLCFG file names the variable" 2 "\\\$STXXLCFG names '$work/nosuch.cfg', read as no --machine or --config was given: cannot open machine config '$work/nosuch.cfg'.*point STXXLCFG at a machine config, unset it" \
    env STXXLCFG="$work/nosuch.cfg" "$bin" machine --no-probe
exit $fail
