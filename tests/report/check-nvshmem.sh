#!/usr/bin/env bash
# The NVSHMEM-library runs under results/*nvshmem*/ against the models today:
# hwrun/nvshmem/to_hwrun_json.py re-judges each results.jsonl with this memsim,
# finds no state that ptx forbids seen, and gives the same per-test verdicts,
# per-outcome model letters and counts as the committed run JSON that
# `memsim report` shows (a model change that moves a verdict fails here until
# the runs are re-judged).  Also: the converter's errors on bad input.
# usage: check-nvshmem.sh MEMSIM SOURCE_DIR
set -u
memsim=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then :; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
cd "$src" || exit 2
conv=hwrun/nvshmem/to_hwrun_json.py
runs=0
for d in results/*nvshmem*/; do
  [ -f "$d/results.jsonl" ] || continue
  runs=$((runs + 1))
  python3 "$conv" "$d/results.jsonl" "$memsim" >"$out/run.json" 2>"$out/err"
  rc=$?
  check "$d: no ptx-forbidden state seen, converter exit 0 (got $rc: $(cat "$out/err"))" test $rc = 0
  committed=$(ls "$d"/hwrun-nvshmem-*.json 2>/dev/null | head -1)
  check "$d: a committed run JSON" test -n "$committed"
  [ -n "$committed" ] || continue
  python3 - "$committed" "$out/run.json" >"$out/diff" 2>&1 <<'PY'
import json, sys
def key(path):
    d = json.load(open(path))
    return {t["file"]: (t["verdicts"], sorted((json.dumps(o["values"], sort_keys=True), o["count"],
                                               json.dumps(o["models"], sort_keys=True)) for o in t["outcomes"]))
            for t in d["tests"]}
a, b = key(sys.argv[1]), key(sys.argv[2])
bad = [f for f in sorted(set(a) | set(b)) if a.get(f) != b.get(f)]
for f in bad:
    print("differs:", f, "\n  committed:", a.get(f), "\n  today:    ", b.get(f))
sys.exit(1 if bad else 0)
PY
  rc=$?
  check "$d: committed judgement is today's ($(head -c 600 "$out/diff"))" test $rc = 0
done
check "some NVSHMEM runs under results/" test $runs -ge 1

# Bad input: a clear error and exit 2.
printf '{"devices": "2x X"}\n{"test": "litmus/shmem/mp_p_quiet_atomic_inc.lit", "instances": 1, "launches": 1, "seconds": 0, "condition": 0, "states": {"r0=42 r1=43": 1}}\nnot json\n' >"$out/bad.jsonl"
python3 "$conv" "$out/bad.jsonl" "$memsim" >/dev/null 2>"$out/err"
rc=$?
check "bad line: exit 2 (got $rc)" test $rc = 2
check "bad line: file:line named (got: $(cat "$out/err"))" grep -q "bad.jsonl:3: error: not JSON" "$out/err"
printf '{"devices": "2x X"}\n' >"$out/empty.jsonl"
python3 "$conv" "$out/empty.jsonl" "$memsim" >/dev/null 2>"$out/err"
check "no test lines: exit 2" test $? = 2
# A state the judging model forbids, seen: exit 1 and the class says so.
printf '{"devices": "2x X"}\n{"test": "litmus/shmem/mp_p_quiet_atomic_inc.lit", "instances": 3, "launches": 1, "seconds": 0, "condition": 1, "states": {"r0=42 r1=43": 2, "r0=0 r1=43": 1}}\n' >"$out/forbidden.jsonl"
python3 "$conv" "$out/forbidden.jsonl" "$memsim" >"$out/f.json" 2>"$out/err"
rc=$?
check "forbidden seen: exit 1 (got $rc: $(cat "$out/err"))" test $rc = 1
check "forbidden seen: class FORBIDDEN, SEEN" grep -q '"class": "FORBIDDEN, SEEN"' "$out/f.json"
if [ $fails -ne 0 ]; then
  echo "check-nvshmem: $fails check(s) failed"
  exit 1
fi
echo "check-nvshmem: $runs run(s) agree with today's models"
