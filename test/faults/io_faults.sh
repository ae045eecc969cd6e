# Real faults under a file-backed device end with a message naming the device, its backing file,
# what was being written and what to do, and exit status 1; the backing file is removed.
# Faults are injected without root by an LD_PRELOAD shim (fault_shim.cpp) that makes write() to
# the backing file fail with ENOSPC, EIO or EROFS after 2 MiB (and read() with EIO after 1 MiB).
# Usage: io_faults.sh FLASHXXL SHIM
bin=$1
shim=$2
source "$(dirname "$0")/../cli/check_lib.bash"

img="$work/scratch.img"
cat >"$work/machine.cfg" <<CFG
disk=$img,64MiB,syscall name=scratchdisk
CFG
run_sort() {  # errno name
    env LD_PRELOAD="$shim" FLASHXXL_FAULT_PATH="$img" FLASHXXL_FAULT_ERRNO="$1" FLASHXXL_FAULT_AFTER=2097152 \
        "$bin" sort --config "$work/machine.cfg" --items 1000000 --memory 16MiB --br 128KiB --bw 1MiB --no-progress
}

check "ENOSPC names device, file, write and remedy" 1 \
    "device 'scratchdisk' \\($work/machine.cfg:1\\), backing file '$img': writing .* failed: No space left on device; the file system holding '$img' is full" \
    run_sort ENOSPC
[ -e "$img" ] && { echo "FAIL ENOSPC: backing file left behind"; fail=1; }
check "EIO names device, file and remedy" 1 \
    "device 'scratchdisk'.*backing file '$img': writing .* for role [a-z_]+ failed: Input/output error; the storage under '$img' reported an I/O error" \
    run_sort EIO
check "EROFS names device, file and remedy" 1 \
    "device 'scratchdisk'.*failed: Read-only file system; the file system holding '$img' is read-only" \
    run_sort EROFS
check "EIO on a read names the read" 1 \
    "device 'scratchdisk'.*backing file '$img': reading .* at byte offset [0-9]+ for role [a-z_]+ failed: Input/output error" \
    env FLASHXXL_FAULT_OP=read LD_PRELOAD="$shim" FLASHXXL_FAULT_PATH="$img" FLASHXXL_FAULT_ERRNO=EIO \
    FLASHXXL_FAULT_AFTER=1048576 "$bin" sort --config "$work/machine.cfg" --items 1000000 --memory 16MiB \
    --br 128KiB --bw 1MiB --no-progress
# An output whose sync fails is not put in place (fsync fails with EIO everywhere under the shim).
check "bfs --out: a failed sync is an error" 1 "--out '$work/levels.txt': syncing the temporary file failed: Input/output error" \
    env FLASHXXL_FAULT_OP=fsync FLASHXXL_FAULT_ERRNO=EIO LD_PRELOAD="$shim" "$bin" bfs grid:side=4 --no-progress --out "$work/levels.txt"
[ -e "$work/levels.txt" ] && { echo "FAIL bfs --out: the unsynced output was put in place"; fail=1; }
check "gen --out: a failed sync is an error" 1 "cannot sync the finished output of '$work/g.txt': Input/output error" \
    env FLASHXXL_FAULT_OP=fsync FLASHXXL_FAULT_ERRNO=EIO LD_PRELOAD="$shim" "$bin" gen grid --side 4 --out "$work/g.txt"
[ -e "$work/g.txt" ] && { echo "FAIL gen --out: the unsynced output was put in place"; fail=1; }
check "no 'unexpected error' for an I/O fault" 1 "^flashxxl: error: device" run_sort ENOSPC
# Without the shim the same run succeeds: the fault, not the setup, caused the failures above.
check "same run without a fault" 0 "output verified: sorted" \
    "$bin" sort --config "$work/machine.cfg" --items 1000000 --memory 16MiB --br 128KiB --bw 1MiB --no-progress
exit $fail
