; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @mp_consumer(ptr addrspace(1) %0, ptr addrspace(1) %1, i32 %2, ptr addrspace(1) %3, ptr addrspace(1) readnone captures(none) %4, ptr addrspace(1) readnone captures(none) %5) local_unnamed_addr #0 !dbg !4 {
  %7 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7
  %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !8
  %9 = and i32 %8, 31, !dbg !8
  %10 = zext nneg i32 %7 to i64, !dbg !9
  %11 = getelementptr i32, ptr addrspace(1) %1, i64 %10, !dbg !9
  %12 = sext i32 %2 to i64, !dbg !10
  %13 = getelementptr i64, ptr addrspace(1) %3, i64 %12, !dbg !10
  %14 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %13) #3, !dbg !16
  %15 = ptrtoint ptr addrspace(1) %11 to i64, !dbg !17
  %16 = sub i64 %15, %14, !dbg !18
  %17 = inttoptr i64 %14 to ptr addrspace(1), !dbg !19
  %18 = getelementptr i8, ptr addrspace(1) %17, i64 %16, !dbg !20
  %19 = icmp eq i32 %9, 0, !dbg !21
  %20 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acquire.sys.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"(ptr addrspace(1) %18, i32 1, i32 0, i1 %19) #3, !dbg !21
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) @global_smem, i32 %20, i1 %19) #3, !dbg !21
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !21
  %21 = load i32, ptr addrspace(3) @global_smem, align 16, !dbg !22
  %22 = icmp eq i32 %21, 0, !dbg !24
  br i1 %22, label %.lr.ph, label %._crit_edge, !dbg !24

.lr.ph:                                           ; preds = %6, %.lr.ph
  %23 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %13) #3, !dbg !25
  %24 = sub i64 %15, %23, !dbg !28
  %25 = inttoptr i64 %23 to ptr addrspace(1), !dbg !29
  %26 = getelementptr i8, ptr addrspace(1) %25, i64 %24, !dbg !30
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
  %27 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acquire.sys.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"(ptr addrspace(1) %26, i32 1, i32 0, i1 %19) #3, !dbg !31
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) @global_smem, i32 %27, i1 %19) #3, !dbg !31
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
  %28 = load i32, ptr addrspace(3) @global_smem, align 16, !dbg !22
  %29 = icmp eq i32 %28, 0, !dbg !24
  br i1 %29, label %.lr.ph, label %._crit_edge, !dbg !24

._crit_edge:                                      ; preds = %.lr.ph, %6
  %30 = shl i32 %7, 6, !dbg !32
  %31 = or disjoint i32 %9, %30, !dbg !33
  %32 = sext i32 %31 to i64, !dbg !34
  %33 = getelementptr i32, ptr addrspace(1) %0, i64 %32, !dbg !34
  %34 = getelementptr i8, ptr addrspace(1) %33, i64 128, !dbg !34
  %35 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %13) #3, !dbg !35
  %36 = ptrtoint ptr addrspace(1) %33 to i64, !dbg !38
  %37 = ptrtoint ptr addrspace(1) %34 to i64, !dbg !38
  %38 = sub i64 %36, %35, !dbg !39
  %39 = sub i64 %37, %35, !dbg !39
  %40 = inttoptr i64 %35 to ptr addrspace(1), !dbg !40
  %41 = getelementptr i8, ptr addrspace(1) %40, i64 %38, !dbg !41
  %42 = getelementptr i8, ptr addrspace(1) %40, i64 %39, !dbg !41
  %43 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %41) #3, !dbg !42
  %44 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %42) #3, !dbg !42
  %45 = shl i32 %43, 1, !dbg !43
  %46 = shl i32 %44, 1, !dbg !43
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %45, ptr addrspace(1) %41) #3, !dbg !44
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %46, ptr addrspace(1) %42) #3, !dbg !44
  ret void, !dbg !46
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

attributes #0 = { nounwind "nvvm.reqntid"="32" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernels.py", directory: "/work/main/instrument/triton")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "mp_consumer", linkageName: "mp_consumer", scope: !1, file: !1, line: 50, type: !5, scopeLine: 50, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{}
!7 = !DILocation(line: 51, column: 24, scope: !4)
!8 = !DILocation(line: 52, column: 38, scope: !4)
!9 = !DILocation(line: 53, column: 34, scope: !4)
!10 = !DILocation(line: 13, column: 37, scope: !11, inlinedAt: !13)
!11 = distinct !DILexicalBlockFile(scope: !4, file: !12, discriminator: 0)
!12 = !DIFile(filename: "iris_device.py", directory: "/work/main/instrument/triton")
!13 = !DILocation(line: 33, column: 60, scope: !11, inlinedAt: !14)
!14 = !DILocation(line: 53, column: 65, scope: !15)
!15 = distinct !DILexicalBlockFile(scope: !4, file: !1, discriminator: 0)
!16 = !DILocation(line: 13, column: 24, scope: !11, inlinedAt: !13)
!17 = !DILocation(line: 15, column: 26, scope: !11, inlinedAt: !13)
!18 = !DILocation(line: 15, column: 39, scope: !11, inlinedAt: !13)
!19 = !DILocation(line: 16, column: 36, scope: !11, inlinedAt: !13)
!20 = !DILocation(line: 17, column: 34, scope: !11, inlinedAt: !13)
!21 = !DILocation(line: 33, column: 78, scope: !11, inlinedAt: !14)
!22 = !DILocation(line: 33, column: 78, scope: !11, inlinedAt: !23)
!23 = !DILocation(line: 0, scope: !15)
!24 = !DILocation(line: 54, column: 18, scope: !4)
!25 = !DILocation(line: 13, column: 24, scope: !11, inlinedAt: !26)
!26 = !DILocation(line: 33, column: 60, scope: !11, inlinedAt: !27)
!27 = !DILocation(line: 55, column: 69, scope: !15)
!28 = !DILocation(line: 15, column: 39, scope: !11, inlinedAt: !26)
!29 = !DILocation(line: 16, column: 36, scope: !11, inlinedAt: !26)
!30 = !DILocation(line: 17, column: 34, scope: !11, inlinedAt: !26)
!31 = !DILocation(line: 33, column: 78, scope: !11, inlinedAt: !27)
!32 = !DILocation(line: 52, column: 17, scope: !4)
!33 = !DILocation(line: 52, column: 25, scope: !4)
!34 = !DILocation(line: 56, column: 24, scope: !4)
!35 = !DILocation(line: 13, column: 24, scope: !11, inlinedAt: !36)
!36 = !DILocation(line: 23, column: 54, scope: !11, inlinedAt: !37)
!37 = !DILocation(line: 56, column: 50, scope: !15)
!38 = !DILocation(line: 15, column: 26, scope: !11, inlinedAt: !36)
!39 = !DILocation(line: 15, column: 39, scope: !11, inlinedAt: !36)
!40 = !DILocation(line: 16, column: 36, scope: !11, inlinedAt: !36)
!41 = !DILocation(line: 17, column: 34, scope: !11, inlinedAt: !36)
!42 = !DILocation(line: 23, column: 19, scope: !11, inlinedAt: !37)
!43 = !DILocation(line: 57, column: 31, scope: !4)
!44 = !DILocation(line: 28, column: 61, scope: !11, inlinedAt: !45)
!45 = !DILocation(line: 57, column: 54, scope: !15)
!46 = !DILocation(line: 57, column: 4, scope: !4)
