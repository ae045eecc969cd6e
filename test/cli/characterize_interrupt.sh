# Ctrl-C / SIGTERM during a run on a file characterize created: the run stops, exits non-zero and removes the file.
set -u
bin=$(readlink -f "$1")
source "$(dirname "$0")/check_lib.bash"
export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
cd "$work"

# interrupted SIGNAL [--keep]: starts a long run, sends SIGNAL once the target exists, checks the outcome
interrupted() {
    local sig=$1 keep=${2:-} img="int-$1${2:-}.img" rc i
    "$bin" characterize --file "$img" --size 16MiB --plan quick --time 5 --queue-depths none --no-plots \
        --no-progress --quiet $keep 2> "err-$sig.txt" &
    local pid=$!
    for i in $(seq 200); do [ -e "$img" ] && break; sleep 0.05; done
    [ -e "$img" ] || { echo "FAIL $sig: the target was never created"; fail=1; kill -KILL "$pid"; wait "$pid"; return; }
    sleep 0.5
    kill -"$sig" "$pid"
    for i in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2> /dev/null; then
        echo "FAIL $sig: still running 10 s after the signal"; fail=1; kill -KILL "$pid"; wait "$pid"; return
    fi
    wait "$pid"; rc=$?
    if [ "$rc" -eq 0 ]; then echo "FAIL $sig: exit 0 after the signal"; fail=1; return; fi
    if ! grep -q "interrupted by SIG$sig: stopped before the next request to '$img'" "err-$sig.txt"; then
        echo "FAIL $sig: message: $(cat "err-$sig.txt")"; fail=1; return
    fi
    if [ -z "$keep" ] && [ -e "$img" ]; then echo "FAIL $sig: the created target was left behind"; fail=1; return; fi
    if [ -n "$keep" ] && [ ! -e "$img" ]; then echo "FAIL $sig --keep: the kept target was removed"; fail=1; return; fi
    echo "ok   $sig $keep: exit $rc, target $([ -e "$img" ] && echo kept || echo removed)"
}
interrupted INT
interrupted TERM
interrupted TERM --keep

[ "$fail" = 0 ] && echo "characterize interrupt: all passed"
exit "$fail"
