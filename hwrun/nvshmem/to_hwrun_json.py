#!/usr/bin/env python3
"""Turns what hwrun/nvshmem/shmem_tests.cu printed (results.jsonl) into a run
in hwrun's JSON format, judged by memsim itself, so that `memsim report` shows
the NVSHMEM-library runs beside hwrun's.

usage: to_hwrun_json.py RESULTS.jsonl MEMSIM [--date ISO] [--host KIND] > run.json
Run from the repository root (the test files are named relative to it).

Each test's states are the union of what the models allow (memsim --json
--model ptx,src11,sc, run here) and what the hardware showed; each gets its
letter per model as hwrun writes it: A (allowed), F (forbidden), UB (the model
says the program races, so every outcome is undefined).  Exits 1 when a state
the judging model (ptx) forbids was seen: that is a finding, not a format
problem, and the caller must look at it.
"""
import json
import subprocess
import sys

MODELS = ["ptx", "src11", "sc"]
STENCIL_THREADS = ["T[0,0]:bad", "T[0,1]:bad", "T[1,0]:bad", "T[1,1]:bad"]


def state_values(kind, key):
    """The program's histogram key as the test's own names and values."""
    if kind == "other_pe":   # "r0=42"
        return {"C:r0": int(key.split("=", 1)[1])}
    if kind == "stencil":   # "bad=abcd": T[0,0], T[0,1], T[1,0], T[1,1]
        bits = key.split("=", 1)[1]
        if len(bits) != 4 or set(bits) - {"0", "1"}:
            raise ValueError("bad stencil state %r" % key)
        return {name: int(b) for name, b in zip(STENCIL_THREADS, bits)}
    parts = dict(p.split("=", 1) for p in key.split())   # "r0=42 r1=43"
    return {"C:r0": int(parts["r0"]), "C:r1": int(parts["r1"])}


def condition_of(kind, values):
    if kind == "other_pe":
        return values["C:r0"] != 42
    if kind == "stencil":
        return any(v != 0 for v in values.values())
    return values["C:r0"] != 42 or values["C:r1"] != 43


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    path, memsim = argv[1], argv[2]
    date = argv[argv.index("--date") + 1] if "--date" in argv else None
    host = argv[argv.index("--host") + 1] if "--host" in argv else None
    header, lines = None, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError as e:
                sys.stderr.write("%s:%d: error: not JSON: %s\n" % (path, n, e))
                return 2
            if "test" in obj:
                lines.append(obj)
            elif header is None:
                header = obj
    if header is None or not lines:
        sys.stderr.write("%s: error: no header line or no test lines\n" % path)
        return 2
    ngpus, _, gpu_name = header["devices"].partition("x ")
    ngpus = int(ngpus)
    tests, forbidden_seen = [], 0
    for r in lines:
        kind = "stencil" if "stencil" in r["test"] else "other_pe" if "other_pe" in r["test"] else "mp"
        out = subprocess.run([memsim, "--json", "--model", ",".join(MODELS), r["test"]],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.stderr.write("%s: memsim failed (%d): %s\n" % (r["test"], out.returncode, out.stderr))
            return 2
        doc = json.loads(out.stdout)["tests"][0]
        allowed, verdicts, racy = {}, {}, {}
        for m in doc["models"]:
            verdicts[m["model"]] = m["verdict"]
            racy[m["model"]] = bool(m.get("races")) and m.get("races_are_undefined", False)
            allowed[m["model"]] = {json.dumps(s["values"], sort_keys=True)
                                   for s in m["states"] if not s["hang"]}
        states = {}
        for key, count in r["states"].items():
            v = state_values(kind, key)
            states[json.dumps(v, sort_keys=True)] = count
        for m in MODELS:
            for k in allowed[m]:
                states.setdefault(k, 0)
        outcomes, seen_forbidden = [], False
        for k in sorted(states, key=lambda k: (-states[k], k)):
            v = json.loads(k)
            letters = {m: "A" if k in allowed[m] else ("UB" if racy[m] else "F") for m in MODELS}
            seen = states[k] > 0
            if letters["ptx"] == "A":
                cls = "allowed, seen" if seen else "allowed, not seen"
            elif letters["ptx"] == "UB":
                cls = "racy: undefined"
            else:
                cls = "FORBIDDEN, SEEN" if seen else "forbidden, not seen"
                seen_forbidden = seen_forbidden or seen
            outcomes.append({"values": v, "condition": condition_of(kind, v), "hang": False, "error": False,
                             "models": letters, "count": states[k],
                             "fraction": states[k] / r["instances"] if r["instances"] else 0, "class": cls})
        tests.append({"file": r["test"], "test": doc["test"], "status": "ran",
                      "backend": "cuda + NVSHMEM %s device library" % header.get("nvshmem", "?"),
                      "judge_model": "ptx", "verdicts": verdicts, "gpus": ngpus,
                      "instances": r["instances"], "launches": r["launches"],
                      "instances_per_launch": header.get("blocks_per_launch"), "seconds": r["seconds"],
                      "condition": {"count": r["condition"]}, "outcomes": outcomes,
                      "forbidden_seen": seen_forbidden, "result": "forbidden-seen" if seen_forbidden else "ok"})
        forbidden_seen += seen_forbidden
    run = {"tool": "memsim hwrun (NVSHMEM library harness: hwrun/nvshmem/shmem_tests.cu)",
           "date": date, "host": host,
           "command": "bash hwrun/nvshmem/run.sh OUT %d %d %d" % (header.get("launches_per_test", 0),
                                                                   header.get("blocks_per_launch", 0), ngpus),
           "backend": "cuda", "driver": ("CUDA driver API %s, runtime %s" % (header["cuda_driver"], header["cuda_runtime"])
                      if "cuda_driver" in header else "not recorded by this run (its log.txt has nvidia-smi's)"),
           "compiler": "nvcc -rdc=true -arch=sm_90 with libnvshmem_device %s" % header.get("nvshmem"),
           "devices": [{"index": i, "name": gpu_name} for i in range(ngpus)],
           "campaign": {"kind": "nvshmem-library", "pe_per_gpu": 1},
           "tests": tests,
           "summary": {"ran": len(tests), "forbidden_seen": forbidden_seen,
                       "instances": sum(t["instances"] for t in tests)}}
    json.dump(run, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 1 if forbidden_seen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
