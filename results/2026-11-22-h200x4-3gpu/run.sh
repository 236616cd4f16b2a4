#!/usr/bin/env bash
# The five library tests that need three GPUs, on nvidia-h200-x4, with the
# settings of `hwrun/campaign.sh h200x2` (3e7 instances, start-skew sweep).
set -u
out=${OUT:-$PWD/h200x4-out}; mkdir -p "$out/results"
b=$(mktemp -d)
for f in hwrun/*.c sim/*.c model/*.c; do gcc -std=gnu11 -O2 -I. -c "$f" -o "$b/$(echo $f | tr / _).o" & done; wait
gcc -o "$b/mh" "$b"/*.o -ldl -lm -lpthread
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 "$b/mh" hwrun --select multi --instances 3e7 --seconds 30 --skew 0,100,200,400,800,1600,3200 \
  --control auto --control-seconds 0.5 --json "$out/results/hwrun-h200x4-3gpu.json" \
  litmus/isa2_rel_acq_sys_diff_gpu.lit litmus/kernel_after_partial_race.lit litmus/rwc_fence_sc_sys_diff_gpu.lit \
  litmus/wrc_rel_acq_agent_diff_gpu.lit litmus/wrc_rel_acq_sys_diff_gpu.lit > "$out/results/log-h200x4-3gpu.txt" 2>&1
echo "hwrun exit status $?"
grep -E "^== |result:|condition \(marked" "$out/results/log-h200x4-3gpu.txt"
tail -3 "$out/results/log-h200x4-3gpu.txt"
