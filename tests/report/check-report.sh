#!/usr/bin/env bash
# memsim report on the checked-in sample runs (tests/report/*.json: trimmed
# real H100 and 2xH200 runs, a run judged by sc, and a kernel run with the
# fields kernel runs add): checks what the page and the summary say, and that
# bad input is an error naming the file and the field.
# usage: check-report.sh MEMSIM SOURCE_DIR
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
has() { grep -q -- "$2" "$1"; }
count() { grep -o -- "$2" "$1" | wc -l; }

cd "$src" || exit 2
"$memsim" report tests/report -o "$out/r" 2>"$out/stderr"
rc=$?
check "report exits 0 (got $rc: $(cat "$out/stderr"))" test $rc = 0
html=$out/r/report.html
md=$out/r/SUMMARY.md
check "report.html written" test -s "$html"
check "SUMMARY.md written" test -s "$md"
check "no Graphviz error" sh -c "! grep -q 'Graphviz failed\|trouble in init_rank' '$html' '$out/stderr'"

# Self-contained: nothing fetched from the network.
check "no external resources" sh -c "! grep -Eqi '(src|href)=\"(https?:)?//|@import|url\\((https?:)?//|<link ' '$html'"
check "inline stylesheet and script" sh -c "grep -q '<style>' '$html' && grep -q 'data-report-ready' '$html'"

# The table: 10 tests, one row each, all ran somewhere, each with a histogram.
check "10 rows (got $(count "$html" '<tr id="row-'))" test "$(count "$html" '<tr id="row-')" = 10
check "10 histograms (got $(count "$html" '<svg class="hist"'))" test "$(count "$html" '<svg class="hist"')" = 10
check "95% intervals drawn" has "$html" 'class="ci"'
check "a bound for outcomes not seen" has "$html" 'class="ci bound"'
check "models side by side" sh -c "grep -q '>ptx<span class=\"dev\">model' '$html' && grep -q '>src11<span' '$html' && grep -q '>sc<span' '$html'"
check "5 runs as columns, the most tests first" sh -c "grep -q '>R1 1x NVIDIA H100 80GB HBM3<span class=\"dev\">h100-sample<' '$html' && grep -q '>R5 1x NVIDIA H100 80GB HBM3<span class=\"dev\">sc-judged-sample<' '$html'"
# Classes: the managed-memory atomicity failure is FORBIDDEN and seen; the
# relaxed 2+2W's weak outcome contradicts sc; a racy test's outcomes are racy.
check "FORBIDDEN seen count in red" has "$html" '<div class="o c-fs" title="FORBIDDEN, SEEN[^"]*">1711843</div>'
check "sc contradicted on 2+2W+rlx" sh -c "grep -A0 'id=\"row-' '$html' | grep '2p2w_relaxed_diff_wg' | grep -q 'forbidden <span class=\"contra\"'"
check "racy letters" has "$html" '<div class="o c-racy" title="racy (undefined) under src11">UB</div>'
check "hang class" has "$html" 'class="o c-hang"'
check "allowed not seen" has "$html" 'class="o c-an"'
check "forbidden not seen" has "$html" 'class="o c-fn"'
# Kernels: verdicts holds/fails/error, unknown classes and fields shown as written.
check "kernel verdicts" sh -c "grep -q 'v-holds' '$html' && grep -q 'v-fails' '$html' && grep -q 'v-error' '$html'"
check "unknown class shown" sh -c "grep -q 'class=\"o c-unk\" title=\"bug shown (stale tile)' '$html'"
check "kernel fields shown" sh -c "grep -q 'out_of_heap_count' '$html' && grep -q 'gpus_folded' '$html' && grep -q 'heap_allocator' '$html'"
check "bug tag" has "$html" 'tag bug">bug: missing barrier'
check "error status" has "$html" 'translation left the symmetric heap'
# hwrun's kernel fields (kernels-sim-sample.json: hwrun --backend sim, the real schema).
check "bug count and time" has "$html" 'R3 bug seen 224 of 2304, first after 0.356 s (2 launches)'
check "out-of-heap bucket, foreseen by the model's error verdict" has "$html" '<div class="o c-as" title="allowed, seen[^"]*">3072</div>'
check "out-of-heap row" has "$html" '(out of heap)</div>'
check "heap allocation shown" has "$html" 'host memory (simulator) on device 0'
check "md bug count" has "$md" 'ok, bug seen 224 of 2304, first after 0.356 s (2 launches)'
# Execution graphs: the weak outcomes' witnesses, and the forbidden state sc forbids, drawn under ptx.
check "graphs embedded (got $(count "$html" 'data:image/svg+xml;base64'))" test "$(count "$html" 'data:image/svg+xml;base64')" -ge 4
check "no model's state: no graph, said so" has "$html" 'no execution of any model reaches'
check "forbidden state of a correct kernel: said so" has "$html" 'FORBIDDEN, SEEN on kernels-sample: dst@1'
# Environment and reproduction.
check "driver and compiler" sh -c "grep -q 'CUDA driver API 13.0' '$html' && grep -q 'NVRTC 13.0' '$html'"
check "reproduce command" has "$html" "memsim hwrun --judge sc --instances 3e7 --seconds 20 --control auto --control-seconds 0.5 --env &#39;block=256"
check "reproduce names the test and seed" has "$html" "--seed 1 litmus/2p2w_relaxed_diff_wg.lit</pre>"
check "2-GPU reproduce keeps the device map" has "$html" "--devices 0,1 litmus/kernels/k1_mp_fine.lit"

# Markdown.
check "md runs table" has "$md" '| R2 `h200x2-sample` | 2x NVIDIA H200 |'
check "md forbidden list" has "$md" '^- `K1 message passing, post-fix, fine-grained heap` (litmus/kernels/k1_mp_fine.lit) on R4'
check "md sc contradicted" has "$md" '^- \*\*sc\*\*: `2+2W+rlx.agent (diff WG)`'
check "md kernels" has "$md" '| `litmus/kernels/k1_mp_no_barrier.lit` | missing barrier'
"$memsim" report --format md -o - tests/report/h100-sample.json >"$out/stdout.md" 2>/dev/null
check "--format md -o - to stdout" has "$out/stdout.md" '^# memsim: hardware against the models'

# Bad input: the file and the field, exit 2.
bad() { # bad NAME CONTENT EXPECTED-MESSAGE
  printf '%s' "$2" >"$out/$1.json"
  "$memsim" report "$out/$1.json" -o "$out/bad" 2>"$out/err"
  local rc=$?
  check "$1: exit 2 (got $rc)" test $rc = 2
  check "$1: message '$3' (got: $(cat "$out/err"))" grep -qF -- "$3" "$out/err"
}
head -c 5000 tests/report/h100-sample.json >"$out/cut.json"
"$memsim" report "$out/cut.json" -o "$out/bad" 2>"$out/err"
check "truncated: exit 2" test $? = 2
check "truncated: file:line:col (got: $(cat "$out/err"))" grep -q "cut.json:[0-9]*:[0-9]*: error: not valid JSON" "$out/err"
bad no-tests '{"tool": "memsim hwrun"}' 'no-tests.json: error: field tests: expected an array, found nothing (missing)'
bad count-string '{"tests": [{"file": "a.lit", "status": "ran", "instances": 10, "outcomes": [{"values": {"x": 1}, "count": "7"}]}]}' \
  'count-string.json: error: field tests[0].outcomes[0].count: expected a number, found a string'
bad no-file '{"tests": [{"status": "ran"}]}' 'no-file.json: error: field tests[0].file: expected a string'
bad ran-no-outcomes '{"tests": [{"file": "a.lit", "status": "ran"}]}' 'field tests[0].outcomes: a test with status "ran" needs its outcomes'
bad bad-ci '{"tests": [{"file": "a.lit", "status": "ran", "instances": 3, "outcomes": [{"values": {"x": 1}, "count": 1, "ci95_clopper_pearson": [0]}]}]}' \
  'field tests[0].outcomes[0].ci95_clopper_pearson: expected [low, high]'
bad value-type '{"tests": [{"file": "a.lit", "status": "ran", "instances": 3, "outcomes": [{"values": {"x": "one"}, "count": 1}]}]}' \
  'field tests[0].outcomes[0].values.x: expected a number'
bad negative '{"tests": [{"file": "a.lit", "status": "ran", "instances": -3, "outcomes": []}]}' \
  'field tests[0].instances: expected a non-negative whole number'
bad huge-sms '{"devices": [{"index": 0, "multiprocessors": 1.7e78}], "tests": []}' \
  'field devices[0].multiprocessors: expected a whole number from 0 to 1048576'
bad huge-value '{"tests": [{"file": "a.lit", "status": "ran", "instances": 3, "outcomes": [{"values": {"x": 1e30}, "count": 1}]}]}' \
  'field tests[0].outcomes[0].values.x: expected a whole number that fits 64 bits'
bad fraction-value '{"tests": [{"file": "a.lit", "status": "ran", "instances": 3, "outcomes": [{"values": {"x": 0.5}, "count": 1}]}]}' \
  'field tests[0].outcomes[0].values.x: expected a whole number that fits 64 bits'
"$memsim" report -j abc tests/report -o "$out/bad" 2>"$out/err"
check "report -j abc: exit 2" test $? = 2
check "report -j abc: message" grep -q "memsim report: error: -j needs a number of workers from 1 to 256, not 'abc'" "$out/err"
"$memsim" report --graph-seconds x tests/report -o "$out/bad" 2>"$out/err"
check "report --graph-seconds x: exit 2" test $? = 2
"$memsim" report "$out/missing.json" -o "$out/bad" 2>"$out/err"
check "missing file: exit 2" test $? = 2
check "missing file named" grep -q "missing.json: error: No such file" "$out/err"

if [ $fails -ne 0 ]; then
  echo "$fails check(s) failed; report in $out kept"
  trap - EXIT
  exit 1
fi
echo "report checks passed"
