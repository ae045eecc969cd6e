#!/usr/bin/env bash
# Compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) that records each compilation's peak memory and time.
# Appends "max_rss_kib wall_s object" to $FLASHXXL_TU_LOG (default: /tmp/flashxxl-tu-cost.log).
log=${FLASHXXL_TU_LOG:-/tmp/flashxxl-tu-cost.log}
out="?"
prev=""
for a in "$@"; do
    [ "$prev" = "-o" ] && out=$a
    prev=$a
done
exec /usr/bin/time -a -o "$log" -f "%M %e $out" "$@"
