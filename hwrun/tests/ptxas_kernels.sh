#!/bin/sh
# NVRTC does not assemble inline PTX: ptxas does, when a module is loaded on the
# GPU.  This assembles the PTX of a representative set of kernel skeletons
# (8-bit CAS loops, 8-bit plain accesses, heap translation, translate and
# [ptr], fadd, CAS awaits, barriers in unrolled loops, host steps) for sm_90, so
# a PTX spelling ptxas refuses fails here and not on the GPU machine.
# Registered only where ptxas and NVRTC were found at configure time.
# usage: ptxas_kernels.sh MEMSIM PTXAS LITMUS_DIR WORK_DIR
set -eu
memsim=$1 ptxas=$2 lit=$3 work=$4
mkdir -p "$work"
fail=0
for t in k3_wgspec_plain_locks k4_prodcons_reset k1_translate_order_mismatch k1_translate_swapped_ranks \
         k5_allreduce_atomic_gpu k8a_barrier_2epochs; do
  if ! "$memsim" hwrun --emit-ptx "$lit/kernels/$t.lit" > "$work/$t.ptx" 2> "$work/$t.err"; then
    echo "FAIL $t: NVRTC: $(head -5 "$work/$t.err")"; fail=1; continue
  fi
  if "$ptxas" -arch=sm_90 "$work/$t.ptx" -o "$work/$t.cubin" 2> "$work/$t.ptxas"; then
    echo "ok   $t: ptxas assembled $(wc -c < "$work/$t.cubin") bytes for sm_90"
  else
    echo "FAIL $t: ptxas:"; head -20 "$work/$t.ptxas"; fail=1
  fi
done
# The 8-bit locks really are CAS loops on the 32-bit word, and the heap's bounds check is there.
grep -q 'atom.release.gpu.global.cas.b32' "$work/k4_prodcons_reset.ptx" || { echo "FAIL: no 32-bit CAS loop for the i8 lock"; fail=1; }
grep -Eq 'st\.weak\.global(\.wt)?\.s8' "$work/k3_wgspec_plain_locks.ptx" || { echo "FAIL: no 8-bit plain store"; fail=1; }
[ $fail = 0 ] && echo "ptxas: all kernel skeletons checked assemble"
exit $fail
