# Runs every file of the bad-input corpus (test/bad_input/, listed in expected.txt) through the
# CLI: each must fail with the listed exit status and a message naming the file and the line or
# byte offset. Every corpus file must be listed. Usage: bad_input_corpus.sh FLASHXXL
bin=$1
corpus="$(cd "$(dirname "$0")/../bad_input" && pwd)"
source "$(dirname "$0")/check_lib.bash"
unset STXXLCFG
cd "$work"  # no .stxxl here: --config and the presets only

listed=()
while read -r path status regex; do
    [[ -z "$path" || "$path" == \#* ]] && continue
    listed+=("$path")
    file="$corpus/$path"
    case "$path" in
        config/*) cmd=("$bin" machine --config "$file" --no-probe) ;;
        experiments/*) cmd=("$bin" characterize --model hama-ssd-2009 --experiments "$file" --dry-run) ;;
        edges/*) cmd=("$bin" bfs "$file" --br 4KiB --bw 16KiB --memory 8MiB --no-progress) ;;
        *) echo "FAIL $path: no command for this folder"; fail=1; continue ;;
    esac
    # The file's path, as a literal inside the regex, then the listed message.
    quoted=$(printf '%s' "$file" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
    check "$path" "$status" "$quoted$regex" "${cmd[@]}"
done <"$corpus/expected.txt"

# Every file (and the directory case) of the corpus is listed.
while read -r f; do
    rel=${f#"$corpus"/}
    [[ "$rel" == expected.txt || "$rel" == */a_directory/* ]] && continue
    found=0
    for l in "${listed[@]}"; do [[ "$l" == "$rel" ]] && found=1; done
    [ $found -eq 1 ] || { echo "FAIL $rel: not listed in expected.txt"; fail=1; }
done < <(find "$corpus" -type f)
exit $fail
