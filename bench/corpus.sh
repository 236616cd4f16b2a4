#!/usr/bin/env bash
# Corpus benchmark: time for each public corpus under each model, files per
# second and the slowest file, on one core (issue 5 targets: the whole
# PTX/Manual corpus < 2 s, the Vulkan corpora < 5 s).
#
#   bench/corpus.sh [MEMSIM [CORPUS_DIR [REPS]]]
#
# MEMSIM defaults to build-rel/memsim (cmake -S . -B build-rel
# -DCMAKE_BUILD_TYPE=Release), CORPUS_DIR to ../shared/corpus beside the
# repository, REPS (best of) to 3.  Times are memsim's own (parse +
# exploration per file, from check-corpus), not process start-up.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
memsim="${1:-$root/build-rel/memsim}"
corpus="${2:-$root/../shared/corpus}"
reps="${3:-3}"
if [ ! -x "$memsim" ]; then
    echo "corpus.sh: no memsim at $memsim (build: cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release && cmake --build build-rel -j)" >&2
    exit 2
fi
if [ ! -d "$corpus/dat3m" ]; then
    echo "corpus.sh: no corpus at $corpus" >&2
    exit 2
fi
pin=""
if command -v taskset >/dev/null 2>&1; then pin="taskset -c 0"; fi

# name | directory | extra check-corpus arguments | native model
corpora=(
    "dat3m PTX/Manual|$corpus/dat3m/PTX/Manual|--expected $corpus/dat3m/PTX-expected.csv --allow-unsupported prox|ptx"
    "dat3m VULKAN|$corpus/dat3m/VULKAN|--expected $corpus/dat3m/VULKAN-expected.csv|vulkan"
    "Vulkan Alloy tests|$corpus/vulkan-memorymodel||vulkan"
)
models=(ptx vulkan src11 sc)

printf '%-20s %-7s %6s %10s %9s  %-44s %s\n' corpus model files "time (s)" "files/s" "slowest file (s)" "agreement (native model)"
for entry in "${corpora[@]}"; do
    IFS='|' read -r name dir extra native <<<"$entry"
    for m in "${models[@]}"; do
        best="" line="" summary=""
        for _ in $(seq "$reps"); do
            # shellcheck disable=SC2086
            out="$($pin "$memsim" check-corpus "$dir" $extra --model "$m" 2>&1 || true)"
            t="$(printf '%s\n' "$out" | sed -n 's/^time: \([0-9.]*\) s.*/\1/p')"
            if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then
                best="$t"
                line="$(printf '%s\n' "$out" | grep '^time:')"
                summary="$(printf '%s\n' "$out" | grep '^check-corpus' | sed 's/.*: \([0-9]* files\): /\1: /')"
            fi
        done
        files="$(printf '%s\n' "$line" | sed -n 's/.* for \([0-9]*\) files.*/\1/p')"
        rate="$(printf '%s\n' "$line" | sed -n 's/.*(\([0-9.]*\) files\/s).*/\1/p')"
        slow="$(printf '%s\n' "$line" | sed -n 's/.*slowest: \(.*\)$/\1/p' | sed "s|$corpus/||")"
        agree=""
        if [ "$m" = "$native" ]; then agree="$(printf '%s\n' "$summary" | sed 's/^[0-9]* files: //')"; fi
        printf '%-20s %-7s %6s %10s %9s  %-44s %s\n' "$name" "$m" "$files" "$best" "$rate" "$slow" "$agree"
    done
done
