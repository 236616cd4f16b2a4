#!/usr/bin/env bash
# Regenerates the LLVM IR that `memsim kernel` and the ISA check read:
#   hip/gen/NAME.ll    every hip/*.hip, device side, AMD gfx942 (wave 64)
#   cuda/gen/NAME.ll   every cuda/*.cu, device side, NVIDIA sm_90
# and records the compilers in */gen/versions.txt.  Run from anywhere:
#   bash instrument/examples/gen.sh
# Needs Debian 12's clang-22, hipcc + libamdhip64-dev + rocm-device-libs
# (HIP 5.2 headers and device bitcode), and for the CUDA half a CUDA toolkit
# (CUDA_PATH, default /usr/local/cuda); a missing toolkit skips that half
# with a note, never silently.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
clang=${CLANG:-clang-22}
cuda_path=${CUDA_PATH:-/usr/local/cuda}
bitcode=${ROCM_BITCODE:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}

# HIP.  The flags the Debian (ROCm 5.2) headers need with clang 22:
#  * -D__AMDGCN_WAVEFRONT_SIZE=64: clang 20+ no longer predefines it and
#    amd_warp_functions.h uses it for warpSize ("use of undeclared identifier").
#  * the device libraries linked as builtin bitcode (what hipcc itself links):
#    without them threadIdx.x is a call to the external __ockl_get_local_id and
#    __syncthreads() a call to the external __atomic_work_item_fence; with them
#    they inline to llvm.amdgcn.workitem.id.x and `fence syncscope("workgroup")
#    release; llvm.amdgcn.s.barrier; fence syncscope("workgroup") acquire`.
#    ROCm 5.2 has no gfx942 ISA-version library; gfx940's is the closest (it only
#    sets __oclc_ISA_version, which these kernels never read).
#  * -nogpulib, and the libraries linked by hand: clang 22 otherwise stops
#    with "cannot find ROCm device library" (no --rocm-path), and with
#    --rocm-device-lib-path=$bitcode with "cannot find ROCm device library for
#    gfx942" (ROCm 5.2 ships no oclc_isa_version_942.bc).
hip_flags=(-x hip --offload-arch=gfx942 --cuda-device-only -nogpulib -emit-llvm -S -O1 -g
           -D__AMDGCN_WAVEFRONT_SIZE=64)
for lib in hip opencl ockl oclc_isa_version_940 oclc_abi_version_500 oclc_wavefrontsize64_on; do
  hip_flags+=(-Xclang -mlink-builtin-bitcode -Xclang "$bitcode/$lib.bc")
done

mkdir -p "$here/hip/gen"
{
  echo "# made by instrument/examples/gen.sh on $(date -u +%Y-%m-%d)"
  echo "clang: $("$clang" --version | head -1)"
  echo "hip headers: $(dpkg-query -W -f='${Package} ${Version}' libamdhip64-dev 2>/dev/null || echo unknown)"
  echo "device bitcode: $(dpkg-query -W -f='${Package} ${Version}' rocm-device-libs 2>/dev/null || echo unknown) ($bitcode)"
  echo "flags: ${hip_flags[*]}"
} > "$here/hip/gen/versions.txt"
cd "$here/hip"
for src in *.hip; do
  name=${src%.hip}
  # -fdebug-prefix-map: the IR names the sources relative to hip/, not this machine's path.
  "$clang" "${hip_flags[@]}" -fdebug-prefix-map="$here/hip"=. "$src" -o "gen/$name.ll"
  echo "hip/gen/$name.ll"
done

# CUDA.  clang 22 accepts CUDA 13 with a warning ("CUDA version is newer than
# the latest partially supported version 12.9"); cuda::atomic_ref comes from
# the toolkit's libcu++ (include/cccl) and compiles to inline PTX
# (st.release.sys.b32, ld.acquire.gpu.b32, ...), which memsim reads with its
# PTX instruction reader.
if [ ! -x "$cuda_path/bin/nvcc" ] && [ ! -d "$cuda_path/include" ]; then
  echo "gen.sh: no CUDA toolkit at $cuda_path: cuda/gen not regenerated" >&2
  exit 0
fi
cuda_flags=(-x cuda --cuda-gpu-arch=sm_90 --cuda-path="$cuda_path" --cuda-device-only -emit-llvm -S -O1 -g
            -std=c++17 -I"$cuda_path/include/cccl" -Wno-unknown-cuda-version)
mkdir -p "$here/cuda/gen"
{
  echo "# made by instrument/examples/gen.sh on $(date -u +%Y-%m-%d)"
  echo "clang: $("$clang" --version | head -1)"
  echo "cuda: $(grep -m1 'define CUDA_VERSION' "$cuda_path/include/cuda.h" | awk '{print $3}') ($cuda_path; $("$cuda_path/bin/nvcc" --version 2>/dev/null | tail -1))"
  echo "flags: ${cuda_flags[*]}"
} > "$here/cuda/gen/versions.txt"
cd "$here/cuda"
for src in *.cu; do
  name=${src%.cu}
  "$clang" "${cuda_flags[@]}" -fdebug-prefix-map="$here/cuda"=. "$src" -o "gen/$name.ll"
  echo "cuda/gen/$name.ll"
done
