#!/bin/sh
# The HIP code of a representative set of kernel skeletons (heap translation,
# translate and [ptr], i8 locks, host steps, barriers in unrolled loops, the
# unsafe FP atomic, CAS awaits) through ONE hipcc invocation for gfx940
# (MI300), device code only, to assembly; then a few AMDGPU checks on that same
# output.  Kept to one invocation and one architecture so that it stays fast
# (the whole library's HIP code is compiled by hwrun_hipcc).
# usage: hip_compile_kernels.sh GEN_COMBINED HIPCC LITMUS_DIR WORK_DIR
set -eu
gen=$1 hipcc=$2 lit=$3 work=$4
mkdir -p "$work"
cd "$work"
set -- k1_mp_fine k1_translate_order_mismatch k4_prodcons_reset k3_wgspec_barrier \
       k5_allreduce_fadd_unsafe_mi200 k8a_barrier_2epochs
files=""
for t in "$@"; do files="$files $lit/kernels/$t.lit"; done
"$gen" hip kernels.hip $files > map.txt
grep '^NOT GENERATED\|^FAILED' map.txt && { echo "FAIL: a kernel skeleton was not generated"; exit 1; }
n=$(grep -c '^t[0-9]' map.txt || true)
echo "hipcc: the HIP kernels of $n kernel skeletons for gfx940, one invocation"
"$hipcc" --offload-arch=gfx940 -O3 -S --cuda-device-only kernels.hip -o kernels.s 2> hipcc.log || {
  grep -v 'warning: -l\|argument unused' hipcc.log | head -60
  echo "FAIL: hipcc could not compile the generated HIP kernels of the skeletons"
  exit 1
}
fail=0
check() {  # check DESCRIPTION PATTERN: the assembly must contain PATTERN
  if grep -Eq "$2" kernels.s; then echo "ok   $1"; else echo "FAIL $1: no '$2' in the gfx940 assembly"; fail=1; fi
}
check "system-scope release on the fine heap writes back L2 (k1, k8a)" 'buffer_wbl2 sc0 sc1'
check "system-scope acquire invalidates (k1, k8a)" 'buffer_inv sc0 sc1'
check "compare-and-swap (CAS awaits, 8-bit locks as CAS loops)" 'global_atomic_cmpswap'
check "the unsafe FP add is a hardware atomic (k5 mi200)" '(global|flat)_atomic_add_f32'
check "8-bit lock and data accesses are byte accesses (k4)" 'global_(load|store)_(s|u)?byte'
[ $fail = 0 ] && echo "hipcc kernel skeletons: all $n compile, all checks passed"
exit $fail
