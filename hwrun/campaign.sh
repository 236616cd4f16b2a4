#!/usr/bin/env bash
# memsim hwrun campaign: the hardware evidence of issue 4, in one command.
#
#   hwrun/campaign.sh smoke     MP and SB (and, with 2 GPUs, MP across GPUs) for a few seconds:
#                               does the harness work here, and how fast is it?
#   hwrun/campaign.sh h100      every library test whose threads sit on one GPU (kind nvidia-h100-x1)
#   hwrun/campaign.sh h200x2    every library test across GPUs, with the start-skew sweep (nvidia-h200-x2)
#   hwrun/campaign.sh kernels-h100    the 28 kernel skeletons (litmus/kernels/), every rank folded onto
#                               one H100 (--fold-gpus: ranks as kernels and heaps of one device) (nvidia-h100-x1)
#   hwrun/campaign.sh kernels-h200x2  the kernel skeletons with one rank per GPU (2 ranks); tests with
#                               more ranks than GPUs run folded (nvidia-h200-x2)
#   (CAMPAIGN_KERNELS=REGEX picks some of the skeletons, e.g. CAMPAIGN_KERNELS='k1_|k6_')
#   (CAMPAIGN_DIR=litmus/shmem runs the SHMEM tests instead of litmus/kernels, as the memory
#    operations memsim desugars the SHMEM calls to, not through the NVSHMEM library)
#   (or kind=h100 hwrun/campaign.sh)
#
# The kernel modes also write $OUT/hwrun-<kind>-<date>.tar.gz (everything under results/) and
# $OUT/summary-<kind>-<date>.txt; unpack with
#   mkdir -p results/<date>-<kind> && tar -xzf hwrun-<kind>-<date>.tar.gz -C results/<date>-<kind>
#
# Run from the repository root on the GPU machine.  It builds memsim's hwrun
# there (plain gcc: no cJSON, no CMake needed; a carried build-hwrun/ is the
# fallback), tunes the testing environment on relaxed controls, runs the
# tests with a time budget, and writes under $OUT/results/ (default
# ./hwrun-out/results/):
#   hwrun-<kind>-<date>.json   one JSON document: devices, driver, NVRTC, command, environment, and
#                              per test the generated source, seeds, counts, rates, 95% intervals
#   summary-<kind>-<date>.txt  one line per test and the totals
#   log-<kind>-<date>.txt      the full text reports, build and device information
#   env-<kind>-<date>.txt      the tuned environment (reuse with --env-file)
# Every command runs under `timeout`; the whole script stays under 9 minutes;
# a crash of one test does not stop the others (the run resumes after it).
set -uo pipefail

kind=${1:-${kind:-smoke}}
case $kind in smoke|h100|h200x2|bench|kernels-h100|kernels-h200x2) ;;
  *) echo "usage: $0 smoke|h100|h200x2|bench|kernels-h100|kernels-h200x2" >&2; exit 2 ;; esac
start=$(date +%s)
limit=${CAMPAIGN_SECONDS:-530}          # hard stop for the whole script (< 9 minutes)
out=${OUT:-$PWD/hwrun-out}
res=$out/results
mkdir -p "$res"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log=$res/log-$kind-$stamp.txt
summary=$res/summary-$kind-$stamp.txt
work=$(mktemp -d /tmp/hwrun-campaign-XXXXXX)
trap 'rm -rf "$work"' EXIT
# NVLink multicast stays off (KINDS.md); hwrun never uses it, this is for anything else.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

say() { echo "[campaign $(( $(date +%s) - start ))s] $*" | tee -a "$log"; }
left() { echo $(( limit - ($(date +%s) - start) )); }

say "kind=$kind out=$res"
{ uname -a; cat /etc/os-release 2>/dev/null | head -2; } >> "$log" 2>&1
timeout 20 nvidia-smi >> "$log" 2>&1 || say "nvidia-smi: not available"
case $kind in *h200x2) timeout 20 nvidia-smi topo -m >> "$log" 2>&1 || true ;; esac

# ---- build ------------------------------------------------------------------------------
bin=""
build_standalone() {
  local b=$work/build
  mkdir -p "$b"
  local srcs objs pids=() ok=1
  srcs=$(ls hwrun/*.c ir/*.c lit/*.c sim/*.c model/*.c)
  for f in $srcs; do
    o=$b/$(echo "$f" | tr / _).o
    timeout 120 gcc -std=gnu11 -O2 -g -I. -c "$f" -o "$o" 2>> "$b/errors.txt" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  [ $ok = 1 ] || { cat "$b/errors.txt" >> "$log"; return 1; }
  timeout 60 gcc -o "$b/memsim-hwrun" "$b"/*.o -ldl -lm -lpthread 2>> "$log" || return 1
  bin=$b/memsim-hwrun
}
if command -v gcc >/dev/null && build_standalone; then
  say "built $bin with gcc ($(gcc --version | head -1))"
else
  for c in build-hwrun/hwrun/memsim-hwrun build-hwrun/memsim build/memsim; do
    if [ -x "$c" ] && timeout 20 "$c" hwrun --help > /dev/null 2>&1; then bin=$c; break; fi
  done
  [ -n "$bin" ] || { say "FAIL: could not build memsim hwrun and no carried build runs here"; exit 1; }
  say "using the carried $bin"
fi
# CAMPAIGN_HWRUN_ARGS: extra options for every hwrun call (e.g. "--backend sim --env block=64" to
# test this script itself without a GPU).
read -r -a extra <<< "${CAMPAIGN_HWRUN_ARGS:-}"

# libcuda where the loader may not look.
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
    if [ -e "$d/libcuda.so.1" ]; then export MEMSIM_LIBCUDA=$d/libcuda.so.1; say "using $MEMSIM_LIBCUDA"; break; fi
  done
fi

# ---- the GPU is there? ---------------------------------------------------------------------
timeout 120 "$bin" hwrun "${extra[@]}" --control none --instances 1e5 --seconds 2 -q litmus/mp_relaxed_agent_diff_wg.lit \
  > "$work/probe.txt" 2>&1
probe=$?
cat "$work/probe.txt" | tee -a "$log"
if [ $probe = 3 ]; then say "no GPU: nothing run"; exit 3; fi
if [ $probe != 0 ] && [ $probe != 1 ]; then say "FAIL: the first hwrun exited $probe (see above)"; exit 1; fi

# ---- runs -------------------------------------------------------------------------------
# run_tests NAME BUDGET_SECONDS FILE_LIST_FILE ARGS...: runs the listed tests in one process; if it
# dies (crash, timeout), records the test it died on and resumes with the rest.
run_tests() {
  local name=$1 budget=$2 list=$3; shift 3
  local todo=$work/$name.todo part=0 t0=$(date +%s)
  cp "$list" "$todo"
  while [ -s "$todo" ]; do
    part=$((part + 1))
    local rem=$(( budget - ($(date +%s) - t0) ))
    [ $(left) -lt $rem ] && rem=$(left)
    if [ $rem -lt 15 ]; then
      say "$name: out of time; not run: $(wc -l < "$todo") tests"
      sed 's/^/NOT RUN (out of time) /' "$todo" >> "$summary"
      break
    fi
    local jl=$work/$name.$part.jsonl js=$work/$name.$part.json
    say "$name part $part: $(wc -l < "$todo") tests, budget ${rem}s"
    timeout -k 10 $((rem + 20)) "$bin" hwrun "${extra[@]}" "$@" --budget $((rem - 5)) --jsonl "$jl" --json "$js" -q \
      --text "$log" $(cat "$todo") 2>&1 | tee -a "$summary"
    local rc=${PIPESTATUS[0]}
    say "$name part $part: exit status $rc"
    # What finished: the files named in the JSON lines.
    local done_list=$work/$name.done
    grep -o '"file":"[^"]*"' "$jl" 2>/dev/null | sed 's/"file":"//; s/"$//' > "$done_list" || true
    grep -vxF -f "$done_list" "$todo" > "$todo.next" || true
    if [ $rc = 6 ]; then
      # A kernel faulted: that test is recorded (status error); the rest goes on in a new process.
      say "$name: GPU context lost; resuming with the $(wc -l < "$todo.next") tests after it"
      mv "$todo.next" "$todo"
      continue
    fi
    if [ $rc -ge 124 ] || { [ $rc != 0 ] && [ $rc != 1 ] && [ $rc != 4 ] && [ $rc != 5 ] && [ -s "$todo.next" ]; }; then
      if [ -s "$todo.next" ]; then
        local bad; bad=$(head -1 "$todo.next")
        say "$name: the run stopped in $bad (exit $rc); recorded as crashed, going on with the rest"
        echo "CRASHED (exit $rc) $bad" >> "$summary"
        echo "{\"file\":\"$bad\",\"status\":\"error\",\"reason\":\"the hwrun process stopped in this test (exit status $rc)\"}" >> "$jl"
        tail -n +2 "$todo.next" > "$todo"
        continue
      fi
    fi
    mv "$todo.next" "$todo"
    [ -s "$todo" ] && { say "$name: $(wc -l < "$todo") tests left after a clean exit (budget)"; sed 's/^/NOT RUN (out of time) /' "$todo" >> "$summary"; break; }
  done
}

merge_json() {  # merge_json NAME OUTFILE: the parts' JSON documents and JSON lines into one document
  local name=$1 outf=$2
  if command -v python3 > /dev/null; then
    timeout 60 python3 - "$work" "$name" "$outf" "$kind" <<'PY' 2>> "$log"
import glob, json, os, sys
work, name, outf, kind = sys.argv[1:5]
doc, tests, seen = None, [], set()
for js in sorted(glob.glob(f"{work}/{name}.*.json")):
    try:
        d = json.load(open(js))
    except Exception:
        continue  # a part that died: its tests come from the JSON lines below
    doc = doc or {k: v for k, v in d.items() if k not in ("tests", "summary")}
    for t in d.get("tests", []):
        if t.get("file") not in seen:
            seen.add(t.get("file")); tests.append(t)
for jl in sorted(glob.glob(f"{work}/{name}.*.jsonl")):
    for line in open(jl):
        try:
            t = json.loads(line)
        except Exception:
            continue
        if t.get("file") not in seen:
            seen.add(t.get("file")); tests.append(t)
doc = doc or {"tool": "memsim hwrun"}
doc["campaign"] = {"kind": kind, "part": name}
doc["tests"] = tests
st = [t.get("status") for t in tests]
doc["summary"] = {"ran": st.count("ran"), "not_run": st.count("skipped"), "failed": st.count("error"),
                  "bad_input": st.count("bad-input"),
                  "forbidden_seen": sum(1 for t in tests if t.get("forbidden_seen")),
                  "instances": sum(t.get("instances", 0) for t in tests)}
json.dump(doc, open(outf, "w"), indent=1)
print(f"{outf}: {len(tests)} tests, {doc['summary']}")
PY
  else
    cp "$work/$name".*.json "$res/" 2>/dev/null || true
  fi
}

case $kind in
smoke)
  say "smoke: MP and SB, relaxed (weak allowed) and release/acquire (weak forbidden), a few seconds each"
  printf '%s\n' litmus/mp_relaxed_agent_diff_wg.lit litmus/sb_relaxed_diff_wg.lit \
    litmus/mp_rel_acq_agent_diff_wg.lit litmus/sb_fence_sc_agent_diff_wg.lit > "$work/smoke.list"
  run_tests smoke 60 "$work/smoke.list" --control none --instances 3e7 --seconds 4
  ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
  if [ "${ngpu:-0}" -ge 2 ]; then
    printf '%s\n' litmus/mp_release_acquire.lit litmus/sb_fence_sc_sys_diff_gpu.lit > "$work/smoke2.list"
    run_tests smoke2 60 "$work/smoke2.list" --control none --instances 1e7 --seconds 6 --skew 0,200,800
    merge_json smoke2 "$res/smoke2-$stamp.json"
  fi
  merge_json smoke "$res/smoke-$stamp.json"
  ;;
bench)
  say "bench: instances/s and time to the first weak outcome, MP and SB relaxed, default and tuned environments"
  printf '%s\n' litmus/mp_relaxed_agent_diff_wg.lit litmus/sb_relaxed_diff_wg.lit > "$work/bench.list"
  run_tests bench 60 "$work/bench.list" --control none --instances 1e12 --seconds 10
  timeout 120 "$bin" hwrun "${extra[@]}" --tune --tune-rounds 12 --tune-seconds 0.3 --tune-out "$res/env-$kind-$stamp.txt" \
    >> "$log" 2>&1 || say "tune failed (see the log)"
  if [ -s "$res/env-$kind-$stamp.txt" ]; then
    run_tests bench_tuned 60 "$work/bench.list" --control none --instances 1e12 --seconds 10 \
      --env-file "$res/env-$kind-$stamp.txt"
  fi
  merge_json bench "$res/bench-$stamp.json"
  merge_json bench_tuned "$res/bench-tuned-$stamp.json"
  ;;
h100|h200x2)
  env_file=$res/env-$kind-$stamp.txt
  say "tuning the environment on MP, SB and LB relaxed"
  timeout -k 5 120 "$bin" hwrun "${extra[@]}" --tune --tune-rounds 10 --tune-seconds 0.25 --tune-out "$env_file" \
    >> "$log" 2>&1 || say "tune failed or timed out (see the log); the default environment is used"
  envargs=()
  [ -s "$env_file" ] && envargs=(--env-file "$env_file") && say "environment: $(grep -v '^#' "$env_file")"
  # The kernel skeletons have campaigns of their own (kernels-h100, kernels-h200x2).
  find litmus -name '*.lit' -not -path 'litmus/kernels/*' -not -path 'litmus/shmem/*' | sort > "$work/all.list"
  if [ $kind = h100 ]; then
    # 3e7 instances bound a forbidden outcome below 1e-7 (rule of three); the budget shares the rest.
    run_tests h100 $(( $(left) - 40 )) "$work/all.list" --select single "${envargs[@]}" \
      --instances 3e7 --seconds 20 --control auto --control-seconds 0.5
    merge_json h100 "$res/hwrun-h100-$stamp.json"
  else
    run_tests h200x2 $(( $(left) - 40 )) "$work/all.list" --select multi "${envargs[@]}" \
      --instances 3e7 --seconds 30 --skew 0,100,200,400,800,1600,3200 --control auto --control-seconds 0.5
    merge_json h200x2 "$res/hwrun-h200x2-$stamp.json"
  fi
  ;;
kernels-h100|kernels-h200x2)
  # The kernel skeletons: default environment (no tuning: the time goes to the kernels), the
  # start-skew sweep between ranks, every bug's first sighting recorded (JSON "bug").
  # CAMPAIGN_KERNELS: an extended regular expression that picks some of them (default: all 28).
  find "${CAMPAIGN_DIR:-litmus/kernels}" -name '*.lit' | sort | grep -E "${CAMPAIGN_KERNELS:-.}" > "$work/kernels.list"
  n=$(wc -l < "$work/kernels.list")
  if [ $kind = kernels-h100 ]; then
    say "kernels-h100: $n kernel skeletons, every rank folded onto device 0"
    run_tests kernels $(( $(left) - 40 )) "$work/kernels.list" --fold-gpus \
      --instances 1e10 --seconds 12 --skew 0,200,800,3200 --control none
  else
    # Every skeleton runs one rank per GPU; those with more ranks than GPUs (hwrun skips them,
    # "needs N GPUs") run again folded onto one device.
    say "kernels-h200x2: $n skeletons across GPUs; those needing more GPUs than present, folded"
    run_tests kernels $(( ($(left) - 40) * 9 / 10 )) "$work/kernels.list" \
      --instances 1e10 --seconds 14 --skew 0,200,800,3200 --control none
    cat "$work"/kernels.*.jsonl 2>/dev/null | grep '"status":"skipped"' | grep 'needs [0-9]* GPUs' \
      | grep -o '"file":"[^"]*"' | sed 's/"file":"//; s/"$//' > "$work/fold.list" || true
    [ -s "$work/fold.list" ] && run_tests kernels_folded $(( $(left) - 30 )) "$work/fold.list" --fold-gpus \
      --instances 1e10 --seconds 14 --skew 0,200,800,3200 --control none
    merge_json kernels_folded "$res/hwrun-$kind-folded-$stamp.json"
  fi
  merge_json kernels "$res/hwrun-$kind-$stamp.json"
  ;;
esac
case $kind in
kernels-*)
  # One line per kernel: what the model says and what the hardware showed.
  if command -v python3 > /dev/null; then
    python3 - "$res" "$kind" "$stamp" <<'PY' | tee "$res/kernels-summary-$kind-$stamp.txt" | tee -a "$log"
import glob, json, sys
res, kind, stamp = sys.argv[1:4]
best = {}  # per file: the run that ran (a test skipped for want of GPUs may have run folded)
for js in sorted(glob.glob(f"{res}/hwrun-{kind}*-{stamp}.json")):
    for t in json.load(open(js)).get("tests", []):
        f = t.get("file", "?")
        if f not in best or (t.get("status") == "ran" and best[f].get("status") != "ran"):
            best[f] = t
if True:
    for f in sorted(best):
        t = best[f]
        b = t.get("bug") or {}
        name = t.get("file", "?").split("/")[-1]
        if t.get("status") != "ran":
            print(f"{name:40s} {t.get('status')}: {t.get('reason', '')[:100]}")
            continue
        v = b.get("model_verdict", "?")
        if b.get("seen"):
            what = (f"bug SEEN {b['count']}/{b['instances']} first after {b['first_seen_after_seconds']:.3g} s "
                    f"({b['first_seen_after_iterations']} launches)")
        else:
            what = f"bug not seen in {b.get('instances', 0)} (95% bound {b.get('upper95_exact', 1):.2g})"
        ooh = (t.get("out_of_heap") or {}).get("count", 0)
        print(f"{name:40s} {t.get('judge_model')}: {v:6s} {what}; out of heap {ooh}; "
              f"{'folded' if t.get('folded') else 'one rank per GPU'}; timeouts {(t.get('timeouts') or {}).get('count', 0)}")
PY
  fi
  cp "$summary" "$out/summary-$kind-$stamp.txt" 2>/dev/null || true
  [ -s "$res/kernels-summary-$kind-$stamp.txt" ] && cat "$res/kernels-summary-$kind-$stamp.txt" >> "$out/summary-$kind-$stamp.txt"
  tar -czf "$out/hwrun-$kind-$stamp.tar.gz" -C "$res" . && say "wrote $out/hwrun-$kind-$stamp.tar.gz"
  ;;
esac
say "done in $(( $(date +%s) - start )) s; results:"
ls -la "$res" | tee -a "$log"
grep -E '^Summary|FORBIDDEN|CRASHED|ERROR' "$summary" | tee -a "$log" || true
exit 0
