; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: mustprogress nofree norecurse nounwind willreturn
define amdgpu_kernel void @mp_producer(ptr addrspace(1) inreg %0, ptr addrspace(1) inreg %1, ptr addrspace(1) inreg %2, i32 inreg %3, i32 inreg %4, ptr addrspace(1) inreg readonly captures(none) %5, ptr addrspace(1) inreg readnone captures(none) %6, ptr addrspace(1) inreg readnone captures(none) %7) local_unnamed_addr #0 !dbg !4 {
  %9 = tail call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !7
  %10 = shl i32 %9, 6, !dbg !8
  %11 = tail call i32 @llvm.amdgcn.workitem.id.x(), !dbg !9
  %12 = and i32 %11, 63, !dbg !9
  %13 = or disjoint i32 %10, %12, !dbg !10
  %14 = sext i32 %13 to i64, !dbg !11
  %15 = getelementptr i32, ptr addrspace(1) %0, i64 %14, !dbg !11
  %16 = sext i32 %3 to i64, !dbg !12
  %17 = getelementptr i64, ptr addrspace(1) %5, i64 %16, !dbg !12
  %18 = load <1 x i64>, ptr addrspace(1) %17, align 8, !dbg !18
  %19 = extractelement <1 x i64> %18, i64 0, !dbg !18
  %20 = ptrtoint ptr addrspace(1) %15 to i64, !dbg !19
  %21 = sub i64 %20, %19, !dbg !20
  %22 = inttoptr i64 %19 to ptr addrspace(1), !dbg !21
  %23 = getelementptr i8, ptr addrspace(1) %22, i64 %21, !dbg !22
  %24 = load <1 x i32>, ptr addrspace(1) %23, align 4, !dbg !23
  %25 = getelementptr i32, ptr addrspace(1) %1, i64 %14, !dbg !24
  %26 = sext i32 %4 to i64, !dbg !25
  %27 = getelementptr i64, ptr addrspace(1) %5, i64 %26, !dbg !25
  %28 = load <1 x i64>, ptr addrspace(1) %27, align 8, !dbg !28
  %29 = extractelement <1 x i64> %28, i64 0, !dbg !28
  %30 = ptrtoint ptr addrspace(1) %25 to i64, !dbg !29
  %31 = sub i64 %30, %19, !dbg !30
  %32 = inttoptr i64 %29 to ptr addrspace(1), !dbg !31
  %33 = getelementptr i8, ptr addrspace(1) %32, i64 %31, !dbg !32
  store <1 x i32> %24, ptr addrspace(1) %33, align 4, !dbg !33
  fence syncscope("workgroup") release, !dbg !34
  tail call void @llvm.amdgcn.s.barrier(), !dbg !34
  fence syncscope("workgroup") acquire, !dbg !34
  %34 = icmp eq i32 %12, 0, !dbg !35
  br i1 %34, label %35, label %47, !dbg !35

35:                                               ; preds = %8
  %36 = load <1 x i64>, ptr addrspace(1) %27, align 8, !dbg !37
  %37 = extractelement <1 x i64> %36, i64 0, !dbg !37
  %38 = inttoptr i64 %37 to ptr addrspace(1), !dbg !39
  %39 = sext i32 %9 to i64, !dbg !40
  %40 = getelementptr i32, ptr addrspace(1) %2, i64 %39, !dbg !40
  %41 = ptrtoint ptr addrspace(1) %40 to i64, !dbg !41
  %42 = load <1 x i64>, ptr addrspace(1) %17, align 8, !dbg !42
  %43 = extractelement <1 x i64> %42, i64 0, !dbg !42
  %44 = sub i64 %41, %43, !dbg !43
  %45 = getelementptr i8, ptr addrspace(1) %38, i64 %44, !dbg !44
  %46 = cmpxchg ptr addrspace(1) %45, i32 0, i32 1 syncscope("agent") acq_rel monotonic, align 4, !dbg !35
  br label %47, !dbg !35

47:                                               ; preds = %35, %8
  ret void, !dbg !45
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #1

; Function Attrs: convergent mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #2

attributes #0 = { mustprogress nofree norecurse nounwind willreturn "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,64" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "amdgpu-waves-per-eu"="0, 0" "denormal-fp-math-f32"="ieee" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress nocallback nofree nounwind willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernels.py", directory: "/work/main/instrument/triton")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"amdhsa_code_object_version", i32 500}
!4 = distinct !DISubprogram(name: "mp_producer", linkageName: "mp_producer", scope: !1, file: !1, line: 17, type: !5, scopeLine: 17, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{}
!7 = !DILocation(line: 18, column: 24, scope: !4)
!8 = !DILocation(line: 19, column: 17, scope: !4)
!9 = !DILocation(line: 19, column: 38, scope: !4)
!10 = !DILocation(line: 19, column: 25, scope: !4)
!11 = !DILocation(line: 20, column: 24, scope: !4)
!12 = !DILocation(line: 13, column: 37, scope: !13, inlinedAt: !15)
!13 = distinct !DILexicalBlockFile(scope: !4, file: !14, discriminator: 0)
!14 = !DIFile(filename: "iris_device.py", directory: "/work/main/instrument/triton")
!15 = !DILocation(line: 23, column: 54, scope: !13, inlinedAt: !16)
!16 = !DILocation(line: 20, column: 50, scope: !17)
!17 = distinct !DILexicalBlockFile(scope: !4, file: !1, discriminator: 0)
!18 = !DILocation(line: 13, column: 24, scope: !13, inlinedAt: !15)
!19 = !DILocation(line: 15, column: 26, scope: !13, inlinedAt: !15)
!20 = !DILocation(line: 15, column: 39, scope: !13, inlinedAt: !15)
!21 = !DILocation(line: 16, column: 36, scope: !13, inlinedAt: !15)
!22 = !DILocation(line: 17, column: 34, scope: !13, inlinedAt: !15)
!23 = !DILocation(line: 23, column: 19, scope: !13, inlinedAt: !16)
!24 = !DILocation(line: 21, column: 21, scope: !4)
!25 = !DILocation(line: 14, column: 35, scope: !13, inlinedAt: !26)
!26 = !DILocation(line: 28, column: 48, scope: !13, inlinedAt: !27)
!27 = !DILocation(line: 21, column: 51, scope: !17)
!28 = !DILocation(line: 14, column: 22, scope: !13, inlinedAt: !26)
!29 = !DILocation(line: 15, column: 26, scope: !13, inlinedAt: !26)
!30 = !DILocation(line: 15, column: 39, scope: !13, inlinedAt: !26)
!31 = !DILocation(line: 16, column: 36, scope: !13, inlinedAt: !26)
!32 = !DILocation(line: 17, column: 34, scope: !13, inlinedAt: !26)
!33 = !DILocation(line: 28, column: 61, scope: !13, inlinedAt: !27)
!34 = !DILocation(line: 22, column: 4, scope: !4)
!35 = !DILocation(line: 33, column: 78, scope: !13, inlinedAt: !36)
!36 = !DILocation(line: 23, column: 59, scope: !17)
!37 = !DILocation(line: 14, column: 22, scope: !13, inlinedAt: !38)
!38 = !DILocation(line: 33, column: 60, scope: !13, inlinedAt: !36)
!39 = !DILocation(line: 16, column: 36, scope: !13, inlinedAt: !38)
!40 = !DILocation(line: 23, column: 27, scope: !4)
!41 = !DILocation(line: 15, column: 26, scope: !13, inlinedAt: !38)
!42 = !DILocation(line: 13, column: 24, scope: !13, inlinedAt: !38)
!43 = !DILocation(line: 15, column: 39, scope: !13, inlinedAt: !38)
!44 = !DILocation(line: 17, column: 34, scope: !13, inlinedAt: !38)
!45 = !DILocation(line: 23, column: 4, scope: !4)
