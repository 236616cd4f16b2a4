#!/bin/sh
# The reduction of commuting read-modify-writes (sim/commute.c) must not
# change anything memsim prints but the effort: every case runs with and
# without --no-reduce (every execution, one worker) and the outputs, states
# with their execution counts, races, hangs and verdicts, must be identical
# (only the Time line differs).  Cases marked "reduced" must also explore
# fewer candidates, so that the comparison is not vacuous.  Last, K6 at 7
# ranks has 6!^7 executions, more than 2^64: the count must be exact.
#   reduce_agrees.sh MEMSIM SOURCE_DIR
set -u
memsim="$1"
src="$2"
tmp="${TMPDIR:-/tmp}/reduce_agrees.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
candidates() { sed -n 's/.*"candidates":[[:space:]]*\([0-9]*\).*/\1/p' "$1" | head -1; }
check() { # reduced|same FILE ARGS...
    kind="$1"; file="$2"; shift 2
    "$memsim" -j 1 --all "$src/$file" "$@" | grep -v '^Time ' > "$tmp/a"
    "$memsim" -j 1 --all --no-reduce "$src/$file" "$@" | grep -v '^Time ' > "$tmp/b"
    if ! cmp -s "$tmp/a" "$tmp/b"; then
        echo "FAIL: $file $*: the reduction changes the output:"
        diff "$tmp/b" "$tmp/a" | head -20
        fail=1
        return
    fi
    "$memsim" -j 1 --all --json "$src/$file" "$@" > "$tmp/ja"
    "$memsim" -j 1 --all --json --no-reduce "$src/$file" "$@" > "$tmp/jb"
    ca=$(candidates "$tmp/ja"); cb=$(candidates "$tmp/jb")
    if [ "$kind" = reduced ] && [ "$ca" -ge "$cb" ]; then
        echo "FAIL: $file $*: expected a reduction, explored $ca candidates against $cb"
        fail=1
        return
    fi
    echo "ok: $file $* (candidates $ca, unreduced $cb)"
}
check reduced litmus/kernels/k6_oneshot.lit -D R=3 -D NT=1
check reduced litmus/kernels/k6_oneshot.lit -D R=4 -D NT=1
check reduced litmus/kernels/k6_oneshot.lit -D R=3
check same    litmus/kernels/k6_oneshot_no_barrier.lit
check same    litmus/kernels/k6_oneshot_agent.lit
check same    litmus/kernels/k8a_barrier.lit
check same    tests/commute/acqrel_adds_race.lit
check same    tests/commute/poll_reads_middle.lit
check reduced tests/commute/release_adds_counted.lit
# 6!^7 = 100306130042880000000 > 2^64: printed exactly, in text and JSON.
"$memsim" -q --json "$src/litmus/kernels/k6_oneshot.lit" -D R=7 -D NT=1 > "$tmp/k7"
if grep -q '"consistent":[[:space:]]*100306130042880000000[,}]' "$tmp/k7" &&
   "$memsim" "$src/litmus/kernels/k6_oneshot.lit" -D R=7 -D NT=1 | grep -q '^Positive: 100306130042880000000 Negative: 0$'; then
    echo "ok: K6 -D R=7 -D NT=1: 100306130042880000000 executions"
else
    echo "FAIL: K6 -D R=7 -D NT=1 does not count 6!^7 = 100306130042880000000 executions"
    fail=1
fi
exit $fail
