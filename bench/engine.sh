#!/usr/bin/env bash
# Exploration-engine benchmark (issue 12): the scaling shapes (bench/shapes.sh)
# and the kernel rows, each against its target, under memsim's default model
# (src11), one worker unless the row says otherwise.  Prints wall-clock and
# user CPU seconds: on a shared machine the CPU time is the steadier figure,
# so the load average is printed before and after.
#
#   bench/engine.sh [MEMSIM [TIMEOUT_S]]
#
# MEMSIM defaults to build-rel/memsim, TIMEOUT_S (per row) to 120.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
memsim="${1:-$root/build-rel/memsim}"
limit="${2:-120}"
if [ ! -x "$memsim" ]; then
    echo "engine.sh: no memsim at $memsim (cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release && cmake --build build-rel -j)" >&2
    exit 2
fi
shapes="$(mktemp -d)"
trap 'rm -rf "$shapes"' EXIT
"$root/bench/shapes.sh" "$shapes"
k="$root/litmus/kernels"

# label | target seconds | file | options (-q: verdicts; the default --first
# applies where the expectation is a race)
rows=(
    "SB ring, fence.sc, 12 threads|1|$shapes/sb_fence_12.lit|"
    "SB ring, fence.sc, 16 threads|1|$shapes/sb_fence_16.lit|"
    "SB ring, fence.sc, 20 threads|30|$shapes/sb_fence_20.lit|"
    "IRIW, 6 observers|1|$shapes/iriw_6.lit|"
    "8 writers to one location|1|$shapes/writers_8.lit|"
    "SB ring, relaxed, 12 threads|1|$shapes/sb_relaxed_12.lit|"
    "SB ring, relaxed, 16 threads|1|$shapes/sb_relaxed_16.lit|"
    "K8a barrier, CAS spin, 4 ranks|10|$k/k8a_barrier.lit|-D R=4"
    "K3 without barrier, 4 tiles, to its verdict|5|$k/k3_wgspec_no_barrier.lit|-D TILES=8"
    "K3 without barrier, 4 tiles, every execution (--all)|-|$k/k3_wgspec_no_barrier.lit|-D TILES=8 --all"
    "K6 8 ranks x 1 thread|60|$k/k6_oneshot.lit|-D R=8 -D NT=1"
)

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' shape verdict candidates consistent "wall (s)" "user (s)" target met
echo "|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do
    IFS='|' read -r label target file opts <<<"$r"
    tf="$(mktemp)"
    # shellcheck disable=SC2086
    # the JSON goes to a file: an SB ring of 20 lists a million final states
    # (half a gigabyte in a shell variable)
    of="$(mktemp)"
    { /usr/bin/time -f '%e %U' -o "$tf" timeout "$limit" "$memsim" --json -q -j 1 $opts "$file" >"$of" 2>/dev/null || true; }
    out="$(jq -c '{tests: [.tests[0] | {candidates, stopped_first, models: [.models[0] | {verdict, consistent}]}]}' "$of" 2>/dev/null || true)"
    # The count from the text: jq turns a count past 2^53 into a rounded double.
    cons="$(grep -o '"consistent":[[:space:]]*[0-9]*' "$of" 2>/dev/null | head -1 | grep -o '[0-9]*$' || true)"
    [ -n "$cons" ] || cons=-
    rm -f "$of"
    # time's last line holds the figures (a timeout adds a line before it)
    read -r wall user < <(tail -n 1 "$tf") || { wall=-; user=-; }
    rm -f "$tf"
    verdict="$(jq -r '.tests[0].models[0].verdict // "timeout"' <<<"$out" 2>/dev/null || echo timeout)"
    cands="$(jq -r '.tests[0].candidates // "-"' <<<"$out" 2>/dev/null || echo -)"
    [ -z "$verdict" ] && verdict="timeout"
    [ "$(jq -r '.tests[0].stopped_first // false' <<<"$out" 2>/dev/null)" = true ] && verdict="$verdict (first)"
    met="-"
    if [ "$target" != "-" ]; then
        if [ "$verdict" = timeout ]; then met="no (stopped at ${limit} s wall)"
        elif awk -v a="$wall" -v b="$target" 'BEGIN{exit !(a<b)}'; then met="yes (< $target s)"
        elif awk -v a="$user" -v b="$target" 'BEGIN{exit !(a<b)}'; then met="CPU only (< $target s user)"
        else met="no (< $target s)"; fi
    fi
    printf '| %s `%s` | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$(basename "$file" .lit) $opts" "$verdict" \
        "$cands" "$cons" "$wall" "$user" "$target" "$met"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "-j 2 on the kernel rows: bench/kernels.sh $memsim (columns -j 1 and -j 2)"
