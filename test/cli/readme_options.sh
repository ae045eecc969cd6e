#!/usr/bin/env bash
# The README's option table (between <!-- options:begin --> and <!-- options:end -->) lists
# exactly the options each command's --help shows: an option added, renamed or dropped in the
# code without the README (or the other way round) fails here. Usage: readme_options.sh FLASHXXL
set -u
bin=$1
readme=${README:-"$(cd "$(dirname "$0")/../.." && pwd)/README.md"}  # README= to check another copy
source "$(dirname "$0")/check_lib.bash"

table=$(sed -n '/<!-- options:begin -->/,/<!-- options:end -->/p' "$readme")
[ -n "$table" ] || { echo "FAIL README has no options table"; exit 1; }
commands=$("$bin" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ {print $1}')
[ -n "$commands" ] || { echo "FAIL no subcommands in --help"; exit 1; }
for cmd in $commands; do
    row=$(grep -E "^\| \`$cmd\` \|" <<<"$table")
    if [ -z "$row" ]; then echo "FAIL README options table has no row for '$cmd'"; fail=1; continue; fi
    documented=$(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$row" | sort -u)
    shown=$("$bin" "$cmd" --help | grep -oE -- '^  (-[a-zA-Z],)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' |
        grep -vx -- '--help' | sort -u)
    missing=$(comm -13 <(echo "$documented") <(echo "$shown") | tr '\n' ' ')
    extra=$(comm -23 <(echo "$documented") <(echo "$shown") | tr '\n' ' ')
    if [ -n "$missing$extra" ]; then
        echo "FAIL $cmd: --help shows, README lacks: [${missing}]; README lists, --help lacks: [${extra}]"
        fail=1
    else
        echo "ok   $cmd: $(wc -l <<<"$shown") options match"
    fi
done
# Rows for commands that do not exist.
for listed in $(grep -oE '^\| `[a-z]+` \|' <<<"$table" | grep -oE '[a-z]+'); do
    grep -qx "$listed" <<<"$commands" || { echo "FAIL README lists '$listed', which is not a command"; fail=1; }
done
exit $fail
