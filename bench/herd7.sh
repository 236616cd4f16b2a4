#!/usr/bin/env bash
# memsim against herd7 on the same shapes (bench/shapes.sh writes each as a
# .lit for memsim and a C11 .litmus for herd7 with RC11): time per shape for
# each and the ratio herd7 / memsim.  Skipped, with a message, when no herd7
# binary is on the PATH.
#
#   bench/herd7.sh [MEMSIM [TIMEOUT_S]]
#
# HERD7_MODEL picks herd7's model file (default rc11.cat, from herd7's
# library); TIMEOUT_S (default 120) caps each run.  Both run on one core.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
memsim="${1:-$root/build-rel/memsim}"
limit="${2:-120}"
model="${HERD7_MODEL:-rc11.cat}"
if ! command -v herd7 >/dev/null 2>&1; then
    echo "herd7.sh: no herd7 on the PATH: comparison skipped (opam install herdtools7 provides it)"
    exit 0
fi
if [ ! -x "$memsim" ]; then
    echo "herd7.sh: no memsim at $memsim" >&2
    exit 2
fi
shapes="$(mktemp -d)"
trap 'rm -rf "$shapes"' EXIT
"$root/bench/shapes.sh" "$shapes"
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

timed() { # command... -> seconds (wall), or "timeout"
    local s e
    s=$(date +%s.%N)
    if ! timeout "$limit" "$@" >/dev/null 2>&1; then
        [ $? -eq 124 ] && { echo timeout; return; }
    fi
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN{printf "%.3f", e - s}'
}

printf '| %s | %s | %s | %s |\n' shape "herd7 -model $model (s)" "memsim -j 1 --model src11 (s)" "ratio herd7/memsim"
echo "|---|---|---|---|"
for shape in sb_fence_12 sb_fence_16 sb_relaxed_12 sb_relaxed_16 iriw_6 writers_8; do
    h="$(timed $pin herd7 -model "$model" "$shapes/$shape.litmus")"
    m="$(timed $pin "$memsim" -q --all -j 1 "$shapes/$shape.lit")"
    ratio="-"
    if [ "$h" != timeout ] && [ "$m" != timeout ]; then
        ratio="$(awk -v h="$h" -v m="$m" 'BEGIN{printf "%.1f", (m > 0 ? h / m : 0)}')"
    elif [ "$h" = timeout ] && [ "$m" != timeout ]; then
        ratio="> $(awk -v h="$limit" -v m="$m" 'BEGIN{printf "%.1f", (m > 0 ? h / m : 0)}')"
    fi
    printf '| %s | %s | %s | %s |\n' "$shape" "$h" "$m" "$ratio"
done
