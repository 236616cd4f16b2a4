#!/usr/bin/env python3
"""Writes an LLVM IR module with one gfx942 kernel per (operation, ordering,
syncscope) that the AMDGPU memory-model table covers, so that isacheck.py can
check LLVM's code generator against the whole table, not only against the
combinations the example kernels happen to use:

    table.py > table.ll && isacheck.py table.ll

Each kernel does its one atomic or fence on a global pointer; `_after_store`
kernels store to another global location first (an outstanding store is what
makes an s_waitcnt vmcnt(0) appear in a release sequence whether or not the
buffer_wbl2 itself is waited for)."""
SCOPES = {"wavefront": 'syncscope("wavefront") ', "workgroup": 'syncscope("workgroup") ',
          "agent": 'syncscope("agent") ', "system": "",
          "agent_one_as": 'syncscope("agent-one-as") ', "system_one_as": 'syncscope("one-as") '}
OPS = {
    "load": ["monotonic", "acquire", "seq_cst"],
    "store": ["monotonic", "release", "seq_cst"],
    "rmw": ["monotonic", "acquire", "release", "acq_rel", "seq_cst"],
    "cmpxchg": ["monotonic", "acquire", "release", "acq_rel", "seq_cst"],
    "fence": ["acquire", "release", "acq_rel", "seq_cst"],
}


def body(op, order, sc):
    if op == "load":
        return [f"%v = load atomic i32, ptr addrspace(1) %p {sc}{order}, align 4",
                "store i32 %v, ptr addrspace(1) %q, align 4"]
    if op == "store":
        return [f"store atomic i32 1, ptr addrspace(1) %p {sc}{order}, align 4"]
    if op == "rmw":
        return [f"%v = atomicrmw add ptr addrspace(1) %p, i32 1 {sc}{order}, align 4",
                "store i32 %v, ptr addrspace(1) %q, align 4"]
    if op == "cmpxchg":
        fail = {"release": "monotonic", "acq_rel": "acquire"}.get(order, order)
        return [f"%r = cmpxchg ptr addrspace(1) %p, i32 0, i32 1 {sc}{order} {fail}, align 4",
                "%v = extractvalue { i32, i1 } %r, 0",
                "store i32 %v, ptr addrspace(1) %q, align 4"]
    return [f"fence {sc}{order}",
            "store i32 1, ptr addrspace(1) %q, align 4"]   # something for the fence to order


# Debug locations let isacheck.py tell the atomic (column 1 of line N) from the
# plain store before it (column 2).
print('target triple = "amdgcn-amd-amdhsa"\n')
meta = ['!llvm.dbg.cu = !{!0}', '!llvm.module.flags = !{!1}',
        '!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, producer: "table.py", '
        'isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)',
        '!1 = !{i32 2, !"Debug Info Version", i32 3}',
        '!2 = !DIFile(filename: "table.ll", directory: ".")',
        '!3 = !DISubroutineType(types: !{})']
n = 0
for op, orders in OPS.items():
    for order in orders:
        for scope, sc in SCOPES.items():
            for pre in ("", "_after_store"):
                if pre and not (order in ("release", "acq_rel", "seq_cst")):
                    continue
                n += 1
                sp, l1, l2 = 10 + 3 * n, 11 + 3 * n, 12 + 3 * n
                name = f"{op}_{order}_{scope}{pre}"
                print(f"define amdgpu_kernel void @{name}"
                      f"(ptr addrspace(1) %p, ptr addrspace(1) %q) !dbg !{sp} {{")
                if pre:
                    print(f"  store i32 7, ptr addrspace(1) %q, align 4, !dbg !{l2}")
                for line in body(op, order, sc):
                    print(f"  {line}, !dbg !{l1}")
                print(f"  ret void, !dbg !{l1}\n}}\n")
                meta.append(f'!{sp} = distinct !DISubprogram(name: "{name}", scope: !2, file: !2, '
                            f'line: {n}, type: !3, scopeLine: {n}, spFlags: DISPFlagDefinition | '
                            'DISPFlagOptimized, unit: !0)')
                meta.append(f"!{l1} = !DILocation(line: {n}, column: 1, scope: !{sp})")
                meta.append(f"!{l2} = !DILocation(line: {n}, column: 2, scope: !{sp})")
print("\n".join(meta))
