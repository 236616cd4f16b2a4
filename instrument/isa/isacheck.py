#!/usr/bin/env python3
"""Check that gfx942 machine code carries the cache maintenance that the
AMDGPU memory model (LLVM AMDGPUUsage, "AMDHSA Memory Model Code Sequences
GFX942", shared/research/models.md section 3.3) prescribes for each atomic
and fence of the LLVM IR it was compiled from.

    isacheck.py FILE.ll [--asm FILE.s] [--llc llc-22] [--mcpu gfx942] [-O 0-3]

Without --asm the IR is compiled with llc (what clang -S would emit for it).
With --asm the given assembly is checked instead (e.g. the .amdgcn that
Triton itself produced).  IR operations are matched to machine instructions
by their debug location (line:column of the !dbg DILocation = the `.loc` in
the assembly) and by kind, so the IR needs debug locations (HIP -g, Triton);
an operation without one is matched only when it is its function's only
atomic or fence (the table matrix, table.py).

One line per IR atomic or fence:
    FUNC LINE:COL KIND ORDER SCOPE -> ok | MISMATCH: why | unmapped: why | note: why
Exit status: 0 all ok, 1 some MISMATCH, 2 bad input or tool failure.
"""
import argparse
import re
import subprocess
import sys

SCOPES = ("wavefront", "workgroup", "agent", "system")
STRENGTH = {"monotonic": 0, "acquire": 1, "release": 1, "acq_rel": 2, "seq_cst": 3}


# ---------------------------------------------------------------- the table
def expected(kind, order, scope):
    """What the GFX942 table requires for global/generic memory, not tgsplit.

    Returns a dict:
      bits     cache-policy bits the memory instruction itself must carry
               (loads/stores: sc0/sc1 encode the scope; RMWs: only sc1, since
               sc0 on an atomic means "return the old value")
      wbl2     bits of the buffer_wbl2 that must precede it (release), or None
      inv      bits of the buffer_inv that must follow it (acquire), or None
    For a fence, bits is None (there is no memory instruction)."""
    acq = order in ("acquire", "acq_rel", "seq_cst")
    rel = order in ("release", "acq_rel", "seq_cst")
    if kind == "load":
        rel = False            # release on a load is treated as non-atomic ordering
    if kind == "store":
        acq = False            # acquire on a store likewise
    e = {"bits": set(), "wbl2": None, "inv": None}
    if kind in ("load", "store"):
        e["bits"] = {"wavefront": set(), "workgroup": {"sc0"}, "agent": {"sc1"},
                     "system": {"sc0", "sc1"}}[scope]
    elif kind in ("rmw", "cmpxchg"):
        e["bits"] = {"sc1"} if scope == "system" else set()
    else:
        e["bits"] = None
    if rel and scope in ("agent", "system"):
        e["wbl2"] = {"sc1"} if scope == "agent" else {"sc0", "sc1"}
    if acq and scope in ("agent", "system"):
        e["inv"] = {"sc1"} if scope == "agent" else {"sc0", "sc1"}
    return e


# ---------------------------------------------------------------- the IR
OP_RE = {
    "load": re.compile(r"=\s*load atomic\b"),
    "store": re.compile(r"^\s*store atomic\b"),
    "rmw": re.compile(r"\batomicrmw\b"),
    "cmpxchg": re.compile(r"\bcmpxchg\b"),
    "fence": re.compile(r"^\s*fence\b"),
}
ORDERS = r"(monotonic|acquire|release|acq_rel|seq_cst|unordered)"


def parse_ir(path):
    text = open(path).read()
    locs = {}
    for m in re.finditer(r"^!(\d+) = !DILocation\(([^)]*)\)", text, re.M):
        f = dict(re.findall(r"(\w+): (\w+|![0-9]+)", m.group(2)))
        locs["!" + m.group(1)] = (int(f.get("line", 0)), int(f.get("column", 0)))
    ops, func = [], None
    for lineno, line in enumerate(text.splitlines(), 1):
        m = re.match(r"define .*@([\w.$]+)\(", line)
        if m:
            func = m.group(1)
            continue
        if line.startswith("}"):
            func = None
            continue
        if func is None:
            continue
        kind = next((k for k, r in OP_RE.items() if r.search(line)), None)
        if kind is None:
            continue
        body = line.split(", !")[0] if ", !" in line else line
        scope_m = re.search(r'syncscope\("([\w-]+)"\)', body)
        scope = scope_m.group(1) if scope_m else "system"
        one_as = scope.endswith("one-as")
        scope = scope.replace("-one-as", "").replace("one-as", "system") or "system"
        if scope == "singlethread":
            scope = "wavefront"
        orders = re.findall(r"\b" + ORDERS + r"\b", body)
        if not orders:
            raise SystemExit(f"{path}:{lineno}: error: no ordering in: {line.strip()}")
        order = orders[0]
        if kind == "cmpxchg" and len(orders) > 1:
            # The code generator merges success and failure orders into one.
            fail = orders[1]
            merged = {("release", "acquire"): "acq_rel"}.get((order, fail))
            order = merged or max(order, fail, key=lambda o: STRENGTH.get(o, -1))
        asp = re.search(r"ptr addrspace\((\d+)\)", body)
        addrspace = int(asp.group(1)) if asp else 0
        dbg = re.search(r"!dbg (![0-9]+)", line)
        loc = locs.get(dbg.group(1)) if dbg else None
        ops.append({"func": func, "kind": kind, "order": order, "scope": scope,
                    "one_as": one_as, "addrspace": addrspace, "loc": loc,
                    "irline": lineno, "text": line.strip()})
    return ops


# ---------------------------------------------------------------- the assembly
VMEM_RE = re.compile(r"^(global|flat|buffer|scratch)_(load|store|atomic)\w*")


def parse_asm(text):
    """Per function: the instructions, each with the current .loc (line, col)."""
    funcs, cur, loc = {}, None, None
    for raw in text.splitlines():
        line = raw.split(";")[0].rstrip()
        if not line.strip():
            continue
        m = re.match(r"^([\w.$]+):", line)
        if m and not line.startswith("\t"):
            name = m.group(1)
            if not name.startswith("."):
                cur = funcs.setdefault(name, [])
                loc = None
            continue
        s = line.strip()
        if s.startswith(".loc"):
            f = s.split()
            loc = (int(f[2]), int(f[3]))
            continue
        if s.startswith(".") or cur is None:
            if s.startswith(".end_amdgpu_metadata") or s.startswith(".Lfunc_end"):
                pass
            continue
        if s == "s_endpgm":
            cur.append({"mn": s, "ops": "", "loc": loc})
            continue
        mn, _, rest = s.partition(" ")
        cur.append({"mn": mn, "ops": rest.strip(), "loc": loc})
    return funcs


def bits_of(ins):
    return {b for b in ("sc0", "sc1", "nt") if re.search(r"\b" + b + r"\b", ins["ops"])}


def is_vmem(ins):
    m = VMEM_RE.match(ins["mn"])
    return bool(m)


def klass(ins):
    m = VMEM_RE.match(ins["mn"])
    if not m:
        return None
    return {"load": "load", "store": "store", "atomic": "atomic"}[m.group(2)]


def waits_vm0(ins):
    return ins["mn"] == "s_waitcnt" and ("vmcnt(0)" in ins["ops"] or ins["ops"].strip() == "0")


def fmt_bits(b):
    return " ".join(sorted(b)) if b else "(none)"


def wait_after(insts, k):
    """Whether an s_waitcnt vmcnt(0) follows insts[k] before the next vector
    memory access, cache invalidation or the end of the program."""
    for ins in insts[k + 1:]:
        if waits_vm0(ins):
            return True
        if is_vmem(ins) or ins["mn"] in ("buffer_inv", "s_endpgm"):
            return False
    return False


def prefix_check(insts, i, want):
    """Release: a buffer_wbl2 with `want` bits before insts[i] (back to the
    previous vector memory access), and an s_waitcnt vmcnt(0) between them."""
    j = i - 1
    wait_seen = False
    while j >= 0 and not is_vmem(insts[j]):
        ins = insts[j]
        if waits_vm0(ins):
            wait_seen = True
        if ins["mn"] == "buffer_wbl2":
            got = bits_of(ins) - {"nt"}
            if not want <= got:
                return f"buffer_wbl2 {fmt_bits(got)} where {fmt_bits(want)} is required"
            if not wait_seen:
                return (f"buffer_wbl2 {fmt_bits(got)} is not followed by s_waitcnt vmcnt(0) "
                        "before the access (the table: wbl2; wait; access)")
            return None
        j -= 1
    return f"no buffer_wbl2 {fmt_bits(want)} before it"


def suffix_check(insts, i, want, from_fence=False):
    """Acquire: an s_waitcnt vmcnt(0), then a buffer_inv with `want` bits, after
    insts[i] and before the next vector memory access."""
    j = i if from_fence else i + 1
    wait_seen = from_fence
    while j < len(insts) and not (is_vmem(insts[j]) and j != i):
        ins = insts[j]
        if waits_vm0(ins):
            wait_seen = True
        if ins["mn"] == "buffer_inv":
            got = bits_of(ins) - {"nt"}
            if not want <= got:
                return f"buffer_inv {fmt_bits(got)} where {fmt_bits(want)} is required"
            if not wait_seen:
                return "buffer_inv without s_waitcnt vmcnt(0) after the access"
            return None
        if ins["mn"] == "s_endpgm":
            break
        j += 1
    return f"no buffer_inv {fmt_bits(want)} after it before the next memory access"


def check_op(op, insts):
    """Returns (verdict, detail) for one IR operation."""
    e = expected(op["kind"], op["order"], op["scope"])
    if op["addrspace"] == 3:
        return "note", "LDS access: no cache maintenance in the table"
    if op["addrspace"] not in (0, 1):
        return "note", f"address space {op['addrspace']}: not in the global/generic table"
    if op["loc"] is not None:
        at = [k for k, ins in enumerate(insts) if ins["loc"] == op["loc"]]
    elif op["alone"]:
        at = list(range(len(insts)))   # the function's only atomic: all of it
    else:
        return "unmapped", "no debug location on the IR instruction"
    if op["kind"] == "fence":
        if e["wbl2"] is None and e["inv"] is None:
            return "ok", "nothing required"
        wbl2 = [k for k in at if insts[k]["mn"] == "buffer_wbl2"]
        inv = [k for k in at if insts[k]["mn"] == "buffer_inv"]
        why = []
        if e["wbl2"] is not None:
            if not wbl2:
                why.append(f"no buffer_wbl2 {fmt_bits(e['wbl2'])} at the fence")
            else:
                got = bits_of(insts[wbl2[0]]) - {"nt"}
                if not e["wbl2"] <= got:
                    why.append(f"buffer_wbl2 {fmt_bits(got)} where {fmt_bits(e['wbl2'])} is required")
                if not wait_after(insts, wbl2[0]):
                    why.append(f"buffer_wbl2 {fmt_bits(got)} is not followed by s_waitcnt vmcnt(0) "
                               "(the table: wbl2; wait)")
        if e["inv"] is not None:
            if not inv:
                why.append(f"no buffer_inv {fmt_bits(e['inv'])} at the fence")
            else:
                r = suffix_check(insts, inv[0], e["inv"], from_fence=True)
                if r:
                    why.append(r)
        return ("MISMATCH", "; ".join(why)) if why else ("ok", "")
    want = {"load": "load", "store": "store", "rmw": "atomic", "cmpxchg": "atomic"}[op["kind"]]
    cands = [k for k in at if klass(insts[k]) == want]
    if not cands:
        return "unmapped", f"no {want} instruction at line {op['loc'][0]}:{op['loc'][1]}"
    why = []
    for k in cands:
        ins = insts[k]
        got = bits_of(ins) - {"nt"}
        if op["kind"] in ("rmw", "cmpxchg"):
            got = got - {"sc0"}    # sc0 on an atomic = return the old value
        if not e["bits"] <= got:
            why.append(f"{ins['mn']} {fmt_bits(got)} where {fmt_bits(e['bits'])} is required")
        if e["wbl2"] is not None:
            r = prefix_check(insts, k, e["wbl2"])
            if r:
                why.append(r)
        if e["inv"] is not None:
            r = suffix_check(insts, k, e["inv"])
            if r:
                why.append(r)
    if why:
        return "MISMATCH", "; ".join(dict.fromkeys(why))
    extra = []
    for k in cands:
        got = bits_of(insts[k]) - {"nt"}
        if op["kind"] in ("rmw", "cmpxchg"):
            got -= {"sc0"}
        if got - e["bits"]:
            extra.append(f"{insts[k]['mn']} has {fmt_bits(got - e['bits'])} beyond the table (stronger)")
    return "ok", "; ".join(extra)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ll")
    ap.add_argument("--asm", help="check this assembly instead of compiling the IR")
    ap.add_argument("--llc", default="llc-22")
    ap.add_argument("--mcpu", default="gfx942")
    ap.add_argument("-O", dest="opt", default="2", choices="0123",
                    help="llc's code generation level: the one the IR's producer uses (clang -O1: 1; Triton: 3)")
    ap.add_argument("--name", help="the name printed for the file (default: its path)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the IR instruction too")
    a = ap.parse_args()
    try:
        ops = parse_ir(a.ll)
        if a.asm:
            asm = open(a.asm).read()
        else:
            r = subprocess.run([a.llc, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={a.mcpu}", f"-O{a.opt}", "-o", "-", a.ll],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.stderr.write(r.stderr)
                print(f"{a.ll}: error: {a.llc} failed", file=sys.stderr)
                return 2
            asm = r.stdout
    except OSError as err:
        print(f"isacheck: error: {err}", file=sys.stderr)
        return 2
    funcs = parse_asm(asm)
    per_func = {}
    for op in ops:
        per_func[op["func"]] = per_func.get(op["func"], 0) + 1
    for op in ops:
        op["alone"] = per_func[op["func"]] == 1
    name = a.name or a.ll
    bad = 0
    for op in ops:
        insts = funcs.get(op["func"])
        if insts is None:
            verdict, detail = "unmapped", "function not in the assembly"
        else:
            verdict, detail = check_op(op, insts)
        bad += verdict == "MISMATCH"
        loc = f"{op['loc'][0]}:{op['loc'][1]}" if op["loc"] else "?:?"
        scope = op["scope"] + ("-one-as" if op["one_as"] else "")
        print(f"{name} {op['func']} {loc} {op['kind']} {op['order']} {scope} -> {verdict}"
              + (f": {detail}" if detail else ""))
        if a.verbose:
            print(f"    {op['text']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
