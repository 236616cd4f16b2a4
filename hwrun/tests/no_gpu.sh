#!/bin/sh
# Without a GPU, `memsim hwrun` says so plainly and exits 3.  The CUDA and HIP
# libraries are pointed at paths that do not exist, so the check means the
# same on a machine that has a GPU.
# usage: no_gpu.sh MEMSIM LITMUS_DIR
memsim=$1 lit=$2
out=$(MEMSIM_LIBCUDA=/nonexistent/libcuda.so.1 MEMSIM_LIBHIP=/nonexistent/libamdhip64.so "$memsim" hwrun "$lit/mp_release_acquire.lit" 2>&1)
rc=$?
echo "$out"
echo "exit status $rc"
[ $rc -eq 3 ] || { echo "FAIL: expected exit status 3"; exit 1; }
echo "$out" | grep -q "no CUDA or HIP GPU found" || { echo "FAIL: expected the plain message"; exit 1; }
echo "$out" | grep -q "nothing run" || { echo "FAIL: expected 'nothing run'"; exit 1; }
# The same for the kernel skeletons, folded or not.
out=$(MEMSIM_LIBCUDA=/nonexistent/libcuda.so.1 MEMSIM_LIBHIP=/nonexistent/libamdhip64.so "$memsim" hwrun --fold-gpus "$lit/kernels" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 3 ] || { echo "FAIL: kernels: expected exit status 3, got $rc"; exit 1; }
echo "$out" | grep -q "no CUDA or HIP GPU found.*nothing run" || { echo "FAIL: kernels: expected the plain message"; exit 1; }
echo "ok"
