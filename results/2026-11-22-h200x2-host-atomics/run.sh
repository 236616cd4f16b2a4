#!/usr/bin/env bash
# One device call: the cross-GPU campaign again (with the platform caveat),
# and the one-GPU control of the host-atomics finding.
set -u
out=${OUT:-$PWD/hwcheck-out}; mkdir -p "$out/results"
bash hwrun/campaign.sh h200x2 2>&1 | tail -8
b=$(mktemp -d)
for f in hwrun/*.c sim/*.c model/*.c; do gcc -std=gnu11 -O2 -I. -c "$f" -o "$b/$(echo $f | tr / _).o" & done; wait
gcc -o "$b/mh" "$b"/*.o -ldl -lm -lpthread
for f in results/2026-11-22-h200x2-host-atomics/host_atomics_one_gpu.lit litmus/alloc_hipmallocmanaged_atomicity.lit; do
  timeout 120 "$b/mh" hwrun --instances 3e7 --json "$out/results/control-$(basename $f .lit).json" "$f" 2>&1 | tail -14
done
