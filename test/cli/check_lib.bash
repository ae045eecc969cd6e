# Shared harness of the CLI test scripts: a scratch directory and check(), sourced, not run.
# Sets $work (removed on exit) and $fail (1 once a check failed).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() {  # description, expected exit status, extended regex expected in the output, command...
    local what=$1 status=$2 pattern=$3; shift 3
    local out rc
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" -ne "$status" ]; then echo "FAIL $what: exit $rc, expected $status"; echo "$out" | head -5; fail=1; return; fi
    if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL $what: no /$pattern/ in output"; echo "$out" | head -5; fail=1; return; fi
    echo "ok   $what"
}
tiny_config() {  # path: a one-device machine config (256 MiB emulated Hama SSD, everything on it)
    printf 'name=tiny\nflash=memory,256MiB,memory name=ssd model=hama-ssd-2009\nplacement=single device=ssd\n' > "$1"
}
