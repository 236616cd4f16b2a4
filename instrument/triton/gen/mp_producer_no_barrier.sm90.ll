; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

; Function Attrs: nounwind
define ptx_kernel void @mp_producer_no_barrier(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3, i32 %4, ptr addrspace(1) %5, ptr addrspace(1) readnone captures(none) %6, ptr addrspace(1) readnone captures(none) %7) local_unnamed_addr #0 !dbg !4 {
  %9 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7
  %10 = shl i32 %9, 6, !dbg !8
  %11 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %12 = and i32 %11, 31, !dbg !9
  %13 = or disjoint i32 %10, %12, !dbg !10
  %14 = or disjoint i32 %13, 32, !dbg !10
  %15 = sext i32 %13 to i64, !dbg !11
  %16 = getelementptr i32, ptr addrspace(1) %0, i64 %15, !dbg !11
  %17 = sext i32 %14 to i64, !dbg !11
  %18 = getelementptr i32, ptr addrspace(1) %0, i64 %17, !dbg !11
  %19 = sext i32 %3 to i64, !dbg !12
  %20 = getelementptr i64, ptr addrspace(1) %5, i64 %19, !dbg !12
  %21 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %20) #2, !dbg !18
  %22 = ptrtoint ptr addrspace(1) %16 to i64, !dbg !19
  %23 = ptrtoint ptr addrspace(1) %18 to i64, !dbg !19
  %24 = sub i64 %22, %21, !dbg !20
  %25 = sub i64 %23, %21, !dbg !20
  %26 = inttoptr i64 %21 to ptr addrspace(1), !dbg !21
  %27 = getelementptr i8, ptr addrspace(1) %26, i64 %24, !dbg !22
  %28 = getelementptr i8, ptr addrspace(1) %26, i64 %25, !dbg !22
  %29 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %27) #2, !dbg !23
  %30 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %28) #2, !dbg !23
  %31 = getelementptr i32, ptr addrspace(1) %1, i64 %15, !dbg !24
  %32 = getelementptr i32, ptr addrspace(1) %1, i64 %17, !dbg !24
  %33 = sext i32 %4 to i64, !dbg !25
  %34 = getelementptr i64, ptr addrspace(1) %5, i64 %33, !dbg !25
  %35 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %34) #2, !dbg !28
  %36 = ptrtoint ptr addrspace(1) %31 to i64, !dbg !29
  %37 = ptrtoint ptr addrspace(1) %32 to i64, !dbg !29
  %38 = sub i64 %36, %21, !dbg !30
  %39 = sub i64 %37, %21, !dbg !30
  %40 = inttoptr i64 %35 to ptr addrspace(1), !dbg !31
  %41 = getelementptr i8, ptr addrspace(1) %40, i64 %38, !dbg !32
  %42 = getelementptr i8, ptr addrspace(1) %40, i64 %39, !dbg !32
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %29, ptr addrspace(1) %41) #2, !dbg !33
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %30, ptr addrspace(1) %42) #2, !dbg !33
  %43 = zext nneg i32 %9 to i64, !dbg !34
  %44 = getelementptr i32, ptr addrspace(1) %2, i64 %43, !dbg !34
  %45 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %20) #2, !dbg !35
  %46 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %34) #2, !dbg !38
  %47 = ptrtoint ptr addrspace(1) %44 to i64, !dbg !39
  %48 = sub i64 %47, %45, !dbg !40
  %49 = inttoptr i64 %46 to ptr addrspace(1), !dbg !41
  %50 = getelementptr i8, ptr addrspace(1) %49, i64 %48, !dbg !42
  %51 = icmp eq i32 %12, 0, !dbg !43
  %52 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$4 atom.global.release.sys.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"(ptr addrspace(1) %50, i32 0, i32 1, i1 %51) #2, !dbg !43
  ret void, !dbg !44
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { nounwind "nvvm.reqntid"="32" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernels.py", directory: "/work/main/instrument/triton")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "mp_producer_no_barrier", linkageName: "mp_producer_no_barrier", scope: !1, file: !1, line: 28, type: !5, scopeLine: 28, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{}
!7 = !DILocation(line: 29, column: 24, scope: !4)
!8 = !DILocation(line: 30, column: 17, scope: !4)
!9 = !DILocation(line: 30, column: 38, scope: !4)
!10 = !DILocation(line: 30, column: 25, scope: !4)
!11 = !DILocation(line: 31, column: 24, scope: !4)
!12 = !DILocation(line: 13, column: 37, scope: !13, inlinedAt: !15)
!13 = distinct !DILexicalBlockFile(scope: !4, file: !14, discriminator: 0)
!14 = !DIFile(filename: "iris_device.py", directory: "/work/main/instrument/triton")
!15 = !DILocation(line: 23, column: 54, scope: !13, inlinedAt: !16)
!16 = !DILocation(line: 31, column: 50, scope: !17)
!17 = distinct !DILexicalBlockFile(scope: !4, file: !1, discriminator: 0)
!18 = !DILocation(line: 13, column: 24, scope: !13, inlinedAt: !15)
!19 = !DILocation(line: 15, column: 26, scope: !13, inlinedAt: !15)
!20 = !DILocation(line: 15, column: 39, scope: !13, inlinedAt: !15)
!21 = !DILocation(line: 16, column: 36, scope: !13, inlinedAt: !15)
!22 = !DILocation(line: 17, column: 34, scope: !13, inlinedAt: !15)
!23 = !DILocation(line: 23, column: 19, scope: !13, inlinedAt: !16)
!24 = !DILocation(line: 32, column: 21, scope: !4)
!25 = !DILocation(line: 14, column: 35, scope: !13, inlinedAt: !26)
!26 = !DILocation(line: 28, column: 48, scope: !13, inlinedAt: !27)
!27 = !DILocation(line: 32, column: 51, scope: !17)
!28 = !DILocation(line: 14, column: 22, scope: !13, inlinedAt: !26)
!29 = !DILocation(line: 15, column: 26, scope: !13, inlinedAt: !26)
!30 = !DILocation(line: 15, column: 39, scope: !13, inlinedAt: !26)
!31 = !DILocation(line: 16, column: 36, scope: !13, inlinedAt: !26)
!32 = !DILocation(line: 17, column: 34, scope: !13, inlinedAt: !26)
!33 = !DILocation(line: 28, column: 61, scope: !13, inlinedAt: !27)
!34 = !DILocation(line: 33, column: 27, scope: !4)
!35 = !DILocation(line: 13, column: 24, scope: !13, inlinedAt: !36)
!36 = !DILocation(line: 33, column: 60, scope: !13, inlinedAt: !37)
!37 = !DILocation(line: 33, column: 59, scope: !17)
!38 = !DILocation(line: 14, column: 22, scope: !13, inlinedAt: !36)
!39 = !DILocation(line: 15, column: 26, scope: !13, inlinedAt: !36)
!40 = !DILocation(line: 15, column: 39, scope: !13, inlinedAt: !36)
!41 = !DILocation(line: 16, column: 36, scope: !13, inlinedAt: !36)
!42 = !DILocation(line: 17, column: 34, scope: !13, inlinedAt: !36)
!43 = !DILocation(line: 33, column: 78, scope: !13, inlinedAt: !37)
!44 = !DILocation(line: 33, column: 4, scope: !4)
