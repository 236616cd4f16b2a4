"""Compiles kernels.py for AMD gfx942 (wave 64) and NVIDIA sm_90 with the
Triton on the GPU machine, no AMD GPU needed, and writes every stage
(.ttir, .ttgir, .ll, .amdgcn/.ptx) plus manifest.json.  Run:
    python3 compile.py OUTDIR
The .ll files are what `memsim kernel` reads (instrument/)."""
import json
import os
import platform
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

BLOCK = 64
MP_PRODUCER_SIG = {"src": "*i32", "dst": "*i32", "flag": "*i32", "cur_rank": "i32", "peer_rank": "i32",
                   "heap_bases": "*i64", "BLOCK": "constexpr"}
CASES = [
    ("mp_producer", kernels.mp_producer, MP_PRODUCER_SIG, {"BLOCK": BLOCK}),
    ("mp_producer_no_barrier", kernels.mp_producer_no_barrier, MP_PRODUCER_SIG, {"BLOCK": BLOCK}),
    ("mp_producer_gpu_scope", kernels.mp_producer_gpu_scope, MP_PRODUCER_SIG, {"BLOCK": BLOCK}),
    ("mp_consumer", kernels.mp_consumer,
     {"dst": "*i32", "flag": "*i32", "cur_rank": "i32", "heap_bases": "*i64", "BLOCK": "constexpr"},
     {"BLOCK": BLOCK}),
]
AR_SIG = {"partial": "*i32", "result": "*i32", "tile_completed": "*i32", "cur_rank": "i32",
          "heap_bases": "*i64", "WORLD": "constexpr", "BLOCK": "constexpr", "BARRIER": "constexpr"}
CASES += [
    ("allreduce_one_shot", kernels.allreduce_one_shot, AR_SIG, {"WORLD": 2, "BLOCK": BLOCK, "BARRIER": 1}),
    ("allreduce_one_shot_no_barrier", kernels.allreduce_one_shot, AR_SIG,
     {"WORLD": 2, "BLOCK": BLOCK, "BARRIER": 0}),
]
TARGETS = [("gfx942", GPUTarget("hip", "gfx942", 64)), ("sm90", GPUTarget("cuda", 90, 32))]


def main(out):
    os.makedirs(out, exist_ok=True)
    manifest = {"triton": triton.__version__, "python": platform.python_version(), "block": BLOCK,
                "kernels": []}
    failures = 0
    for tname, target in TARGETS:
        for name, fn, sig, consts in CASES:
            entry = {"kernel": name, "function": fn.fn.__name__, "target": tname,
                     "signature": sig, "constexprs": consts}
            try:
                # num_warps=1: one wave of 64 (AMD) or one warp of 32 lanes
                # (NVIDIA) runs the block, as a small launch would.
                k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=consts), target=target,
                                   options={"num_warps": 1})
                for stage, text in k.asm.items():
                    if isinstance(text, bytes):
                        continue
                    ext = {"llir": "ll"}.get(stage, stage)
                    path = os.path.join(out, f"{name}.{tname}.{ext}")
                    with open(path, "w") as f:
                        f.write(text)
                entry["stages"] = sorted(s for s, t in k.asm.items() if not isinstance(t, bytes))
                entry["llvm_function"] = k.metadata.name
                entry["ok"] = True
            except Exception as e:  # record, keep going: each failure is a finding
                entry["ok"] = False
                entry["error"] = f"{type(e).__name__}: {e}"[:4000]
                failures += 1
            manifest["kernels"].append(entry)
            print(f"{tname:7s} {name:32s} {'ok' if entry['ok'] else 'FAILED: ' + entry['error'][:200]}")
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "out"))
