#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root) and runs the whole suite:
# a release build (unit tests, the litmus and kernel library, the public
# corpora, hwrun's code generation through NVRTC and hipcc), an ASan/UBSan
# build of the same, and the parsers' fuzzers (clang/libFuzzer).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  need=""
  for p in cmake make gcc g++ clang-14 libclang-rt-14-dev libcunit1-dev libcjson-dev graphviz hipcc libamdhip64-dev chromium llvm-22 llvm-22-dev clang-22 python3; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
  done
  if [ -n "$need" ]; then
    echo "== installing:$need"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
  fi
fi

echo "== release build"
cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build-ci -j"$jobs"
(cd build-ci && ctest --output-on-failure -j"$jobs")

# Left to the release run: hipcc's and NVRTC's compiles of the whole library (the compilers' time, not
# memsim's code; hwrun_unit generates the same code under ASan) and --first over the whole library
# (litmus_library and first_counterexample run the same paths under ASan): 10 minutes of 2 cores.
echo "== ASan/UBSan build (hipcc's and NVRTC's whole-library compiles ran above)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMEMSIM_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j"$jobs" -E '^(hwrun_hipcc|hwrun_nvrtc_ptx|first_all_library)$')

echo "== parser fuzzing (libFuzzer, clang-14)"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=Debug -DMEMSIM_SANITIZE=ON -DMEMSIM_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_lit fuzz_litmus fuzz_alloy fuzz_convert fuzz_hwresults fuzz_launch
(cd build-fuzz && ctest --output-on-failure -R '^fuzz_')
