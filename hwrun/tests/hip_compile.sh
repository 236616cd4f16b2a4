#!/bin/sh
# The HIP kernels of every library test through hipcc for gfx940 (MI300), then
# the AMDGPU code of a few tests (gfx940 and gfx90a, MI200) checked for the code
# sequences of the memory model (llvm AMDGPUUsage, shared/research/models.md
# 3.3).  Registered only where hipcc was found at configure time.
# usage: hip_compile.sh GEN_COMBINED HIPCC LITMUS_DIR WORK_DIR
set -eu
gen=$1 hipcc=$2 lit=$3 work=$4
mkdir -p "$work"
cd "$work"
# The kernel skeletons' HIP code has its own, faster check (hip_compile_kernels.sh).
files=$(find "$lit" -name '*.lit' -not -path '*/kernels/*' | sort)
gen_rc=0
"$gen" hip all.hip $files > map.txt || gen_rc=$?
n=$(grep -c '^t[0-9]' map.txt || true)
grep '^NOT GENERATED' map.txt || true
grep '^FAILED' map.txt || true
# One architecture for the whole library (the device compile is most of the suite's longest test);
# gfx90a (MI200) code is compiled and checked below for the tests whose code differs there.
echo "hipcc: compiling the kernels of $n tests for gfx940 in one translation unit"
"$hipcc" --offload-arch=gfx940 -O3 -c all.hip -o all.o 2> hipcc.log || {
  grep -v 'warning: -l\|argument unused' hipcc.log | head -60
  echo "FAIL: hipcc could not compile the generated HIP kernels"
  exit 1
}
echo "ok: all $n compile"
fail=0
# spot TEST ARCH "PATTERN..." "ABSENT..."
spot() {
  t=$1 arch=$2 want=$3 absent=$4
  "$gen" hip "$t.hip" "$lit/$t.lit" > /dev/null
  "$hipcc" --offload-arch="$arch" -O3 -S --cuda-device-only "$t.hip" -o "$t.$arch.s" 2>/dev/null
  old_ifs=$IFS; IFS='|'
  for p in $want; do
    if grep -Eq "$p" "$t.$arch.s"; then echo "ok   $t $arch: has '$p'"; else echo "FAIL $t $arch: lacks '$p'"; fail=1; fi
  done
  for p in $absent; do
    [ -z "$p" ] && continue
    if grep -Eq "$p" "$t.$arch.s"; then echo "FAIL $t $arch: has '$p'"; fail=1; else echo "ok   $t $arch: no '$p'"; fi
  done
  IFS=$old_ifs
}
# System release / acquire on MI300: write back and invalidate at system scope.
spot mp_release_acquire gfx940 'buffer_wbl2 sc0 sc1|buffer_inv sc0 sc1|global_store_dword .* sc0 sc1' ''
# Agent release / acquire on MI300: sc1 only (several L2s per agent).
spot mp_rel_acq_agent_diff_wg gfx940 'buffer_wbl2 sc1$|buffer_inv sc1$' 'buffer_wbl2 sc0 sc1|buffer_inv sc0 sc1'
# Relaxed agent accesses: sc1 bits, no cache maintenance at all.
spot mp_relaxed_agent_diff_wg gfx940 'global_store_dword .* sc1$|global_load_dword .* sc1$' 'buffer_wbl2|buffer_inv'
# fence.sc.agent: release and acquire halves.
spot sb_fence_sc_agent_diff_wg gfx940 'buffer_wbl2 sc1$|buffer_inv sc1$' ''
# MI200: system acquire invalidates L2 and L1, system release writes L2 back.
spot mp_release_acquire gfx90a 'buffer_wbl2|buffer_invl2|buffer_wbinvl1_vol' ''
spot mp_rel_acq_agent_diff_wg gfx90a 'buffer_wbinvl1_vol' 'buffer_wbl2|buffer_invl2'
[ $fail = 0 ] && echo "hipcc spot checks: all passed"
if [ $gen_rc != 0 ]; then
  echo "FAIL: some library tests could not be generated (FAILED lines above)"
  fail=1
fi
exit $fail
