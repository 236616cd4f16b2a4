#!/usr/bin/env bash
# The ISA check over every AMD example in the repository:
#   * instrument/examples/hip/gen/*.ll    compiled here with llc-22 -O1 for gfx942
#     (the level clang -O1 generates code at: what `clang-22 -S` emits)
#   * instrument/triton/gen/*.gfx942.ll   compiled here with llc-22 -O3 (Triton's
#     AMD backend level), and the .amdgcn that Triton itself emitted next to it
#   * the whole GFX942 table (table.py), one kernel per operation/order/scope
# and compares the report with expected.txt (the findings as they stand;
# README.md explains each MISMATCH).  Usage:
#   check.sh            compare; exit 1 on any difference
#   check.sh --update   rewrite expected.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
llc=${LLC:-llc-22}
py=${PYTHON:-python3}
check() {  # isacheck exits 1 when it reports a MISMATCH: that is data here, not failure
  "$py" "$here/isacheck.py" --llc "$llc" "$@" || [ $? -eq 1 ]
}
report() {  # the checks run side by side (each is mostly llc start-up); printed in order
  cd "$root"
  local tmp jobs=() pids=() i=0
  tmp=$(mktemp -d)
  "$py" "$here/table.py" > "$tmp/table.ll"
  for f in instrument/examples/hip/gen/*.ll; do jobs+=("-O 1 $f"); done
  for f in instrument/triton/gen/*.gfx942.ll; do
    jobs+=("-O 3 $f")
    [ -f "${f%.ll}.amdgcn" ] && jobs+=("$f --asm ${f%.ll}.amdgcn --name ${f%.ll}.amdgcn")
  done
  jobs+=("$tmp/table.ll --name table")
  for j in "${jobs[@]}"; do
    # shellcheck disable=SC2086  # the job is a word list without spaces in its parts
    check $j > "$tmp/$i.out" 2> "$tmp/$i.err" &
    pids+=($!); i=$((i + 1))
  done
  local status=0 pid
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  for ((k = 0; k < i; k++)); do cat "$tmp/$k.out"; cat "$tmp/$k.err" >&2; done
  rm -rf "$tmp"
  return $status
}
if [ "${1:-}" = --update ]; then
  report > "$here/expected.txt" || { echo "isa check: a check could not run" >&2; exit 2; }
  echo "wrote $here/expected.txt: $(grep -c ' -> ' "$here/expected.txt") operations, $(grep -c MISMATCH "$here/expected.txt") mismatches"
  exit 0
fi
out=$(mktemp); trap 'rm -f "$out"' EXIT
if ! report > "$out"; then
  echo "isa check: a check could not run (messages above)" >&2
  exit 2
fi
if ! diff -u "$here/expected.txt" "$out"; then
  echo "isa check: the report differs from instrument/isa/expected.txt (above: - expected, + now)" >&2
  exit 1
fi
echo "isa check: $(grep -c ' -> ' "$out") operations as expected ($(grep -c MISMATCH "$out") known mismatches, README.md)"
