; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @allreduce_one_shot(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3, ptr addrspace(1) %4, ptr addrspace(1) readnone captures(none) %5, ptr addrspace(1) readnone captures(none) %6) local_unnamed_addr #0 !dbg !4 {
  %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7
  %9 = shl i32 %8, 6, !dbg !8
  %10 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %11 = and i32 %10, 31, !dbg !9
  %12 = or disjoint i32 %9, %11, !dbg !10
  %13 = or disjoint i32 %12, 32, !dbg !10
  %14 = sext i32 %12 to i64, !dbg !11
  %15 = getelementptr i32, ptr addrspace(1) %0, i64 %14, !dbg !11
  %16 = sext i32 %13 to i64, !dbg !11
  %17 = getelementptr i32, ptr addrspace(1) %0, i64 %16, !dbg !11
  %18 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %15) #3, !dbg !12
  %19 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %17) #3, !dbg !12
  %20 = add i32 %3, 1, !dbg !13
  %21 = add i32 %20, %18, !dbg !14
  %22 = add i32 %20, %19, !dbg !14
  %23 = sext i32 %3 to i64, !dbg !15
  %24 = getelementptr i64, ptr addrspace(1) %4, i64 %23, !dbg !15
  %25 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %24) #3, !dbg !21
  %26 = ptrtoint ptr addrspace(1) %15 to i64, !dbg !22
  %27 = ptrtoint ptr addrspace(1) %17 to i64, !dbg !22
  %28 = sub i64 %26, %25, !dbg !23
  %29 = sub i64 %27, %25, !dbg !23
  %30 = inttoptr i64 %25 to ptr addrspace(1), !dbg !24
  %31 = getelementptr i8, ptr addrspace(1) %30, i64 %28, !dbg !25
  %32 = getelementptr i8, ptr addrspace(1) %30, i64 %29, !dbg !25
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %21, ptr addrspace(1) %31) #3, !dbg !26
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %22, ptr addrspace(1) %32) #3, !dbg !26
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !27
  %cond = icmp eq i32 %3, 0, !dbg !28
  %.pre = zext nneg i32 %8 to i64, !dbg !29
  br i1 %cond, label %._crit_edge2, label %33, !dbg !28

33:                                               ; preds = %7
  %34 = getelementptr i32, ptr addrspace(1) %2, i64 %.pre, !dbg !29
  %35 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %24) #3, !dbg !30
  %36 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %4) #3, !dbg !33
  %37 = ptrtoint ptr addrspace(1) %34 to i64, !dbg !34
  %38 = sub i64 %37, %35, !dbg !35
  %39 = inttoptr i64 %36 to ptr addrspace(1), !dbg !36
  %40 = getelementptr i8, ptr addrspace(1) %39, i64 %38, !dbg !37
  %41 = icmp eq i32 %11, 0, !dbg !38
  %42 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$3 atom.global.sys.release.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"(ptr addrspace(1) %40, i32 1, i1 %41) #3, !dbg !38
  %.not = icmp eq i32 %3, 1, !dbg !39
  br i1 %.not, label %53, label %._crit_edge2, !dbg !28

._crit_edge2:                                     ; preds = %7, %33
  %43 = getelementptr i32, ptr addrspace(1) %2, i64 %.pre, !dbg !29
  %44 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %24) #3, !dbg !30
  %45 = getelementptr i8, ptr addrspace(1) %4, i64 8, !dbg !40
  %46 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %45) #3, !dbg !33
  %47 = ptrtoint ptr addrspace(1) %43 to i64, !dbg !34
  %48 = sub i64 %47, %44, !dbg !35
  %49 = inttoptr i64 %46 to ptr addrspace(1), !dbg !36
  %50 = getelementptr i8, ptr addrspace(1) %49, i64 %48, !dbg !37
  %51 = icmp eq i32 %11, 0, !dbg !38
  %52 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$3 atom.global.sys.release.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"(ptr addrspace(1) %50, i32 1, i1 %51) #3, !dbg !38
  br label %53, !dbg !28

53:                                               ; preds = %._crit_edge2, %33
  %.pre-phi1 = phi i64 [ %47, %._crit_edge2 ], [ %37, %33 ], !dbg !41
  %54 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %24) #3, !dbg !44
  %55 = sub i64 %.pre-phi1, %54, !dbg !45
  %56 = inttoptr i64 %54 to ptr addrspace(1), !dbg !46
  %57 = getelementptr i8, ptr addrspace(1) %56, i64 %55, !dbg !47
  %58 = icmp eq i32 %11, 0, !dbg !48
  %59 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acquire.sys.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"(ptr addrspace(1) %57, i32 1, i32 0, i1 %58) #3, !dbg !48
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) @global_smem, i32 %59, i1 %58) #3, !dbg !48
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !48
  %60 = load i32, ptr addrspace(3) @global_smem, align 16, !dbg !49
  %61 = icmp slt i32 %60, 1, !dbg !51
  br i1 %61, label %.lr.ph, label %._crit_edge, !dbg !51

.lr.ph:                                           ; preds = %53, %.lr.ph
  %62 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %24) #3, !dbg !52
  %63 = sub i64 %.pre-phi1, %62, !dbg !55
  %64 = inttoptr i64 %62 to ptr addrspace(1), !dbg !56
  %65 = getelementptr i8, ptr addrspace(1) %64, i64 %63, !dbg !57
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !58
  %66 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acquire.sys.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"(ptr addrspace(1) %65, i32 1, i32 0, i1 %58) #3, !dbg !58
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) @global_smem, i32 %66, i1 %58) #3, !dbg !58
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !58
  %67 = load i32, ptr addrspace(3) @global_smem, align 16, !dbg !49
  %68 = icmp slt i32 %67, 1, !dbg !51
  br i1 %68, label %.lr.ph, label %._crit_edge, !dbg !51

._crit_edge:                                      ; preds = %.lr.ph, %53
  %69 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %24) #3, !dbg !59
  %70 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %4) #3, !dbg !62
  %71 = sub i64 %26, %69, !dbg !63
  %72 = sub i64 %27, %69, !dbg !63
  %73 = inttoptr i64 %70 to ptr addrspace(1), !dbg !64
  %74 = getelementptr i8, ptr addrspace(1) %73, i64 %71, !dbg !65
  %75 = getelementptr i8, ptr addrspace(1) %73, i64 %72, !dbg !65
  %76 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %74) #3, !dbg !66
  %77 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %75) #3, !dbg !66
  %78 = getelementptr i8, ptr addrspace(1) %4, i64 8, !dbg !67
  %79 = tail call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09ld.global.b64 { $0 }, [ $1 + 0 ];", "=l,l"(ptr addrspace(1) %78) #3, !dbg !62
  %80 = inttoptr i64 %79 to ptr addrspace(1), !dbg !64
  %81 = getelementptr i8, ptr addrspace(1) %80, i64 %71, !dbg !65
  %82 = getelementptr i8, ptr addrspace(1) %80, i64 %72, !dbg !65
  %83 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %81) #3, !dbg !66
  %84 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(1) %82) #3, !dbg !66
  %85 = add i32 %83, %76, !dbg !68
  %86 = add i32 %84, %77, !dbg !68
  %87 = getelementptr i32, ptr addrspace(1) %1, i64 %14, !dbg !69
  %88 = getelementptr i32, ptr addrspace(1) %1, i64 %16, !dbg !69
  tail call void asm sideeffect "st.global.wt.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %85, ptr addrspace(1) %87) #3, !dbg !70
  tail call void asm sideeffect "st.global.wt.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %86, ptr addrspace(1) %88) #3, !dbg !70
  ret void, !dbg !71
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
!4 = distinct !DISubprogram(name: "allreduce_one_shot", linkageName: "allreduce_one_shot", scope: !1, file: !1, line: 66, type: !5, scopeLine: 66, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{}
!7 = !DILocation(line: 68, column: 24, scope: !4)
!8 = !DILocation(line: 69, column: 17, scope: !4)
!9 = !DILocation(line: 69, column: 38, scope: !4)
!10 = !DILocation(line: 69, column: 25, scope: !4)
!11 = !DILocation(line: 70, column: 26, scope: !4)
!12 = !DILocation(line: 70, column: 16, scope: !4)
!13 = !DILocation(line: 70, column: 34, scope: !4)
!14 = !DILocation(line: 70, column: 45, scope: !4)
!15 = !DILocation(line: 13, column: 37, scope: !16, inlinedAt: !18)
!16 = distinct !DILexicalBlockFile(scope: !4, file: !17, discriminator: 0)
!17 = !DIFile(filename: "iris_device.py", directory: "/work/main/instrument/triton")
!18 = !DILocation(line: 28, column: 48, scope: !16, inlinedAt: !19)
!19 = !DILocation(line: 71, column: 54, scope: !20)
!20 = distinct !DILexicalBlockFile(scope: !4, file: !1, discriminator: 0)
!21 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !18)
!22 = !DILocation(line: 15, column: 26, scope: !16, inlinedAt: !18)
!23 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !18)
!24 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !18)
!25 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !18)
!26 = !DILocation(line: 28, column: 61, scope: !16, inlinedAt: !19)
!27 = !DILocation(line: 73, column: 8, scope: !4)
!28 = !DILocation(line: 75, column: 11, scope: !4)
!29 = !DILocation(line: 76, column: 45, scope: !4)
!30 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !31)
!31 = !DILocation(line: 38, column: 60, scope: !16, inlinedAt: !32)
!32 = !DILocation(line: 76, column: 66, scope: !20)
!33 = !DILocation(line: 14, column: 22, scope: !16, inlinedAt: !31)
!34 = !DILocation(line: 15, column: 26, scope: !16, inlinedAt: !31)
!35 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !31)
!36 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !31)
!37 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !31)
!38 = !DILocation(line: 38, column: 73, scope: !16, inlinedAt: !32)
!39 = !DILocation(line: 75, column: 16, scope: !4)
!40 = !DILocation(line: 14, column: 35, scope: !16, inlinedAt: !31)
!41 = !DILocation(line: 15, column: 26, scope: !16, inlinedAt: !42)
!42 = !DILocation(line: 33, column: 60, scope: !16, inlinedAt: !43)
!43 = !DILocation(line: 77, column: 82, scope: !20)
!44 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !42)
!45 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !42)
!46 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !42)
!47 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !42)
!48 = !DILocation(line: 33, column: 78, scope: !16, inlinedAt: !43)
!49 = !DILocation(line: 33, column: 78, scope: !16, inlinedAt: !50)
!50 = !DILocation(line: 0, scope: !20)
!51 = !DILocation(line: 79, column: 16, scope: !4)
!52 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !53)
!53 = !DILocation(line: 33, column: 60, scope: !16, inlinedAt: !54)
!54 = !DILocation(line: 80, column: 86, scope: !20)
!55 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !53)
!56 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !53)
!57 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !53)
!58 = !DILocation(line: 33, column: 78, scope: !16, inlinedAt: !54)
!59 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !60)
!60 = !DILocation(line: 23, column: 54, scope: !16, inlinedAt: !61)
!61 = !DILocation(line: 84, column: 54, scope: !20)
!62 = !DILocation(line: 14, column: 22, scope: !16, inlinedAt: !60)
!63 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !60)
!64 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !60)
!65 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !60)
!66 = !DILocation(line: 23, column: 19, scope: !16, inlinedAt: !61)
!67 = !DILocation(line: 14, column: 35, scope: !16, inlinedAt: !60)
!68 = !DILocation(line: 84, column: 15, scope: !4)
!69 = !DILocation(line: 85, column: 22, scope: !4)
!70 = !DILocation(line: 85, column: 28, scope: !4)
!71 = !DILocation(line: 85, column: 4, scope: !4)
