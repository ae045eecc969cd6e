# `flashxxl characterize` runs in bounded, stated memory: --memory, the dry run's bound, the streamed per-IO log.
set -u
bin=$(readlink -f "$1")
source "$(dirname "$0")/check_lib.bash"
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
cd "$work"
model=(characterize --model hama-ssd-2009)

# --help states the bound and that it does not grow with the request count.
check "--help states the bound" 0 "--memory.*does not grow with a run's request count.*percentiles exact up to 131072 requests per run, then within 0.5 %" \
    "$bin" "${model[@]}" --help

# The dry run prints the bound and the limit; a plan beyond --memory is refused before any I/O, naming the option.
check "dry run prints the memory bound" 0 "memory: at most .* \(327 run records, 12 bursts, 0 stride tests; whatever their request counts\), limit --memory 256 MiB: within it" \
    "$bin" "${model[@]}" --plan ajwani --dry-run
check "dry run says a plan beyond --memory would be refused" 0 "limit --memory 8 MiB: EXCEEDED, the run would be refused" \
    "$bin" "${model[@]}" --plan ajwani --dry-run --memory 8MiB
check "a plan beyond --memory is refused" 2 "--memory 8 MiB: the plan's measurements may need up to .*327 run records.*raise --memory" \
    "$bin" "${model[@]}" --plan ajwani --memory 8MiB --out refused --csv refused.csv --io-log refused.log
[ ! -e refused ] && [ ! -e refused.csv ] && [ ! -e refused.log ] || { echo "FAIL a refused run left output behind"; fail=1; }
printf 'run op=read order=rand block=4KiB count=10 repeat=1000\n%.0s' $(seq 40) > many.txt
check "40000 records do not fit 64 MiB" 2 "--memory 64 MiB: .*40000 run records" \
    "$bin" "${model[@]}" --experiments many.txt --memory 64MiB --quiet
check "--memory 0" 2 "--memory 0: expected a positive size" "$bin" "${model[@]}" --memory 0 --quiet
check "--memory abc" 2 "--memory: size 'abc' is not a number" "$bin" "${model[@]}" --memory abc --quiet

# The request count alone does not matter: a run past the exact prefix (131072) within 16 MiB,
# and the per-IO log, streamed as they complete, has one row per request.
printf 'run op=read order=rand block=4KiB count=300000 span=1GiB label=long\nrun op=write order=seq block=64KiB count=500 label=short\n' > long.txt
check "300000 requests within --memory 16MiB" 0 "" \
    "$bin" "${model[@]}" --experiments long.txt --memory 16MiB --io-log long.log --csv long.csv --out long --no-plots --quiet
rows=$(($(wc -l < long.log) - 1))
[ "$rows" = 300500 ] && echo "ok   per-IO log: $rows rows" || { echo "FAIL per-IO log has $rows rows, expected 300500"; fail=1; }
[ "$(grep -c '^long,0,RR,4096,' long.log)" = 300000 ] || { echo "FAIL per-IO log rows of the long run"; fail=1; }
[ "$(tail -1 long.log | cut -d, -f1,5,6)" = "short,499,write" ] || { echo "FAIL last row: $(tail -1 long.log)"; fail=1; }
# ... the long run's percentiles come from the histogram (stated), the short one's are exact
grep -A12 '"label": "long"' long/characterize.json | grep -q '"percentiles_exact": false' ||
    { echo "FAIL the long run does not say its percentiles are approximate"; fail=1; }
grep -A12 '"label": "short"' long/characterize.json | grep -q '"percentiles_exact": true' ||
    { echo "FAIL the short run does not say its percentiles are exact"; fail=1; }
[ "$(grep -c '^long,' long.csv)" = 1 ] || { echo "FAIL CSV row of the long run"; fail=1; }
[ "$(grep '^long,' long.csv | cut -d, -f12)" = 300000 ] || { echo "FAIL CSV ios of the long run"; fail=1; }

[ "$fail" = 0 ] && echo "characterize memory: all checks passed"
exit $fail
