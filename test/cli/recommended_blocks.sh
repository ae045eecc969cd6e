#!/usr/bin/env bash
# The block sizes `flashxxl characterize` recommends for every model preset are accepted by every
# command, both as --br/--bw and as the br=/bw= of the config snippet it prints; invalid pairs are refused.
set -u
bin=$1
source "$(dirname "$0")/check_lib.bash"
bytes() {  # an IEC size as bytes: 128KiB -> 131072
    local v=$1
    case $v in
        *KiB) echo $(( ${v%KiB} * 1024 )) ;;
        *MiB) echo $(( ${v%MiB} * 1048576 )) ;;
        *GiB) echo $(( ${v%GiB} * 1073741824 )) ;;
        *) echo "$v" ;;
    esac
}
for model in hama-ssd-2009 barracuda-7200.11 nvme-gen4 hdd-modern; do
    if ! "$bin" characterize --model "$model" --plan quick --quiet --json > "$work/$model.json" 2> /dev/null; then
        echo "FAIL characterize --model $model"; fail=1; continue
    fi
    # The device line of the snippet: "flash=PATH,SIZE,syscall name=NAME br=X bw=Y"
    line=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["recommendation"]["config_snippet"]; print([l for l in s.splitlines() if not l.startswith("#")][0])' "$work/$model.json")
    br=$(grep -oE ' br=[^ ]+' <<<"$line" | cut -d= -f2)
    bw=$(grep -oE ' bw=[^ ]+' <<<"$line" | cut -d= -f2)
    if [ -z "$br" ] && [ -z "$bw" ]; then echo "FAIL $model: no br=/bw= in the snippet: $line"; fail=1; continue; fi
    echo "     $model recommends Br ${br:-(not measured)}, Bw ${bw:-(not measured)}"
    blocks=()
    [ -n "$br" ] && blocks+=(--br "$br")
    [ -n "$bw" ] && blocks+=(--bw "$bw")
    # M: 40 of the larger block (MM-BFS's sorters and streams need about 37), at least 96 MiB.
    big=$(( $(bytes "${br:-0}") > $(bytes "${bw:-0}") ? $(bytes "${br:-0}") : $(bytes "${bw:-0}") ))
    mem=$(( big * 40 / 1048576 )); [ "$mem" -lt 96 ] && mem=96
    blocks+=(--memory "${mem}MiB" --no-progress)
    check "$model: sort ${blocks[*]}" 0 "verified|sorted" "$bin" sort --machine hybrid-2009 --device ssd "${blocks[@]}" --items 300000
    check "$model: pq ${blocks[*]}" 0 "verified|ordered" "$bin" pq --machine hybrid-2009 --device ssd "${blocks[@]}" --items 300000
    # BFS on a tiny grid: MM_BFS moves whole Bw blocks per level, 1.5 s a level at 32 MiB.
    check "$model: bfs ${blocks[*]}" 0 "nodes reached" "$bin" bfs grid:side=3 "${blocks[@]}"
    check "$model: dfs ${blocks[*]}" 0 "nodes visited" "$bin" dfs grid:side=20 "${blocks[@]}"
    # The snippet's device line, as a memory-backed device with the model: the commands take its sizes.
    kind=${line%%=*}
    opts=$(grep -oE ' (br|bw)=[^ ]+' <<<"$line" | tr -d '\n')
    printf 'name=snippet\n%s=memory,16GiB,memory name=dev model=%s%s\n' "$kind" "$model" "$opts" > "$work/$model.cfg"
    [ -n "$br" ] && want="\"br_bytes\": $(bytes "$br"),?\$" || want="\"bw_bytes\": $(bytes "$bw"),?\$"
    check "$model: sort uses the config's$opts" 0 "$want" \
        "$bin" sort --config "$work/$model.cfg" --memory "${mem}MiB" --items 300000 --json --no-progress
done
check "invalid pair names both sizes and the rule" 2 "Br = 128KiB, Bw = 200KiB: Bw must be a multiple of Br" \
    "$bin" sort --br 128KiB --bw 200KiB --items 1000
check "unaligned Br" 2 "Br must be a multiple of 4 KiB" "$bin" bfs grid:side=10 --br 6000 --bw 6000
check "decimal unit names the option" 2 "--br: size '128K' uses a decimal unit" "$bin" dfs grid:side=10 --br 128K
check "a non-power-of-two pair runs" 0 "sorted" "$bin" sort --br 192KiB --bw 3MiB --memory 64MiB --items 200000 --no-progress
exit $fail
