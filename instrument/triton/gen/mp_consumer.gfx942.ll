; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@global_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define amdgpu_kernel void @mp_consumer(ptr addrspace(1) inreg %0, ptr addrspace(1) inreg %1, i32 inreg %2, ptr addrspace(1) inreg readonly captures(none) %3, ptr addrspace(1) inreg readnone captures(none) %4, ptr addrspace(1) inreg readnone captures(none) %5) local_unnamed_addr #0 !dbg !4 {
  %7 = tail call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !7
  %8 = tail call i32 @llvm.amdgcn.workitem.id.x(), !dbg !8
  %9 = and i32 %8, 63, !dbg !8
  %10 = sext i32 %7 to i64, !dbg !9
  %11 = getelementptr i32, ptr addrspace(1) %1, i64 %10, !dbg !9
  %12 = sext i32 %2 to i64, !dbg !10
  %13 = getelementptr i64, ptr addrspace(1) %3, i64 %12, !dbg !10
  %14 = load <1 x i64>, ptr addrspace(1) %13, align 8, !dbg !16
  %15 = extractelement <1 x i64> %14, i64 0, !dbg !16
  %16 = ptrtoint ptr addrspace(1) %11 to i64, !dbg !17
  %17 = sub i64 %16, %15, !dbg !18
  %18 = inttoptr i64 %15 to ptr addrspace(1), !dbg !19
  %19 = getelementptr i8, ptr addrspace(1) %18, i64 %17, !dbg !20
  %20 = icmp eq i32 %9, 0, !dbg !21
  br i1 %20, label %25, label %.preheader.preheader, !dbg !21

.loopexit:                                        ; preds = %31
  %21 = extractelement <1 x i64> %32, i64 0
  %22 = sub i64 %16, %21
  %23 = inttoptr i64 %21 to ptr addrspace(1)
  %24 = getelementptr i8, ptr addrspace(1) %23, i64 %22
  br label %25, !dbg !21

25:                                               ; preds = %.loopexit, %6
  %26 = phi ptr addrspace(1) [ %19, %6 ], [ %24, %.loopexit ], !dbg !20
  %27 = cmpxchg ptr addrspace(1) %26, i32 1, i32 0 syncscope("agent") acq_rel monotonic, align 4, !dbg !21
  %28 = extractvalue { i32, i1 } %27, 0, !dbg !21
  store i32 %28, ptr addrspace(3) @global_smem, align 16, !dbg !21
  br label %.preheader.preheader, !dbg !21

.preheader.preheader:                             ; preds = %6, %25
  br label %.preheader, !dbg !22

.preheader:                                       ; preds = %.preheader.preheader, %31
  tail call void asm sideeffect "s_waitcnt lgkmcnt(0) ", ""() #4, !dbg !21
  fence syncscope("workgroup") release, !dbg !21
  tail call void @llvm.amdgcn.s.barrier(), !dbg !21
  fence syncscope("workgroup") acquire, !dbg !21
  %29 = load i32, ptr addrspace(3) @global_smem, align 16, !dbg !21
  %30 = icmp eq i32 %29, 0, !dbg !22
  br i1 %30, label %31, label %33, !dbg !22

31:                                               ; preds = %.preheader
  %32 = load <1 x i64>, ptr addrspace(1) %13, align 8, !dbg !23
  tail call void @llvm.amdgcn.s.waitcnt(i32 49279), !dbg !26
  tail call void @llvm.amdgcn.s.barrier(), !dbg !26
  br i1 %20, label %.loopexit, label %.preheader, !dbg !26

33:                                               ; preds = %.preheader
  %34 = shl i32 %7, 6, !dbg !27
  %35 = or disjoint i32 %34, %9, !dbg !28
  %36 = sext i32 %35 to i64, !dbg !29
  %37 = getelementptr i32, ptr addrspace(1) %0, i64 %36, !dbg !29
  %38 = load <1 x i64>, ptr addrspace(1) %13, align 8, !dbg !30
  %39 = extractelement <1 x i64> %38, i64 0, !dbg !30
  %40 = ptrtoint ptr addrspace(1) %37 to i64, !dbg !33
  %41 = sub i64 %40, %39, !dbg !34
  %42 = inttoptr i64 %39 to ptr addrspace(1), !dbg !35
  %43 = getelementptr i8, ptr addrspace(1) %42, i64 %41, !dbg !36
  %44 = load <1 x i32>, ptr addrspace(1) %43, align 4, !dbg !37
  %45 = extractelement <1 x i32> %44, i64 0, !dbg !37
  %46 = shl i32 %45, 1, !dbg !38
  %47 = insertelement <1 x i32> poison, i32 %46, i64 0, !dbg !39
  store <1 x i32> %47, ptr addrspace(1) %43, align 4, !dbg !39
  ret void, !dbg !41
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #1

; Function Attrs: convergent mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.waitcnt(i32 immarg) #3

attributes #0 = { nounwind "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,64" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "amdgpu-waves-per-eu"="0, 0" "denormal-fp-math-f32"="ieee" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress nocallback nofree nounwind willreturn }
attributes #3 = { mustprogress nocallback nofree nounwind willreturn }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernels.py", directory: "/work/main/instrument/triton")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"amdhsa_code_object_version", i32 500}
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
!22 = !DILocation(line: 54, column: 18, scope: !4)
!23 = !DILocation(line: 13, column: 24, scope: !11, inlinedAt: !24)
!24 = !DILocation(line: 33, column: 60, scope: !11, inlinedAt: !25)
!25 = !DILocation(line: 55, column: 69, scope: !15)
!26 = !DILocation(line: 33, column: 78, scope: !11, inlinedAt: !25)
!27 = !DILocation(line: 52, column: 17, scope: !4)
!28 = !DILocation(line: 52, column: 25, scope: !4)
!29 = !DILocation(line: 56, column: 24, scope: !4)
!30 = !DILocation(line: 13, column: 24, scope: !11, inlinedAt: !31)
!31 = !DILocation(line: 23, column: 54, scope: !11, inlinedAt: !32)
!32 = !DILocation(line: 56, column: 50, scope: !15)
!33 = !DILocation(line: 15, column: 26, scope: !11, inlinedAt: !31)
!34 = !DILocation(line: 15, column: 39, scope: !11, inlinedAt: !31)
!35 = !DILocation(line: 16, column: 36, scope: !11, inlinedAt: !31)
!36 = !DILocation(line: 17, column: 34, scope: !11, inlinedAt: !31)
!37 = !DILocation(line: 23, column: 19, scope: !11, inlinedAt: !32)
!38 = !DILocation(line: 57, column: 31, scope: !4)
!39 = !DILocation(line: 28, column: 61, scope: !11, inlinedAt: !40)
!40 = !DILocation(line: 57, column: 54, scope: !15)
!41 = !DILocation(line: 57, column: 4, scope: !4)
