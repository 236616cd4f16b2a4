#!/usr/bin/env bash
# Run on a GPU machine of the `device` tool (Triton there compiles for
# gfx942 without an AMD GPU): compiles kernels.py for gfx942 and sm_90 and
# tars the stages into $OUT/triton.tgz, with the environment in env.txt.
set -u
cd "$(dirname "$0")"
out=${OUT:-/tmp/out}
mkdir -p "$out/triton"
{
  date -u; uname -a; nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)'
  python3 -m pip show nvidia-nvshmem-cu13 2>&1 | head -5
} > "$out/triton/env.txt" 2>&1
PYTHONUNBUFFERED=1 python3 compile.py "$out/triton" 2>&1 | tee "$out/triton/compile.log"
tar -C "$out" -czf "$out/triton.tgz" triton && rm -rf "$out/triton"
