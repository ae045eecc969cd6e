#!/usr/bin/env bash
# Build cost: compile time and peak compiler memory of a sorting consumer, flashxxl vs STXXL, and of
# every translation unit of the project. Prints a table and JSON.
#
#   bench/build/bench_build_cost.sh            consumers only (about a minute)
#   ALL=1 bench/build/bench_build_cost.sh      also a full build with every TU measured (many minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-std=c++17 -O2 -g -fopenmp -DNDEBUG -Iinclude"
measure() {  # label, source, extra flags
    /usr/bin/time -f "%M %e" -o "$work/$1.time" g++ $flags $3 -c "$2" -o "$work/$1.o"
    read -r rss wall < "$work/$1.time"
    echo "$1 $rss $wall"
}
f=$(measure flashxxl bench/build/consumer_flashxxl.cpp "")
s=$(measure stxxl bench/build/consumer_stxxl.cpp "")
read -r _ f_rss f_s <<< "$f"
read -r _ s_rss s_s <<< "$s"
awk -v fr="$f_rss" -v fs="$f_s" -v sr="$s_rss" -v ss="$s_s" 'BEGIN {
    printf "%-28s %12s %10s\n", "consumer (g++ -O2 -g)", "peak MiB", "seconds"
    printf "%-28s %12.0f %10.2f\n", "flashxxl::sorter", fr / 1024, fs
    printf "%-28s %12.0f %10.2f\n", "stxxl::sorter", sr / 1024, ss
    printf "%-28s %12.2f %10.2f\n", "ratio flashxxl / STXXL", fr / sr, fs / ss }'
json="{\"consumer\": {\"flashxxl\": {\"peak_kib\": $f_rss, \"wall_s\": $f_s}, \"stxxl\": {\"peak_kib\": $s_rss, \"wall_s\": $s_s}}"
if [ "${ALL:-0}" = 1 ]; then
    log="$work/tu.log"
    FLASHXXL_TU_LOG=$log cmake -S . -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/bench/build/measure_tu.sh" >/dev/null
    FLASHXXL_TU_LOG=$log cmake --build "$work/build" -j "${JOBS:-2}" >/dev/null
    echo
    echo "translation units by peak compiler memory (top 10 of $(wc -l < "$log")):"
    sort -rn "$log" | head -10 | awk '{printf "  %8.0f MiB %8.1f s  %s\n", $1/1024, $2, $3}'
    top=$(sort -rn "$log" | head -1)
    read -r t_rss t_s t_name <<< "$top"
    json="$json, \"largest_tu\": {\"object\": \"$(basename "$t_name")\", \"peak_kib\": $t_rss, \"wall_s\": $t_s}, \"tus\": $(wc -l < "$log")"
fi
echo "$json}"
