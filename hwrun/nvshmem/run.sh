#!/bin/bash
# Builds hwrun/nvshmem/shmem_tests.cu against the NVSHMEM wheel (nvidia-nvshmem-cu13)
# and runs it on GPUs 0 .. NPES-1, one PE each (NPES 2: the two-PE tests, 3: the
# three-PE tests).  Usage (on the GPU machine, from the repository root):
#   bash hwrun/nvshmem/run.sh OUTDIR [LAUNCHES [BLOCKS [NPES]]]
# Writes OUTDIR/results.jsonl (one line per test, PE 0's histogram) and OUTDIR/log.txt.
set -u
out=${1:?usage: run.sh OUTDIR [LAUNCHES [BLOCKS [NPES]]]}
launches=${2:-20000}
blocks=${3:-512}
npes=${4:-2}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
# NVLink multicast stays off (never use it on these shared machines).
export NVSHMEM_DISABLE_NVLS=1
nv=$(python3 -c 'import nvidia.nvshmem as m; print(list(m.__path__)[0])' 2>/dev/null)
if [ -z "$nv" ] || [ ! -d "$nv/include" ]; then
  echo "run.sh: no NVSHMEM wheel (python3 -m pip show nvidia-nvshmem-cu13 says: $(python3 -m pip show nvidia-nvshmem-cu13 2>&1 | head -2))"
  exit 77
fi
echo "== NVSHMEM at $nv: $(python3 -m pip show nvidia-nvshmem-cu13 2>/dev/null | grep ^Version)"
ls "$nv/lib"
nvcc --version | tail -2
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -4
# The wheel ships versioned shared objects only: give the linker unversioned names.
lib=$(mktemp -d)
for f in "$nv"/lib/libnvshmem_host.so.*; do ln -sf "$f" "$lib/libnvshmem_host.so"; done
here=$(cd "$(dirname "$0")" && pwd)
set -x
nvcc -O2 -rdc=true -arch=sm_90 -I"$nv/include" "$here/shmem_tests.cu" -o "$out/shmem_tests" \
  -L"$lib" -L"$nv/lib" -lnvshmem_host -lnvshmem_device -lcuda || exit 2
set +x
export LD_LIBRARY_PATH="$nv/lib:${LD_LIBRARY_PATH:-}"
for p in "$nv"/lib/nvshmem_bootstrap_uid.so*; do export NVSHMEM_BOOTSTRAP_UID_PLUGIN="$p"; done
echo "== run: $launches launches of $blocks blocks per test, $npes PEs"
timeout 400 "$out/shmem_tests" "$launches" "$blocks" "$npes" >"$out/results.jsonl"
rc=$?
if [ $rc -ne 0 ] && [ ! -s "$out/results.jsonl" ]; then
  echo "== first try exited $rc with no result; again over the loopback interface, with NVSHMEM's debug output"
  NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME=lo NVSHMEM_DEBUG=WARN timeout 200 "$out/shmem_tests" 200 "$blocks" "$npes" >"$out/results.jsonl"
  rc=$?
fi
cat "$out/results.jsonl"
rm -f "$out/shmem_tests"
exit $rc
