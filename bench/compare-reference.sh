#!/usr/bin/env bash
# Reference results: what memsim finds on every library test, kernel
# configuration and corpus file under every model -- final states with their
# execution counts, consistent counts, races (with their counts), hangs,
# errors, diagnoses and verdicts -- one normalized JSON file per test.
# Changes to the exploration engine (issue 12) must leave all of it as it is.
#
#   bench/compare-reference.sh record  [MEMSIM [DIR]]   store today's results in DIR
#   bench/compare-reference.sh compare [MEMSIM [DIR]]   compare a build against DIR, file by file
#
# MEMSIM defaults to build-rel/memsim, DIR to bench/reference.  Environment:
#   JOBS=N     memsim's -j for compare (default 1; the reference is always
#              recorded with -j 1, and -j N must give the same results)
#   CORPUS=DIR the public corpora (default ../shared/corpus beside the
#              repository; skipped with a message when absent)
#   EXTRA=ARGS more memsim options for compare
#   RECORDED_FROM=COMMIT the commit MEMSIM was built from, for DIR/RECORDED
# Search effort (candidates, search nodes) is recorded in DIR/effort.tsv for
# information and printed side by side by compare; it is not compared, since
# reducing it is the point.  Exit status: 0 identical, 1 a difference, 2 setup.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-}"
memsim="${2:-$root/build-rel/memsim}"
dir="${3:-$root/bench/reference}"
corpus="${CORPUS:-$root/../shared/corpus}"
jobs="${JOBS:-1}"
extra="${EXTRA:-}"
case "$mode" in record|compare) ;; *)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
if [ ! -x "$memsim" ]; then
    echo "compare-reference.sh: no memsim at $memsim (cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release && cmake --build build-rel -j)" >&2
    exit 2
fi
memsim="$(cd "$(dirname "$memsim")" && pwd)/$(basename "$memsim")"
command -v jq >/dev/null || { echo "compare-reference.sh: needs jq (apt-get install jq)" >&2; exit 2; }
[ "$mode" = record ] && jobs=1

# Kernel configurations beyond the files' defaults: the benchmark's shapes
# that finish in a few seconds, where equivalent executions abound.
configs=(
    "litmus/kernels/k3_wgspec_barrier.lit|-D TILES=4"
    "litmus/kernels/k3_wgspec_no_barrier.lit|-D TILES=4"
    "litmus/kernels/k6_oneshot.lit|-D R=3 -D NT=1"
    "litmus/kernels/k8a_barrier.lit|-D R=3"
)

# One case: name (the reference file), the directory to run in, the file
# relative to it, memsim options.  Prints "name candidates nodes" on fd 3.
normalize='
  if (.tests | length) == 0 then {bad_input: true}
  else .tests[0] | del(.seconds, .search_nodes, .candidates) end'
run_case() {
    local name="$1" cwd="$2" file="$3" opts="$4" out err rc
    # shellcheck disable=SC2086
    out="$(cd "$cwd" && "$memsim" --json --model all -j "$jobs" $extra $opts "$file" 2>/tmp/cmpref.$$.err)" && rc=0 || rc=$?
    err="$(sed 's/\r.*//' /tmp/cmpref.$$.err | grep -v '^$' || true)"
    local eff; eff="$(jq -r '.tests[0] | "\(.candidates) \(.search_nodes)"' <<<"$out" 2>/dev/null || echo "- -")"
    printf '%s %s\n' "$name" "$eff" >&3
    jq -S --arg err "$err" --argjson rc "$rc" "($normalize) + {exit_status: \$rc, stderr: \$err}" <<<"$out" 2>/dev/null \
        || jq -n -S --arg err "$err" --argjson rc "$rc" '{exit_status: $rc, stderr: $err, no_json: true}'
}

cases=()   # name|cwd|file|opts
# Every .lit under litmus/ (the library, kernels/, shmem/, ...), in name order.
while IFS= read -r f; do
    rel="${f#"$root"/}"
    cases+=("${rel%.lit}|$root|$rel|")
done < <(find "$root/litmus" -name '*.lit' | LC_ALL=C sort)
for c in "${configs[@]}"; do
    IFS='|' read -r file opts <<<"$c"
    cases+=("${file%.lit}$(tr -d ' ' <<<"$opts" | tr '=' '_')|$root|$file|$opts")
done
if [ -d "$corpus/dat3m" ]; then
    for sub in dat3m/PTX/Manual dat3m/VULKAN vulkan-memorymodel; do
        for f in "$corpus/$sub"/*; do
            case "$f" in *.litmus|*.test) ;; *) continue ;; esac
            cases+=("corpus/${f#"$corpus"/}|$corpus|${f#"$corpus"/}|")
        done
    done
else
    echo "compare-reference.sh: no corpus at $corpus: corpus files skipped" >&2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp" /tmp/cmpref.$$.err' EXIT
start=$(date +%s.%N)
exec 3>"$tmp/effort.tsv"
for c in "${cases[@]}"; do
    IFS='|' read -r name cwd file opts <<<"$c"
    mkdir -p "$tmp/results/$(dirname "$name")"
    run_case "$name" "$cwd" "$file" "$opts" >"$tmp/results/$name.json"
done
exec 3>&-
secs="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e - s}')"

if [ "$mode" = record ]; then
    rm -rf "$dir/results"
    mkdir -p "$dir"
    cp -r "$tmp/results" "$dir/results"
    cp "$tmp/effort.tsv" "$dir/effort.tsv"
    {
        echo "memsim: $("$memsim" --version)"
        echo "commit: ${RECORDED_FROM:-$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)}"
        echo "cases: ${#cases[@]}"
    } >"$dir/RECORDED"
    echo "recorded ${#cases[@]} cases in $dir ($secs s)"
    exit 0
fi

if [ ! -d "$dir/results" ]; then
    echo "compare-reference.sh: no reference in $dir (run: $0 record)" >&2
    exit 2
fi
differ=0 missing=0 same=0
for c in "${cases[@]}"; do
    IFS='|' read -r name _ _ _ <<<"$c"
    ref="$dir/results/$name.json" new="$tmp/results/$name.json"
    if [ ! -f "$ref" ]; then
        echo "NEW (not in the reference): $name"
        missing=$((missing + 1))
    elif ! cmp -s "$ref" "$new"; then
        echo "DIFFERS: $name"
        { diff -u "$ref" "$new" || true; } | sed -n '3,40p' | sed 's/^/    /'
        differ=$((differ + 1))
    else
        same=$((same + 1))
    fi
done
# Effort, before and after, summed over the cases both runs have.
awk 'NR==FNR { rc[$1]=$2; rn[$1]=$3; next }
     ($1 in rc) && rc[$1] != "-" && $2 != "-" { oc+=rc[$1]; on+=rn[$1]; nc+=$2; nn+=$3 }
     END { printf "effort: candidates %d -> %d, search nodes %d -> %d\n", oc, nc, on, nn }' \
    "$dir/effort.tsv" "$tmp/effort.tsv"
echo "compare-reference: ${#cases[@]} cases (-j $jobs${extra:+ $extra}), $same identical, $differ differ, $missing not in the reference ($secs s)"
[ "$differ" -eq 0 ] && [ "$missing" -eq 0 ]
