#!/usr/bin/env bash
# flashxxl's two commands: `./run.sh` (install, build, main job) and `./run.sh test` (whole suite).
#
#   ./run.sh            install missing Debian packages, build, run the main job on the embedded
#                       default machine (hybrid-2009: emulated 2009 SSD + HDD)
#   ./run.sh test       install, build, run the whole test suite: a RelWithDebInfo build, then an
#                       AddressSanitizer + UBSan build of the tests, then ThreadSanitizer on the
#                       tests that start threads of their own
#   ./run.sh build      install and build only (binaries in build/release)
#   ./run.sh format     apply .clang-format to every tracked C++ file (`./run.sh test` checks it)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(g++ cmake make libstxxl-dev libboost-dev libboost-graph-dev libgtest-dev libgmock-dev
          libbenchmark-dev libcli11-dev nlohmann-json3-dev gnuplot-nox fio clang-format
          libopenmpi-dev openmpi-bin)
JOBS=${JOBS:-$(nproc)}

install_dependencies() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "run.sh: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

configure() {  # dir, extra cmake args...
    local dir=$1; shift
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
}
configure_and_build() {  # dir, extra cmake args...
    configure "$@"
    cmake --build "$1" -j "$JOBS"
}

# Every tracked C++ source and header, as .clang-format formats it.
cxx_sources() { git ls-files -z '*.cpp' '*.hpp' '*.h'; }
check_format() {
    if ! cxx_sources | xargs -0 clang-format --dry-run --Werror 2>/tmp/flashxxl-format.$$; then
        grep -m 20 'error:' /tmp/flashxxl-format.$$ >&2
        echo "run.sh: $(grep -c 'error:' /tmp/flashxxl-format.$$) lines differ from .clang-format; './run.sh format' applies it" >&2
        rm -f /tmp/flashxxl-format.$$
        return 1
    fi
    rm -f /tmp/flashxxl-format.$$
    echo "run.sh: every C++ file matches .clang-format"
}

export STXXLLOGFILE=/dev/null STXXLERRLOGFILE=/dev/null
# The tests run under ThreadSanitizer (./run.sh test): those that start threads of their own.
TSAN_TESTS="container_test_parallel_merge container_test_sorter_threads container_test_sorter_workers
device_test_emulated_file tl_test_tl_randomized tl_test_translation_layer tl_test_tl_determinism
characterize_test_queue_depth distributed_test_multisequence_selection distributed_test_distributed_sort"

case "${1:-run}" in
run)
    install_dependencies
    # Only what the main job needs: the CLI (the tests and benchmarks come with `./run.sh test`).
    configure build/release
    cmake --build build/release -j "$JOBS" --target flashxxl_cli
    # The main job: seeds/000 Table 4.1 on the emulated hybrid machine (about a minute).
    ./build/release/flashxxl machine --machine hybrid-2009 --no-probe
    ./build/release/flashxxl placement
    ;;
build)
    install_dependencies
    configure_and_build build/release
    ;;
test)
    install_dependencies
    check_format
    configure_and_build build/release
    ctest --test-dir build/release --output-on-failure -j "$JOBS"
    # Sanitizer build of the library tests (the CLI scripts, benchmarks and packaging test run
    # in the release build above).
    configure_and_build build/asan -DFLASHXXL_SANITIZE=ON -DFLASHXXL_BUILD_BENCH=OFF -DFLASHXXL_BUILD_CLI=OFF
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir build/asan --output-on-failure -j "$JOBS"
    # ThreadSanitizer on the tests that run threads of their own: the parallel merges, the
    # sorter's sorting and merging threads, devices served from several threads, the translation
    # layer's own I/O thread, characterize's concurrent reads (about 4 min).
    configure build/tsan -DFLASHXXL_SANITIZE_THREAD=ON -DFLASHXXL_BUILD_BENCH=OFF -DFLASHXXL_BUILD_CLI=OFF
    cmake --build build/tsan -j "$JOBS" --target $TSAN_TESTS
    for t in $TSAN_TESTS; do
        echo "ThreadSanitizer: $t"
        TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/test/tsan.supp" "build/tsan/test/$t" --gtest_brief=1
    done
    ;;
format)
    install_dependencies
    cxx_sources | xargs -0 clang-format -i
    ;;
*)
    echo "usage: ./run.sh [run|test|build|format]" >&2
    exit 2
    ;;
esac
