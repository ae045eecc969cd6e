# `flashxxl characterize` refuses bad option combinations and impossible plans before any I/O, naming the option.
set -u
bin=$(readlink -f "$1")
source "$(dirname "$0")/check_lib.bash"
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
cd "$work"
model=(characterize --model hama-ssd-2009)

# The write bound saturates instead of wrapping round 2^64 to a small number below the 64 x limit.
printf 'run op=write order=seq block=32MiB count=536870912 repeat=512\nrun op=write order=seq block=32MiB count=536870912 repeat=512\nrun op=write order=seq block=32MiB count=64\n' > ovf4.txt
check "a bound beyond 64 bits exceeds the limit" 0 "bytes to write: more than .* \(beyond 64-bit arithmetic\).*" \
    "$bin" characterize --file t1g.img --size 1GiB --experiments ovf4.txt --dry-run --queue-depths none
check "... and the dry run says the run would be refused" 0 "EXCEEDED, the run would be refused" \
    "$bin" characterize --file t1g.img --size 1GiB --experiments ovf4.txt --dry-run --queue-depths none
check "... and the run is refused" 2 "the plan writes up to more than .*beyond 64-bit arithmetic" \
    "$bin" characterize --file t1g.img --size 1GiB --experiments ovf4.txt --queue-depths none --max-write 1GiB
printf 'run op=write order=seq block=32GiB count=536870912\n' > ovf.txt
check "2^29 writes of 32 GiB are not 0 B" 0 "bytes to write: more than " \
    "$bin" characterize --file t64g.img --size 64GiB --experiments ovf.txt --dry-run --queue-depths none
[ ! -e t1g.img ] && [ ! -e t64g.img ] || { echo "FAIL a refused plan created its target"; fail=1; }

# A sweep's count is capped like a run's; --count is capped at the same 1e9.
printf 'sweep patterns=SR from=4KiB to=4KiB count=999999999999999999 selfscale=no\n' > sw.txt
check "sweep count=1e18" 2 "sw.txt:1: field 'count': expected at most 1e9" "$bin" "${model[@]}" --experiments sw.txt --dry-run
check "--count 2000000000" 2 "--count: '2000000000' is out of range; expected a whole number from 0 to 1000000000" \
    "$bin" "${model[@]}" --count 2000000000 --dry-run --span 64MiB

# Two outputs (or an output and the target) at one path are refused before the run.
check "--csv and --io-log at one path" 2 "--csv 'same.csv' and --io-log 'same.csv' name the same file" \
    "$bin" "${model[@]}" --csv same.csv --io-log same.csv --quiet
[ ! -e same.csv ] || { echo "FAIL the run went ahead and wrote same.csv"; fail=1; }
check "--csv on the target file" 2 "--file 't.img' and --csv './t.img' name the same file" \
    "$bin" characterize --file t.img --size 1MiB --csv ./t.img --force --quiet --queue-depths none
[ ! -e t.img ] || { echo "FAIL the refused run created its target"; fail=1; }
check "--csv on --out's JSON" 2 "--out 'od/characterize.json' and --csv 'od/../od/characterize.json' name the same file" \
    "$bin" "${model[@]}" --out od --csv od/../od/characterize.json --no-plots --quiet

# Options that mean nothing for the chosen target are refused, not ignored.
check "--limit with --file" 2 "--limit applies to --block-device only" \
    "$bin" characterize --file f1 --size 1MiB --limit abc --dry-run
check "--size with --model" 2 "--size applies to --file only" "$bin" "${model[@]}" --size 1MiB --dry-run
check "--keep with --model" 2 "--keep applies to --file only" "$bin" "${model[@]}" --keep --dry-run
check "--allow-write with --file" 2 "--allow-write applies to --block-device only" \
    "$bin" characterize --file f1 --size 1MiB --allow-write=f1 --dry-run
check "--size with --block-device" 2 "--size applies to --file only" \
    "$bin" characterize --block-device /dev/null --allow-write=/dev/null --size 1MiB --dry-run
check "--param with --file" 2 "--param applies to --model only" \
    "$bin" characterize --file f1 --size 1MiB --param chunk=256KiB --dry-run
check "--limit abc" 2 "--limit: size 'abc' is not a number" \
    "$bin" characterize --block-device /dev/null --allow-write=/dev/null --limit abc --dry-run
check "--limit 1000" 2 "--limit 1000 \(1000 bytes\): expected a multiple of 4 KiB of at least 4 KiB" \
    "$bin" characterize --block-device /dev/null --allow-write=/dev/null --limit 1000 --dry-run
[ ! -e f1 ] || { echo "FAIL a refused run created f1"; fail=1; }

# Size errors name the option; a directory as --file points to --block-device.
check "--size abc" 2 "--size: size 'abc' is not a number" "$bin" characterize --file f2 --size abc --dry-run
check "--size 4KB" 2 "--size: size '4KB' uses a decimal unit" "$bin" characterize --file f2 --size 4KB --dry-run
check "--span abc" 2 "--span: size 'abc' is not a number" "$bin" "${model[@]}" --span abc --dry-run
check "--file ." 2 "'\.' is not a regular file; .*use --block-device with --allow-write" \
    "$bin" characterize --file . --dry-run

# A run that fails before writing leaves no --out directory it created.
printf 'precious' > foreign.dat
check "foreign target with --out" 2 "not created by flashxxl characterize" \
    "$bin" characterize --file foreign.dat --size 64KiB --out newdir --quiet --queue-depths none
[ ! -e newdir ] || { echo "FAIL a failed run left the --out directory it created"; fail=1; }
mkdir keep_me
check "an existing --out stays" 2 "not created by flashxxl characterize" \
    "$bin" characterize --file foreign.dat --size 64KiB --out keep_me --quiet --queue-depths none
[ -d keep_me ] || { echo "FAIL a failed run removed an --out directory it had not created"; fail=1; }

[ "$fail" = 0 ] && echo "characterize checks: all passed"
exit "$fail"
