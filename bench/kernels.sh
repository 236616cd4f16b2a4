#!/usr/bin/env bash
# Kernel benchmark (issue 3): the kernel skeletons at the issue's target
# configurations, with -j 1 and -j 2, best of REPS; prints one markdown row
# per configuration with memsim's own counts and the peak memory (max RSS).
#
#   bench/kernels.sh [MEMSIM [REPS]]
#
# MEMSIM defaults to build-rel/memsim (cmake -S . -B build-rel
# -DCMAKE_BUILD_TYPE=Release), REPS to 3.  Times are memsim's own (the
# "seconds" of --json: parse + exploration), not process start-up.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
memsim="${1:-$root/build-rel/memsim}"
reps="${2:-3}"
if [ ! -x "$memsim" ]; then
    echo "kernels.sh: no memsim at $memsim (build: cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release && cmake --build build-rel -j)" >&2
    exit 2
fi
k="$root/litmus/kernels"

# label | file | options
configs=(
    "K1 2 ranks x 4 blocks x 2 threads (target < 1 s)|$k/k1_mp_fine.lit|"
    "K3 2 ranks x 2 producer WGs x 2 tiles|$k/k3_wgspec_barrier.lit|-D TILES=4"
    "K3 2 ranks x 2 producer WGs x 4 tiles (target < 1 s)|$k/k3_wgspec_barrier.lit|-D TILES=8"
    "K3 without the barrier, 2 ranks x 2 producer WGs x 2 tiles|$k/k3_wgspec_no_barrier.lit|-D TILES=4"
    "K6 4 ranks x 1 thread (target < 30 s)|$k/k6_oneshot.lit|-D R=4 -D NT=1"
    "K6 4 ranks x 2 threads|$k/k6_oneshot.lit|-D R=4"
    "K6 at agent scope, 3 ranks x 1 thread|$k/k6_oneshot_agent.lit|-D R=3 -D NT=1"
    "K8a 4 ranks (acquire-load spin)|$k/k8a_barrier_4r.lit|"
    "K8a 3 ranks (CAS spin)|$k/k8a_barrier.lit|-D R=3"
    "K8a 4 ranks (CAS spin) (target < 10 s)|$k/k8a_barrier.lit|-D R=4"
)

field() { # name json -> first numeric value of "name"
    grep -m1 "\"$1\":" <<<"$2" | sed 's/.*:[[:space:]]*//; s/[",]//g'
}
best() { # jobs opts file -> "seconds json rss_kb"
    local jobs="$1" opts="$2" file="$3" bestt="" bestj="" rss=0
    for _ in $(seq "$reps"); do
        local out
        # shellcheck disable=SC2086
        out="$( { /usr/bin/time -f 'RSS %M' "$memsim" --json -j "$jobs" $opts "$file" 2>&3 || true; } 3>&1 )"
        local json="${out%RSS *}" r="${out##*RSS }"
        local s; s="$(field seconds "$json")"
        [ "$r" -gt "$rss" ] && rss="$r"
        if [ -z "$bestt" ] || awk -v a="$s" -v b="$bestt" 'BEGIN{exit !(a<b)}'; then bestt="$s"; bestj="$json"; fi
    done
    printf '%s\n%s\n%s' "$bestt" "$rss" "$bestj"
}

echo "| kernel and configuration | verdict | parts | candidates | search nodes | consistent | -j 1 | -j 2 | candidates/s (-j 2) | peak memory |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
    IFS='|' read -r label file opts <<<"$c"
    r1="$(best 1 "$opts" "$file")"
    r2="$(best 2 "$opts" "$file")"
    t1="$(sed -n 1p <<<"$r1")"; m1="$(sed -n 2p <<<"$r1")"; j1="$(sed -n '3,$p' <<<"$r1")"
    t2="$(sed -n 1p <<<"$r2")"; m2="$(sed -n 2p <<<"$r2")"
    cands="$(field candidates "$j1")"
    verdict="$(grep -m1 '"verdict":' <<<"$j1" | sed 's/.*:[[:space:]]*"//; s/".*//')"
    rate="$(awk -v c="$cands" -v t="$t2" 'BEGIN{printf "%.0f", (t > 0 ? c / t : 0)}')"
    mem="$(( (m1 > m2 ? m1 : m2) / 1024 )) MB"
    printf '| %s `%s %s` | %s | %s | %s | %s | %s | %.3f s | %.3f s | %s | %s |\n' \
        "$label" "$(basename "$file" .lit)" "$opts" "$verdict" "$(field parts "$j1")" "$cands" \
        "$(field search_nodes "$j1")" "$(field consistent "$j1")" "$t1" "$t2" "$rate" "$mem"
done
